//! The root of the search: every root move with a full window for the first
//! and a null window for the rest, best move moved to the front.

use crate::search::{Search, MAX_PLY};
use movegen::{Move, MoveList, Position};

const INF: i32 = 32_000;

/// Searches every root move to `depth`; returns the best score and move (the
/// move is `None` if the search was stopped before any move finished).
pub fn search_root(
    s: &mut Search,
    root: &Position,
    moves: &mut MoveList,
    depth: i32,
) -> (i32, Option<Move>) {
    s.pv_len[0] = 0;
    let (mut alpha, beta) = (-INF, INF);
    let mut best: Option<(usize, Move)> = None;
    s.keys.push(root.key());
    s.seldepth = s.seldepth.clamp(1, MAX_PLY);
    for i in 0..moves.len() {
        let mv = moves[i];
        let next = root.play(mv);
        let new_depth = depth - 1 + i32::from(next.in_check());
        let score = if i == 0 {
            -s.negamax(&next, new_depth, -beta, -alpha, 1, true)
        } else {
            let probe = -s.negamax(&next, new_depth, -alpha - 1, -alpha, 1, true);
            if probe > alpha && !s.stopped {
                -s.negamax(&next, new_depth, -beta, -alpha, 1, true)
            } else {
                probe
            }
        };
        if s.stopped {
            break;
        }
        if score > alpha {
            alpha = score;
            best = Some((i, mv));
            s.pv[0][0] = mv;
            let len = s.pv_len[1].max(1);
            for p in 1..len {
                s.pv[0][p] = s.pv[1][p];
            }
            s.pv_len[0] = len;
        }
    }
    s.keys.pop();
    if let Some((i, mv)) = best {
        // The best move goes first, the others keep their order.
        moves.as_mut_slice()[..=i].rotate_right(1);
        debug_assert_eq!(moves[0], mv);
    }
    (alpha, best.map(|b| b.1))
}
