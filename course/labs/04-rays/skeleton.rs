//! Lab 4: sliding pieces I. Rays by subtraction: `o ^ (o - 2r)` finds where a ray stops, and
//! mirroring the board runs the same trick the other way.
//!
//! Replace each `todo!()` with your code, then run `course check 4`. The lab text
//! (`labs/04-rays.md` in your workspace, or `course text 4`) explains every function below.

// The parameters are unused until you write the bodies; delete this line when you are done.
#![allow(unused_variables)]

use crate::types::{Bitboard, Square};

/// The file through `sq`, without `sq` itself.
pub fn file_line(sq: Square) -> Bitboard {
    todo!()
}

/// The rank through `sq`, without `sq` itself.
pub fn rank_line(sq: Square) -> Bitboard {
    todo!()
}

/// The diagonal (a1-h8 direction) through `sq`, without `sq` itself.
pub fn diagonal_line(sq: Square) -> Bitboard {
    todo!()
}

/// The anti-diagonal (h1-a8 direction) through `sq`, without `sq` itself.
pub fn anti_diagonal_line(sq: Square) -> Bitboard {
    todo!()
}

/// The squares a slider on `sq` attacks along `line` (a line through `sq`, without `sq`)
/// towards higher square numbers: up to and including the first occupied square, or to the
/// end of the line. Use the subtraction o ^ (o - 2r).
pub fn positive_ray_attacks(sq: Square, occupied: Bitboard, line: Bitboard) -> Bitboard {
    todo!()
}

/// The squares a slider on `sq` attacks along `line`, both ways: the subtraction forwards,
/// and the same on the mirrored board (`reverse_bits`) for the other direction.
pub fn line_attacks(sq: Square, occupied: Bitboard, line: Bitboard) -> Bitboard {
    todo!()
}

/// The squares a slider on `sq` attacks along its file (hyperbola quintessence: mirror with
/// `swap_bytes`).
pub fn file_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// The squares a slider on `sq` attacks along its diagonal (mirror with `swap_bytes`).
pub fn diagonal_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// The squares a slider on `sq` attacks along its anti-diagonal (mirror with `swap_bytes`).
pub fn anti_diagonal_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// The squares a slider on `sq` attacks along its rank (careful: `swap_bytes` can't mirror a
/// rank).
pub fn rank_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// A rook's attacks: its file and its rank.
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// A bishop's attacks: its two diagonals.
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// A queen's attacks: a rook's and a bishop's.
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}
