//! Lab 10: perft and divide, the move generator's test.

use crate::lab08_special::legal_moves;
use crate::lab09_position::play;
use crate::types::{Board, Move};

/// The number of move paths of exactly `depth` plies from `board` (the
/// leaves of the game tree cut at `depth`). `perft(b, 0)` is 1: the empty
/// path. A position with no legal move has no paths of depth 1 or more.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(board);
    if depth == 1 {
        // Bulk counting: each legal move is one leaf.
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        let next = play(board, mv);
        total += perft(&next, depth - 1);
    }
    total
}

/// Each legal move of `board` with the perft count below it at
/// `depth - 1`: the counts add up to `perft(board, depth)`. `depth` is at
/// least 1.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    legal_moves(board)
        .into_iter()
        .map(|mv| (mv, perft(&play(board, mv), depth.saturating_sub(1))))
        .collect()
}
