//! `go perft` as a job that can be stopped: the divide of
//! [`movegen::divide_with`], with the same split of work between threads,
//! but walked here down to subtrees of at most [`LEAF_DEPTH`] plies, which
//! movegen counts in one call. The stop flag is read before each of those
//! calls, so a stop is obeyed within milliseconds even in perft 9.

use movegen::{Move, PerftHash, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Depth of the subtrees counted in one movegen call: about four million
/// nodes at most in the usual test positions, a few milliseconds.
const LEAF_DEPTH: u32 = 4;

/// The MiB of perft hash a divide at `depth` gets when `Perft Hash` is
/// `option_mb`: no more than its subtrees could fill (48^(depth - 2) counts
/// of 16 bytes, a generous bound), since every first touch of a fresh page
/// costs time: with huge pages, 2 MiB zeroed for each early probe.
pub fn hash_mb(option_mb: usize, depth: u32) -> usize {
    if option_mb == 0 {
        return 0;
    }
    let counts = 48f64.powi(depth.saturating_sub(2) as i32);
    let need_mb = (counts * 16.0 / (1u64 << 20) as f64).ceil();
    option_mb.min(need_mb.max(1.0) as usize)
}

/// Perft per root move, in move generation order, on `threads` threads and
/// optionally hashed; `None` if `stop` was set before every subtree was
/// counted (a partial count is never returned).
pub fn divide(
    pos: &Position,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let moves = pos.legal_moves();
    let split_deeper = threads > 1 && depth >= 3;
    // (index of the root move, position to count, depth left)
    let mut tasks: Vec<(usize, Position, u32)> = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        let child = pos.play(mv);
        if split_deeper {
            let replies = child.legal_moves();
            tasks.extend(replies.iter().map(|&r| (i, child.play(r), depth - 2)));
        } else {
            tasks.push((i, child, depth - 1));
        }
    }
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let abandoned = AtomicBool::new(false);
    let work = || {
        while let Some((i, task, left)) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
            let Some(n) = count(task, *left, hash, stop) else {
                abandoned.store(true, Ordering::Relaxed);
                break;
            };
            counts[*i].fetch_add(n, Ordering::Relaxed);
        }
    };
    let threads = threads.clamp(1, tasks.len().max(1));
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    if abandoned.load(Ordering::Relaxed) {
        return None;
    }
    Some(
        moves
            .iter()
            .zip(&counts)
            .map(|(&mv, n)| (mv, n.load(Ordering::Relaxed)))
            .collect(),
    )
}

/// Leaf nodes `depth` plies below `pos`, or `None` if stopped first.
fn count(pos: &Position, depth: u32, hash: Option<&PerftHash>, stop: &AtomicBool) -> Option<u64> {
    if depth <= LEAF_DEPTH {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        return Some(match hash {
            Some(h) => movegen::perft_hashed(pos, depth, h),
            None => movegen::perft(pos, depth),
        });
    }
    let mut total = 0;
    for &mv in pos.legal_moves().iter() {
        total += count(&pos.play(mv), depth - 1, hash, stop)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn counts_match_published_totals() {
        let go = AtomicBool::new(false);
        let start = Position::startpos();
        let kiwipete = Position::from_fen(KIWIPETE).unwrap();
        let hash = PerftHash::new(1);
        for threads in [1, 2] {
            let div = divide(&start, 5, threads, None, &go).unwrap();
            assert_eq!(div.iter().map(|d| d.1).sum::<u64>(), 4_865_609);
            assert_eq!(div, movegen::divide(&start, 5));
            let div = divide(&kiwipete, 5, threads, Some(&hash), &go).unwrap();
            assert_eq!(div.len(), 48);
            assert_eq!(div.iter().map(|d| d.1).sum::<u64>(), 193_690_690);
        }
        assert_eq!(divide(&start, 1, 1, None, &go).unwrap().len(), 20);
        assert_eq!(divide(&start, 0, 1, None, &go), Some(Vec::new()));
    }

    #[test]
    fn the_hash_is_no_larger_than_the_perft_can_fill() {
        assert_eq!(hash_mb(0, 9), 0);
        assert_eq!(hash_mb(4096, 3), 1);
        assert_eq!(hash_mb(4096, 6), 81);
        assert_eq!(hash_mb(4096, 9), 4096);
        assert_eq!(hash_mb(16, 7), 16);
    }

    #[test]
    fn a_stopped_perft_gives_no_count() {
        let stop = AtomicBool::new(true);
        let start = Position::startpos();
        for threads in [1, 2] {
            assert_eq!(divide(&start, 9, threads, None, &stop), None);
            assert_eq!(divide(&start, 3, threads, None, &stop), None);
        }
    }
}
