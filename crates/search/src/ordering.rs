//! Move ordering: the hash move, captures by MVV-LVA, promotions, killers,
//! then quiet moves by history.

use crate::eval::piece_value;
use crate::limits::MAX_PLY;
use movegen::{Bitboard, Color, Move, MoveKind, Piece, Position};

/// Killer moves: two quiet moves per ply that caused a cutoff.
pub type Killers = [[Move; 2]; MAX_PLY];

/// History scores by side, from and to square, within `±HISTORY_MAX`.
pub type History = [[[i32; 64]; 64]; 2];

/// The bound history scores approach but never pass.
pub const HISTORY_MAX: i32 = 16_384;

/// The history reward for a cutoff at `depth` (and the penalty for the
/// quiet moves tried before it): grows with the subtree, capped so one deep
/// cutoff does not swamp the table.
pub fn history_bonus(depth: i32) -> i32 {
    (24 * depth * depth).min(1_536)
}

/// Moves `entry` by `bonus` with gravity: the nearer the bound, the smaller
/// the step, so scores stay inside `±HISTORY_MAX` and recent results weigh more.
#[inline]
pub fn update_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

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

/// The first killer scores this, the second one less; above every history score.
pub const KILLER: i32 = 1 << 27;

/// Losing captures score from here, below every quiet move.
const BAD_CAPTURE: i32 = -(1 << 28);

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
        let mvv_lva = piece_value(v) * 16 - piece_value(attacker) / 16 + promo;
        // Captures that lose material go after the quiet moves.
        if promo == 0 && see(pos, mv) < 0 {
            return BAD_CAPTURE + mvv_lva;
        }
        return TACTICAL + mvv_lva;
    }
    if promo > 0 {
        return TACTICAL + promo;
    }
    if mv == killers[0] {
        return KILLER;
    }
    if mv == killers[1] {
        return KILLER - 1;
    }
    history[pos.side_to_move().index()][mv.from().index()][mv.to().index()]
}

/// Static exchange evaluation: the material `mv` wins (negative: loses) if
/// both sides keep recapturing on its square with their least valuable
/// piece, each free to stop. Pins are not looked at.
pub fn see(pos: &Position, mv: Move) -> i32 {
    if mv.is_castle() {
        return 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let mut occupied = pos.occupied() ^ Bitboard::from_square(from);
    let mut gain = [0i32; 32];
    gain[0] = victim(pos, mv).map_or(0, see_value);
    if mv.kind() == MoveKind::EnPassant {
        let captured = if pos.side_to_move() == Color::White {
            to.offset_rank(-1)
        } else {
            to.offset_rank(1)
        };
        if let Some(sq) = captured {
            occupied ^= Bitboard::from_square(sq);
        }
    }
    // The value of the piece now standing on `to`, which the next capture takes.
    let mut on_square = see_value(pos.piece_on(from).unwrap_or(Piece::Pawn));
    if let Some(p) = mv.promotion() {
        gain[0] += see_value(p) - see_value(Piece::Pawn);
        on_square = see_value(p);
    }
    let mut side = !pos.side_to_move();
    let mut d = 0;
    loop {
        let attackers = pos.attackers_to(to, occupied) & occupied;
        let mine = attackers & pos.colored(side);
        let Some(piece) = Piece::ALL
            .into_iter()
            .find(|&p| (mine & pos.pieces(p)).nonempty())
        else {
            break;
        };
        // A king may not capture into a defended square.
        if piece == Piece::King && (attackers & pos.colored(!side)).nonempty() {
            break;
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        let sq = (mine & pos.pieces(piece))
            .first()
            .expect("the set was just found non-empty");
        occupied ^= Bitboard::from_square(sq);
        on_square = see_value(piece);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Round piece values for exchanges.
fn see_value(piece: Piece) -> i32 {
    [100, 320, 330, 500, 950, 20_000][piece.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        see(&pos, pos.parse_uci_move(uci).unwrap())
    }

    #[test]
    fn exchanges() {
        // A free pawn.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        // Rook takes a pawn defended by a pawn: loses the exchange for a pawn.
        assert_eq!(see_of("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), -400);
        // Pawn takes a defended knight: wins knight for pawn.
        assert_eq!(see_of("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 220);
        // Queen takes a pawn twice defended, backed by a rook: still loses.
        assert!(see_of("3rk3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5") < 0);
        // A quiet move to an attacked square scores the piece lost.
        assert_eq!(see_of("4k3/8/2p5/8/3N4/8/8/4K3 w - - 0 1", "d4b5"), -320);
    }
}
