//! Perft: counting the leaf nodes of the legal move tree, on one thread or
//! several, with or without a table of subtree counts.
//!
//! [`recursion`] holds the counting itself, [`dispatch`] picks the copy of it
//! compiled for the CPU, [`hash`] the table of subtree counts and
//! [`parallel`] the splitting of the work over threads.
//!
//! Perft beyond one machine goes in three steps: [`split`] the tree at depth
//! S into unique positions with their paths (written as a units file,
//! [`units`]), count perft(D - S) of ranges of units anywhere ([`batch`]),
//! and [`merge`] the `index count` results into the exact total.
//! [`identity`] says when two positions are the same.

mod batch;
mod dispatch;
mod hash;
mod identity;
mod merge;
mod parallel;
mod recursion;
mod split;
mod units;

pub use batch::count_units;
pub use dispatch::{perft, perft_hashed};
pub use hash::PerftHash;
pub use merge::{merge, result_line, MergeError};
pub use parallel::{
    divide, divide_parallel, divide_streamed, divide_until, divide_with, perft_parallel, perft_with,
};
pub use split::{split, Unit};
pub use units::{read_units, write_units, UnitsError, UnitsFile, UnitsHeader};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn startpos_shallow() {
        let pos = Position::startpos();
        let counts: Vec<u64> = (0..=4).map(|d| perft(&pos, d)).collect();
        assert_eq!(perft_parallel(&pos, 4, 2), counts[4]);
        assert_eq!(divide_parallel(&pos, 3, 2), divide(&pos, 3));
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
