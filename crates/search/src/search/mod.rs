//! Principal variation search with quiescence, a transposition table, null
//! move and late-move reductions. One [`Search`] runs on each thread; the
//! threads share only the transposition table and a [`Shared`] record.

mod quiesce;
mod reduce;
mod root;

use crate::eval::{evaluate, has_non_pawn_material};
use crate::limits::{SearchControl, MAX_PLY};
use crate::nnue::accumulator::AccumulatorStack;
use crate::nnue::Network;
use crate::ordering::{history_bonus, is_tactical, score_move, update_history, History, Killers};
use crate::time::Deadlines;
use crate::tt::{Bound, Entry, Table};
use movegen::{KeyHistory, Move, MoveList, Position, MAX_MOVES};
use reduce::Reductions;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Above every score.
pub const INF: i32 = 32_000;

/// At most this many quiet moves of a node are remembered for the history penalty.
const MAX_QUIETS: usize = 64;

/// Nodes between two looks at the clock and the stop flags.
const POLL_INTERVAL: u64 = 2048;

/// What one thread keeps from search to search: its move-ordering memory and
/// its scratch buffers, allocated once.
pub struct ThreadData {
    killers: Box<Killers>,
    history: Box<History>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Move-ordering scores per ply, so no node zero-fills its own.
    scores: Vec<[i32; MAX_MOVES]>,
    reductions: Box<Reductions>,
    /// The network's accumulators, one entry per ply.
    nnue: AccumulatorStack,
}

impl ThreadData {
    /// Fresh data with empty killers and history.
    pub fn new() -> ThreadData {
        ThreadData {
            killers: Box::new([[Move::NULL; 2]; MAX_PLY]),
            history: Box::new([[[0; 64]; 64]; 2]),
            pv: vec![[Move::NULL; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            scores: vec![[0; MAX_MOVES]; MAX_PLY],
            reductions: Box::new(Reductions::new()),
            nnue: AccumulatorStack::new(MAX_PLY),
        }
    }

    /// Forgets killers and history (a new game).
    pub fn clear(&mut self) {
        *self.killers = [[Move::NULL; 2]; MAX_PLY];
        *self.history = [[[0; 64]; 64]; 2];
    }

    /// Forgets the killers, which are specific to one root.
    pub fn new_search(&mut self) {
        *self.killers = [[Move::NULL; 2]; MAX_PLY];
    }
}

/// What all threads of one search share: the table, the protocol's flags,
/// the node total and the limits.
pub struct Shared<'a> {
    tt: &'a Table,
    control: &'a SearchControl,
    /// Set by the main thread when it is done; the helpers then stop.
    done: AtomicBool,
    nodes: AtomicU64,
    start: Instant,
    deadlines: Deadlines,
    node_limit: Option<u64>,
    /// The evaluation network; `None` for the hand-written evaluation.
    net: Option<&'a Network>,
}

impl<'a> Shared<'a> {
    /// The shared state of a search started at `start`.
    pub fn new(
        tt: &'a Table,
        control: &'a SearchControl,
        start: Instant,
        deadlines: Deadlines,
        node_limit: Option<u64>,
        net: Option<&'a Network>,
    ) -> Shared<'a> {
        Shared {
            tt,
            control,
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start,
            deadlines,
            node_limit,
            net,
        }
    }

    /// Tells the helper threads that the main thread has finished.
    pub fn finish(&self) {
        self.done.store(true, Ordering::Relaxed);
    }

    /// Nodes counted so far by all threads.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The table all threads use.
    pub fn tt(&self) -> &Table {
        self.tt
    }

    /// Whether the protocol says we are pondering (time limits do not apply).
    pub fn pondering(&self) -> bool {
        self.control.pondering.load(Ordering::Relaxed)
    }

    /// The deadlines of this search.
    pub fn deadlines(&self) -> Deadlines {
        self.deadlines
    }
}

/// A root move with its score and line from the last search of it.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score (exact for the best move, `-INF` when it only failed low).
    pub score: i32,
    /// Its line, starting with the move.
    pub pv: Vec<Move>,
}

impl RootMove {
    /// A root move not yet searched.
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INF,
            pv: Vec::with_capacity(MAX_PLY),
        }
    }
}

/// A mate score relative to the root, stored relative to the node.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// `eval` corrected by the table's `entry` for the same position: its score
/// where it is exact, or a bound on the side the evaluation lies beyond (a
/// lower bound above it, an upper bound below it). Mate scores are left out.
fn refine(eval: i32, entry: Entry, ply: usize) -> i32 {
    let s = from_tt(i32::from(entry.score), ply);
    let better = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => s > eval,
        Bound::Upper => s < eval,
    };
    if better && s.abs() < MATE_BOUND {
        s
    } else {
        eval
    }
}

