//! Text for colours, pieces, files and ranks: `Display` and `FromStr`.

use crate::piece::{Color, Piece};
use crate::square::{File, Rank};
use core::fmt;
use core::str::FromStr;

/// The text was not the name of what was asked for: a colour, a piece, a
/// file, a rank or a castling mode (the field names which).
///
/// ```
/// use movegen::{Color, ParseNameError};
///
/// let err = "purple".parse::<Color>().unwrap_err();
/// assert_eq!(err, ParseNameError { expected: "a colour (white, black, w or b)" });
/// assert_eq!(err.to_string(), "expected a colour (white, black, w or b)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseNameError {
    /// What the text should have named.
    pub expected: &'static str,
}

impl fmt::Display for ParseNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected)
    }
}

impl core::error::Error for ParseNameError {}

/// `white` or `black`.
///
/// ```
/// use movegen::Color;
///
/// assert_eq!(Color::White.to_string(), "white");
/// assert_eq!("b".parse::<Color>(), Ok(Color::Black));
/// assert_eq!("Black".parse::<Color>(), Ok(Color::Black));
/// ```
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// Reads `white`, `black` (any case) or FEN's `w` and `b`.
impl FromStr for Color {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Color, ParseNameError> {
        match s {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            _ if s.eq_ignore_ascii_case("white") => Ok(Color::White),
            _ if s.eq_ignore_ascii_case("black") => Ok(Color::Black),
            _ => Err(ParseNameError {
                expected: "a colour (white, black, w or b)",
            }),
        }
    }
}

/// The piece's name: `pawn`, `knight`, ... (its letter is [`Piece::to_char`]).
///
/// ```
/// use movegen::Piece;
///
/// assert_eq!(Piece::Knight.to_string(), "knight");
/// assert_eq!("N".parse::<Piece>(), Ok(Piece::Knight));
/// assert_eq!("queen".parse::<Piece>(), Ok(Piece::Queen));
/// ```
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(piece_name(*self))
    }
}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

/// Reads a piece letter (`pnbrqk`, either case) or name (any case).
impl FromStr for Piece {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Piece, ParseNameError> {
        let mut chars = s.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) => Piece::from_char(c),
            _ => None,
        };
        letter
            .or_else(|| {
                Piece::ALL
                    .into_iter()
                    .find(|&p| s.eq_ignore_ascii_case(piece_name(p)))
            })
            .ok_or(ParseNameError {
                expected: "a piece (a letter pnbrqk or a name such as knight)",
            })
    }
}

/// The file's letter, `a` to `h`.
///
/// ```
/// use movegen::File;
///
/// assert_eq!(File::C.to_string(), "c");
/// assert_eq!("c".parse::<File>(), Ok(File::C));
/// assert!("i".parse::<File>().is_err());
/// ```
impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Reads a file letter, `a` to `h` (either case).
impl FromStr for File {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<File, ParseNameError> {
        single_char(s)
            .and_then(File::from_char)
            .ok_or(ParseNameError {
                expected: "a file (a to h)",
            })
    }
}

/// The rank's digit, `1` to `8`.
///
/// ```
/// use movegen::Rank;
///
/// assert_eq!(Rank::Eighth.to_string(), "8");
/// assert_eq!("3".parse::<Rank>(), Ok(Rank::Third));
/// assert!("9".parse::<Rank>().is_err());
/// ```
impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Reads a rank digit, `1` to `8`.
impl FromStr for Rank {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Rank, ParseNameError> {
        single_char(s)
            .and_then(Rank::from_char)
            .ok_or(ParseNameError {
                expected: "a rank (1 to 8)",
            })
    }
}

/// The one character of `s`, if it has exactly one.
fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    chars.next().filter(|_| chars.next().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips() {
        for c in Color::ALL {
            assert_eq!(c.to_string().parse::<Color>(), Ok(c));
        }
        for p in Piece::ALL {
            assert_eq!(p.to_string().parse::<Piece>(), Ok(p));
            assert_eq!(p.to_char().to_string().parse::<Piece>(), Ok(p));
        }
        for f in File::ALL {
            assert_eq!(f.to_string().parse::<File>(), Ok(f));
        }
        for r in Rank::ALL {
            assert_eq!(r.to_string().parse::<Rank>(), Ok(r));
        }
        for bad in ["", "x", "ab", "white ", "kk"] {
            assert!(bad.parse::<Piece>().is_err(), "{bad:?}");
            assert!(bad.parse::<Color>().is_err(), "{bad:?}");
            assert!(bad.parse::<File>().is_err(), "{bad:?}");
            assert!(bad.parse::<Rank>().is_err(), "{bad:?}");
        }
    }
}
