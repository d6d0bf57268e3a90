//! Run-time dispatch: the recursion compiled for the CPU it runs on.
//!
//! On x86-64 CPUs with POPCNT, BMI1, BMI2 and LZCNT (Intel since 2013, AMD
//! since 2015) perft runs a copy of the generator compiled for them, chosen
//! at run time, so the release build stays portable; other CPUs run the
//! portable copy. Where PEXT is also fast (every Intel CPU with BMI2; AMD
//! from Zen 3, family 0x19, on: earlier AMD CPUs run it in microcode, far
//! slower than a magic multiply) that copy looks sliders up by PEXT. All
//! give the same counts (the tests compare them).

use super::hash::PerftHash;
use super::recursion::portable;
use crate::position::Position;

#[cfg(target_arch = "x86_64")]
use super::recursion::{bmi2, bmi2_pext};

/// The number of leaf nodes `depth` plies below `pos`. The last ply is counted
/// in bulk (the size of each piece's target set), without playing its moves.
///
/// On x86-64 CPUs with POPCNT, BMI1, BMI2 and LZCNT this runs a copy of the
/// generator compiled for them, chosen at run time, so the release build
/// stays portable; other CPUs run the portable copy. Both give the same counts.
///
/// # Examples
///
/// ```
/// use movegen::perft::perft;
/// use movegen::Position;
///
/// assert_eq!(perft(&Position::startpos(), 4), 197_281);
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// assert_eq!(perft(&Position::from_fen(kiwipete).unwrap(), 3), 97_862);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    match copy() {
        // SAFETY: the CPU has every feature these copies are compiled for.
        Copy::Pext => return unsafe { bmi2_pext::perft(pos, depth) },
        // SAFETY: as above.
        Copy::Bmi2 => return unsafe { bmi2::perft(pos, depth) },
        Copy::Portable => {}
    }
    // SAFETY: the portable copy needs no CPU feature.
    unsafe { portable::perft(pos, depth) }
}

/// Perft with subtree counts cached in `hash` (the CPU dispatch of
/// [`perft`]); callers reach it through [`Perft::hash`](super::Perft::hash).
pub(super) fn perft_hashed(pos: &Position, depth: u32, hash: &PerftHash) -> u64 {
    #[cfg(target_arch = "x86_64")]
    match copy() {
        // SAFETY: the CPU has every feature these copies are compiled for.
        Copy::Pext => return unsafe { bmi2_pext::perft_hashed(pos, depth, hash) },
        // SAFETY: as above.
        Copy::Bmi2 => return unsafe { bmi2::perft_hashed(pos, depth, hash) },
        Copy::Portable => {}
    }
    // SAFETY: the portable copy needs no CPU feature.
    unsafe { portable::perft_hashed(pos, depth, hash) }
}

/// Which copy of the recursion this CPU runs.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Copy {
    Portable,
    Bmi2,
    Pext,
}

/// Detected once: CPUID is slow, and in a virtual machine it traps to the
/// host, while parallel perft dispatches once per task.
#[cfg(target_arch = "x86_64")]
fn copy() -> Copy {
    static COPY: std::sync::OnceLock<Copy> = std::sync::OnceLock::new();
    *COPY.get_or_init(|| match (has_bmi2(), fast_pext()) {
        (false, _) => Copy::Portable,
        (true, false) => Copy::Bmi2,
        (true, true) => Copy::Pext,
    })
}

/// Whether this CPU executes PEXT in hardware at full speed: Intel's BMI2
/// CPUs and AMD's from family 0x19 (Zen 3) on, going by CPUID's vendor and
/// family. Other vendors keep the magic multiply.
#[cfg(target_arch = "x86_64")]
fn fast_pext() -> bool {
    use std::arch::x86_64::{__cpuid, CpuidResult};
    // `__cpuid` is a safe function in recent Rust and unsafe in older ones.
    #[allow(unused_unsafe)]
    // SAFETY: CPUID exists on every x86-64 CPU, and leaves 0 and 1 on all.
    let cpuid = |leaf: u32| -> CpuidResult { unsafe { __cpuid(leaf) } };
    let vendor = cpuid(0);
    let name = [vendor.ebx, vendor.edx, vendor.ecx];
    let is = |text: &[u8; 12]| {
        name.iter()
            .flat_map(|word| word.to_le_bytes())
            .eq(text.iter().copied())
    };
    if is(b"GenuineIntel") {
        return true;
    }
    if !is(b"AuthenticAMD") {
        return false;
    }
    let eax = cpuid(1).eax;
    let base = (eax >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((eax >> 20) & 0xFF)
    } else {
        base
    };
    family >= 0x19
}

/// Whether this CPU can run the BMI2 copies of perft.
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
            #[cfg(target_arch = "x86_64")]
            if has_bmi2() {
                // SAFETY: the CPU has BMI2, which both copies need.
                let (magic, pext) = unsafe { (bmi2::perft(&pos, 4), bmi2_pext::perft(&pos, 4)) };
                assert_eq!((magic, pext), (portable, portable), "{fen}");
                let hash = PerftHash::new(1);
                // SAFETY: as above.
                let hashed = unsafe { bmi2_pext::perft_hashed(&pos, 4, &hash) };
                assert_eq!(hashed, portable, "{fen}");
            }
            let hash = PerftHash::new(1);
            // SAFETY: as above.
            let hashed = unsafe { portable::perft_hashed(&pos, 4, &hash) };
            assert_eq!(hashed, portable, "{fen}");
        }
    }
}
