//! Static evaluation: material plus piece-square tables and the terms of
//! `terms.rs` (mobility, pawns, king safety), tapered between the middlegame
//! and the endgame by the material left on the board.
//!
//! Every weight comes from `weights.rs`, fitted by our own tuner
//! (`examples/texel.rs`) to the results of our own self-play games; the
//! slots are named in `params.rs`.

use crate::params::{self, WEIGHTS};
use crate::terms::terms;
use movegen::{Color, Piece, Position, Square};

/// Game phase weight by piece kind; 24 is the full opening set.
pub(crate) const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the full opening set: 24 is all middlegame, 0 all endgame.
pub const MAX_PHASE: i32 = 24;
/// A small bonus for the side to move keeps evaluations of odd and even
/// depths close.
pub const TEMPO: i32 = 10;

/// Material plus piece-square bonus of each White piece kind and square,
/// from the weights (the search's one lookup per piece).
const fn build_tables() -> [[(i32, i32); 64]; 6] {
    let mut t = [[(0, 0); 64]; 6];
    let mut p = 0;
    while p < 6 {
        let mut sq = 0;
        while sq < 64 {
            let m = WEIGHTS[params::MATERIAL + p];
            let b = WEIGHTS[params::PST + 64 * p + sq];
            t[p][sq] = (m.0 + b.0, m.1 + b.1);
            sq += 1;
        }
        p += 1;
    }
    t
}

/// Material plus square bonus, per White piece kind and square.
static TABLES: [[(i32, i32); 64]; 6] = build_tables();

/// The middlegame and endgame value of `color`'s `piece` on `sq`.
pub(crate) fn value(color: Color, piece: Piece, sq: Square) -> (i32, i32) {
    let sq = match color {
        Color::White => sq,
        Color::Black => sq.flip_rank(),
    };
    TABLES[piece.index()][sq.index()]
}

/// The nominal middlegame value of a piece kind, for move ordering.
pub fn piece_value(piece: Piece) -> i32 {
    WEIGHTS[params::MATERIAL + piece.index()].0
}

/// The evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        for piece in Piece::ALL {
            for sq in pos.pieces_of(color, piece) {
                let (m, e) = value(color, piece, sq);
                mg += sign * m;
                eg += sign * e;
                phase += PHASE[piece.index()];
            }
        }
    }
    let (m, e) = terms(pos);
    mg += m;
    eg += e;
    let score = taper(mg, eg, phase.min(MAX_PHASE));
    match pos.side_to_move() {
        Color::White => score + TEMPO,
        Color::Black => -score + TEMPO,
    }
}

/// The middlegame and endgame scores mixed by `phase` (0 to [`MAX_PHASE`]).
pub(crate) fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Whether the side to move has a piece other than pawns and king (null move is safe).
pub fn has_non_pawn_material(pos: &Position) -> bool {
    let us = pos.colored(pos.side_to_move());
    let kings_pawns = pos.pieces(Piece::King) | pos.pieces(Piece::Pawn);
    (us & !kings_pawns).nonempty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), 10);
        let mirrored =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap();
        let back = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .unwrap();
        assert_eq!(evaluate(&mirrored), evaluate(&back));
    }

    #[test]
    fn material_counts() {
        let up_a_queen = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up_a_queen) > 800);
        let black_view = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&black_view) < -800);
    }
}
