//! The one perft entry point beyond the plain counts: a small `Copy` value
//! that says how to count (depth, threads, table, stop flag), then `count`
//! or `divide`.

use super::hash::PerftHash;
use super::parallel::divide_until;
use super::perft;
use crate::moves::Move;
use crate::position::Position;
use std::sync::atomic::AtomicBool;

/// How to run a perft: the depth, and optionally threads and a shared table
/// of subtree counts. Whatever the settings, [`count`](Perft::count) equals
/// [`perft`] and [`divide`](Perft::divide) equals
/// [`divide`](super::divide), root moves in generation order.
///
/// With more than one thread and a depth of 3 or more, the work is split
/// two plies down: every (root move, reply) pair is a task, handed to
/// whichever thread is free (a few hundred tasks of uneven size balance
/// threads far better than twenty root moves). On targets without threads
/// (`wasm32-unknown-unknown`) everything runs on the calling thread.
///
/// # Examples
///
/// ```
/// use movegen::perft::{Perft, PerftHash};
/// use movegen::Position;
///
/// let pos = Position::startpos();
/// let table = PerftHash::new(1);
/// let perft = Perft::new(4).threads(2).hash(&table);
/// assert_eq!(perft.count(&pos), 197_281);
/// let mut lines = Vec::new();
/// let per_move = perft.divide(&pos, |mv, n| lines.push(format!("{mv}: {n}")));
/// assert_eq!(per_move.len(), 20);
/// assert!(lines.contains(&"e2e4: 13160".to_string()));
/// ```
#[derive(Clone, Copy)]
pub struct Perft<'a> {
    pub(super) depth: u32,
    pub(super) threads: usize,
    pub(super) hash: Option<&'a PerftHash>,
}

impl<'a> Perft<'a> {
    /// A perft `depth` plies deep, on the calling thread, without a table.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::Perft;
    /// use movegen::Position;
    ///
    /// assert_eq!(Perft::new(3).count(&Position::startpos()), 8_902);
    /// ```
    pub fn new(depth: u32) -> Perft<'a> {
        Perft {
            depth,
            threads: 1,
            hash: None,
        }
    }

    /// Counts on `threads` threads (0 means 1).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::{perft, Perft};
    /// use movegen::Position;
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(Perft::new(4).threads(2).count(&pos), perft(&pos, 4));
    /// ```
    pub fn threads(self, threads: usize) -> Perft<'a> {
        Perft { threads, ..self }
    }

    /// Caches subtree counts in `hash` (a `&PerftHash`, or an
    /// `Option<&PerftHash>`, `None` for no table). Every thread shares it,
    /// and it may be reused across calls and positions: the counts stay
    /// exact.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::{Perft, PerftHash};
    /// use movegen::Position;
    ///
    /// let table = PerftHash::new(1);
    /// let pos = Position::startpos();
    /// assert_eq!(Perft::new(4).hash(&table).count(&pos), 197_281);
    /// let maybe: Option<PerftHash> = None;
    /// assert_eq!(Perft::new(4).hash(maybe.as_ref()).count(&pos), 197_281);
    /// ```
    pub fn hash(self, hash: impl Into<Option<&'a PerftHash>>) -> Perft<'a> {
        Perft {
            hash: hash.into(),
            ..self
        }
    }

    /// The same perft, abandoned once `stop` is set (say, by another
    /// thread): its counts are `Option`s, `None` when stopped. Set it last;
    /// the flag is read before every subtree of at most four plies, so a
    /// stop is obeyed within milliseconds even in perft 9.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::Perft;
    /// use movegen::Position;
    /// use std::sync::atomic::AtomicBool;
    ///
    /// let pos = Position::startpos();
    /// let go = AtomicBool::new(false);
    /// assert_eq!(Perft::new(3).stop(&go).count(&pos), Some(8_902));
    /// let stop = AtomicBool::new(true);
    /// assert_eq!(Perft::new(3).threads(2).stop(&stop).count(&pos), None);
    /// ```
    pub fn stop(self, stop: &'a AtomicBool) -> StoppablePerft<'a> {
        StoppablePerft { perft: self, stop }
    }

    /// The number of leaf nodes below `pos`, as [`perft`] counts them.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::Perft;
    /// use movegen::Position;
    ///
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let pos = Position::from_fen(kiwipete).unwrap();
    /// assert_eq!(Perft::new(3).threads(3).count(&pos), 97_862);
    /// assert_eq!(Perft::new(0).count(&pos), 1);
    /// ```
    pub fn count(self, pos: &Position) -> u64 {
        if self.depth <= 1 {
            return perft(pos, self.depth);
        }
        self.divide(pos, |_, _| {}).iter().map(|d| d.1).sum()
    }

    /// Perft per root move, in move generation order, as
    /// [`divide`](super::divide) gives it (empty at depth 0). Each root move
    /// and its count also go to `done` as soon as that move and all before
    /// it are counted, in the same order (for printing a long divide as it
    /// goes, or a progress bar); `|_, _| {}` if nobody is waiting.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::{divide, Perft};
    /// use movegen::Position;
    ///
    /// let pos = Position::startpos();
    /// let mut printed = Vec::new();
    /// let list = Perft::new(3).threads(2).divide(&pos, |mv, n| printed.push(format!("{mv}: {n}")));
    /// assert_eq!(list, divide(&pos, 3));
    /// assert_eq!(printed.len(), 20);
    /// assert!(printed.contains(&"e2e4: 600".to_string()));
    /// ```
    pub fn divide(self, pos: &Position, done: impl FnMut(Move, u64)) -> Vec<(Move, u64)> {
        let never = AtomicBool::new(false);
        divide_until(pos, self, &never, done)
            .expect("a divide whose stop flag is never set runs to the end")
    }
}

/// A [`Perft`] with a stop flag ([`Perft::stop`]): the same counts, or
/// `None` if the flag was set before every count was done. A partial count
/// is never returned, though a divide's `done` may already have been called
/// for the root moves finished before the stop.
///
/// # Examples
///
/// ```
/// use movegen::perft::{Perft, StoppablePerft};
/// use movegen::Position;
/// use std::sync::atomic::AtomicBool;
///
/// let stop = AtomicBool::new(false);
/// let job: StoppablePerft = Perft::new(3).threads(2).stop(&stop);
/// assert_eq!(job.count(&Position::startpos()), Some(8_902));
/// ```
#[derive(Clone, Copy)]
pub struct StoppablePerft<'a> {
    perft: Perft<'a>,
    stop: &'a AtomicBool,
}

