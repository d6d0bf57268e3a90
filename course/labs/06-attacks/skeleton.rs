//! Lab 6: attacks on a square, checkers, "is the king in check".
//!
//! The lab text: `labs/06-attacks.md` in your workspace, or `course text 6`.
//!
//! The trick of this lab: a piece on `a` attacks `b` exactly when the same
//! kind of piece on `b` would attack `a` (pawns: with the other color). So
//! instead of asking every enemy piece "do you attack e4?", put each kind of
//! piece on e4, look where it would attack, and intersect with the enemy
//! pieces of that kind.
//!
//! Replace each `todo!()` with your code, then run `course check 6`.

// The parameters are unused until you write the bodies; delete this line when you are done.
#![allow(unused_variables, unused_imports, dead_code)]

use crate::lab02_pawns::pawn_attacks;
use crate::lab03_leapers::{king_attacks, knight_attacks};
use crate::lab05_magics::{bishop_attacks, rook_attacks};
use crate::types::{Bitboard, Board, Color, Piece, Square};

/// The pieces of color `by` that attack `sq`, with `occupied` as the set of
/// blocking pieces (lab 7 takes the king away from it).
pub fn attackers_to_with(board: &Board, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
    todo!()
}

/// The pieces of color `by` that attack `sq` on `board`.
pub fn attackers_to(board: &Board, sq: Square, by: Color) -> Bitboard {
    todo!()
}

/// The enemy pieces that give check to the king of the side to move.
pub fn checkers(board: &Board) -> Bitboard {
    todo!()
}

/// Whether the side to move is in check.
pub fn in_check(board: &Board) -> bool {
    todo!()
}
