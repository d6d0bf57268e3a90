//! Lab 11: search. Alpha-beta with move ordering, quiescence, and a
//! material and piece-square evaluation.
//!
//! The lab text: `labs/11-search.md` in your workspace, or `course text 11`.

#![allow(unused_variables, unused_imports)]

use crate::lab06_attacks::in_check;
use crate::lab08_special::legal_moves;
use crate::lab09_position::play;
use crate::types::{Board, Color, Move, Square};

/// The score of being checkmated now; mated in `n` plies scores
/// `-(MATE - n)`, so a quicker mate is a bigger number.
pub const MATE: i32 = 100_000;
/// Larger than any score: the initial window is `-INFINITY..INFINITY`.
pub const INFINITY: i32 = 1_000_000;

/// What `search` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, `None` when there is no legal move.
    pub best: Option<Move>,
    /// Its score from the side to move's point of view, in centipawns.
    pub score: i32,
    /// Positions visited: one per call of `alpha_beta` or `quiesce`.
    pub nodes: u64,
}

/// Centipawn values of pawn, knight, bishop, rook, queen, king.
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The static score of `board` for the side to move: material (`VALUES`)
/// plus piece-square bonuses of your own (a knight in the centre is worth
/// more than one on the rim), White's total minus Black's, negated when
/// Black is to move. The same position with the colours swapped must score
/// the same: use White's table for Black with the square mirrored top to
/// bottom (`sq ^ 56`). No bonus for the side to move.
pub fn evaluate(board: &Board) -> i32 {
    todo!()
}

/// Whether `mv` captures (en passant too) or promotes: the moves
/// quiescence tries.
pub fn is_noisy(board: &Board, mv: Move) -> bool {
    todo!()
}

/// Sorts `moves` best first: captures (most valuable victim first, then
/// least valuable attacker), then promotions, then quiet moves.
pub fn order_moves(board: &Board, moves: &mut [Move]) {
    todo!()
}

/// Quiescence search: the score of `board` once the captures are played
/// out. Count one node per call. Not in check, the side to move may "stand
/// pat" (take `evaluate`) or try a capture or promotion; in check it must
/// answer the check with every legal move, and no move is mate
/// (`-(MATE - ply)`). With the full window the result must equal plain
/// minimax over the same moves.
pub fn quiesce(board: &Board, alpha: i32, beta: i32, ply: u32, nodes: &mut u64) -> i32 {
    todo!()
}

/// Alpha-beta in negamax form to `depth` plies, then `quiesce`. `ply` is
/// the distance from the root (for mate scores); count one node per call
/// (a call at depth 0 is quiescence's node). No legal move: mated
/// (`-(MATE - ply)`) in check, else stalemate (0). The result is exact
/// when it lies strictly inside `alpha..beta`, otherwise a bound.
pub fn alpha_beta(board: &Board, depth: u32, ply: u32, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    todo!()
}

/// Searches `board` to `depth` plies (at least 1) with the full window and
/// ordered moves; counts the root as one node.
pub fn search(board: &Board, depth: u32) -> SearchResult {
    todo!()
}
