//! bug: pawn attackers looked up with the attacker's own color: a white pawn is taken to attack downwards
//! expect: attackers_to(board, a1, white) is wrong: extra b2
//! Lab 6: attacks on a square, checkers, "is the king in check".
//!
//! The trick of this lab: a piece on `a` attacks `b` exactly when the same
//! kind of piece on `b` would attack `a` (pawns: with the other color). So
//! instead of asking every enemy piece "do you attack e4?", put each kind of
//! piece on e4, look where it would attack, and intersect with the enemy
//! pieces of that kind.

use crate::lab02_pawns::pawn_attacks;
use crate::lab03_leapers::{king_attacks, knight_attacks};
use crate::lab05_magics::{bishop_attacks, rook_attacks};
use crate::types::{Bitboard, Board, Color, Piece, Square};

/// The pieces of color `by` that attack `sq`, with `occupied` as the set of
/// blocking pieces (lab 7 takes the king away from it).
pub fn attackers_to_with(board: &Board, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
    let their = &board.pieces[by as usize];
    let queens = their[Piece::Queen as usize];
    // A white pawn attacks sq when a black pawn on sq would attack it.
    (pawn_attacks(by, 1u64 << sq) & their[Piece::Pawn as usize])
        | (knight_attacks(1u64 << sq) & their[Piece::Knight as usize])
        | (king_attacks(1u64 << sq) & their[Piece::King as usize])
        | (bishop_attacks(sq, occupied) & (their[Piece::Bishop as usize] | queens))
        | (rook_attacks(sq, occupied) & (their[Piece::Rook as usize] | queens))
}

/// The pieces of color `by` that attack `sq` on `board`.
pub fn attackers_to(board: &Board, sq: Square, by: Color) -> Bitboard {
    attackers_to_with(board, sq, by, board.occupied())
}

/// The enemy pieces that give check to the king of the side to move.
pub fn checkers(board: &Board) -> Bitboard {
    let king = board.king_square(board.side);
    attackers_to(board, king, board.side.other())
}

/// Whether the side to move is in check.
pub fn in_check(board: &Board) -> bool {
    checkers(board) != 0
}
