//! Sets of squares as 64-bit masks.

use crate::square::{File, Rank, Square};
use alloc::vec::Vec;
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `n` is square `n` (a1 = 0, h8 = 63). It iterates
/// its squares from a1 up (`for sq in set`, [`Bitboard::iter`]), counts them
/// with [`Bitboard::len`], and has `& | ^ !`.
///
/// ```
/// use movegen::{Bitboard, Square};
///
/// let set = Bitboard::from_square(Square::C3) | Bitboard::from_square(Square::A1);
/// let squares: Vec<Square> = set.iter().collect();
/// assert_eq!(squares, [Square::A1, Square::C3]);
/// assert_eq!(set & !Bitboard::from_square(Square::A1), Bitboard::from_square(Square::C3));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Bitboard;
    ///
    /// assert!(Bitboard::EMPTY.is_empty());
    /// assert_eq!(Bitboard::FULL.len(), 64);
    /// assert_eq!(!Bitboard::FULL, Bitboard::EMPTY);
    /// ```
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard::FULL.len(), 64);
    /// assert!(Bitboard::FULL.has(Square::A1) && Bitboard::FULL.has(Square::H8));
    /// ```
    pub const FULL: Bitboard = Bitboard(!0);

    /// The set holding just `sq`.
    ///
    /// ```
    /// use movegen::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard::from_square(Square::B1), Bitboard(2));
    /// ```
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of `file`.
    ///
    /// ```
    /// use movegen::{Bitboard, File, Square};
    ///
    /// let e = Bitboard::file(File::E);
    /// assert!(e.has(Square::E1) && e.has(Square::E8) && e.len() == 8);
    /// ```
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file.index())
    }

    /// All squares of `rank`.
    ///
    /// ```
    /// use movegen::{Bitboard, Rank};
    ///
    /// assert_eq!(Bitboard::rank(Rank::First), Bitboard(0xFF));
    /// ```
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xFF << (8 * rank.index()))
    }

    /// Whether the set is empty.
    ///
    /// ```
    /// use movegen::Bitboard;
    ///
    /// assert!(Bitboard::EMPTY.is_empty() && !Bitboard::FULL.is_empty());
    /// ```
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    ///
    /// ```
    /// use movegen::Bitboard;
    ///
    /// assert!(Bitboard::FULL.nonempty());
    /// ```
    #[inline(always)]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set.
    ///
    /// ```
    /// use movegen::Bitboard;
    ///
    /// assert_eq!(Bitboard(0b1011).len(), 3);
    /// ```
    #[inline(always)]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Its squares, from a1 up; the same as `into_iter()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Bitboard, Square};
    ///
    /// let set = Bitboard::from_square(Square::H8) | Bitboard::from_square(Square::B2);
    /// let names: Vec<String> = set.iter().map(|sq| sq.to_string()).collect();
    /// assert_eq!(names, ["b2", "h8"]);
    /// assert_eq!(set.iter().len(), set.len() as usize);
    /// ```
    #[inline(always)]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }

    /// Whether the set holds `sq`.
    ///
    /// ```
    /// use movegen::{Bitboard, Square};
    ///
    /// assert!(Bitboard(1).has(Square::A1));
    /// ```
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Whether the set holds more than one square.
    ///
    /// ```
    /// use movegen::Bitboard;
    ///
    /// assert!(Bitboard(0b11).has_many() && !Bitboard(0b10).has_many());
    /// ```
    #[inline(always)]
    pub const fn has_many(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of the set, if any.
    ///
    /// ```
    /// use movegen::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard(0b1100).first(), Some(Square::C1));
    /// assert_eq!(Bitboard::EMPTY.first(), None);
    /// ```
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_index(self.0.trailing_zeros() as usize)
        }
    }

    /// The lowest square of a set the caller knows is not empty.
    #[inline(always)]
    pub(crate) const fn lsb(self) -> Square {
        Square::from_index_masked(self.0.trailing_zeros() as usize)
    }

    /// The set shifted one rank towards rank 8 (squares on rank 8 drop off).
    ///
    /// ```
    /// use movegen::{Bitboard, Rank};
    ///
    /// assert_eq!(Bitboard::rank(Rank::Second).up(), Bitboard::rank(Rank::Third));
    /// ```
    #[inline(always)]
    pub const fn up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// The set shifted one rank towards rank 1.
    ///
    /// ```
    /// use movegen::{Bitboard, Rank};
    ///
    /// assert_eq!(Bitboard::rank(Rank::Second).down(), Bitboard::rank(Rank::First));
    /// ```
    #[inline(always)]
    pub const fn down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

/// A bitboard is a set, not an iterator: `for sq in set` and
/// `set.iter()` walk its squares through [`Squares`], and [`Bitboard::len`]
/// (the population count) is the set's own, not shadowed by
/// `ExactSizeIterator::len`.
impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// The squares of a [`Bitboard`], from a1 up (or from h8 down, with
/// `next_back`); made by [`Bitboard::iter`] or `into_iter`.
///
/// # Examples
///
/// ```
/// use movegen::{Bitboard, Rank, Square, Squares};
///
/// let mut squares: Squares = Bitboard::rank(Rank::First).iter();
/// assert_eq!(squares.len(), 8);
/// assert_eq!(squares.next(), Some(Square::A1));
/// assert_eq!(squares.next_back(), Some(Square::H1));
/// assert_eq!(squares.len(), 6);
/// assert_eq!(squares.collect::<Bitboard>().len(), 6);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        // As `Bitboard::first` then clearing the lowest bit: the generator's
        // and perft's loops run through here.
        let sq = Bitboard(self.0).first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Squares {
    #[inline(always)]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = 63 - self.0.leading_zeros() as usize;
        self.0 &= !(1 << index);
        Some(Square::from_index_masked(index))
    }
}

impl ExactSizeIterator for Squares {}

impl core::iter::FusedIterator for Squares {}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |bb, sq| bb | Bitboard::from_square(sq))
    }
}

macro_rules! bit_op {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;

    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Draws the set as an 8x8 grid, rank 8 on top: `X` for a member, `.` otherwise.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            let row: Vec<&str> = File::ALL
                .into_iter()
                .map(|file| {
                    if self.has(Square::new(file, rank)) {
                        "X"
                    } else {
                        "."
                    }
                })
                .collect();
            writeln!(f, "{} {}", rank.to_char(), row.join(" "))?;
        }
        write!(f, "  a b c d e f g h")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_squares_in_order() {
        let bb = Bitboard(0b1010_0001);
        let v: Vec<usize> = bb.iter().map(|s| s.index()).collect();
        assert_eq!(v, [0, 5, 7]);
        let back: Vec<usize> = bb.iter().rev().map(|s| s.index()).collect();
        assert_eq!(back, [7, 5, 0]);
        let mut both = bb.iter();
        assert_eq!(
            (both.next(), both.next_back()),
            (Square::from_index(0), Square::from_index(7))
        );
        assert_eq!(
            (both.len(), both.next(), both.next()),
            (1, Square::from_index(5), None)
        );
        assert_eq!(bb.len(), 3);
        assert!(bb.has_many());
        assert!(!Bitboard(8).has_many());
    }

    #[test]
    fn files_and_ranks() {
        assert_eq!(Bitboard::file(File::H).0, 0x8080_8080_8080_8080);
        assert_eq!(Bitboard::rank(Rank::Second).0, 0xFF00);
        assert_eq!(
            (Bitboard::file(File::A) & Bitboard::rank(Rank::First)).len(),
            1
        );
    }
}
