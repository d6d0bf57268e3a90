//! Lab 7: legal moves with the check mask and the pin masks.
//!
//! The lab text: `labs/07-legal.md` in your workspace, or `course text 7`.
//!
//! Two bitboards make every non-king move legal without trying it:
//! - the check mask: where a piece must go when the king is in check (onto
//!   the checker or between it and the king); all squares when not in check,
//!   none in double check;
//! - the pin masks: the rays from the king through exactly one of our pieces
//!   to an enemy slider, pinner included. A pinned piece stays on its ray.
//!
//! The king is different: it may go to any square no enemy attacks, looking
//! at the board as if the king were already gone (else it steps back along
//! a checking ray, "hiding" behind itself).
//!
//! Replace each `todo!()` with your code, then run `course check 7`.

// The parameters are unused until you write the bodies; delete this line when you are done.
#![allow(unused_variables, unused_imports, dead_code)]

use crate::lab02_pawns::pawn_attacks;
use crate::lab03_leapers::{king_attacks, knight_attacks};
use crate::lab05_magics::{bishop_attacks, rook_attacks};
use crate::lab06_attacks::{attackers_to_with, checkers};
use crate::types::{Bitboard, Board, Color, Move, Piece, Square};

const RANK_1: Bitboard = 0xff;
const RANK_8: Bitboard = 0xff << 56;

/// The squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
pub fn between(a: Square, b: Square) -> Bitboard {
    todo!()
}

/// Where a piece other than the king may move: every square when the side to
/// move is not in check; the checker and the squares between it and the king
/// in single check; nothing in double check.
pub fn check_mask(board: &Board) -> Bitboard {
    todo!()
}

/// The pin masks `(straight, diagonal)`: for every enemy rook or queen (bishop
/// or queen) whose ray to our king crosses exactly one of our pieces and no
/// enemy piece, the squares between them plus the pinner's square.
pub fn pin_masks(board: &Board) -> (Bitboard, Bitboard) {
    todo!()
}

/// The squares the king of the side to move may step to (castling is lab 8):
/// its neighbours without our own pieces and without any square an enemy
/// attacks once the king has left its square.
pub fn king_targets(board: &Board) -> Bitboard {
    todo!()
}

/// The legal destinations of our piece on `from` (no castling, no en passant;
/// pawn moves onto the last rank are included). Empty when `from` holds no
/// piece of the side to move.
pub fn targets(board: &Board, from: Square) -> Bitboard {
    todo!()
}

/// Every legal move of the side to move except castling, en passant and pawn
/// moves onto the last rank (lab 8 adds those three).
pub fn ordinary_moves(board: &Board) -> Vec<Move> {
    todo!()
}
