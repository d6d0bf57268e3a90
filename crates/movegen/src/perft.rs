//! Perft: counting the leaf nodes of the legal move tree, on one thread or
//! several, with or without a table of subtree counts.

use crate::movegen::MoveSink;
use crate::moves::{Move, PawnMoves, PieceMoves};
use crate::piece::Piece;
use crate::position::Position;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The number of leaf nodes `depth` plies below `pos`. The last ply is counted
/// in bulk (the size of each piece's target set), without playing its moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => {
            let mut sink = Expand {
                pos,
                depth: depth - 1,
                nodes: 0,
            };
            pos.generate(&mut sink);
            sink.nodes
        }
    }
}

/// Plays each generated move and counts the subtree below it.
struct Expand<'a> {
    pos: &'a Position,
    depth: u32,
    nodes: u64,
}

impl MoveSink for Expand<'_> {
    #[inline(always)]
    fn piece(&mut self, moves: PieceMoves) -> bool {
        for mv in moves {
            self.nodes += perft(&self.pos.play_piece(moves.piece, mv), self.depth);
        }
        false
    }

    #[inline(always)]
    fn pawns(&mut self, moves: PawnMoves) -> bool {
        for mv in moves {
            self.nodes += perft(&self.pos.play_piece(Piece::Pawn, mv), self.depth);
        }
        false
    }
}

/// Perft per root move ("divide"), in move generation order.
///
/// `depth` 0 gives an empty list.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_with(pos, depth, 1, None)
}

/// A shared table of subtree counts keyed by zobrist key and depth, for
/// hashed perft. Lock-free: each slot holds the key XOR the data beside the
/// data, so a slot torn by two threads writing at once reads as a miss.
pub struct PerftHash {
    slots: Vec<[AtomicU64; 2]>,
}

const DEPTH_BITS: u32 = 8;

impl PerftHash {
    /// A table of about `mb` MiB (at least one slot).
    pub fn new(mb: usize) -> PerftHash {
        let n = ((mb << 20) / 16).max(1);
        PerftHash {
            slots: (0..n)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    fn slot(&self, key: u64, depth: u32) -> &[AtomicU64; 2] {
        let mixed = key ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.slots[((mixed as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    fn get(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = self.slot(key, depth);
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        (check ^ data == key && data & ((1 << DEPTH_BITS) - 1) == depth as u64)
            .then_some(data >> DEPTH_BITS)
    }

    fn put(&self, key: u64, depth: u32, count: u64) {
        // Counts beyond 2^56 are not cached (none of the usual depths reach them).
        if count >> (64 - DEPTH_BITS) != 0 {
            return;
        }
        let data = count << DEPTH_BITS | depth as u64;
        let slot = self.slot(key, depth);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

/// Perft with subtree counts cached in `hash`.
pub fn perft_hashed(pos: &Position, depth: u32, hash: &PerftHash) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    if let Some(n) = hash.get(pos.key(), depth) {
        return n;
    }
    let mut nodes = 0;
    pos.generate_moves(|pm| {
        for mv in pm {
            nodes += perft_hashed(&pos.play(mv), depth - 1, hash);
        }
        false
    });
    hash.put(pos.key(), depth, nodes);
    nodes
}

/// Divide on `threads` threads, optionally hashed: the root moves are handed
/// out one at a time to whichever thread is free, so counts are identical to
/// [`divide`] whatever the thread count.
pub fn divide_with(
    pos: &Position,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&mv) = moves.get(i) else { break };
        let child = pos.play(mv);
        let n = match hash {
            Some(h) => perft_hashed(&child, depth - 1, h),
            None => perft(&child, depth - 1),
        };
        counts[i].store(n, Ordering::Relaxed);
    };
    let threads = threads.clamp(1, moves.len().max(1));
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    moves
        .iter()
        .zip(&counts)
        .map(|(&mv, n)| (mv, n.load(Ordering::Relaxed)))
        .collect()
}

/// Perft on `threads` threads, optionally hashed; same counts as [`perft`].
pub fn perft_with(pos: &Position, depth: u32, threads: usize, hash: Option<&PerftHash>) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    divide_with(pos, depth, threads, hash)
        .iter()
        .map(|d| d.1)
        .sum()
}

/// Perft split over `threads` threads, no hashing; same counts as [`perft`].
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    perft_with(pos, depth, threads, None)
}

/// Divide split over `threads` threads, no hashing; same counts as [`divide`].
pub fn divide_parallel(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_with(pos, depth, threads, None)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
