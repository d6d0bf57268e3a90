//! Files, ranks and squares.

use core::fmt;

/// A file (column) of the board, `A` to `H`.
///
/// # Examples
///
/// ```
/// use movegen::{File, Square};
///
/// assert_eq!(Square::E4.file(), File::E);
/// assert_eq!(File::E.to_char(), 'e');
/// assert!(File::A < File::H);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// All files, `A` first.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::File;
    ///
    /// assert_eq!(File::ALL.len(), File::NUM);
    /// assert_eq!(File::ALL[0], File::A);
    /// assert_eq!(File::ALL[7], File::H);
    /// ```
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];
    /// Number of files.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::File;
    ///
    /// assert_eq!(File::NUM, 8);
    /// assert_eq!(File::from_index(File::NUM), None);
    /// ```
    pub const NUM: usize = 8;

    /// The file with this index (0 = `A`), if there is one.
    ///
    /// ```
    /// use movegen::File;
    ///
    /// assert_eq!(File::from_index(4), Some(File::E));
    /// assert_eq!(File::from_index(8), None);
    /// ```
    pub const fn from_index(i: usize) -> Option<File> {
        if i < 8 {
            Some(File::ALL[i])
        } else {
            None
        }
    }

    /// The file's index, 0 for `A`.
    ///
    /// ```
    /// use movegen::File;
    ///
    /// assert_eq!(File::H.index(), 7);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file for a letter `a`-`h` (either case).
    ///
    /// ```
    /// use movegen::File;
    ///
    /// assert_eq!(File::from_char('B'), Some(File::B));
    /// ```
    pub fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        ('a'..='h')
            .contains(&c)
            .then(|| File::ALL[c as usize - 'a' as usize])
    }

    /// The file's lower-case letter.
    ///
    /// ```
    /// use movegen::File;
    ///
    /// assert_eq!(File::G.to_char(), 'g');
    /// ```
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }
}

/// A rank (row) of the board, `First` (White's back rank) to `Eighth`.
///
/// # Examples
///
/// ```
/// use movegen::{Rank, Square};
///
/// assert_eq!(Square::E4.rank(), Rank::Fourth);
/// assert_eq!(Rank::Fourth.to_char(), '4');
/// assert!(Rank::First < Rank::Eighth);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[allow(missing_docs)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// All ranks, `First` first.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Rank;
    ///
    /// assert_eq!(Rank::ALL.len(), Rank::NUM);
    /// assert_eq!(Rank::ALL[0], Rank::First);
    /// assert_eq!(Rank::ALL[7], Rank::Eighth);
    /// ```
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];
    /// Number of ranks.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Rank;
    ///
    /// assert_eq!(Rank::NUM, 8);
    /// assert_eq!(Rank::from_index(Rank::NUM - 1), Some(Rank::Eighth));
    /// ```
    pub const NUM: usize = 8;

    /// The rank with this index (0 = first rank), if there is one.
    ///
    /// ```
    /// use movegen::Rank;
    ///
    /// assert_eq!(Rank::from_index(0), Some(Rank::First));
    /// ```
    pub const fn from_index(i: usize) -> Option<Rank> {
        if i < 8 {
            Some(Rank::ALL[i])
        } else {
            None
        }
    }

    /// The rank's index, 0 for the first rank.
    ///
    /// ```
    /// use movegen::Rank;
    ///
    /// assert_eq!(Rank::Eighth.index(), 7);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank for a digit `1`-`8`.
    ///
    /// ```
    /// use movegen::Rank;
    ///
    /// assert_eq!(Rank::from_char('4'), Some(Rank::Fourth));
    /// ```
    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8')
            .contains(&c)
            .then(|| Rank::ALL[c as usize - '1' as usize])
    }

    /// The rank's digit.
    ///
    /// ```
    /// use movegen::Rank;
    ///
    /// assert_eq!(Rank::Second.to_char(), '2');
    /// ```
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }
}

