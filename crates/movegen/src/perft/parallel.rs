//! Divide over several threads, optionally hashed and stoppable: the work
//! behind [`Perft`].

use super::hash::PerftHash;
use super::options::Perft;
use super::{perft, perft_hashed};
use crate::moves::Move;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Subtrees at most this deep are counted in one call; deeper ones are walked
/// move by move so that [`divide_until`] reads its stop flag every few
/// million nodes. The walk costs 0.01% of perft 6's instructions (callgrind).
const LEAF_DEPTH: u32 = 4;

/// Perft per root move as `options` say, handing each root move and its
/// count to `done` once it and all before it are counted; `None` if `stop`
/// was set before every count was done. The work behind [`Perft::divide`]
/// and [`StoppablePerft::divide`](super::StoppablePerft::divide).
pub(super) fn divide_until(
    pos: &Position,
    options: Perft<'_>,
    stop: &AtomicBool,
    mut done: impl FnMut(Move, u64),
) -> Option<Vec<(Move, u64)>> {
    let Perft {
        depth,
        threads,
        hash,
    } = options;
    if depth == 0 {
        return Some(Vec::new());
    }
    let moves = pos.legal_moves();
    let threads = usable_threads(threads);
    let split_deeper = threads > 1 && depth >= 3;
    // (index of the root move, position to count, depth left)
    let mut tasks: Vec<(usize, Position, u32)> = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        let child = pos.play_generated(mv);
        if split_deeper {
            let replies = child.legal_moves();
            tasks.extend(
                replies
                    .iter()
                    .map(|&reply| (i, child.play_generated(reply), depth - 2)),
            );
        } else {
            tasks.push((i, child, depth - 1));
        }
    }
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let mut unfinished: Vec<AtomicUsize> = moves.iter().map(|_| AtomicUsize::new(0)).collect();
    for task in &tasks {
        *unfinished[task.0].get_mut() += 1;
    }
    // A root move without tasks (mate or stalemate after it) is done already.
    let mut finished: Vec<bool> = unfinished.iter_mut().map(|n| *n.get_mut() == 0).collect();
    let mut reported = 0;
    let mut report = |root: Option<usize>| {
        if let Some(i) = root {
            finished[i] = true;
        }
        while reported < moves.len() && finished[reported] {
            done(moves[reported], counts[reported].load(Ordering::Relaxed));
            reported += 1;
        }
    };
    report(None);
    let next = AtomicUsize::new(0);
    let abandoned = AtomicBool::new(false);
    // Counts one task; sends its root move's index when that was the move's
    // last task. Returns false when no task is left or a stop came.
    let step = |finished: &mpsc::Sender<usize>| {
        let t = next.fetch_add(1, Ordering::Relaxed);
        let Some((i, task, left)) = tasks.get(t) else {
            return false;
        };
        let Some(n) = count_until(task, *left, hash, stop) else {
            abandoned.store(true, Ordering::Relaxed);
            return false;
        };
        counts[*i].fetch_add(n, Ordering::Relaxed);
        // AcqRel: whoever finishes a root move sees every count added to it.
        if unfinished[*i].fetch_sub(1, Ordering::AcqRel) == 1 {
            // The receiver outlives every sender.
            let _ = finished.send(*i);
        }
        true
    };
    let (tx, rx) = mpsc::channel();
    let threads = threads.clamp(1, tasks.len().max(1));
    if threads == 1 {
        while step(&tx) {
            rx.try_iter().for_each(|i| report(Some(i)));
        }
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                let tx = tx.clone();
                s.spawn(move || while step(&tx) {});
            }
            drop(tx);
            // Ends when every worker has dropped its sender.
            rx.iter().for_each(|i| report(Some(i)));
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

/// Leaf nodes `depth` plies below `pos`, or `None` if `stop` was set first.
fn count_until(
    pos: &Position,
    depth: u32,
    hash: Option<&PerftHash>,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth <= LEAF_DEPTH {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        return Some(match hash {
            Some(h) => perft_hashed(pos, depth, h),
            None => perft(pos, depth),
        });
    }
    // Above the leaves the table is used as the recursion uses it, so a
    // hashed perft loses no transpositions to the walk.
    if let Some(n) = hash.and_then(|h| h.get(pos, depth)) {
        return Some(n);
    }
    let mut total = 0;
    for &mv in pos.legal_moves().iter() {
        total += count_until(&pos.play_generated(mv), depth - 1, hash, stop)?;
    }
    if let Some(h) = hash {
        h.put(pos, depth, total);
    }
    Some(total)
}

/// `requested`, or 1 where the target has no threads: on
/// `wasm32-unknown-unknown` (no `atomics` target feature) spawning a thread
/// panics, so the work runs on the calling thread and the counts are the same.
pub(super) fn usable_threads(requested: usize) -> usize {
    if cfg!(all(target_family = "wasm", not(target_feature = "atomics"))) {
        1
    } else {
        requested.max(1)
    }
}
