//! Lab 10: perft and divide, the move generator's test.
//!
//! The lab text: `labs/10-perft.md` in your workspace, or `course text 10`.
//!
//! Use your legal move generator (`crate::lab08_special::legal_moves`) and
//! your copy-make (`crate::lab09_position::play`).

#![allow(unused_variables, unused_imports)]

use crate::lab08_special::legal_moves;
use crate::lab09_position::play;
use crate::types::{Board, Move};

/// The number of move paths of exactly `depth` plies from `board` (the
/// leaves of the game tree cut at `depth`). `perft(b, 0)` is 1, the empty
/// path; a position with no legal move has no paths of depth 1 or more.
pub fn perft(board: &Board, depth: u32) -> u64 {
    todo!()
}

/// Each legal move of `board` with the perft count below it at
/// `depth - 1`, so that the counts add up to `perft(board, depth)`.
/// `depth` is at least 1.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    todo!()
}
