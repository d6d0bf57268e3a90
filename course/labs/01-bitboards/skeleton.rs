//! Lab 1: bitboards. Squares, sets of squares, counting and walking them, drawing them.
//!
//! Replace each `todo!()` with your code, then run `course check 1`. The lab text
//! (`labs/01-bitboards.md` in your workspace, or `course text 1`) explains every function below.

// The parameters are unused until you write the bodies; delete this line when you are done.
#![allow(unused_variables)]

use crate::types::{Bitboard, Square};

/// The square on `file` (0 = a ... 7 = h) and `rank` (0 = rank 1 ... 7 = rank 8).
/// Example: `square(4, 3)` is e4, which is 28.
pub fn square(file: u8, rank: u8) -> Square {
    todo!()
}

/// The file of a square: 0 for the a-file ... 7 for the h-file. Example: `file_of(28)` is 4.
pub fn file_of(sq: Square) -> u8 {
    todo!()
}

/// The rank of a square: 0 for rank 1 ... 7 for rank 8. Example: `rank_of(28)` is 3.
pub fn rank_of(sq: Square) -> u8 {
    todo!()
}

/// The bitboard holding only `sq`. Example: `bit(0)` is `0x1`, `bit(63)` is `0x8000000000000000`.
pub fn bit(sq: Square) -> Bitboard {
    todo!()
}

/// `bb` with `sq` added (if it was already in, `bb` unchanged).
pub fn set(bb: Bitboard, sq: Square) -> Bitboard {
    todo!()
}

/// `bb` with `sq` removed (if it wasn't in, `bb` unchanged).
pub fn clear(bb: Bitboard, sq: Square) -> Bitboard {
    todo!()
}

/// Whether `sq` is in `bb`.
pub fn contains(bb: Bitboard, sq: Square) -> bool {
    todo!()
}

/// Every square of one file (0 = a-file ... 7 = h-file).
pub fn file_mask(file: u8) -> Bitboard {
    todo!()
}

/// Every square of one rank (0 = rank 1 ... 7 = rank 8).
pub fn rank_mask(rank: u8) -> Bitboard {
    todo!()
}

/// How many squares `bb` holds. Write the loop yourself (not `count_ones`): clear the lowest
/// square until none is left, counting.
pub fn popcount(bb: Bitboard) -> u32 {
    todo!()
}

/// The lowest square in `bb` (`bb` is never empty here). You may use `trailing_zeros`.
pub fn lsb(bb: Bitboard) -> Square {
    todo!()
}

/// Removes the lowest square from `bb` (never empty here) and returns it.
pub fn pop_lsb(bb: &mut Bitboard) -> Square {
    todo!()
}

/// The squares of `bb`, lowest first. Example: `squares(0x81)` is `vec![0, 7]`.
pub fn squares(bb: Bitboard) -> Vec<Square> {
    todo!()
}

/// `bb` drawn as 8 lines of 8 characters, rank 8 on top, file a on the left, `X` for a square
/// in the set and `.` for one that isn't; each line ends with a newline.
pub fn draw(bb: Bitboard) -> String {
    todo!()
}
