//! bug: the loop that fills the fancy table stops one subset early: the fully blocked mask has no entry
//! expect: rook_attacks(a1, blockers b1 c1 d1 e1 f1 g1 a2 a3 a4 a5 a6 a7) is wrong: missing b1 a2
//! Lab 5: sliding pieces II, magic bitboards.
//!
//! A slider's attacks depend only on the pieces on its rays ("the relevant
//! occupancy"). Multiply those pieces by a magic number, keep the top bits,
//! and you have an index into a table of precomputed attack sets.

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
    let (file, rank) = (sq % 8, sq / 8);
    let mut mask = 0;
    for f in 1..7 {
        mask |= 1u64 << (rank * 8 + f);
    }
    for r in 1..7 {
        mask |= 1u64 << (r * 8 + file);
    }
    mask & !(1u64 << sq)
}

/// The same for a bishop: its diagonals without the board's rim.
pub fn bishop_mask(sq: Square) -> Bitboard {
    const RIM: Bitboard = 0xff81_8181_8181_81ff;
    slow_bishop_attacks(sq, 0) & !RIM
}

// ---------------------------------------------------------------------------
// Task 2: every subset of a mask.

/// The `index`-th subset of `mask`: bit i of `index` says whether the i-th
/// lowest square of `mask` is occupied. Index 0 is the empty set, index
/// `2^popcount(mask) - 1` the whole mask.
pub fn subset(index: u64, mask: Bitboard) -> Bitboard {
    let mut result = 0;
    let mut rest = mask;
    let mut i = 0;
    while rest != 0 {
        let lowest = rest & rest.wrapping_neg();
        if index >> i & 1 == 1 {
            result |= lowest;
        }
        rest &= rest - 1;
        i += 1;
    }
    result
}

// ---------------------------------------------------------------------------
// Task 3: the magic index and the search for magics.

/// The table index of `occupied`: keep the relevant squares, multiply by the
/// magic (wrapping, as u64 does in C), keep the top `64 - shift` bits.
pub fn magic_index(occupied: Bitboard, mask: Bitboard, magic: u64, shift: u32) -> usize {
    ((occupied & mask).wrapping_mul(magic) >> shift) as usize
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
    let count = 1u64 << mask.count_ones();
    let occupancies: Vec<Bitboard> = (0..count).map(|i| subset(i, mask)).collect();
    let attacks: Vec<Bitboard> = occupancies.iter().map(|&o| slow(sq, o)).collect();
    // used[i] holds an attack set when tried[i] is this try's number, so the
    // table needs no clearing between tries.
    let mut used = vec![0u64; 1 << bits];
    let mut tried = vec![0u32; 1 << bits];
    let mut attempt = 0u32;
    loop {
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        // A useful magic moves many mask bits into the top byte.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for (&occ, &att) in occupancies.iter().zip(&attacks) {
            let i = magic_index(occ, mask, magic, 64 - bits);
            if tried[i] != attempt {
                tried[i] = attempt;
                used[i] = att;
            } else if used[i] != att {
                ok = false;
                break;
            }
        }
        if ok {
            return magic;
        }
    }
}

// ---------------------------------------------------------------------------
// Task 4: plain magics, one table of fixed size per square.

const PLAIN_ROOK_BITS: u32 = 12;
const PLAIN_BISHOP_BITS: u32 = 9;

struct Plain {
    rook_magics: [u64; 64],
    bishop_magics: [u64; 64],
    rook: Vec<Bitboard>,   // 64 * 4096 entries, square sq at sq * 4096
    bishop: Vec<Bitboard>, // 64 * 512 entries
}

fn fill_plain(bits: u32, mask: fn(Square) -> Bitboard, slow: fn(Square, Bitboard) -> Bitboard, seed: u64) -> ([u64; 64], Vec<Bitboard>) {
    let mut rng = Rng::new(seed);
    let mut magics = [0u64; 64];
    let mut table = vec![0u64; 64 << bits];
    for sq in 0..64u8 {
        let m = mask(sq);
        let magic = find_magic(sq, m, bits, slow, &mut rng);
        magics[sq as usize] = magic;
        for i in 0..1u64 << m.count_ones() {
            let occ = subset(i, m);
            table[(sq as usize) << bits | magic_index(occ, m, magic, 64 - bits)] = slow(sq, occ);
        }
    }
    (magics, table)
}

