//! Counting a batch of units, each reported the moment it is done.

use crate::perft::parallel::usable_threads;
use crate::perft::Perft;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Counts perft below each of `units` (index, position) as `options` say
/// (depth, threads, table) and hands each (index, count) to `done` as soon
/// as it is counted, so a run that dies
/// loses only the units in flight. `done` returns false to stop early (for
/// example when the output is gone); then no further unit is started.
///
/// With at least two units per thread, each thread counts whole units (taken
/// in order, one at a time, so the report order is nearly the file order);
/// with fewer, the units go one after another, each split over the threads.
/// All threads share the table. Returns whether every unit was counted.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{count_units, split};
/// use movegen::perft::{perft, Perft};
/// use movegen::Position;
///
/// let root = Position::startpos();
/// let units: Vec<(usize, Position)> =
///     split(&root, 2).iter().enumerate().map(|(i, u)| (i, u.position)).collect();
/// let mut total = 0;
/// let mut reported = 0;
/// let finished = count_units(&units, Perft::new(2).threads(2), |_index, count| {
///     total += count;
///     reported += 1;
///     true
/// });
/// assert!(finished);
/// assert_eq!(reported, units.len());
/// assert_eq!(total, perft(&root, 4)); // every path to depth 2 is a distinct position
/// ```
pub fn count_units(
    units: &[(usize, Position)],
    options: Perft<'_>,
    mut done: impl FnMut(usize, u64) -> bool,
) -> bool {
    let threads = usable_threads(options.threads);
    if threads == 1 || units.len() < 2 * threads {
        return units.iter().all(|(i, pos)| done(*i, options.count(pos)));
    }
    // Each thread counts whole units on its own.
    let one_thread = options.threads(1);
    let next = AtomicUsize::new(0);
    // Set only by this (the reporting) thread, read by the counting threads.
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some((i, pos)) = units.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let count = one_thread.count(pos);
                    // The receiver lives until every sender is gone.
                    let _ = tx.send((*i, count));
                }
            });
        }
        drop(tx);
        let mut reported = 0;
        // Ends when every counting thread has dropped its sender.
        for (i, count) in rx {
            if !stop.load(Ordering::Relaxed) && done(i, count) {
                reported += 1;
            } else {
                stop.store(true, Ordering::Relaxed);
            }
        }
        reported == units.len()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::deep::split::split;
    use crate::perft::{perft, PerftHash};

    /// The unique positions `depth` plies from the start, numbered.
    fn startpos_units(depth: u32) -> Vec<(usize, Position)> {
        split(&Position::startpos(), depth)
            .iter()
            .enumerate()
            .map(|(i, u)| (i, u.position))
            .collect()
    }

    #[test]
    fn every_unit_is_reported_once_with_its_count() {
        let units = startpos_units(2);
        let hash = PerftHash::new(1);
        for (threads, hash) in [(1, None), (2, Some(&hash)), (3, None)] {
            for batch in [&units[..], &units[..3]] {
                let mut seen = vec![None; units.len()];
                let options = Perft::new(2).threads(threads).hash(hash);
                let finished = count_units(batch, options, |i, n| {
                    assert!(seen[i].replace(n).is_none(), "unit {i} reported twice");
                    true
                });
                assert!(finished);
                for (i, pos) in batch {
                    assert_eq!(seen[*i], Some(perft(pos, 2)));
                }
                assert_eq!(seen.iter().flatten().count(), batch.len());
            }
        }
    }

    #[test]
    fn a_refusing_reporter_stops_the_batch() {
        let units = startpos_units(2);
        for threads in [1, 2] {
            let mut calls = 0;
            let finished = count_units(&units, Perft::new(3).threads(threads), |_, _| {
                calls += 1;
                calls < 5
            });
            assert!(!finished);
            assert_eq!(calls, 5);
        }
    }
}
