//! Why a game could not be read, and where.

use crate::fen::FenError;
use crate::piece::Color;
use crate::san::SanError;
use alloc::string::String;
use core::fmt;

/// What was wrong with a game.
///
/// # Examples
///
/// ```
/// use movegen::pgn::{read_games, PgnErrorKind};
/// use movegen::SanError;
///
/// let err = read_games("1. e4 e5 2. Ke3 *").next().unwrap().unwrap_err();
/// assert_eq!(err.kind, PgnErrorKind::San(SanError::Illegal));
/// let err = read_games("[White \"x\"\n\n1. e4 *").next().unwrap().unwrap_err();
/// assert_eq!(err.kind, PgnErrorKind::Tag);
/// let err = read_games("1. e4 ) *").next().unwrap().unwrap_err();
/// assert_eq!(err.kind, PgnErrorKind::UnmatchedClose);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A tag line that is not `[Name "value"]`.
    Tag,
    /// The `FEN` tag is not a valid position.
    Fen(FenError),
    /// A `Variant` other than standard chess or Chess960.
    Variant(String),
    /// A move that is not SAN, not legal, or ambiguous.
    San(SanError),
    /// A character that starts no PGN token.
    Character(char),
    /// A NAG above `$255`.
    Nag,
    /// A `(` before any move of its line.
    VariationBeforeMove,
    /// A `)` with no variation open.
    UnmatchedClose,
    /// A result token inside a variation, or a game ending inside one.
    UnclosedVariation,
    /// A line longer than the reader accepts.
    LineTooLong,
    /// A game with more moves than the reader accepts.
    GameTooLong,
    /// The input could not be read (the I/O error's text).
    Io(String),
}

/// A game that could not be read: its number in the input (from 1), the
/// move number where the trouble was (`12.` for White's twelfth move,
/// `12...` for Black's), the token and the reason.
///
/// # Examples
///
/// ```
/// use movegen::pgn::{read_games, PgnErrorKind};
/// use movegen::{Color, SanError};
///
/// let text = "1. e4 *\n\n1. d4 d5 2. Nf6 *\n\n1. c4 *\n";
/// let games: Vec<_> = read_games(text).collect();
/// assert_eq!(games.len(), 3); // the bad game is reported, and reading goes on
/// let err = games[1].as_ref().unwrap_err();
/// assert_eq!((err.game, err.ply), (2, Some((2, Color::White))));
/// assert_eq!(err.token, "Nf6");
/// assert_eq!(err.kind, PgnErrorKind::San(SanError::Illegal));
/// assert!(err.to_string().starts_with("game 2, move 2., at \"Nf6\""));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// Game number in the input, counting from 1 (unreadable games count).
    pub game: usize,
    /// The move number and side to move at the fault (none in the tags).
    pub ply: Option<(u32, Color)>,
    /// The offending text (at most 40 characters).
    pub token: String,
    /// What was wrong.
    pub kind: PgnErrorKind,
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Tag => f.write_str("not a tag pair [Name \"value\"]"),
            PgnErrorKind::Fen(e) => write!(f, "bad FEN tag: {e}"),
            PgnErrorKind::Variant(v) => write!(f, "unsupported variant {v:?}"),
            PgnErrorKind::San(e) => write!(f, "{e}"),
            PgnErrorKind::Character(c) => write!(f, "unexpected character {c:?}"),
            PgnErrorKind::Nag => f.write_str("NAG out of range ($0 to $255)"),
            PgnErrorKind::VariationBeforeMove => f.write_str("variation before any move"),
            PgnErrorKind::UnmatchedClose => f.write_str("')' without a variation open"),
            PgnErrorKind::UnclosedVariation => f.write_str("variation not closed"),
            PgnErrorKind::LineTooLong => f.write_str("line too long"),
            PgnErrorKind::GameTooLong => f.write_str("game too long"),
            PgnErrorKind::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        match self.ply {
            Some((n, Color::White)) => write!(f, ", move {n}.")?,
            Some((n, Color::Black)) => write!(f, ", move {n}...")?,
            None => {}
        }
        if !self.token.is_empty() {
            write!(f, ", at {:?}", self.token)?;
        }
        write!(f, ": {}", self.kind)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PgnError {}