/// What a node's move loop needs to know about the node.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    in_check: bool,
    pv: bool,
    /// The evaluation pruning reads: the static one refined by the table
    /// (`-INF` in check).
    eval: i32,
}

impl Node {
    /// Whether the `i`th move, a quiet one giving no check, can be skipped:
    /// late in a shallow node (late move pruning), or with the evaluation
    /// too far below alpha for a quiet move to make up (futility).
    fn prunes_quiet(&self, i: usize, alpha: i32) -> bool {
        if self.pv || self.in_check {
            return false;
        }
        let late = self.depth <= 4 && i >= 4 + (self.depth * self.depth) as usize;
        let futile = self.depth <= 3
            && alpha.abs() < MATE_BOUND
            && self.eval + 100 + 90 * self.depth <= alpha;
        late || futile
    }
}

/// How often the limits are polled: every [`POLL_INTERVAL`] nodes, more
/// often under a node limit so small (weakened play, `go nodes 500`) that
/// it would overshoot by several times: at least every eighth of the limit,
/// but never more often than every 16 nodes; a power of two.
fn poll_interval(node_limit: Option<u64>) -> u64 {
    let eighth = node_limit.map_or(POLL_INTERVAL, |n| n / 8);
    let interval = eighth.clamp(16, POLL_INTERVAL);
    // The largest power of two not above it.
    1 << interval.ilog2()
}

/// One thread's search.
pub struct Search<'a> {
    shared: &'a Shared<'a>,
    data: &'a mut ThreadData,
    /// Keys of the game and the current path, for repetition detection.
    keys: KeyHistory,
    /// Repetitions are not looked for below this index (a null move cuts the chain).
    null_floor: usize,
    /// The index of the root's key in `keys`: a repetition of a position at
    /// or before it must be the third occurrence to be a draw.
    root: usize,
    nodes: u64,
    /// Nodes already added to the shared total.
    flushed: u64,
    seldepth: usize,
    stopped: bool,
    /// Only the main thread stops on its own limits; helpers stop when it is done.
    main: bool,
    /// The limits are polled when `nodes & poll_mask == 0`.
    poll_mask: u64,
}

impl<'a> Search<'a> {
    /// A search on one thread; `history` holds the keys of the game before the root.
    pub fn new(
        shared: &'a Shared<'a>,
        data: &'a mut ThreadData,
        history: &KeyHistory,
        main: bool,
    ) -> Search<'a> {
        // Room for the whole path, so pushing keys never allocates.
        let keys = history.with_room(MAX_PLY + 2);
        data.nnue.clear();
        Search {
            shared,
            data,
            keys,
            null_floor: 0,
            root: history.len(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            main,
            poll_mask: poll_interval(shared.node_limit) - 1,
        }
    }

    /// Whether this thread was told to stop (its results since are partial).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Deepest ply reached so far.
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// Adds this thread's uncounted nodes to the shared total.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Polls the stop flags, the clock and the node limit.
    fn check_limits(&mut self) {
        self.flush_nodes();
        let shared = self.shared;
        if shared.control.stop.load(Ordering::Relaxed) || shared.done.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(limit) = shared.node_limit {
            if shared.nodes() >= limit {
                self.stopped = true;
                return;
            }
        }
        if let Some(hard) = shared.deadlines.hard {
            if !shared.pondering() && shared.elapsed() >= hard {
                self.stopped = true;
            }
        }
    }

