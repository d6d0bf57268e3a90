//! How castling is written: standard chess or Chess960.

use crate::castling::CastleSide;
use crate::names::ParseNameError;
use crate::piece::Color;
use crate::position::Position;
use crate::square::File;
use core::fmt;
use core::str::FromStr;

/// How a position writes castling, in UCI moves and in its FEN.
///
/// Castling is the same move inside the crate either way (stored as
/// king-takes-rook); the mode only changes its text:
///
/// | | UCI move | FEN castling field |
/// |---|---|---|
/// | `Standard` | the king's step, `e1g1` (king-takes-rook `e1h1` is read too) | `KQkq` |
/// | `Chess960` | king takes its own rook, `e1h1` | the rooks' files (Shredder-FEN), `HAha` |
///
/// A position keeps its mode ([`Position::castling_mode`]):
/// [`Position::chess960`] gives `Chess960`, and so does a FEN whose castling
/// field can only be Chess960 (see [`Position::from_fen`]); anything else is
/// `Standard`. [`Position::with_castling_mode`] changes it, as a UCI engine
/// does for the GUI's `UCI_Chess960` option.
///
/// ```
/// use movegen::{CastlingMode, Position};
///
/// assert_eq!(Position::startpos().castling_mode(), CastlingMode::Standard);
/// assert_eq!(Position::chess960(0).unwrap().castling_mode(), CastlingMode::Chess960);
/// assert_eq!(CastlingMode::default(), CastlingMode::Standard);
/// assert_eq!("chess960".parse(), Ok(CastlingMode::Chess960));
/// ```
///
/// [`Position::castling_mode`]: crate::Position::castling_mode
/// [`Position::chess960`]: crate::Position::chess960
/// [`Position::from_fen`]: crate::Position::from_fen
/// [`Position::with_castling_mode`]: crate::Position::with_castling_mode
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum CastlingMode {
    /// Standard chess: the king steps two squares (`e1g1`), FEN writes `KQkq`.
    #[default]
    Standard,
    /// Chess960 (Fischer random): the king takes its own rook (`e1h1`), FEN
    /// names the rooks' files.
    Chess960,
}

impl CastlingMode {
    /// `Chess960` if `chess960`, else `Standard`: for a flag such as UCI's
    /// `UCI_Chess960` option.
    ///
    /// ```
    /// use movegen::CastlingMode;
    ///
    /// assert_eq!(CastlingMode::from_chess960(true), CastlingMode::Chess960);
    /// assert_eq!(CastlingMode::from_chess960(false), CastlingMode::Standard);
    /// ```
    pub const fn from_chess960(chess960: bool) -> CastlingMode {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Whether this is `Chess960`.
    ///
    /// ```
    /// use movegen::CastlingMode;
    ///
    /// assert!(CastlingMode::Chess960.is_chess960());
    /// assert!(!CastlingMode::Standard.is_chess960());
    /// ```
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

/// `standard` or `chess960`.
///
/// ```
/// use movegen::CastlingMode;
///
/// assert_eq!(CastlingMode::Chess960.to_string(), "chess960");
/// assert_eq!(CastlingMode::Standard.to_string(), "standard");
/// ```
impl fmt::Display for CastlingMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingMode::Standard => "standard",
            CastlingMode::Chess960 => "chess960",
        })
    }
}

/// Reads `standard` or `chess960` in any case (PGN's `Variant` tag writes
/// `Chess960`).
impl FromStr for CastlingMode {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<CastlingMode, ParseNameError> {
        if s.eq_ignore_ascii_case("standard") {
            Ok(CastlingMode::Standard)
        } else if s.eq_ignore_ascii_case("chess960") {
            Ok(CastlingMode::Chess960)
        } else {
            Err(ParseNameError {
                expected: "a castling mode (standard or chess960)",
            })
        }
    }
}

impl Position {
    /// How this position writes castling: set by [`Position::chess960`], by
    /// the FEN it was read from ([`Position::from_fen`]) or by
    /// [`Position::with_castling_mode`], and kept through every move played.
    ///
    /// ```
    /// use movegen::{CastlingMode, Position};
    ///
    /// let start = Position::chess960(518).unwrap(); // the standard array
    /// assert_eq!(start.castling_mode(), CastlingMode::Chess960);
    /// assert_eq!(start, Position::startpos()); // the mode is notation only
    /// let e4 = start.play(start.parse_uci_move("e2e4").unwrap());
    /// assert_eq!(e4.castling_mode(), CastlingMode::Chess960);
    /// ```
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.castling_mode
    }

    /// This position with castling written in `mode`, or `None` for
    /// [`CastlingMode::Standard`] when a castling right has its king off the
    /// e-file or its rook off the a- or h-file: the king's-step text (`b1c1`)
    /// could then also be an ordinary king move. `Chess960` is always
    /// possible.
    ///
    /// ```
    /// use movegen::{CastlingMode, Position};
    ///
    /// let pos = Position::startpos().with_castling_mode(CastlingMode::Chess960).unwrap();
    /// assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    /// assert!(pos.parse_uci_move("e1g1").is_err()); // castling is e1h1 here
    ///
    /// let chess960 = Position::chess960(0).unwrap(); // king on g1
    /// assert_eq!(chess960.with_castling_mode(CastlingMode::Standard), None);
    /// ```
    pub fn with_castling_mode(&self, mode: CastlingMode) -> Option<Position> {
        if mode == CastlingMode::Standard && self.castling_needs_chess960() {
            return None;
        }
        Some(Position {
            castling_mode: mode,
            ..*self
        })
    }

    /// Whether a castling right has its king or rook off the standard
    /// squares, so only Chess960 can write it.
    pub(crate) fn castling_needs_chess960(&self) -> bool {
        Color::ALL.into_iter().any(|color| {
            CastleSide::ALL.into_iter().any(|side| {
                self.castle_rook(color, side).is_some_and(|rook| {
                    let file = match side {
                        CastleSide::Short => File::H,
                        CastleSide::Long => File::A,
                    };
                    rook.file() != file || self.king(color).file() != File::E
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn text_round_trips_and_rejects_other_names() {
        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
            assert_eq!(mode.to_string().parse(), Ok(mode));
            assert_eq!(mode.to_string().to_uppercase().parse(), Ok(mode));
        }
        assert!("960".parse::<CastlingMode>().is_err());
        assert!("".parse::<CastlingMode>().is_err());
    }
}
