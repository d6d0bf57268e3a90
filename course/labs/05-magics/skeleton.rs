//! Lab 5: sliding pieces II, magic bitboards.
//!
//! The lab text: `labs/05-magics.md` in your workspace, or `course text 5`.
//!
//! A slider's attacks depend only on the pieces on its rays ("the relevant
//! occupancy"). Multiply those pieces by a magic number, keep the top bits,
//! and you have an index into a table of precomputed attack sets.
//!
//! Replace each `todo!()` with your code, then run `course check 5`. The helper
//! functions and tables behind `plain_*` and the fancy lookups are yours to design
//! (the lab text suggests one layout).

// The parameters are unused until you write the bodies; delete this line when you are done.
#![allow(unused_variables, unused_imports, dead_code)]

use crate::types::{Bitboard, Square};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------
// Given: the slow, obviously right ray walk (lab 4's idea, one square at a
// time). The tables below are filled from it, and you may use it to test.

const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn walk(sq: Square, occupied: Bitboard, directions: &[(i8, i8); 4]) -> Bitboard {
    let mut attacks = 0;
    for &(df, dr) in directions {
        let (mut file, mut rank) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            file += df;
            rank += dr;
            if !(0..8).contains(&file) || !(0..8).contains(&rank) {
                break;
            }
            let bit = 1u64 << (rank * 8 + file);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
    }
    attacks
}

/// Given: the rook's attacks by walking each ray until it leaves the board
/// or hits a piece (the piece's square is included).
pub fn slow_rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    walk(sq, occupied, &ROOK_DIRECTIONS)
}

/// Given: the bishop's attacks by walking its four diagonals.
pub fn slow_bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    walk(sq, occupied, &BISHOP_DIRECTIONS)
}

/// Given: a small pseudo-random generator (xorshift). The same seed gives
/// the same numbers on every machine, so your magics are the same on every run.
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed` (any value but zero).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 { 1 } else { seed })
    }

    /// The next pseudo-random 64-bit number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

// ---------------------------------------------------------------------------
// Task 1: the relevant occupancy masks.

/// The squares whose occupancy can change a rook's attacks from `sq`: its
/// rays without the last square of each ray (a piece on the board's edge
/// blocks nothing behind it). Rook on d4: d2, d3, d5, d6, d7, b4, c4, e4, f4, g4.
pub fn rook_mask(sq: Square) -> Bitboard {
    todo!()
}

/// The same for a bishop: its diagonals without the board's rim.
pub fn bishop_mask(sq: Square) -> Bitboard {
    todo!()
}

// ---------------------------------------------------------------------------
// Task 2: every subset of a mask.

/// The `index`-th subset of `mask`: bit i of `index` says whether the i-th
/// lowest square of `mask` is occupied. Index 0 is the empty set, index
/// `2^popcount(mask) - 1` the whole mask.
pub fn subset(index: u64, mask: Bitboard) -> Bitboard {
    todo!()
}

// ---------------------------------------------------------------------------
// Task 3: the magic index and the search for magics.

/// The table index of `occupied`: keep the relevant squares, multiply by the
/// magic (wrapping, as u64 does in C), keep the top `64 - shift` bits.
pub fn magic_index(occupied: Bitboard, mask: Bitboard, magic: u64, shift: u32) -> usize {
    todo!()
}

/// Search a magic for `mask` whose index has `bits` bits: try random numbers
/// with few bits set until every subset of `mask` lands on a slot that holds
/// nothing yet or already the same attack set (a harmless collision).
/// `slow` gives the right attacks of one subset.
pub fn find_magic(
    sq: Square,
    mask: Bitboard,
    bits: u32,
    slow: fn(Square, Bitboard) -> Bitboard,
    rng: &mut Rng,
) -> u64 {
    todo!()
}

// ---------------------------------------------------------------------------
// Task 4: plain magics, one table of fixed size per square (4096 entries for
// a rook, 512 for a bishop), shift 64 - 12 and 64 - 9 on every square. Build
// the tables once, on first use: a `static TABLES: OnceLock<...>` (std::sync)
// holds them.

/// A rook's attacks from the plain tables.
pub fn plain_rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// A bishop's attacks from the plain tables.
pub fn plain_bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

// ---------------------------------------------------------------------------
// Task 5: fancy magics, one shared table, each square only as many slots as
// its mask needs (2^popcount(mask)), rooks first, then bishops.

/// One square's entry in the fancy table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Magic {
    /// The relevant occupancy mask.
    pub mask: Bitboard,
    /// The magic number.
    pub magic: u64,
    /// 64 minus the number of bits in the mask.
    pub shift: u32,
    /// Where this square's slots start in the shared table.
    pub offset: usize,
}

/// The fancy table's rook entry for `sq` (the checker tests your magic).
pub fn rook_magic(sq: Square) -> Magic {
    todo!()
}

/// The fancy table's bishop entry for `sq`.
pub fn bishop_magic(sq: Square) -> Magic {
    todo!()
}

/// How many entries the shared fancy table holds (rooks and bishops).
pub fn fancy_table_len() -> usize {
    todo!()
}

/// A rook's attacks from `sq` with `occupied` as the blockers (fancy magics).
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// A bishop's attacks from `sq` (fancy magics).
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// A queen's attacks: a rook's and a bishop's together.
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    todo!()
}
