//! bug: the king's eastward steps have no file mask, so a king on the h-file attacks the a-file
//! expect: king_attacks(kings on h1) is wrong: extra a1 a2 a3
//! Lab 3: knights and kings. Attacks of a whole set by eight shifts, each with its file mask,
//! and tables of them for every square.

use crate::types::{Bitboard, Board, Move, Piece, Square};

/// Every square of the a-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// Every square of the b-file.
pub const FILE_B: Bitboard = FILE_A << 1;
/// Every square of the g-file.
pub const FILE_G: Bitboard = FILE_A << 6;
/// Every square of the h-file.
pub const FILE_H: Bitboard = FILE_A << 7;

/// Every square a knight of `knights` attacks. Each jump is one shift; the mask removes the
/// squares a shift wrapped onto: a jump east lands on the a- or b-file only by wrapping.
pub fn knight_attacks(knights: Bitboard) -> Bitboard {
    let b = knights;
    let not_a = !FILE_A;
    let not_ab = !(FILE_A | FILE_B);
    let not_h = !FILE_H;
    let not_gh = !(FILE_G | FILE_H);
    ((b << 17) & not_a)
        | ((b << 10) & not_ab)
        | ((b >> 6) & not_ab)
        | ((b >> 15) & not_a)
        | ((b << 15) & not_h)
        | ((b << 6) & not_gh)
        | ((b >> 10) & not_gh)
        | ((b >> 17) & not_h)
}

/// Every square a king of `kings` attacks (the eight neighbours of each).
pub fn king_attacks(kings: Bitboard) -> Bitboard {
    let b = kings;
    let east = (b << 1) | (b << 9) | (b >> 7);
    let west = ((b >> 1) | (b >> 9) | (b << 7)) & !FILE_H;
    east | west | (b << 8) | (b >> 8)
}

/// The knight's attacks from every square: `knight_table()[sq]`.
pub fn knight_table() -> [Bitboard; 64] {
    let mut table = [0; 64];
    for (sq, entry) in table.iter_mut().enumerate() {
        *entry = knight_attacks(1 << sq);
    }
    table
}

/// The king's attacks from every square: `king_table()[sq]`.
pub fn king_table() -> [Bitboard; 64] {
    let mut table = [0; 64];
    for (sq, entry) in table.iter_mut().enumerate() {
        *entry = king_attacks(1 << sq);
    }
    table
}

/// The moves of every piece of kind `piece` of the side to move, by `attacks`, onto squares
/// not holding a piece of its own.
fn leaper_moves(board: &Board, piece: Piece, attacks: fn(Bitboard) -> Bitboard) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut pieces = board.piece_set(board.side, piece);
    while pieces != 0 {
        let from = pieces.trailing_zeros() as Square;
        pieces &= pieces - 1;
        let mut targets = attacks(1 << from) & !board.us();
        while targets != 0 {
            let to = targets.trailing_zeros() as Square;
            targets &= targets - 1;
            moves.push(Move::new(from, to));
        }
    }
    moves
}

/// Every knight move of the side to move: onto an empty square or an enemy piece (checks and
/// pins don't matter yet).
pub fn knight_moves(board: &Board) -> Vec<Move> {
    leaper_moves(board, Piece::Knight, knight_attacks)
}

/// Every king move of the side to move, not counting castling (and not yet caring whether the
/// square is attacked).
pub fn king_moves(board: &Board) -> Vec<Move> {
    leaper_moves(board, Piece::King, king_attacks)
}
