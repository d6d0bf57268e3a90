//! Lab 8: the special moves, and the complete legal move generator.
//!
//! The lab text: `labs/08-special-moves.md` in your workspace, or `course text 8`.
//!
//! - Castling: the right must still be there, the squares between king and
//!   rook empty, and the king may not be in check, pass over an attacked
//!   square or land on one.
//! - En passant: the one capture that removes a piece from a square the
//!   capturer does not move to. Two pawns leave one rank at once, so the
//!   pin masks (which see one piece between king and slider) can miss a pin:
//!   play the capture on a copy of the board and ask whether the king is attacked.
//! - Promotions: a pawn reaching the last rank becomes a queen, rook, bishop
//!   or knight: four moves, all of them legal when one is.
//!
//! Replace each `todo!()` with your code, then run `course check 8`.

// The parameters are unused until you write the bodies; delete this line when you are done.
#![allow(unused_variables, unused_imports, dead_code)]

use crate::lab06_attacks::{attackers_to, in_check};
use crate::lab07_legal::{ordinary_moves, targets};
use crate::lab02_pawns::pawn_attacks;
use crate::types::{Board, Color, Move, Piece, Square};

/// The castling moves of the side to move, as king moves of two squares
/// (e1g1, e1c1, e8g8, e8c8).
pub fn castling_moves(board: &Board) -> Vec<Move> {
    todo!()
}

/// The legal en passant captures of the side to move.
pub fn en_passant_moves(board: &Board) -> Vec<Move> {
    todo!()
}

/// The legal promotions of the side to move: every legal pawn move onto the
/// last rank, once for each of queen, rook, bishop and knight.
pub fn promotion_moves(board: &Board) -> Vec<Move> {
    todo!()
}

/// Every legal move of the side to move: lab 7's ordinary moves plus
/// castling, en passant and promotions.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    todo!()
}
