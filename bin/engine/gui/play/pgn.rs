//! A board game as PGN, written by movegen's writer (`movegen::pgn`): the
//! Seven Tag Roster, `Variant`, `SetUp` and `FEN` for a game from another
//! position, `TimeControl` and `Termination`, and the moves.

use movegen::pgn::{GameResult, Node, PgnDate, PgnGame};
use movegen::Game;
use referee::decimal_seconds;
use std::time::{Duration, SystemTime};

/// What PGN needs to know about a game beyond its moves.
pub struct Header<'a> {
    /// The White and Black players' names.
    pub players: [String; 2],
    /// When the game started.
    pub date: SystemTime,
    /// The start position's FEN, when it is not the standard start.
    pub setup_fen: Option<String>,
    /// Whether the game is Chess960.
    pub chess960: bool,
    /// Base and increment, or `None` without a clock.
    pub time_control: Option<(Duration, Duration)>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game still going.
    pub result: &'a str,
    /// The `Termination` tag's value, for a finished game.
    pub termination: Option<&'a str>,
}

/// `game` as PGN text, ending with a newline.
pub fn write(game: &Game, header: &Header) -> String {
    let mut pgn = PgnGame::new(*game.start());
    let date = PgnDate::of(header.date).to_string();
    for (name, value) in [
        ("Event", "Pinmask board game"),
        ("Site", "Pinmask engine gui"),
        ("Date", &date),
        ("Round", "-"),
        ("White", &header.players[0]),
        ("Black", &header.players[1]),
    ] {
        pgn.set_tag(name, value);
    }
    if header.chess960 {
        pgn.set_tag("Variant", "Chess960");
    }
    if let Some(fen) = &header.setup_fen {
        pgn.set_tag("SetUp", "1");
        pgn.set_tag("FEN", fen);
    }
    // `base+increment` even when the increment is zero: the page always
    // has both, and games already downloaded read `300+0`.
    let tc = match header.time_control {
        Some((base, inc)) => format!("{}+{}", decimal_seconds(base), decimal_seconds(inc)),
        None => "-".to_string(),
    };
    pgn.set_tag("TimeControl", &tc);
    if let Some(t) = header.termination {
        pgn.set_tag("Termination", t);
    }
    pgn.mainline.moves = game.moves().iter().map(|&mv| Node::new(mv)).collect();
    pgn.termination = GameResult::from_token(header.result).unwrap_or(GameResult::Unknown);
    let mut text = pgn.to_string();
    // The export format ends a game with a blank line, to part it from the
    // next; a download holds one game.
    text.pop();
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;
    use std::time::UNIX_EPOCH;

    fn game(fen: &str, uci: &[&str]) -> Game {
        let mut game = Game::new(Position::from_fen(fen).unwrap());
        for text in uci {
            game.play_uci(text).unwrap();
        }
        game
    }

    #[test]
    fn standard_start_with_clock() {
        let game = game(movegen::STARTPOS_FEN, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        let text = write(
            &game,
            &Header {
                players: ["Player".into(), "Pinmask \"x\"".into()],
                date: UNIX_EPOCH,
                setup_fen: None,
                chess960: false,
                time_control: Some((Duration::from_secs(300), Duration::from_millis(2500))),
                result: "0-1",
                termination: Some("normal"),
            },
        );
        assert_eq!(
            text,
            "[Event \"Pinmask board game\"]\n[Site \"Pinmask engine gui\"]\n\
             [Date \"1970.01.01\"]\n[Round \"-\"]\n[White \"Player\"]\n\
             [Black \"Pinmask \\\"x\\\"\"]\n[Result \"0-1\"]\n[TimeControl \"300+2.5\"]\n\
             [Termination \"normal\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
        );
    }

    #[test]
    fn black_first_from_a_fen_and_long_games_wrap() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let mut moves = vec!["g8f6"];
        for n in 2..=31 {
            moves.extend(if n % 2 == 0 {
                ["g1f3", "f6g8"]
            } else {
                ["f3g1", "g8f6"]
            });
        }
        let text = write(
            &game(fen, &moves),
            &Header {
                players: ["A".into(), "B".into()],
                date: UNIX_EPOCH,
                setup_fen: Some(fen.into()),
                chess960: true,
                time_control: None,
                result: "*",
                termination: None,
            },
        );
        assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/"));
        assert!(text.contains("[TimeControl \"-\"]\n\n1... Nf6 2. Nf3 Ng8 3. Ng1 Nf6"));
        let body = text.split("\n\n").nth(1).unwrap();
        assert!(body.lines().count() > 2);
        assert!(body.lines().all(|l| l.len() <= 80), "{body}");
        let tokens: Vec<&str> = body.split_whitespace().collect();
        assert_eq!(tokens[tokens.len() - 3..], ["Ng1", "Nf6", "*"]);
        // Each move, a number for each of White's, `1...` and the result.
        assert_eq!(tokens.len(), moves.len() + 30 + 1 + 1);
        assert!(text.ends_with("Nf6 *\n"), "{text}");
    }
}
