//! Slow, obviously right sliding attacks by walking rays square by square.
//!
//! This file is shared with `build.rs`, which uses it to fill the attack
//! table from the committed magic numbers; the tests use it as the reference
//! the tables are checked against, and to find the magic numbers again. It
//! depends on nothing but std, `u64` and `u8` squares (a1 = 0).

/// Rook directions as (file step, rank step).
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares attacked from `sq` along `dirs`, stopping at (and including) the first blocker.
pub fn ray_attacks(sq: u8, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
    }
    attacks
}

/// The relevant-occupancy mask of a slider on `sq`: its empty-board rays without
/// the last square of each ray (a blocker there changes nothing).
pub fn relevant_mask(sq: u8, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            mask |= 1u64 << (r * 8 + f);
        }
    }
    mask
}

/// Every subset of `mask`, by the carry-rippler trick.
pub fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            return out;
        }
    }
}

/// The attack table of a slider on `sq` indexed by `magic`, or `None` if
/// two blocker sets with different attacks share an index. Slots no
/// blocker set reaches hold 0.
pub fn magic_table(sq: u8, dirs: &[(i8, i8); 4], magic: u64) -> Option<Vec<u64>> {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let mut table = vec![None; 1 << bits];
    for occ in subsets(mask) {
        let attacks = ray_attacks(sq, occ, dirs);
        let slot = &mut table[(occ.wrapping_mul(magic) >> (64 - bits)) as usize];
        match *slot {
            Some(other) if other != attacks => return None,
            _ => *slot = Some(attacks),
        }
    }
    Some(table.into_iter().map(|a| a.unwrap_or(0)).collect())
}

/// xorshift64* with a fixed seed: reproducible candidates.
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Sparse candidates (few bits set) make good magics far more often.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// The seed the committed magic numbers were found with.
pub const MAGIC_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The first sparse candidate from `rng` that indexes `sq`'s table without
/// a harmful collision. Rooks then bishops, a1 to h8, from one
/// [`MAGIC_SEED`] generator give the committed numbers.
pub fn find_magic(sq: u8, dirs: &[(i8, i8); 4], rng: &mut Rng) -> u64 {
    let mask = relevant_mask(sq, dirs);
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        if magic_table(sq, dirs, magic).is_some() {
            return magic;
        }
    }
}
