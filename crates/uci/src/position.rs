//! `position startpos|fen <fen> [moves <m>...]`, read all or nothing.

use crate::command::clip;
use movegen::{CastlingMode, FenError, Game, MoveError, Position};
use std::fmt;

/// Why a `position` command was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Neither `startpos` nor `fen` follows.
    Missing,
    /// Words after `startpos` other than `moves ...`.
    AfterStartpos,
    /// Some other word where `startpos` or `fen` belongs (clipped).
    Kind(String),
    /// The FEN was rejected.
    Fen(FenError),
    /// Move `index` (from 1), `text`, is not a legal move where it is played.
    Move {
        /// Its place in the list, from 1.
        index: usize,
        /// The text given (clipped).
        text: String,
        /// What is wrong with it.
        error: MoveError,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Missing => f.write_str("expected 'startpos' or 'fen'"),
            PositionError::AfterStartpos => {
                f.write_str("unexpected text after 'startpos' (missing 'moves'?)")
            }
            PositionError::Kind(word) => write!(f, "expected 'startpos' or 'fen', got '{word}'"),
            PositionError::Fen(e) => write!(f, "invalid FEN: {e}"),
            PositionError::Move { index, text, error } => {
                write!(f, "move {index} '{text}' is {error}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// The game the tokens after `position` describe: the start position and
/// the moves played from it.
///
/// # Errors
/// [`PositionError`] naming the first thing that was wrong.
pub fn parse_position(tokens: &[String], mode: CastlingMode) -> Result<Game, PositionError> {
    let moves_at = tokens.iter().position(|t| t == "moves");
    let setup = &tokens[..moves_at.unwrap_or(tokens.len())];
    let start = match setup.split_first() {
        Some((kind, rest)) if kind == "startpos" && rest.is_empty() => Position::startpos(),
        Some((kind, _)) if kind == "startpos" => return Err(PositionError::AfterStartpos),
        Some((kind, fen)) if kind == "fen" => {
            Position::from_fen(&fen.join(" ")).map_err(PositionError::Fen)?
        }
        Some((other, _)) => return Err(PositionError::Kind(clip(other))),
        None => return Err(PositionError::Missing),
    };
    // The GUI's `UCI_Chess960` chooses the notation, as in Stockfish, unless
    // the castling rights can only be written in Chess960's.
    let start = start.with_castling_mode(mode).unwrap_or(start);
    let mut game = Game::new(start);
    let moves = moves_at.map_or(&[][..], |m| &tokens[m + 1..]);
    for (i, text) in moves.iter().enumerate() {
        game.play_uci(text).map_err(|error| PositionError::Move {
            index: i + 1,
            text: clip(text),
            error,
        })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Game, PositionError> {
        let tokens: Vec<String> = text.split_whitespace().map(String::from).collect();
        parse_position(&tokens, CastlingMode::Standard)
    }

    #[test]
    fn the_guis_mode_sets_the_castling_notation() {
        let opening = "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
        let tokens =
            |text: &str| -> Vec<String> { text.split_whitespace().map(String::from).collect() };
        let standard = parse(&format!("{opening} e1g1")).unwrap();
        assert!(standard.moves().last().unwrap().is_castle());
        assert_eq!(standard.position().castling_mode(), CastlingMode::Standard);
        let chess960 = CastlingMode::Chess960;
        let castled = parse_position(&tokens(&format!("{opening} e1h1")), chess960).unwrap();
        assert_eq!(castled.moves().last(), standard.moves().last());
        assert_eq!(castled.position().castling_mode(), chess960);
        assert!(matches!(
            parse_position(&tokens(&format!("{opening} e1g1")), chess960),
            Err(PositionError::Move { index: 7, .. })
        ));
        // A king off the e-file can only castle in Chess960's notation.
        let game =
            parse("fen 1r2kr2/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAfb - 0 1 moves b1h1").unwrap();
        assert_eq!(game.position().castling_mode(), chess960);
    }

    #[test]
    fn startpos_with_moves_keeps_history() {
        let game = parse("startpos moves e2e4 e7e5").unwrap();
        assert_eq!(game.keys().len(), 2);
        assert_eq!(game.keys().as_slice()[0], Position::startpos().key());
        assert_eq!(
            game.position().fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
    }

    #[test]
    fn errors_say_what_was_wrong() {
        assert_eq!(parse(""), Err(PositionError::Missing));
        assert_eq!(parse("startpos e2e4"), Err(PositionError::AfterStartpos));
        assert_eq!(parse("fenx"), Err(PositionError::Kind("fenx".into())));
        assert!(matches!(parse("fen 8/8 w"), Err(PositionError::Fen(_))));
        assert_eq!(
            parse("startpos moves e2e4 e2e4"),
            Err(PositionError::Move {
                index: 2,
                text: "e2e4".into(),
                error: MoveError::Illegal
            })
        );
    }
}
