//! Move ordering: the hash move, captures by MVV-LVA, promotions, killers,
//! then quiet moves by history.

use crate::eval::piece_value;
use crate::limits::MAX_PLY;
use movegen::{Move, MoveKind, Piece, Position};

/// Killer moves: two quiet moves per ply that caused a cutoff.
pub type Killers = [[Move; 2]; MAX_PLY];

/// History scores by side, from and to square.
pub type History = [[[i32; 64]; 64]; 2];

/// Whether `mv` captures (en passant included) or promotes.
#[inline]
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.promotion().is_some()
        || mv.kind() == MoveKind::EnPassant
        || (!mv.is_castle() && pos.occupied().has(mv.to()))
}

/// The piece a move captures, if any.
fn victim(pos: &Position, mv: Move) -> Option<Piece> {
    match mv.kind() {
        MoveKind::EnPassant => Some(Piece::Pawn),
        MoveKind::Castle => None,
        _ => pos.piece_on(mv.to()),
    }
}

/// Scores at and above this are captures and promotions.
pub const TACTICAL: i32 = 1 << 28;

/// A sort key: larger is searched first.
pub fn score_move(
    pos: &Position,
    mv: Move,
    hash_move: Move,
    killers: &[Move; 2],
    history: &History,
) -> i32 {
    if mv == hash_move {
        return 1 << 30;
    }
    let attacker = pos.piece_on(mv.from()).unwrap_or(Piece::Pawn);
    let promo = mv.promotion().map_or(0, piece_value);
    if let Some(v) = victim(pos, mv) {
        return TACTICAL + piece_value(v) * 16 - piece_value(attacker) / 16 + promo;
    }
    if promo > 0 {
        return TACTICAL + promo;
    }
    if mv == killers[0] {
        return 1 << 27;
    }
    if mv == killers[1] {
        return (1 << 27) - 1;
    }
    history[pos.side_to_move().index()][mv.from().index()][mv.to().index()]
}
