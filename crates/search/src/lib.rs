//! Iterative-deepening alpha-beta search, on one thread or many.
//!
//! [`Searcher::search`] runs on the caller's thread and polls
//! [`SearchControl`] every few thousand nodes; the protocol layer owns that
//! thread. With `Threads` above one, helper threads are started for the
//! search (Lazy SMP): each runs the same iterative deepening from the root,
//! and they help only through the shared, lock-free transposition table. The
//! caller's thread is the main thread: it reports each completed depth
//! (`MultiPV` lines best first) through a callback, decides when to stop, and
//! its best move is the one played.
#![deny(missing_docs)]

pub mod annotate;
mod bench;
mod breakdown;
pub mod datagen;
mod deepen;
mod eval;
mod limits;
pub mod nnue;
mod ordering;
mod params;
pub mod review;
mod search;
mod strength;
mod terms;
mod time;
mod tt;
pub mod tune;
mod wdl;
mod weights;

pub use bench::{bench, bench_until, BENCH_DEPTH};
pub use breakdown::{Breakdown, MgEg, Term};
pub use eval::evaluate;
pub use limits::{Limits, Score, SearchControl, SearchInfo, SearchResult, MAX_PLY};
pub use strength::{Strength, ELO_MAX, ELO_MIN};
pub use wdl::{wdl, wdl_material, WdlModel, WDL_MODEL};

use movegen::{Game, Move};
use nnue::Network;
use search::{RootMove, Shared, ThreadData};
use std::sync::Arc;
use std::time::Instant;
use tt::Table;

/// Stack for helper threads: the search recurses up to [`MAX_PLY`] deep
/// with a move list in every frame.
const HELPER_STACK: usize = 16 << 20;

/// A searcher and its transposition table, kept between searches.
pub struct Searcher {
    tt: Table,
    /// Per-thread ordering memory; the first is the main thread's.
    threads: Vec<ThreadData>,
    /// The evaluation network; `None` for the hand-written evaluation.
    net: Option<Arc<Network>>,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_mb),
            threads: vec![ThreadData::new()],
            net: Some(Network::built_in()),
        }
    }

    /// Evaluates with `net`, or with the hand-written evaluation for
    /// `None`. The table is cleared: it keeps static evaluations.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
        self.tt.clear();
    }

    /// The evaluation network in use (`None`: the hand-written evaluation).
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Resizes (and clears) the transposition table.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.tt = Table::new(hash_mb);
    }

    /// Forgets everything learnt (new game or `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.clear();
        }
    }

    /// Searches the game's current position; its earlier positions count for
    /// repetitions. `report` is called after each completed depth, once per
    /// line. Returns no move only when there is no legal move. With a
    /// [`Strength`] in `limits`, the search is cut to its nodes and lines,
    /// and where the level has noise the move is its choice among the last
    /// completed depth's lines.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let Some(strength) = limits.strength else {
            return self.search_full(game, limits, control, report);
        };
        let mut weak = limits.clone();
        weak.nodes = Some(
            limits
                .nodes
                .map_or(strength.nodes(), |n| n.min(strength.nodes())),
        );
        weak.multipv = limits.line_count().max(strength.lines());
        // The last completed depth's lines, best first: (move, score, reply).
        let mut lines: Vec<(Move, Score, Option<Move>)> = Vec::new();
        let mut record = |info: &SearchInfo| {
            if info.multipv == 1 {
                lines.clear();
            }
            if let Some(&mv) = info.pv.first() {
                lines.push((mv, info.score, info.pv.get(1).copied()));
            }
            report(info);
        };
        let result = self.search_full(game, &weak, control, &mut record);
        if strength.noise() == 0 {
            // Without noise the choice is the best line, and the search's own
            // pick is that line or a better one from a depth the budget cut
            // short: the level is full strength within its nodes.
            return result;
        }
        let scored: Vec<(Move, Score)> = lines.iter().map(|l| (l.0, l.1)).collect();
        match strength.choose(&scored) {
            Some(mv) if result.best.is_some() => {
                let ponder = lines.iter().find(|l| l.0 == mv).and_then(|l| l.2);
                SearchResult {
                    best: Some(mv),
                    ponder,
                }
            }
            _ => result,
        }
    }

    fn search_full(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let (root, history) = (game.position(), game.keys());
        let moves: Vec<RootMove> = root
            .legal_moves()
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&m| RootMove::new(m))
            .collect();
        if moves.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
            };
        }
        self.tt.new_search();
        let n = limits.thread_count();
        while self.threads.len() < n {
            self.threads.push(ThreadData::new());
        }
        for t in &mut self.threads[..n] {
            t.new_search();
        }
        let deadlines = time::deadlines(limits, root.side_to_move());
        let shared = Shared::new(
            &self.tt,
            control,
            start,
            deadlines,
            limits.nodes,
            self.net.as_deref(),
        );
        let shared = &shared;
        let (main, helpers) = self.threads[..n]
            .split_first_mut()
            .expect("there is at least one thread");
        std::thread::scope(|scope| {
            for (i, data) in helpers.iter_mut().enumerate() {
                let moves = moves.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("search-{}", i + 1))
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        deepen::helper_thread(shared, data, (root, history), moves, i + 1)
                    });
                if let Err(e) = spawned {
                    log::warn!("search: could not start helper thread {}: {e}", i + 1);
                    break;
                }
            }
            let result = deepen::main_thread(shared, main, (root, history), moves, limits, report);
            shared.finish();
            result
        })
    }
}
