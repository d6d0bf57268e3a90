//! Perft: counting the leaf nodes of the legal move tree.
//!
//! [`perft`] and [`divide`] are the plain counts, always here (`no_std`
//! too). Everything beyond them needs the `std` feature and goes through
//! one entry point, [`Perft`]: a small value that says how to count
//! (threads, a shared [`PerftHash`] of subtree counts, a stop flag), then
//! [`count`](Perft::count) or [`divide`](Perft::divide), whose callback
//! sees each root move as soon as it is counted. The counts are the same
//! whatever the settings. [`deep`] holds the steps of a perft too deep for
//! one machine (split into units, count them anywhere, merge).
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
//! With `std`:
//!
//! ```
//! use movegen::perft::{divide, Perft, PerftHash};
//! use movegen::Position;
//! use std::sync::atomic::AtomicBool;
//!
//! let pos = Position::startpos();
//! let table = PerftHash::new(1);
//! let perft = Perft::new(3).threads(2).hash(&table);
//! assert_eq!(perft.count(&pos), 8_902);
//! assert_eq!(perft.divide(&pos, |mv, n| println!("{mv}: {n}")), divide(&pos, 3));
//! let stop = AtomicBool::new(true); // as set by another thread
//! assert_eq!(perft.stop(&stop).count(&pos), None);
//! ```
//!
//! By default [`perft`] is a plain recursion over [`Position::generate`],
//! quick to compile; the `fast-perft` feature swaps in a recursion
//! specialised per piece and castling state and compiled for three x86-64
//! CPU levels, chosen at run time (about 3x faster, and most of the crate's
//! machine code).

#[cfg(feature = "std")]
pub mod deep;
#[cfg(feature = "fast-perft")]
mod dispatch;
#[cfg(feature = "std")]
mod hash;
#[cfg(feature = "std")]
mod identity;
#[cfg(feature = "std")]
mod options;
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
pub use dispatch::perft;
#[cfg(feature = "fast-perft")]
use dispatch::perft_hashed;
#[cfg(feature = "std")]
pub use hash::PerftHash;
#[cfg(feature = "std")]
pub use options::{Perft, StoppablePerft};
#[cfg(not(feature = "fast-perft"))]
pub use simple::perft;
#[cfg(all(feature = "std", not(feature = "fast-perft")))]
use simple::perft_hashed;

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
        assert_eq!(counts, [1, 20, 400, 8902, 197_281]);
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::from_fen(KIWIPETE).unwrap();
        let div = divide(&pos, 3);
        assert_eq!(div.len(), 48);
        assert_eq!(div.iter().map(|d| d.1).sum::<u64>(), 97_862);
    }
}
