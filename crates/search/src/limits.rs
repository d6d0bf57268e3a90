//! The public types a search is driven by and reports through, and the one
//! depth limit every crate shares.

use crate::strength::Strength;
use movegen::{Color, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Deepest ply the search reaches, extensions and quiescence included; also
/// the deepest nominal depth a `go depth` can ask for.
pub const MAX_PLY: usize = 128;

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
    /// Threads to search with (the `Threads` option when the `go` was sent;
    /// 0 counts as 1).
    pub threads: usize,
    /// Best lines to report per depth (the `MultiPV` option when the `go`
    /// was sent; 0 counts as 1).
    pub multipv: usize,
    /// Play below full strength (`UCI_LimitStrength`); `None`: full strength.
    pub strength: Option<Strength>,
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
    /// Rank of this line among the best lines (1 is the best; see `multipv`).
    pub multipv: u32,
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

impl Limits {
    /// Threads to search with (at least one).
    pub fn thread_count(&self) -> usize {
        self.threads.max(1)
    }

    /// Best lines to report per depth (at least one).
    pub fn line_count(&self) -> usize {
        self.multipv.max(1)
    }

    /// Whether a search for `side` under these limits ends without a `stop`:
    /// not `infinite`, and bounded by a depth, nodes, a mate, a move time or
    /// `side`'s clock. (Pondering is the caller's to consider.)
    pub fn ends_by_itself(&self, side: Color) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.mate.is_some()
                || self.movetime.is_some()
                || self.time[side.index()].is_some())
    }
}
