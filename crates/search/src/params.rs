//! Where each evaluation weight lives in [`WEIGHTS`]: every weight is a
//! (middlegame, endgame) pair of centipawns, and the evaluation is a sum of
//! weights times counts, so that the tuner (`examples/texel.rs`) can fit
//! all of them at once to the results of our own games.
//!
//! The values are in `weights.rs`, which the tuner writes; this file only
//! names the slots. Piece-square slots are for White, a1 = 0; Black's
//! pieces read them with the board flipped.

pub use crate::weights::WEIGHTS;

/// The weights where the search reads them at run time (a `static`, so
/// they are in memory once rather than copied where used).
pub static W: [(i32, i32); NUM] = WEIGHTS;

/// Piece values, by piece kind (the king's slot stays 0).
pub const MATERIAL: usize = 0;
/// Piece-square bonuses: `PST + 64 * piece + square`.
pub const PST: usize = MATERIAL + 6;
/// Mobility by the number of safe squares reached, for knights (0–8),
/// bishops (0–13), rooks (0–14) and queens (0–27): `MOBILITY[i] + count`.
pub const MOBILITY: [usize; 4] = [
    PST + 6 * 64,
    PST + 6 * 64 + 9,
    PST + 6 * 64 + 9 + 14,
    PST + 6 * 64 + 9 + 14 + 15,
];
/// Passed pawns by rank counted from their own side: `PASSED + rank`.
pub const PASSED: usize = MOBILITY[3] + 28;
/// Per pawn beyond the first on a file.
pub const DOUBLED: usize = PASSED + 8;
/// A pawn with no friendly pawn on either neighbouring file.
pub const ISOLATED: usize = DOUBLED + 1;
/// Both bishops.
pub const BISHOP_PAIR: usize = ISOLATED + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file without own pawns but with an enemy one.
pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
/// A friendly pawn right in front of a king on its first two ranks.
pub const SHIELD: usize = ROOK_HALF_OPEN + 1;
/// King danger by attack units on the enemy king's squares, with at least
/// two attackers: `KING_DANGER + units` (units capped at `DANGER_SLOTS - 1`).
pub const KING_DANGER: usize = SHIELD + 1;
/// Slots of the king danger table.
pub const DANGER_SLOTS: usize = 48;
/// Pawns defended by an own pawn.
pub const SUPPORTED: usize = KING_DANGER + DANGER_SLOTS;
/// A passed pawn's king race: (enemy king's distance to the square in
/// front of it minus own king's) times the pawn's rank from its side.
pub const PASSER_KINGS: usize = SUPPORTED + 1;
/// A passed pawn with a piece on the square in front of it.
pub const PASSER_BLOCKED: usize = PASSER_KINGS + 1;
/// A piece other than a pawn or king attacked by an enemy pawn.
pub const PAWN_THREAT: usize = PASSER_BLOCKED + 1;
/// How many weights there are.
pub const NUM: usize = PAWN_THREAT + 1;

/// A name for each slot, for the tuner's report and the weights file.
pub fn name(slot: usize) -> String {
    const PIECES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    const MOBILE: [&str; 4] = ["knight", "bishop", "rook", "queen"];
    let square = |s: usize| format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1);
    match slot {
        s if s < PST => format!("material {}", PIECES[s - MATERIAL]),
        s if s < MOBILITY[0] => {
            let i = s - PST;
            format!("pst {} {}", PIECES[i / 64], square(i % 64))
        }
        s if s < PASSED => {
            let i = (0..4).rev().find(|&i| s >= MOBILITY[i]).unwrap_or(0);
            format!("mobility {} {}", MOBILE[i], s - MOBILITY[i])
        }
        s if s < DOUBLED => format!("passed rank {}", s - PASSED + 1),
        DOUBLED => "doubled".into(),
        ISOLATED => "isolated".into(),
        BISHOP_PAIR => "bishop pair".into(),
        ROOK_OPEN => "rook open file".into(),
        ROOK_HALF_OPEN => "rook half-open file".into(),
        SHIELD => "king shield".into(),
        SUPPORTED => "pawn supported".into(),
        PASSER_KINGS => "passer king race".into(),
        PASSER_BLOCKED => "passer blocked".into(),
        PAWN_THREAT => "threat by pawn".into(),
        s => format!("king danger {}", s - KING_DANGER),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_contiguous_and_named_once() {
        assert_eq!(WEIGHTS.len(), NUM);
        // Squares each mobility table covers, for N, B, R, Q.
        const MOBILITY_SQUARES: [usize; 4] = [9, 14, 15, 28];
        for i in 0..4 {
            let end = if i < 3 { MOBILITY[i + 1] } else { PASSED };
            assert_eq!(end - MOBILITY[i], MOBILITY_SQUARES[i]);
        }
        let names: std::collections::HashSet<String> = (0..NUM).map(name).collect();
        assert_eq!(names.len(), NUM);
        assert_eq!(
            WEIGHTS[MATERIAL + 5],
            (0, 0),
            "the king has no material value"
        );
    }
}
