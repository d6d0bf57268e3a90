//! Lab 4: sliding pieces I. Rays by subtraction: `o ^ (o - 2r)` finds where a ray stops, and
//! mirroring the board runs the same trick the other way.

use crate::types::{Bitboard, Square};

/// The a1-h8 diagonal.
const MAIN_DIAGONAL: Bitboard = 0x8040_2010_0804_0201;
/// The h1-a8 anti-diagonal.
const MAIN_ANTI_DIAGONAL: Bitboard = 0x0102_0408_1020_4080;

/// The file through `sq`, without `sq` itself.
pub fn file_line(sq: Square) -> Bitboard {
    (0x0101_0101_0101_0101 << (sq % 8)) & !(1 << sq)
}

/// The rank through `sq`, without `sq` itself.
pub fn rank_line(sq: Square) -> Bitboard {
    (0xff << (sq / 8 * 8)) & !(1 << sq)
}

/// The diagonal (a1-h8 direction) through `sq`, without `sq` itself.
pub fn diagonal_line(sq: Square) -> Bitboard {
    // file - rank is the same all along a diagonal; the main one has 0.
    let d = i32::from(sq % 8) - i32::from(sq / 8);
    let line = if d >= 0 { MAIN_DIAGONAL >> (8 * d) } else { MAIN_DIAGONAL << (-8 * d) };
    line & !(1 << sq)
}

/// The anti-diagonal (h1-a8 direction) through `sq`, without `sq` itself.
pub fn anti_diagonal_line(sq: Square) -> Bitboard {
    // file + rank is the same all along an anti-diagonal; the main one has 7.
    let d = i32::from(sq % 8) + i32::from(sq / 8) - 7;
    let line = if d >= 0 { MAIN_ANTI_DIAGONAL << (8 * d) } else { MAIN_ANTI_DIAGONAL >> (-8 * d) };
    line & !(1 << sq)
}

/// The squares a slider on `sq` attacks along `line` towards higher square numbers: up to and
/// including the first occupied square. The thesis's subtraction: o ^ (o - 2r).
pub fn positive_ray_attacks(sq: Square, occupied: Bitboard, line: Bitboard) -> Bitboard {
    let o = occupied & line;
    let r = 1u64 << sq;
    (o ^ o.wrapping_sub(r << 1)) & line
}

/// The squares a slider on `sq` attacks along `line`, both ways: the subtraction forwards, and
/// on the mirrored board (`reverse_bits`) for the other direction.
pub fn line_attacks(sq: Square, occupied: Bitboard, line: Bitboard) -> Bitboard {
    let o = occupied & line;
    let r = 1u64 << sq;
    let forward = o.wrapping_sub(r << 1);
    let reverse = o.reverse_bits().wrapping_sub(r.reverse_bits() << 1).reverse_bits();
    (forward ^ reverse) & line
}

/// Hyperbola quintessence: the same with `swap_bytes` (the board mirrored top to bottom),
/// which reverses the order of the squares along a file or a diagonal, but not along a rank.
fn vertical_line_attacks(sq: Square, occupied: Bitboard, line: Bitboard) -> Bitboard {
    let o = occupied & line;
    let r = 1u64 << sq;
    let forward = o.wrapping_sub(r << 1);
    let reverse = o.swap_bytes().wrapping_sub(r.swap_bytes() << 1).swap_bytes();
    (forward ^ reverse) & line
}

/// The squares a slider on `sq` attacks along its file.
pub fn file_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    vertical_line_attacks(sq, occupied, file_line(sq))
}

/// The squares a slider on `sq` attacks along its diagonal.
pub fn diagonal_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    vertical_line_attacks(sq, occupied, diagonal_line(sq))
}

/// The squares a slider on `sq` attacks along its anti-diagonal.
pub fn anti_diagonal_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    vertical_line_attacks(sq, occupied, anti_diagonal_line(sq))
}

/// The squares a slider on `sq` attacks along its rank (`swap_bytes` can't mirror a rank).
pub fn rank_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    line_attacks(sq, occupied, rank_line(sq))
}

/// A rook's attacks: its file and its rank.
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    file_attacks(sq, occupied) | rank_attacks(sq, occupied)
}

/// A bishop's attacks: its two diagonals.
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    diagonal_attacks(sq, occupied) | anti_diagonal_attacks(sq, occupied)
}

/// A queen's attacks: a rook's and a bishop's.
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}
