//! Lab 3: knights and kings. Attacks of a whole set by eight shifts, each with its file mask,
//! and tables of them for every square.
//!
//! Replace each `todo!()` with your code, then run `course check 3`. The lab text
//! (`labs/03-knights-kings.md` in your workspace, or `course text 3`) explains every function below.

// The parameters are unused until you write the bodies; delete this line when you are done.
#![allow(unused_variables)]

// Add `Piece` and `Square` here when you need them.
use crate::types::{Bitboard, Board, Move};

/// Every square of the a-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// Every square of the h-file.
pub const FILE_H: Bitboard = FILE_A << 7;

/// Every square a knight of `knights` attacks (any number of knights).
pub fn knight_attacks(knights: Bitboard) -> Bitboard {
    todo!()
}

/// Every square a king of `kings` attacks (the eight neighbours of each king).
pub fn king_attacks(kings: Bitboard) -> Bitboard {
    todo!()
}

/// The knight's attacks from every square: `knight_table()[sq]` is `knight_attacks(1 << sq)`.
pub fn knight_table() -> [Bitboard; 64] {
    todo!()
}

/// The king's attacks from every square: `king_table()[sq]` is `king_attacks(1 << sq)`.
pub fn king_table() -> [Bitboard; 64] {
    todo!()
}

/// Every knight move of the side to move (`board.side`): onto an empty square or an enemy
/// piece, never onto its own piece. Checks and pins don't matter yet.
pub fn knight_moves(board: &Board) -> Vec<Move> {
    todo!()
}

/// Every king move of the side to move, the same way (no castling yet, and don't worry yet
/// whether the king walks into an attack).
pub fn king_moves(board: &Board) -> Vec<Move> {
    todo!()
}