    /// The static evaluation of `pos`, the node at `ply`, for the side to
    /// move: the network's (from the ply's accumulators), or the
    /// hand-written one.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match self.shared.net {
            Some(net) => self.data.nnue.evaluate(net, pos, ply),
            None => evaluate(pos),
        }
    }

    /// A new node on `ply`: its line is empty and its accumulators stale.
    #[inline]
    fn enter(&mut self, ply: usize) {
        self.data.pv_len[ply] = ply;
        self.data.nnue.enter(ply);
    }

    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes & self.poll_mask == 0 {
            self.check_limits();
        }
    }

    /// Draw by the fifty-move rule, bare material, or a repetition. A mate
    /// given on the hundredth half-move is a mate, not a draw (FIDE 9.3).
    fn is_draw(&self, pos: &Position) -> bool {
        let fifty =
            pos.halfmove_clock() >= 100 && !(pos.in_check() && pos.legal_moves().is_empty());
        fifty || pos.is_insufficient_material() || self.repeats(pos)
    }

    /// Whether `pos` counts as a repetition: it repeats a position reached
    /// after the root (inside the search, once is enough: the side that
    /// chose to repeat can repeat again), or it is the third occurrence of a
    /// position of the game (two before it, at the root or earlier). A
    /// position seen only once in the game before the search is not a draw:
    /// either side may still avoid repeating it again.
    fn repeats(&self, pos: &Position) -> bool {
        let key = pos.key();
        let keys = self.keys.as_slice();
        let mut in_game = 0;
        for i in self.keys.candidates(pos.halfmove_clock(), self.null_floor) {
            if keys[i] == key {
                if i > self.root {
                    return true;
                }
                in_game += 1;
                if in_game == 2 {
                    return true;
                }
            }
        }
        false
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.data.pv_len[ply + 1].max(ply + 1);
        let (line, child) = self.data.pv.split_at_mut(ply + 1);
        line[ply][ply] = mv;
        line[ply][ply + 1..child_len].copy_from_slice(&child[0][ply + 1..child_len]);
        self.data.pv_len[ply] = child_len;
    }

    /// Scores `moves` for this node into the ply's score buffer.
    fn score_moves(&mut self, pos: &Position, moves: &MoveList, hash_move: Move, ply: usize) {
        let data = &mut *self.data;
        let killers = &data.killers[ply];
        for (s, &mv) in data.scores[ply].iter_mut().zip(moves.iter()) {
            *s = score_move(pos, mv, hash_move, killers, &data.history);
        }
    }

    /// Brings the best-scored of the moves from `i` on to `i` and returns its
    /// score (a selection step: most nodes look at only a few moves).
    fn pick(&mut self, moves: &mut [Move], i: usize, ply: usize) -> i32 {
        let scores = &mut self.data.scores[ply];
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        // Rotating rather than swapping keeps the rest in generation order,
        // so ties are broken the same way at every node.
        moves[i..=best].rotate_right(1);
        scores[i..=best].rotate_right(1);
        scores[i]
    }

    /// The negamax search of `pos` to `depth` inside `(alpha, beta)`.
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.enter(ply);
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        if self.is_draw(pos) {
            return 0;
        }
        // No line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        let pv_node = beta - alpha > 1;
        let in_check = pos.in_check();
        let key = pos.key();
        let mut hash_move = Move::NULL;
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry {
            hash_move = e.mv;
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score as i32, ply);
                if e.bound.settles(s, alpha, beta) {
                    return s;
                }
            }
        }
        // The table keeps the static evaluation: the same position evaluates the same.
        let static_eval = match entry {
            _ if in_check => -INF,
            Some(e) => i32::from(e.eval),
            None => self.evaluate(pos, ply),
        };
        // The pruning below reads the table's score where its bound says
        // it is nearer the truth than the static evaluation.
        let eval = match entry {
            Some(e) if !in_check => refine(static_eval, e, ply),
            _ => static_eval,
        };
        // Reverse futility: far enough above beta that no quiet reply will
        // bring it back within a few plies. It returns without searching, so
        // the table may lower the evaluation it reads but never raise it: a
        // raised one is a shallower search's score (often quiescence's, which
        // sees captures and no quiet checks), and trusting it here would cut
        // the node before the quiet reply that refutes it is ever searched
        // (docs/search.md, "Reverse futility and the table").
        let rfp_eval = eval.min(static_eval);
        if !pv_node
            && !in_check
            && depth <= 6
            && beta.abs() < MATE_BOUND
            && rfp_eval - 80 * depth >= beta
        {
            return rfp_eval;
        }
        if null_ok
            && !pv_node
            && !in_check
            && depth >= 3
            && eval >= beta
            && has_non_pawn_material(pos)
        {
            if let Some(s) = self.null_move(pos, depth, beta, ply) {
                return s;
            }
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        self.score_moves(pos, &moves, hash_move, ply);
        self.keys.push(key);
        let node = Node {
            depth,
            ply,
            in_check,
            pv: pv_node,
            eval,
        };
        let (best, best_move) = self.search_moves(pos, &mut moves, node, alpha, beta);
        self.keys.pop();
        if self.stopped {
            return 0;
        }
        let bound = Bound::of(best, alpha, beta);
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move,
                score: to_tt(best, ply).clamp(-INF, INF) as i16,
                eval: static_eval.clamp(-INF, INF) as i16,
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        best
    }

    /// Null-move pruning: if passing still fails high, so would a real move.
    fn null_move(&mut self, pos: &Position, depth: i32, beta: i32, ply: usize) -> Option<i32> {
        let r = 2 + depth / 6;
        self.keys.push(pos.key());
        let saved_floor = self.null_floor;
        self.null_floor = self.keys.len();
        let next = pos
            .play_null()
            .expect("null-move pruning is tried only out of check");
        let s = -self.negamax(&next, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
        self.null_floor = saved_floor;
        self.keys.pop();
        if self.stopped {
            return Some(0);
        }
        (s >= beta).then_some(if s >= MATE_BOUND { beta } else { s })
    }

    /// Searches the scored `moves` (PVS with reductions); returns the best
    /// score and move. Alpha from the caller is a lower bound to beat.
    fn search_moves(
        &mut self,
        pos: &Position,
        moves: &mut MoveList,
        node: Node,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Move) {
        let Node {
            depth,
            ply,
            in_check,
            ..
        } = node;
        let mut best = -INF;
        let mut best_move = Move::NULL;
        // The quiet moves searched so far, penalised if a later quiet move cuts off.
        let mut quiets = [Move::NULL; MAX_QUIETS];
        let mut quiet_count = 0;
        let moves = moves.as_mut_slice();
        for i in 0..moves.len() {
            let order = self.pick(moves, i, ply);
            let mv = moves[i];
            let next = pos.play_unchecked(mv);
            let gives_check = next.in_check();
            let tactical = is_tactical(pos, mv);
            let new_depth = depth - 1 + i32::from(gives_check);
            if i > 0
                && !tactical
                && !gives_check
                && best > -MATE_BOUND
                && node.prunes_quiet(i, alpha)
            {
                continue;
            }
            let score = if i == 0 {
                -self.negamax(&next, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let quiet_late = i >= 2 && depth >= 3 && !tactical && !in_check && !gives_check;
                let r = if quiet_late {
                    let reductions = &self.data.reductions;
                    reductions.of(depth, i, order, node.pv, new_depth)
                } else {
                    0
                };
                let mut s = -self.negamax(&next, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(&next, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&next, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if self.stopped {
                return (best, best_move);
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if !tactical {
                            self.reward_quiet(pos, mv, &quiets[..quiet_count], depth, ply);
                        }
                        break;
                    }
                }
            }
            if !tactical && quiet_count < MAX_QUIETS {
                quiets[quiet_count] = mv;
                quiet_count += 1;
            }
        }
        (best, best_move)
    }

    /// A quiet move cut off: it becomes a killer and gains history, and the
    /// quiet moves `tried` before it lose as much.
    fn reward_quiet(&mut self, pos: &Position, mv: Move, tried: &[Move], depth: i32, ply: usize) {
        let k = &mut self.data.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let bonus = history_bonus(depth);
        let table = &mut self.data.history[pos.side_to_move().index()];
        update_history(&mut table[mv.from().index()][mv.to().index()], bonus);
        for m in tried {
            update_history(&mut table[m.from().index()][m.to().index()], -bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i32, bound: Bound) -> Entry {
        Entry {
            mv: Move::NULL,
            score: score as i16,
            eval: 0,
            depth: 5,
            bound,
        }
    }

    #[test]
    fn a_node_limit_is_polled_at_least_every_eighth_of_it() {
        assert_eq!(poll_interval(None), POLL_INTERVAL);
        assert_eq!(poll_interval(Some(1)), 16);
        for limit in [128, 880, 1_100, 1_700, 11_000, 16_383, 16_384, 220_000] {
            let interval = poll_interval(Some(limit));
            assert!(interval.is_power_of_two(), "{limit}: {interval}");
            assert!(interval <= limit / 8, "{limit}: {interval}");
            assert!(
                interval * 2 > (limit / 8).min(POLL_INTERVAL),
                "{limit}: {interval}"
            );
        }
    }

    #[test]
    fn the_table_refines_the_evaluation_only_where_its_bound_allows() {
        // Exact: the stored score, above or below.
        assert_eq!(refine(10, entry(50, Bound::Exact), 3), 50);
        assert_eq!(refine(10, entry(-50, Bound::Exact), 3), -50);
        // A lower bound raises the evaluation, never lowers it.
        assert_eq!(refine(10, entry(50, Bound::Lower), 3), 50);
        assert_eq!(refine(10, entry(-50, Bound::Lower), 3), 10);
        // An upper bound lowers it, never raises it.
        assert_eq!(refine(10, entry(-50, Bound::Upper), 3), -50);
        assert_eq!(refine(10, entry(50, Bound::Upper), 3), 10);
        // Mate scores are not evaluations.
        let mate = to_tt(MATE - 7, 3);
        assert_eq!(refine(10, entry(mate, Bound::Exact), 3), 10);
        assert_eq!(refine(10, entry(-mate, Bound::Upper), 3), 10);
    }
}
