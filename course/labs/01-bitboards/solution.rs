//! Lab 1: bitboards. Squares, sets of squares, counting and walking them, drawing them.

use crate::types::{Bitboard, Square};

/// The square on `file` (0 = a ... 7 = h) and `rank` (0 = rank 1 ... 7 = rank 8).
pub fn square(file: u8, rank: u8) -> Square {
    rank * 8 + file
}

/// The file of a square: 0 for the a-file ... 7 for the h-file.
pub fn file_of(sq: Square) -> u8 {
    sq % 8
}

/// The rank of a square: 0 for rank 1 ... 7 for rank 8.
pub fn rank_of(sq: Square) -> u8 {
    sq / 8
}

/// The bitboard holding only `sq`.
pub fn bit(sq: Square) -> Bitboard {
    1u64 << sq
}

/// `bb` with `sq` added.
pub fn set(bb: Bitboard, sq: Square) -> Bitboard {
    bb | bit(sq)
}

/// `bb` with `sq` removed.
pub fn clear(bb: Bitboard, sq: Square) -> Bitboard {
    bb & !bit(sq)
}

/// Whether `sq` is in `bb`.
pub fn contains(bb: Bitboard, sq: Square) -> bool {
    bb & bit(sq) != 0
}

/// Every square of one file (0 = a-file).
pub fn file_mask(file: u8) -> Bitboard {
    0x0101_0101_0101_0101 << file
}

/// Every square of one rank (0 = rank 1).
pub fn rank_mask(rank: u8) -> Bitboard {
    0xff << (rank * 8)
}

/// How many squares `bb` holds, by clearing the lowest one until none is left.
pub fn popcount(bb: Bitboard) -> u32 {
    let mut rest = bb;
    let mut count = 0;
    while rest != 0 {
        rest &= rest - 1;
        count += 1;
    }
    count
}

/// The lowest square in `bb` (which is not empty).
pub fn lsb(bb: Bitboard) -> Square {
    bb.trailing_zeros() as Square
}

/// Removes the lowest square from `bb` (not empty) and returns it.
pub fn pop_lsb(bb: &mut Bitboard) -> Square {
    let sq = lsb(*bb);
    *bb &= *bb - 1;
    sq
}

/// The squares of `bb`, lowest first.
pub fn squares(bb: Bitboard) -> Vec<Square> {
    let mut rest = bb;
    let mut out = Vec::new();
    while rest != 0 {
        out.push(pop_lsb(&mut rest));
    }
    out
}

/// `bb` drawn as 8 lines of 8 characters, rank 8 on top, `X` for a square in the set and `.`
/// for one that isn't; each line ends with a newline.
pub fn draw(bb: Bitboard) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        for file in 0..8 {
            out.push(if contains(bb, square(file, rank)) { 'X' } else { '.' });
        }
        out.push('\n');
    }
    out
}
