//! Lab 2: pawns by shifts. Every pawn of a side moves at once: one shift of the whole set.
//!
//! Replace each `todo!()` with your code, then run `course check 2`. The lab text
//! (`labs/02-pawns.md` in your workspace, or `course text 2`) explains every function below.

// The parameters are unused until you write the bodies; delete this line when you are done.
#![allow(unused_variables)]

// Add `Piece` and `Square` here when you need them.
use crate::types::{Bitboard, Board, Color, Move};

/// Every square of the a-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// Every square of the h-file.
pub const FILE_H: Bitboard = FILE_A << 7;

/// The squares the pawns reach by moving one square forward onto an empty square. White's
/// pawns move up the board (towards rank 8), Black's down.
pub fn single_pushes(color: Color, pawns: Bitboard, empty: Bitboard) -> Bitboard {
    todo!()
}

/// The squares the pawns on their starting rank (rank 2 for White, rank 7 for Black) reach by
/// moving two squares forward; both squares must be empty.
pub fn double_pushes(color: Color, pawns: Bitboard, empty: Bitboard) -> Bitboard {
    todo!()
}

/// The squares of `enemies` the pawns capture diagonally forward towards the a-file.
pub fn captures_west(color: Color, pawns: Bitboard, enemies: Bitboard) -> Bitboard {
    todo!()
}

/// The squares of `enemies` the pawns capture diagonally forward towards the h-file.
pub fn captures_east(color: Color, pawns: Bitboard, enemies: Bitboard) -> Bitboard {
    todo!()
}

/// Every square the pawns attack (would capture onto, were an enemy there).
pub fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    todo!()
}

/// Every pawn move of the side to move (`board.side`): pushes, double pushes and captures; a
/// pawn reaching the last rank makes four moves, promoting to a queen, rook, bishop or knight.
/// No en passant yet, and checks and pins don't matter yet.
pub fn pawn_moves(board: &Board) -> Vec<Move> {
    todo!()
}
