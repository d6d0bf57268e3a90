//! Iterative-deepening alpha-beta search.
//!
//! The search runs on the caller's thread and polls [`SearchControl`] every few
//! thousand nodes; the protocol layer owns the threads. It reports each
//! completed depth through a callback and returns the best move.
#![deny(missing_docs)]

mod bench;
mod eval;
mod ordering;
mod root;
mod search;
mod time;
mod tt;

pub use bench::{bench, BENCH_DEPTH};
pub use eval::evaluate;

use movegen::{Move, MoveList, Position};
use ordering::{History, Killers};
pub use search::MAX_PLY;
use search::{Search, MATE, MATE_BOUND};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::Table;

/// Deepest nominal depth a search iterates to.
pub const MAX_DEPTH: u32 = 100;

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

/// A searcher and its transposition table, kept between searches.
pub struct Searcher {
    tt: Table,
    killers: Box<Killers>,
    history: Box<History>,
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_mb),
            killers: Box::new([[Move::NULL; 2]; MAX_PLY]),
            history: Box::new([[[0; 64]; 64]; 2]),
            pv: Box::new([[Move::NULL; MAX_PLY]; MAX_PLY]),
        }
    }

    /// Resizes (and clears) the transposition table; allocates now.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.tt = Table::new(hash_mb);
    }

    /// Forgets everything learnt (new game or `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        *self.killers = [[Move::NULL; 2]; MAX_PLY];
        *self.history = [[[0; 64]; 64]; 2];
    }

    /// Searches `root`. `history` holds the zobrist keys of the positions before
    /// `root` in the game, oldest first, for repetition detection. `report` is
    /// called after each completed depth. Returns no move only when there is no
    /// legal move.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let mut root_moves = root.legal_moves();
        if !limits.searchmoves.is_empty() {
            let all = root_moves.clone();
            root_moves.clear();
            for mv in all.iter().filter(|m| limits.searchmoves.contains(m)) {
                root_moves.push(*mv);
            }
        }
        let Some(&first) = root_moves.first() else {
            return SearchResult {
                best: None,
                ponder: None,
            };
        };
        self.tt.new_search();
        for k in self.killers.iter_mut() {
            *k = [Move::NULL; 2];
        }
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 2);
        keys.extend_from_slice(history);
        let mut s = Search {
            tt: &mut self.tt,
            killers: &mut self.killers,
            history: &mut self.history,
            pv: &mut self.pv,
            pv_len: [0; MAX_PLY],
            keys,
            null_floor: 0,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            control,
            start,
            deadlines: time::deadlines(limits, root.side_to_move()),
            node_limit: limits.nodes,
        };
        let mut result = SearchResult {
            best: Some(first),
            ponder: None,
        };
        deepen(&mut s, root, &mut root_moves, limits, &mut result, report);
        result
    }
}

/// Iterative deepening over the root moves; fills `result` after each depth.
fn deepen(
    s: &mut Search,
    root: &Position,
    root_moves: &mut MoveList,
    limits: &Limits,
    result: &mut SearchResult,
    report: &mut dyn FnMut(&SearchInfo),
) {
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let timed = s.deadlines.soft.is_some();
    for depth in 1..=max_depth {
        let (score, best) = root::search_root(s, root, root_moves, depth as i32);
        if s.stopped && depth > 1 {
            // An unfinished iteration only counts if its first (best) move was searched.
            if let Some(mv) = best.filter(|&m| m == root_moves[0]) {
                result.best = Some(mv);
            }
            break;
        }
        if let Some(mv) = best {
            result.best = Some(mv);
            result.ponder = (s.pv_len[0] > 1).then(|| s.pv[0][1]);
        }
        let info = SearchInfo {
            multipv: 1,
            depth,
            seldepth: s.seldepth as u32,
            score: to_score(score),
            nodes: s.nodes,
            time: s.start.elapsed(),
            hashfull: s.tt.hashfull(),
            pv: s.pv[0][..s.pv_len[0]].to_vec(),
        };
        report(&info);
        if s.stopped {
            break;
        }
        let pondering = s.control.pondering.load(Ordering::Relaxed);
        if let (Some(mate), Score::Mate(n)) = (limits.mate, info.score) {
            if n > 0 && n as u32 <= mate {
                break;
            }
        }
        let out_of_time = s
            .deadlines
            .soft
            .is_some_and(|soft| s.start.elapsed() >= soft);
        if !pondering && (out_of_time || (timed && root_moves.len() == 1)) {
            break;
        }
    }
}

/// A score as the protocol reports it.
fn to_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}
