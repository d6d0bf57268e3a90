//! Static evaluation: material plus piece-square tables and the terms of
//! `terms.rs` (mobility, pawns, king safety), tapered between the middlegame
//! and the endgame by the material left on the board.
//!
//! The tables are built from a few readable rules (centralisation, pawn
//! advance, king shelter early and king activity late) rather than typed in.

use crate::terms::terms;
use movegen::{Color, Piece, Position, Square};

/// Material in centipawns, middlegame and endgame, by piece kind.
/// Round numbers of our own: minors a little weaker and rooks a little
/// stronger once the board empties; pawns gain value in the endgame.
const MATERIAL: [(i32, i32); 6] = [
    (100, 120),
    (325, 305),
    (335, 325),
    (490, 540),
    (980, 970),
    (0, 0),
];

/// Game phase weight by piece kind; 24 is the full opening set.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Distance from the board's centre in king steps, 0 (d4/e4/d5/e5) to 3 (corners).
const fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    if df > dr {
        df
    } else {
        dr
    }
}

/// Piece-square bonus for a White piece on `sq` (a1 = 0), middlegame and endgame.
const fn square_bonus(piece: usize, sq: usize) -> (i32, i32) {
    let rank = (sq / 8) as i32;
    let file = (sq % 8) as i32;
    let centre = 3 - centre_distance(sq); // 0 at the rim, 3 in the centre
    match piece {
        // Pawns: advance, and take the centre early.
        0 => {
            let central = if file == 3 || file == 4 { 1 } else { 0 };
            let mg = (rank - 1) * 5 + central * rank * 5;
            let eg = (rank - 1) * 12;
            (mg, eg)
        }
        // Knights: strongly centralised.
        1 => (centre * 12 - 20, centre * 10 - 15),
        // Bishops: mildly centralised.
        2 => (centre * 6 - 8, centre * 5 - 6),
        // Rooks: the seventh rank, and central files a little.
        3 => {
            let seventh = if rank == 6 { 15 } else { 0 };
            let files = if file == 3 || file == 4 { 5 } else { 0 };
            (seventh + files, seventh / 2)
        }
        // Queens: slight centralisation.
        4 => (centre * 3 - 4, centre * 6 - 8),
        // King: sheltered at the back early, active in the centre late.
        _ => {
            let shelter = if rank == 0 {
                [20, 30, 10, 0, 0, 10, 30, 20][file as usize]
            } else {
                -15 * rank
            };
            (shelter, centre * 15 - 25)
        }
    }
}

const fn build_tables() -> [[(i32, i32); 64]; 6] {
    let mut t = [[(0, 0); 64]; 6];
    let mut p = 0;
    while p < 6 {
        let mut sq = 0;
        while sq < 64 {
            let (mg, eg) = square_bonus(p, sq);
            t[p][sq] = (mg + MATERIAL[p].0, eg + MATERIAL[p].1);
            sq += 1;
        }
        p += 1;
    }
    t
}

/// Material plus square bonus, per White piece kind and square.
static TABLES: [[(i32, i32); 64]; 6] = build_tables();

/// The middlegame and endgame value of `color`'s `piece` on `sq`.
fn value(color: Color, piece: Piece, sq: Square) -> (i32, i32) {
    let sq = match color {
        Color::White => sq,
        Color::Black => sq.flip_rank(),
    };
    TABLES[piece.index()][sq.index()]
}

/// The nominal middlegame value of a piece kind, for move ordering.
pub fn piece_value(piece: Piece) -> i32 {
    MATERIAL[piece.index()].0
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
    let phase = phase.min(MAX_PHASE);
    let score = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    // A small bonus for the move keeps evaluations of odd and even depths close.
    let tempo = 10;
    match pos.side_to_move() {
        Color::White => score + tempo,
        Color::Black => -score + tempo,
    }
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
