//! Divide and perft over several threads, optionally hashed.

use super::hash::PerftHash;
use super::{perft, perft_hashed};
use crate::moves::Move;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Divide on `threads` threads (one on targets without threads, such as
/// `wasm32-unknown-unknown`), optionally hashed; counts are identical to
/// [`divide`](super::divide) whatever the thread count.
///
/// With more than one thread and `depth` of 3 or more, the work is split two
/// plies down: every (root move, reply) pair is a task, handed out one at a
/// time to whichever thread is free. A few hundred tasks of uneven size
/// balance two threads far better than twenty root moves, where the last big
/// one can leave a thread idle.
///
/// # Examples
///
/// ```
/// use movegen::perft::{divide, divide_with, PerftHash};
/// use movegen::Position;
///
/// let pos = Position::startpos();
/// let hash = PerftHash::new(1);
/// assert_eq!(divide_with(&pos, 3, 2, Some(&hash)), divide(&pos, 3));
/// assert_eq!(divide_with(&pos, 3, 1, None), divide(&pos, 3));
/// ```
pub fn divide_with(
    pos: &Position,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
) -> Vec<(Move, u64)> {
    divide_streamed(pos, depth, threads, hash, |_, _| {})
}

/// [`divide_with`] that also hands each root move and its count to `done` as
/// soon as that move and all before it are counted, in generation order (for
/// printing a long divide as it goes). Returns the same list.
///
/// # Examples
///
/// ```
/// use movegen::perft::{divide, divide_streamed};
/// use movegen::Position;
///
/// let pos = Position::startpos();
/// let mut printed = Vec::new();
/// let list = divide_streamed(&pos, 3, 2, None, |mv, n| printed.push(format!("{mv}: {n}")));
/// assert_eq!(list, divide(&pos, 3));
/// assert_eq!(printed.len(), 20);
/// assert!(printed.contains(&"e2e4: 600".to_string()));
/// ```
pub fn divide_streamed(
    pos: &Position,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
    done: impl FnMut(Move, u64),
) -> Vec<(Move, u64)> {
    let never = AtomicBool::new(false);
    divide_until(pos, depth, threads, hash, &never, done)
        .expect("a divide whose stop flag is never set runs to the end")
}

/// Subtrees at most this deep are counted in one call; deeper ones are walked
/// move by move so that [`divide_until`] reads its stop flag every few
/// million nodes. The walk costs 0.01% of perft 6's instructions (callgrind).
const LEAF_DEPTH: u32 = 4;

/// [`divide_streamed`] that can be abandoned: `stop` is read before every
/// subtree of at most four plies, so a stop is obeyed within
/// milliseconds even in perft 9. Returns `None` if `stop` was set before
/// every count was done: a partial count is never returned, though `done`
/// may already have been called for the root moves finished before the stop.
///
/// # Examples
///
/// ```
/// use movegen::perft::{divide, divide_until};
/// use movegen::Position;
/// use std::sync::atomic::AtomicBool;
///
/// let pos = Position::startpos();
/// let go = AtomicBool::new(false);
/// assert_eq!(divide_until(&pos, 3, 2, None, &go, |_, _| {}), Some(divide(&pos, 3)));
/// // A stop flag set (say, by another thread) abandons the count.
/// let stop = AtomicBool::new(true);
/// assert_eq!(divide_until(&pos, 3, 2, None, &stop, |_, _| {}), None);
/// ```
pub fn divide_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
    stop: &AtomicBool,
    mut done: impl FnMut(Move, u64),
) -> Option<Vec<(Move, u64)>> {
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

/// Perft on `threads` threads, optionally hashed; same counts as [`perft`].
///
/// # Examples
///
/// ```
/// use movegen::perft::{perft_with, PerftHash};
/// use movegen::Position;
///
/// let hash = PerftHash::new(1);
/// let pos = Position::startpos();
/// assert_eq!(perft_with(&pos, 4, 2, Some(&hash)), 197_281);
/// assert_eq!(perft_with(&pos, 4, 2, None), 197_281);
/// ```
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
/// On targets without threads (`wasm32-unknown-unknown`) it counts on the
/// calling thread instead of trapping.
///
/// # Examples
///
/// ```
/// use movegen::perft::{perft, perft_parallel};
/// use movegen::Position;
///
/// let pos = Position::startpos();
/// assert_eq!(perft_parallel(&pos, 4, 2), perft(&pos, 4));
/// assert_eq!(perft_parallel(&pos, 4, 0), 197_281); // 0 threads means one
/// ```
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    perft_with(pos, depth, threads, None)
}

/// Divide split over `threads` threads, no hashing; same counts as [`divide`](super::divide).
///
/// # Examples
///
/// ```
/// use movegen::perft::{divide, divide_parallel};
/// use movegen::Position;
///
/// let pos = Position::startpos();
/// let list = divide_parallel(&pos, 3, 2);
/// assert_eq!(list, divide(&pos, 3));
/// assert_eq!(list.iter().map(|&(_, n)| n).sum::<u64>(), 8_902);
/// ```
pub fn divide_parallel(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_with(pos, depth, threads, None)
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
