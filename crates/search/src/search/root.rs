//! The root of the search: each root move in turn, a full window for the
//! first and a null window for the rest, the best moved to the front.

use super::{RootMove, Search, INF};
use crate::limits::MAX_PLY;
use movegen::Position;

impl Search<'_> {
    /// Searches `moves` (the root moves still to rank) to `depth` inside
    /// `(alpha, beta)`. Each move searched gets its score and line; the best
    /// goes first, the others keep their order. Returns the best score, or
    /// `None` if the search was stopped before any move finished.
    pub fn search_root(
        &mut self,
        root: &Position,
        moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        debug_assert!(self.main || !self.stopped);
        self.data.pv_len[0] = 0;
        self.seldepth = self.seldepth.clamp(1, MAX_PLY);
        debug_assert_eq!(
            self.keys.len(),
            self.root,
            "the root's key goes after the game's"
        );
        self.keys.push(root.key());
        let mut best: Option<(usize, i32)> = None;
        #[allow(clippy::needless_range_loop)] // moves[..=i] rotate after the loop
        for i in 0..moves.len() {
            let next = root.play_unchecked(moves[i].mv);
            let new_depth = depth - 1 + i32::from(next.in_check());
            let score = if i == 0 {
                -self.negamax(&next, new_depth, -beta, -alpha, 1, true)
            } else {
                let probe = -self.negamax(&next, new_depth, -alpha - 1, -alpha, 1, true);
                if probe > alpha && probe < beta && !self.stopped {
                    -self.negamax(&next, new_depth, -beta, -alpha, 1, true)
                } else {
                    probe
                }
            };
            if self.stopped {
                break;
            }
            let rm = &mut moves[i];
            if i == 0 || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(rm.mv);
                let child = &self.data.pv[1][1..self.data.pv_len[1].max(1)];
                rm.pv.extend_from_slice(child);
            } else {
                rm.score = -INF;
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        let (i, score) = best?;
        moves[..=i].rotate_right(1);
        Some(score)
    }
}
