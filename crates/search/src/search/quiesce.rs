//! Quiescence: captures and promotions until the position is quiet, every
//! evasion when in check, standing pat on the static evaluation otherwise.
//! It shares the transposition table with the main search: its results are
//! stored at depth 0, and a stored bound ends a null-window node at once.

use super::{from_tt, to_tt, Search, INF, MATE};
use crate::limits::MAX_PLY;
use crate::ordering::TACTICAL;
use crate::tt::{Bound, Entry};
use movegen::{Move, Position};

impl Search<'_> {
    /// Quiescence: captures and promotions (every evasion when in check) until quiet.
    pub(super) fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.enter(ply);
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        let in_check = pos.in_check();
        let key = pos.key();
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry {
            // Any stored depth is at least quiescence's; PV nodes search on
            // for their line.
            let s = from_tt(i32::from(e.score), ply);
            if beta - alpha == 1 && e.bound.settles(s, alpha, beta) {
                return s;
            }
        }
        let alpha_in = alpha;
        let mut best = -INF;
        let mut eval = -INF;
        if !in_check {
            eval = match entry {
                Some(e) => i32::from(e.eval),
                None => self.evaluate(pos, ply),
            };
            best = eval;
            if best >= beta {
                if entry.is_none() {
                    self.store(key, Move::NULL, best, eval, Bound::Lower, ply);
                }
                return best;
            }
            alpha = alpha.max(best);
        }
        // Out of check only captures and promotions are searched: generate no more.
        let mut moves = if in_check {
            pos.legal_moves()
        } else {
            pos.legal_captures()
        };
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { best };
        }
        self.score_moves(pos, &moves, Move::NULL, ply);
        let moves = moves.as_mut_slice();
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            if self.pick(moves, i, ply) < TACTICAL && !in_check {
                // Picked best first: the rest are captures that lose material.
                break;
            }
            let score = -self.quiesce(&pos.play_unchecked(moves[i]), -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = moves[i];
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, alpha_in, beta);
        self.store(key, best_move, best, eval, bound, ply);
        best
    }

    /// Stores a quiescence result at depth 0.
    fn store(&self, key: u64, mv: Move, score: i32, eval: i32, bound: Bound, ply: usize) {
        let entry = Entry {
            mv,
            score: to_tt(score, ply).clamp(-INF, INF) as i16,
            eval: eval.clamp(-INF, INF) as i16,
            depth: 0,
            bound,
        };
        self.shared.tt.store(key, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::SearchControl;
    use crate::search::{Shared, ThreadData};
    use crate::time::Deadlines;
    use crate::tt::Table;
    use movegen::KeyHistory;
    use std::time::Instant;

    #[test]
    fn quiescence_stores_its_result_and_answers_from_it() {
        // The queen takes the undefended rook on d5.
        let pos = Position::from_fen("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1").unwrap();
        let tt = Table::new(1);
        let control = SearchControl::default();
        let no_clock = Deadlines {
            soft: None,
            hard: None,
        };
        let shared = Shared::new(&tt, &control, Instant::now(), no_clock, None, None);
        let mut data = ThreadData::new();
        let history = KeyHistory::new();
        let mut search = Search::new(&shared, &mut data, &history, true);

        let score = search.quiesce(&pos, -INF, INF, 0);
        assert!(score > 300, "a rook up after the capture: {score}");
        let e = tt.probe(pos.key()).expect("the result is stored");
        assert_eq!((e.depth, e.bound), (0, Bound::Exact));
        assert_eq!(from_tt(i32::from(e.score), 0), score);
        assert_eq!(e.mv.to_string(), "d1d5");

        // A null window is answered from the table: one node, no children.
        let before = search.nodes;
        assert_eq!(search.quiesce(&pos, score - 1, score, 0), score);
        assert_eq!(search.nodes - before, 1);
        // A full window searches again, to the same score.
        assert_eq!(search.quiesce(&pos, -INF, INF, 0), score);
        assert!(search.nodes - before > 2);
    }
}