impl StoppablePerft<'_> {
    /// The number of leaf nodes below `pos`, or `None` if stopped (depth 0
    /// is counted at once, stop or not).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::Perft;
    /// use movegen::Position;
    /// use std::sync::atomic::AtomicBool;
    ///
    /// let pos = Position::startpos();
    /// let stop = AtomicBool::new(true);
    /// assert_eq!(Perft::new(5).stop(&stop).count(&pos), None);
    /// assert_eq!(Perft::new(0).stop(&stop).count(&pos), Some(1));
    /// ```
    pub fn count(self, pos: &Position) -> Option<u64> {
        if self.perft.depth == 0 {
            return Some(1);
        }
        let per_move = self.divide(pos, |_, _| {})?;
        Some(per_move.iter().map(|d| d.1).sum())
    }

    /// Perft per root move as [`Perft::divide`] gives it, or `None` if
    /// stopped (depth 0 gives an empty list, stop or not).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::{divide, Perft};
    /// use movegen::Position;
    /// use std::sync::atomic::{AtomicBool, Ordering};
    ///
    /// let pos = Position::startpos();
    /// let stop = AtomicBool::new(false);
    /// let job = Perft::new(3).stop(&stop);
    /// assert_eq!(job.divide(&pos, |_, _| {}), Some(divide(&pos, 3)));
    /// // `done` stops it after the first root move: no list comes back.
    /// let mut seen = 0;
    /// let stopped = job.divide(&pos, |_, _| {
    ///     seen += 1;
    ///     stop.store(true, Ordering::Relaxed);
    /// });
    /// assert_eq!((stopped, seen), (None, 1));
    /// ```
    pub fn divide(self, pos: &Position, done: impl FnMut(Move, u64)) -> Option<Vec<(Move, u64)>> {
        divide_until(pos, self.perft, self.stop, done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::divide;
    use std::sync::atomic::Ordering;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// Position 3 of the usual suites: small enough for depth 6, where the
    /// walk above the leaves (and its use of the table) runs.
    const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    /// White mates at once (Qxf7#), so a root move has no replies: with
    /// threads it has no task and must still be reported, in its place.
    const MATE_IN_ONE: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

    /// Every combination the tests try: 1, 2 and 3 threads, with no table,
    /// a usual one and a one-bucket one (which collides all the time).
    fn each_setting(test: impl Fn(Perft<'_>, &str)) {
        let (usual, tiny) = (PerftHash::new(1), PerftHash::new(0));
        for threads in [1, 2, 3] {
            for (hash, name) in [
                (None, "none"),
                (Some(&usual), "1 MiB"),
                (Some(&tiny), "tiny"),
            ] {
                let what = format!("{threads} threads, table {name}");
                test(Perft::new(0).threads(threads).hash(hash), &what);
            }
        }
    }

    #[test]
    fn every_setting_gives_the_plain_divide_and_count() {
        for (fen, depth) in [(KIWIPETE, 3), (POSITION_3, 6), (MATE_IN_ONE, 3)] {
            let pos = Position::from_fen(fen).unwrap();
            let plain = divide(&pos, depth);
            let nodes = perft(&pos, depth);
            each_setting(|options, what| {
                let options = Perft { depth, ..options };
                assert_eq!(options.divide(&pos, |_, _| {}), plain, "{fen}: {what}");
                assert_eq!(options.count(&pos), nodes, "{fen}: {what}");
            });
        }
        // Depths 0 and 1 as the plain functions give them.
        let pos = Position::startpos();
        each_setting(|options, what| {
            for depth in [0, 1] {
                let options = Perft { depth, ..options };
                assert_eq!(options.count(&pos), perft(&pos, depth), "{what}");
                assert_eq!(options.divide(&pos, |_, _| {}), divide(&pos, depth));
            }
        });
    }

    #[test]
    fn the_callback_sees_each_root_move_once_in_order() {
        for (fen, depth) in [(KIWIPETE, 3), (MATE_IN_ONE, 4)] {
            let pos = Position::from_fen(fen).unwrap();
            let plain = divide(&pos, depth);
            each_setting(|options, what| {
                let options = Perft { depth, ..options };
                let mut seen = Vec::new();
                let list = options.divide(&pos, |mv, n| seen.push((mv, n)));
                assert_eq!(list, plain, "{fen}: {what}");
                assert_eq!(seen, plain, "{fen}: {what}");
                let never = AtomicBool::new(false);
                let mut seen = Vec::new();
                let list = options
                    .stop(&never)
                    .divide(&pos, |mv, n| seen.push((mv, n)));
                assert_eq!(list.as_ref(), Some(&plain), "{fen}: {what}");
                assert_eq!(seen, plain, "{fen}: {what}");
            });
        }
    }

    #[test]
    fn a_set_stop_flag_gives_no_count() {
        let pos = Position::startpos();
        let stop = AtomicBool::new(true);
        each_setting(|options, what| {
            for depth in [1, 3, 9] {
                let stopped = Perft { depth, ..options }.stop(&stop);
                assert_eq!(stopped.count(&pos), None, "depth {depth}, {what}");
                assert_eq!(stopped.divide(&pos, |_, _| {}), None, "{what}");
            }
            // Depth 0 needs no counting, so a stop cannot interrupt it.
            let zero = Perft {
                depth: 0,
                ..options
            }
            .stop(&stop);
            assert_eq!(zero.count(&pos), Some(1), "{what}");
            assert_eq!(zero.divide(&pos, |_, _| {}), Some(Vec::new()), "{what}");
        });
    }

    #[test]
    fn a_stop_during_the_count_abandons_it() {
        // Depth 6 from the start: deeper than one leaf call, so the walk
        // above the leaves runs and reads the flag. A flag never set lets
        // it finish.
        let pos = Position::startpos();
        for threads in [1, 2] {
            let go = AtomicBool::new(false);
            let done = Perft::new(6).threads(threads).stop(&go).count(&pos);
            assert_eq!(done, Some(119_060_324), "{threads} threads");
        }
        // One set by the first report ends it with no count. On one thread
        // the report comes between two root moves, so this is exact; with
        // more, the threads could finish before the report is made.
        let stop = AtomicBool::new(false);
        let mut reported = 0;
        let stopped = Perft::new(6).stop(&stop).divide(&pos, |_, _| {
            reported += 1;
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!((stopped, reported), (None, 1));
    }
}
