//! Perft: counting the leaf nodes of the legal move tree, on one thread or
//! several, with or without a table of subtree counts, and perft beyond
//! one machine.
//!
//! ```
//! use movegen::perft::{divide, perft};
//! use movegen::Position;
//!
//! let pos = Position::startpos();
//! assert_eq!(perft(&pos, 3), 8_902);
//! let per_move = divide(&pos, 2);
//! assert_eq!(per_move.len(), 20);
//! assert_eq!(per_move.iter().map(|&(_, n)| n).sum::<u64>(), 400);
//! ```
//!
//! [`perft`] and [`divide`] are always here (`no_std` too). By default
//! [`perft`] is a plain recursion over [`Position::generate`], quick to
//! compile; the `fast-perft` feature swaps in a recursion specialised per
//! piece and castling state and compiled for three x86-64 CPU levels,
//! chosen at run time (about 3x faster, and most of the crate's machine
//! code). The rest needs the `std` feature: `PerftHash` and the hashed
//! and threaded counts, and, in [`deep`], the steps of a perft too deep
//! for one machine.

#[cfg(feature = "std")]
pub mod deep;
#[cfg(feature = "fast-perft")]
mod dispatch;
#[cfg(feature = "std")]
mod hash;
#[cfg(feature = "std")]
mod identity;
#[cfg(feature = "std")]
mod parallel;
#[cfg(feature = "fast-perft")]
mod recursion;
#[cfg(not(feature = "fast-perft"))]
mod simple;

use crate::moves::Move;
use crate::position::Position;
use alloc::vec::Vec;

#[cfg(feature = "fast-perft")]
pub use dispatch::{perft, perft_hashed};
#[cfg(feature = "std")]
pub use hash::PerftHash;
#[cfg(feature = "std")]
pub use parallel::{
    divide_parallel, divide_streamed, divide_until, divide_with, perft_parallel, perft_with,
};
#[cfg(not(feature = "fast-perft"))]
pub use simple::perft;
#[cfg(all(feature = "std", not(feature = "fast-perft")))]
pub use simple::perft_hashed;

/// Perft per root move ("divide"), in move generation order; `depth` 0
/// gives an empty list.
///
/// ```
/// use movegen::perft::divide;
/// use movegen::Position;
///
/// let pos = Position::startpos();
/// let e4 = pos.parse_uci_move("e2e4").unwrap();
/// assert!(divide(&pos, 3).contains(&(e4, 600)));
/// assert!(divide(&pos, 0).is_empty());
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| (mv, perft(&pos.play_generated(mv), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn startpos_shallow() {
        let pos = Position::startpos();
        let counts: Vec<u64> = (0..=4).map(|d| perft(&pos, d)).collect();
        #[cfg(feature = "std")]
        {
            assert_eq!(perft_parallel(&pos, 4, 2), counts[4]);
            assert_eq!(divide_parallel(&pos, 3, 2), divide(&pos, 3));
        }
        assert_eq!(counts, [1, 20, 400, 8902, 197_281]);
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::from_fen(KIWIPETE).unwrap();
        let div = divide(&pos, 3);
        assert_eq!(div.len(), 48);
        assert_eq!(div.iter().map(|d| d.1).sum::<u64>(), 97_862);
    }

    #[test]
    #[cfg(feature = "std")]
    fn threads_and_hash_give_the_same_counts() {
        let pos = Position::from_fen(KIWIPETE).unwrap();
        let plain = divide(&pos, 3);
        let hash = PerftHash::new(1);
        for threads in [1, 2, 3] {
            assert_eq!(divide_with(&pos, 3, threads, None), plain);
            assert_eq!(divide_with(&pos, 3, threads, Some(&hash)), plain);
        }
        assert_eq!(perft_with(&pos, 4, 2, Some(&hash)), 4_085_603);
        // A tiny table (one slot) collides all the time and must stay right.
        let tiny = PerftHash::new(0);
        assert_eq!(perft_hashed(&pos, 3, &tiny), 97_862);
    }

    #[test]
    #[cfg(feature = "std")]
    fn a_stopped_divide_gives_no_count() {
        use std::sync::atomic::AtomicBool;
        let stop = AtomicBool::new(true);
        let go = AtomicBool::new(false);
        let pos = Position::startpos();
        for threads in [1, 2] {
            assert_eq!(divide_until(&pos, 9, threads, None, &stop, |_, _| {}), None);
            assert_eq!(divide_until(&pos, 3, threads, None, &stop, |_, _| {}), None);
            // Deeper than one leaf call, so the walk above the leaves runs.
            let div = divide_until(&pos, 6, threads, None, &go, |_, _| {});
            assert_eq!(div.unwrap().iter().map(|d| d.1).sum::<u64>(), 119_060_324);
        }
        assert_eq!(
            divide_until(&pos, 0, 1, None, &stop, |_, _| {}),
            Some(Vec::new())
        );
    }

    #[test]
    #[cfg(feature = "std")]
    fn streamed_divide_reports_each_root_move_once_in_order() {
        let pos = Position::from_fen(KIWIPETE).unwrap();
        let plain = divide(&pos, 3);
        for threads in [1, 2, 3] {
            let mut seen = Vec::new();
            let div = divide_streamed(&pos, 3, threads, None, |mv, n| seen.push((mv, n)));
            assert_eq!(div, plain);
            assert_eq!(seen, plain, "{threads} threads");
        }
    }
}
