//! Principal variation search with quiescence, a transposition table, null
//! move and late-move reductions, driven by iterative deepening.

use crate::eval::{evaluate, has_non_pawn_material, insufficient_material};
use crate::ordering::{is_tactical, score_move, sort_moves, History, Killers};
use crate::time::Deadlines;
use crate::tt::{Bound, Table};
use crate::SearchControl;
use movegen::{Move, MoveList, Position, MAX_MOVES};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Deepest ply the search reaches, extensions and quiescence included.
pub const MAX_PLY: usize = 128;
/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INF: i32 = 32_000;

/// Everything one search needs, borrowed from the [`crate::Searcher`].
pub struct Search<'a> {
    pub tt: &'a mut Table,
    pub killers: &'a mut Killers,
    pub history: &'a mut History,
    pub pv: &'a mut [[Move; MAX_PLY]; MAX_PLY],
    pub pv_len: [usize; MAX_PLY],
    /// Keys of the game and the current path, for repetition detection.
    pub keys: Vec<u64>,
    /// Repetitions are not looked for below this index (a null move cuts the chain).
    pub null_floor: usize,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub control: &'a SearchControl,
    pub start: Instant,
    pub deadlines: Deadlines,
    pub node_limit: Option<u64>,
}

/// A mate score relative to the root, stored relative to the node.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Search<'_> {
    /// Polls the stop flag, the clock and the node limit.
    fn check_limits(&mut self) {
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(limit) = self.node_limit {
            if self.nodes >= limit {
                self.stopped = true;
                return;
            }
        }
        let pondering = self.control.pondering.load(Ordering::Relaxed);
        if let Some(hard) = self.deadlines.hard {
            if !pondering && self.start.elapsed() >= hard {
                self.stopped = true;
            }
        }
    }

    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes & 2047 == 0 {
            self.check_limits();
        }
    }

    /// Draw by the fifty-move rule, bare material, or a repetition.
    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 || insufficient_material(pos) {
            return true;
        }
        let key = pos.key();
        let reach = (pos.halfmove_clock() as usize).min(self.keys.len());
        let floor = self.null_floor.max(self.keys.len() - reach);
        (floor..self.keys.len())
            .rev()
            .skip(1)
            .step_by(2)
            .any(|i| self.keys[i] == key)
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Orders `moves` for this node.
    fn order(&self, pos: &Position, moves: &mut MoveList, hash_move: Move, ply: usize) {
        let mut scores = [0i32; MAX_MOVES];
        let n = moves.len();
        for (s, &mv) in scores.iter_mut().zip(moves.iter()) {
            *s = score_move(pos, mv, hash_move, &self.killers[ply], self.history);
        }
        sort_moves(moves.as_mut_slice(), &mut scores[..n]);
    }

    /// The negamax search of `pos` to `depth` inside `(alpha, beta)`.
    pub fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        if ply > 0 {
            if self.is_draw(pos) {
                return 0;
            }
            // No line from here can beat a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let pv_node = beta - alpha > 1;
        let in_check = pos.in_check();
        let key = pos.key();
        let mut hash_move = Move::NULL;
        if let Some(e) = self.tt.probe(key) {
            hash_move = e.mv;
            if !pv_node && ply > 0 && e.depth as i32 >= depth {
                let s = from_tt(e.score as i32, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        if null_ok && !pv_node && !in_check && depth >= 3 && has_non_pawn_material(pos) {
            if let Some(s) = self.null_move(pos, depth, beta, ply) {
                return s;
            }
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        self.order(pos, &mut moves, hash_move, ply);
        self.keys.push(key);
        let (best, best_move) = self.search_moves(pos, &moves, depth, alpha, beta, ply, in_check);
        self.keys.pop();
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    /// Null-move pruning: if passing still fails high, so would a real move.
    fn null_move(&mut self, pos: &Position, depth: i32, beta: i32, ply: usize) -> Option<i32> {
        if evaluate(pos) < beta {
            return None;
        }
        let r = 2 + depth / 6;
        self.keys.push(pos.key());
        let saved_floor = self.null_floor;
        self.null_floor = self.keys.len();
        let next = pos.play_null();
        let s = -self.negamax(&next, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
        self.null_floor = saved_floor;
        self.keys.pop();
        if self.stopped {
            return Some(0);
        }
        (s >= beta).then_some(if s >= MATE_BOUND { beta } else { s })
    }

    /// Searches the ordered `moves` (PVS with reductions); returns the best
    /// score and move. Alpha from the caller is a lower bound to beat.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> (i32, Move) {
        let mut best = -INF;
        let mut best_move = moves[0];
        for (i, &mv) in moves.iter().enumerate() {
            let next = pos.play(mv);
            let gives_check = next.in_check();
            let tactical = is_tactical(pos, mv);
            let new_depth = depth - 1 + i32::from(gives_check);
            let score = if i == 0 {
                -self.negamax(&next, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let quiet_late = i >= 3 && depth >= 3 && !tactical && !in_check && !gives_check;
                let r = if quiet_late {
                    1 + i32::from(i >= 10) + i32::from(depth >= 8)
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
                            self.reward_quiet(pos, mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        (best, best_move)
    }

    fn reward_quiet(&mut self, pos: &Position, mv: Move, depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let h = &mut self.history[pos.side_to_move().index()][mv.from().index()][mv.to().index()];
        *h = (*h + depth * depth).min(1 << 20);
    }

    /// Quiescence: captures and promotions (every evasion when in check) until quiet.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let mut best = -INF;
        if !in_check {
            best = evaluate(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { best };
        }
        self.order(pos, &mut moves, Move::NULL, ply);
        for &mv in moves.iter() {
            if !in_check && !is_tactical(pos, mv) {
                // Ordered: tactical moves come first, so the rest are quiet.
                break;
            }
            let score = -self.quiesce(&pos.play(mv), -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
