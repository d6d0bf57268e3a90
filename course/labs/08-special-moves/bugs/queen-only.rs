//! bug: a pawn on the last rank becomes only a queen
//! expect: promotion_moves(board) is wrong: missing h2h1b h2h1n h2h1r
//! Lab 8: the special moves, and the complete legal move generator.
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

use crate::lab06_attacks::{attackers_to, in_check};
use crate::lab07_legal::{ordinary_moves, targets};
use crate::lab02_pawns::pawn_attacks;
use crate::types::{Board, Color, Move, Piece, Square};

/// The castling moves of the side to move, as king moves of two squares
/// (e1g1, e1c1, e8g8, e8c8).
pub fn castling_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    if in_check(board) {
        return moves;
    }
    let us = board.side;
    let them = us.other();
    let (king_side, queen_side, base) = match us {
        Color::White => (1u8, 2u8, 0u8),
        Color::Black => (4u8, 8u8, 56u8),
    };
    let king = base + 4;
    let rooks = board.pieces[us as usize][Piece::Rook as usize];
    if board.pieces[us as usize][Piece::King as usize] & 1u64 << king == 0 {
        return moves;
    }
    let occ = board.occupied();
    let safe = |sq: Square| attackers_to(board, sq, them) == 0;
    // King side: f and g empty, the king crosses f and lands on g.
    let path = 0b0110_0000u64 << base;
    if board.castling & king_side != 0
        && rooks & 1u64 << (base + 7) != 0
        && occ & path == 0
        && safe(base + 5)
        && safe(base + 6)
    {
        moves.push(Move { from: king, to: base + 6, promotion: None });
    }
    // Queen side: b, c and d empty; only d and c must be safe (the rook
    // crosses b, the king does not).
    let path = 0b0000_1110u64 << base;
    if board.castling & queen_side != 0
        && rooks & 1u64 << base != 0
        && occ & path == 0
        && safe(base + 3)
        && safe(base + 2)
    {
        moves.push(Move { from: king, to: base + 2, promotion: None });
    }
    moves
}

/// The legal en passant captures of the side to move.
pub fn en_passant_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    let Some(ep) = board.en_passant else {
        return moves;
    };
    let us = board.side;
    let them = us.other();
    let captured = match us {
        Color::White => ep - 8,
        Color::Black => ep + 8,
    };
    let our_pawns = board.pieces[us as usize][Piece::Pawn as usize];
    // Our pawns that attack the en passant square: where an enemy pawn on it
    // would attack.
    let mut capturers = pawn_attacks(them, 1u64 << ep) & our_pawns;
    let king = board.king_square(us);
    while capturers != 0 {
        let from = capturers.trailing_zeros() as Square;
        // Play it on a copy: our pawn from -> ep, their pawn leaves `captured`.
        let mut after = *board;
        after.pieces[us as usize][Piece::Pawn as usize] ^= 1u64 << from | 1u64 << ep;
        after.pieces[them as usize][Piece::Pawn as usize] &= !(1u64 << captured);
        if attackers_to(&after, king, them) == 0 {
            moves.push(Move { from, to: ep, promotion: None });
        }
        capturers &= capturers - 1;
    }
    moves
}

/// The legal promotions of the side to move: every legal pawn move onto the
/// last rank, once for each of queen, rook, bishop and knight.
pub fn promotion_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    let us = board.side;
    let (seventh, last) = match us {
        Color::White => (0xffu64 << 48, 0xffu64 << 56),
        Color::Black => (0xff00u64, 0xffu64),
    };
    let mut pawns = board.pieces[us as usize][Piece::Pawn as usize] & seventh;
    while pawns != 0 {
        let from = pawns.trailing_zeros() as Square;
        let mut to_set = targets(board, from) & last;
        while to_set != 0 {
            let to = to_set.trailing_zeros() as Square;
            for piece in [Piece::Queen] {
                moves.push(Move { from, to, promotion: Some(piece) });
            }
            to_set &= to_set - 1;
        }
        pawns &= pawns - 1;
    }
    moves
}

/// Every legal move of the side to move: lab 7's ordinary moves plus
/// castling, en passant and promotions.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = ordinary_moves(board);
    moves.extend(castling_moves(board));
    moves.extend(en_passant_moves(board));
    moves.extend(promotion_moves(board));
    moves
}
