//! bug: captures_east shifts without the h-file mask, so an h-file pawn "captures" on the a-file
//! expect: captures_east(White, pawns h6, enemies = 0x0100000000000000) is wrong: extra a8
//! Lab 2: pawns by shifts. Every pawn of a side moves at once: one shift of the whole set.

use crate::types::{Bitboard, Board, Color, Move, Piece, Square};

/// Every square of the a-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// Every square of the h-file.
pub const FILE_H: Bitboard = FILE_A << 7;
/// Rank 2 (where White's pawns start) and rank 7 (Black's).
pub const RANK_2: Bitboard = 0xff << 8;
/// Rank 7.
pub const RANK_7: Bitboard = 0xff << 48;

/// The squares the pawns reach by moving one square forward onto an empty square.
pub fn single_pushes(color: Color, pawns: Bitboard, empty: Bitboard) -> Bitboard {
    match color {
        Color::White => (pawns << 8) & empty,
        Color::Black => (pawns >> 8) & empty,
    }
}

/// The squares the pawns on their starting rank reach by moving two squares forward, both
/// squares empty.
pub fn double_pushes(color: Color, pawns: Bitboard, empty: Bitboard) -> Bitboard {
    let start = match color {
        Color::White => RANK_2,
        Color::Black => RANK_7,
    };
    let once = single_pushes(color, pawns & start, empty);
    single_pushes(color, once, empty)
}

/// The squares of `enemies` the pawns capture diagonally forward towards the a-file.
pub fn captures_west(color: Color, pawns: Bitboard, enemies: Bitboard) -> Bitboard {
    let movers = pawns & !FILE_A;
    match color {
        Color::White => (movers << 7) & enemies,
        Color::Black => (movers >> 9) & enemies,
    }
}

/// The squares of `enemies` the pawns capture diagonally forward towards the h-file.
pub fn captures_east(color: Color, pawns: Bitboard, enemies: Bitboard) -> Bitboard {
    let movers = pawns;
    match color {
        Color::White => (movers << 9) & enemies,
        Color::Black => (movers >> 7) & enemies,
    }
}

/// Every square the pawns attack (capture onto, were an enemy there).
pub fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    captures_west(color, pawns, !0) | captures_east(color, pawns, !0)
}

/// Adds a move from `to - back` to `to` for each square of `targets`; four moves (queen,
/// rook, bishop, knight) where the pawn reaches the last rank.
fn add_moves(moves: &mut Vec<Move>, targets: Bitboard, back: i8) {
    let mut rest = targets;
    while rest != 0 {
        let to = rest.trailing_zeros() as Square;
        rest &= rest - 1;
        let from = (to as i8 - back) as Square;
        if to >= 56 || to < 8 {
            for piece in [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight] {
                moves.push(Move { from, to, promotion: Some(piece) });
            }
        } else {
            moves.push(Move { from, to, promotion: None });
        }
    }
}

/// Every pawn move of the side to move: pushes, double pushes, captures, promotions (no en
/// passant; checks and pins don't matter yet).
pub fn pawn_moves(board: &Board) -> Vec<Move> {
    let color = board.side;
    let pawns = board.piece_set(color, Piece::Pawn);
    let empty = !board.occupied();
    let enemies = board.them();
    let up: i8 = if color == Color::White { 8 } else { -8 };
    let mut moves = Vec::new();
    add_moves(&mut moves, single_pushes(color, pawns, empty), up);
    add_moves(&mut moves, double_pushes(color, pawns, empty), 2 * up);
    add_moves(&mut moves, captures_west(color, pawns, enemies), up - 1);
    add_moves(&mut moves, captures_east(color, pawns, enemies), up + 1);
    moves
}