fn plain() -> &'static Plain {
    static PLAIN: OnceLock<Plain> = OnceLock::new();
    PLAIN.get_or_init(|| {
        let (rook_magics, rook) = fill_plain(PLAIN_ROOK_BITS, rook_mask, slow_rook_attacks, 0x5eed_0005);
        let (bishop_magics, bishop) =
            fill_plain(PLAIN_BISHOP_BITS, bishop_mask, slow_bishop_attacks, 0x5eed_0006);
        Plain { rook_magics, bishop_magics, rook, bishop }
    })
}

/// A rook's attacks from the plain tables (shift 64 - 12 on every square).
pub fn plain_rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let p = plain();
    let i = magic_index(occupied, rook_mask(sq), p.rook_magics[sq as usize], 64 - PLAIN_ROOK_BITS);
    p.rook[(sq as usize) << PLAIN_ROOK_BITS | i]
}

/// A bishop's attacks from the plain tables (shift 64 - 9 on every square).
pub fn plain_bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let p = plain();
    let i = magic_index(occupied, bishop_mask(sq), p.bishop_magics[sq as usize], 64 - PLAIN_BISHOP_BITS);
    p.bishop[(sq as usize) << PLAIN_BISHOP_BITS | i]
}

// ---------------------------------------------------------------------------
// Task 5: fancy magics, one shared table, each square only as many slots as
// its mask needs.

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

struct Fancy {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<Bitboard>,
}

fn fill_fancy(table: &mut Vec<Bitboard>, mask: fn(Square) -> Bitboard, slow: fn(Square, Bitboard) -> Bitboard, seed: u64) -> [Magic; 64] {
    let mut rng = Rng::new(seed);
    let mut entries = [Magic::default(); 64];
    for sq in 0..64u8 {
        let m = mask(sq);
        let bits = m.count_ones();
        let magic = find_magic(sq, m, bits, slow, &mut rng);
        let entry = Magic { mask: m, magic, shift: 64 - bits, offset: table.len() };
        table.resize(table.len() + (1 << bits), 0);
        for i in 0..(1u64 << bits) - 1 {
            let occ = subset(i, m);
            table[entry.offset + magic_index(occ, m, magic, entry.shift)] = slow(sq, occ);
        }
        entries[sq as usize] = entry;
    }
    entries
}

fn fancy() -> &'static Fancy {
    static FANCY: OnceLock<Fancy> = OnceLock::new();
    FANCY.get_or_init(|| {
        let mut table = Vec::new();
        let rook = fill_fancy(&mut table, rook_mask, slow_rook_attacks, 0x5eed_0007);
        let bishop = fill_fancy(&mut table, bishop_mask, slow_bishop_attacks, 0x5eed_0008);
        Fancy { rook, bishop, table }
    })
}

/// The fancy table's rook entry for `sq` (the checker tests your magic).
pub fn rook_magic(sq: Square) -> Magic {
    fancy().rook[sq as usize]
}

/// The fancy table's bishop entry for `sq`.
pub fn bishop_magic(sq: Square) -> Magic {
    fancy().bishop[sq as usize]
}

/// How many entries the shared fancy table holds (rooks and bishops).
pub fn fancy_table_len() -> usize {
    fancy().table.len()
}

/// A rook's attacks from `sq` with `occupied` as the blockers (fancy magics).
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let f = fancy();
    let e = &f.rook[sq as usize];
    f.table[e.offset + magic_index(occupied, e.mask, e.magic, e.shift)]
}

/// A bishop's attacks from `sq` (fancy magics).
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let f = fancy();
    let e = &f.bishop[sq as usize];
    f.table[e.offset + magic_index(occupied, e.mask, e.magic, e.shift)]
}

/// A queen's attacks: a rook's and a bishop's together.
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}
