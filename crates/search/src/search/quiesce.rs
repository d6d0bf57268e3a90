//! Quiescence: captures and promotions until the position is quiet, every
//! evasion when in check, standing pat on the static evaluation otherwise.

use super::{Search, INF, MATE};
use crate::limits::MAX_PLY;
use crate::ordering::TACTICAL;
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
        let mut best = -INF;
        if !in_check {
            best = self.evaluate(pos, ply);
            if best >= beta {
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
