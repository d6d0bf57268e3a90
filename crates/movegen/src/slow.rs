//! Slow, obviously right sliding attacks by walking rays square by square.
//!
//! This file is shared with `build.rs`, which uses it to find magic numbers and
//! fill the attack table; the tests use it as the reference the tables are
//! checked against. It depends on nothing but `u64` and `u8` squares (a1 = 0).

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