/// A square of the board; index `8 * rank + file`, so a1 = 0, h1 = 7, h8 = 63.
///
/// # Examples
///
/// ```
/// use movegen::{File, Rank, Square};
///
/// let sq: Square = "g7".parse().unwrap();
/// assert_eq!(sq, Square::G7);
/// assert_eq!((sq.file(), sq.rank()), (File::G, Rank::Seventh));
/// assert_eq!(sq.to_string(), "g7");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Square;
    ///
    /// assert_eq!(Square::NUM, 64);
    /// assert_eq!(Square::from_index(Square::NUM - 1), Some(Square::H8));
    /// assert_eq!(Square::from_index(Square::NUM), None);
    /// ```
    pub const NUM: usize = 64;

    /// The square at `file` and `rank`.
    ///
    /// ```
    /// use movegen::{File, Rank, Square};
    ///
    /// assert_eq!(Square::new(File::E, Rank::Fourth), Square::E4);
    /// ```
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// The square with this index, if it is below 64.
    ///
    /// ```
    /// use movegen::Square;
    ///
    /// assert_eq!(Square::from_index(63), Some(Square::H8));
    /// assert_eq!(Square::from_index(64), None);
    /// ```
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with index `i & 63`; for indices our own code computed.
    pub(crate) const fn from_index_masked(i: usize) -> Square {
        Square((i & 63) as u8)
    }

    /// The square's index, 0 to 63.
    ///
    /// ```
    /// use movegen::Square;
    ///
    /// assert_eq!(Square::H1.index(), 7);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        // SAFETY: every constructor above keeps the index below 64. Telling
        // the compiler so removes the bounds checks of every table lookup.
        unsafe { core::hint::assert_unchecked(self.0 < 64) };
        self.0 as usize
    }

    /// The square's file.
    ///
    /// ```
    /// use movegen::{File, Square};
    ///
    /// assert_eq!(Square::C7.file(), File::C);
    /// ```
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    /// The square's rank.
    ///
    /// ```
    /// use movegen::{Rank, Square};
    ///
    /// assert_eq!(Square::C7.rank(), Rank::Seventh);
    /// ```
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// The same square seen from the other side (rank mirrored).
    ///
    /// ```
    /// use movegen::Square;
    ///
    /// assert_eq!(Square::B2.flip_rank(), Square::B7);
    /// ```
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `dr` ranks up (negative: down), if on the board.
    ///
    /// ```
    /// use movegen::Square;
    ///
    /// assert_eq!(Square::E2.offset_rank(2), Some(Square::E4));
    /// assert_eq!(Square::E2.offset_rank(-2), None);
    /// ```
    pub const fn offset_rank(self, dr: i8) -> Option<Square> {
        let r = (self.0 >> 3) as i8 + dr;
        if r >= 0 && r < 8 {
            Some(Square((r * 8) as u8 + (self.0 & 7)))
        } else {
            None
        }
    }

    /// Parses a square such as `e4`.
    ///
    /// ```
    /// use movegen::Square;
    ///
    /// assert_eq!(Square::parse("e4"), Some(Square::E4));
    /// assert_eq!(Square::parse("e9"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        chars.next().is_none().then(|| Square::new(file, rank))
    }

    /// A square as move text writes it, in lower case only (`e4`, not
    /// `E4`): the UCI and SAN readers use it.
    pub(crate) fn parse_move_text(s: &[u8]) -> Option<Square> {
        match *s {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                Square::from_index(usize::from(r - b'1') * 8 + usize::from(f - b'a'))
            }
            _ => None,
        }
    }
}

/// `Square::A1` to `Square::H8`, one constant per square.
macro_rules! square_constants {
    ($($name:ident = $index:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($index);
            )*
        }
    };
}

square_constants! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

/// The text was not a square name (`a1` to `h8`).
///
/// # Examples
///
/// ```
/// use movegen::{ParseSquareError, Square};
///
/// assert_eq!("i9".parse::<Square>(), Err(ParseSquareError));
/// assert_eq!(ParseSquareError.to_string(), "not a square (expected a1 to h8)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square (expected a1 to h8)")
    }
}

impl core::error::Error for ParseSquareError {}

/// Parses a square name, as [`Square::parse`].
impl core::str::FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse(s).ok_or(ParseSquareError)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for i in 0..64 {
            let sq = Square::from_index(i).unwrap();
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4").unwrap().index(), 28);
        for bad in ["", "e", "i1", "a9", "a0", "e44", "E4x"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad}");
        }
        assert_eq!("h8".parse::<Square>().map(Square::index), Ok(63));
    }

    #[test]
    fn offsets_stay_on_board() {
        let a1 = Square::new(File::A, Rank::First);
        assert_eq!(a1.offset_rank(-1), None);
        assert_eq!(a1.offset_rank(7), Some(Square::new(File::A, Rank::Eighth)));
        assert_eq!(a1.flip_rank(), Square::new(File::A, Rank::Eighth));
    }
}
