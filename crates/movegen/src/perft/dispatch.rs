//! Run-time dispatch: the recursion compiled for the CPU it runs on.
//!
//! On x86-64 CPUs with POPCNT, BMI1, BMI2 and LZCNT (Intel since 2013, AMD
//! since 2015) perft runs a copy of the generator compiled for them, chosen
//! at run time, so the release build stays portable; other CPUs run the
//! portable copy. Both give the same counts (the tests compare them).

use super::hash::PerftHash;
use super::recursion::portable;
use crate::position::Position;

#[cfg(target_arch = "x86_64")]
use super::recursion::bmi2;

/// The number of leaf nodes `depth` plies below `pos`. The last ply is counted
/// in bulk (the size of each piece's target set), without playing its moves.
///
/// On x86-64 CPUs with POPCNT, BMI1, BMI2 and LZCNT this runs a copy of the
/// generator compiled for them, chosen at run time, so the release build
/// stays portable; other CPUs run the portable copy. Both give the same counts.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: the CPU has every feature `bmi2` is compiled for.
        return unsafe { bmi2::perft(pos, depth) };
    }
    // SAFETY: the portable copy needs no CPU feature.
    unsafe { portable::perft(pos, depth) }
}

/// Perft with subtree counts cached in `hash` (the CPU dispatch of [`perft`]).
pub fn perft_hashed(pos: &Position, depth: u32, hash: &PerftHash) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: the CPU has every feature `bmi2` is compiled for.
        return unsafe { bmi2::perft_hashed(pos, depth, hash) };
    }
    // SAFETY: the portable copy needs no CPU feature.
    unsafe { portable::perft_hashed(pos, depth, hash) }
}

/// Whether this CPU runs the `bmi2` copy of perft (detected once, then cached).
#[cfg(target_arch = "x86_64")]
fn has_bmi2() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_and_dispatched_copies_agree() {
        let fens = [
            crate::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            // SAFETY: the portable copy needs no CPU feature.
            let portable = unsafe { portable::perft(&pos, 4) };
            assert_eq!(perft(&pos, 4), portable, "{fen}");
            let hash = PerftHash::new(1);
            // SAFETY: as above.
            let hashed = unsafe { portable::perft_hashed(&pos, 4, &hash) };
            assert_eq!(hashed, portable, "{fen}");
        }
    }
}
