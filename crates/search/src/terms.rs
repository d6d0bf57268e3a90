//! Evaluation terms beyond material and piece squares: piece mobility, pawn
//! structure, passed pawns, the bishop pair, rooks on open files and king
//! safety. Each term names a weight slot of `params.rs` and how many times
//! it applies, from one side's point of view; `eval.rs` tapers the sum.
//!
//! The terms are added to a [`Tally`]: a plain pair in the search (the sum,
//! no bookkeeping), a per-term table for the `eval` breakdown, or the
//! tuner's list of counts per slot, so all three come from the same code.

use crate::breakdown::Term;
use crate::params::{self, W};
use movegen::attacks::king_attacks;
use movegen::{piece_attacks, Color, Piece, Position, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Attack units on the squares around the king, by attacking piece (N, B,
/// R, Q): a fixed scale, which the king danger weights read.
const ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

fn neighbour_files(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// Squares on ranks strictly ahead of `sq` for `color`.
fn ahead(color: Color, sq: Square) -> u64 {
    let rank = sq.rank().index();
    match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black if rank > 0 => !0u64 >> (8 * (8 - rank)),
        _ => 0,
    }
}

/// Squares attacked by `color`'s pawns.
fn pawn_attacks(pos: &Position, color: Color) -> u64 {
    let p = pos.pieces_of(color, Piece::Pawn).0;
    match color {
        Color::White => ((p << 7) & !FILE_H) | ((p << 9) & !FILE_A),
        Color::Black => ((p >> 9) & !FILE_H) | ((p >> 7) & !FILE_A),
    }
}

/// King steps between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let files = a.file().index().abs_diff(b.file().index());
    let ranks = a.rank().index().abs_diff(b.rank().index());
    files.max(ranks) as i32
}

/// Rank of `sq` counted from `color`'s side (0 to 7).
fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank().index(),
        Color::Black => 7 - sq.rank().index(),
    }
}

/// Where one side's terms are added up, from that side's point of view.
pub(crate) trait Tally {
    /// Adds `times` times the weight in `slot`, which belongs to `term`.
    fn add(&mut self, term: Term, slot: usize, times: i32);
}

/// The search's tally: the sum alone.
impl Tally for (i32, i32) {
    #[inline]
    fn add(&mut self, _: Term, slot: usize, times: i32) {
        let (mg, eg) = W[slot];
        self.0 += mg * times;
        self.1 += eg * times;
    }
}

/// Material and piece squares of `color`'s pieces, each from `color`'s
/// point of view (the search reads them from `eval.rs`'s combined tables).
pub(crate) fn side_pieces(pos: &Position, color: Color, acc: &mut impl Tally) {
    for piece in Piece::ALL {
        for sq in pos.pieces_of(color, piece) {
            let sq = match color {
                Color::White => sq,
                Color::Black => sq.flip_rank(),
            };
            acc.add(Term::Material, params::MATERIAL + piece.index(), 1);
            let slot = params::PST + 64 * piece.index() + sq.index();
            acc.add(Term::PieceSquares, slot, 1);
        }
    }
}

/// Every term for `color`, from `color`'s point of view, added to `acc`.
pub(crate) fn side_terms(pos: &Position, color: Color, acc: &mut impl Tally) {
    let them = !color;
    let own = pos.colored(color).0;
    let occ = pos.occupied();
    let own_pawns = pos.pieces_of(color, Piece::Pawn).0;
    let their_pawns = pos.pieces_of(them, Piece::Pawn).0;
    let safe = !own & !pawn_attacks(pos, them);
    let their_king = pos.king(them);
    let zone = king_attacks(their_king).0 | 1u64 << their_king.index();
    let (mut units, mut attackers) = (0, 0);

    for (i, piece) in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in pos.pieces_of(color, piece) {
            let attacks = piece_attacks(piece, color, sq, occ).0;
            let count = (attacks & safe).count_ones() as usize;
            acc.add(Term::Mobility, params::MOBILITY[i] + count, 1);
            let near_king = (attacks & zone).count_ones() as i32;
            if near_king > 0 {
                units += ATTACK_UNITS[i] * near_king;
                attackers += 1;
            }
            if piece == Piece::Rook {
                let file = file_mask(sq.file().index());
                if (own_pawns | their_pawns) & file == 0 {
                    acc.add(Term::Rooks, params::ROOK_OPEN, 1);
                } else if own_pawns & file == 0 {
                    acc.add(Term::Rooks, params::ROOK_HALF_OPEN, 1);
                }
            }
        }
    }
    // One attacker is no attack; the danger is a table by the units.
    if attackers >= 2 {
        let units = (units as usize).min(params::DANGER_SLOTS - 1);
        acc.add(Term::KingAttack, params::KING_DANGER + units, 1);
    }

    if pos.pieces_of(color, Piece::Bishop).len() >= 2 {
        acc.add(Term::BishopPair, params::BISHOP_PAIR, 1);
    }

    for file in 0..8 {
        let n = (own_pawns & file_mask(file)).count_ones() as i32;
        if n > 1 {
            acc.add(Term::Pawns, params::DOUBLED, n - 1);
        }
    }
    // Pawns defended by a pawn of their own.
    let supported = (own_pawns & pawn_attacks(pos, color)).count_ones() as i32;
    acc.add(Term::Pawns, params::SUPPORTED, supported);
    let king = pos.king(color);
    for sq in pos.pieces_of(color, Piece::Pawn) {
        let file = sq.file().index();
        if own_pawns & neighbour_files(file) == 0 {
            acc.add(Term::Pawns, params::ISOLATED, 1);
        }
        let span = (file_mask(file) | neighbour_files(file)) & ahead(color, sq);
        if their_pawns & span == 0 && own_pawns & file_mask(file) & ahead(color, sq) == 0 {
            let rank = relative_rank(color, sq);
            acc.add(Term::Passed, params::PASSED + rank, 1);
            // The square in front: who is nearer to it, and is it taken.
            let stop = match color {
                Color::White => sq.offset_rank(1),
                Color::Black => sq.offset_rank(-1),
            };
            if let Some(stop) = stop {
                let race = distance(their_king, stop) - distance(king, stop);
                acc.add(Term::Passed, params::PASSER_KINGS, race * rank as i32);
                if occ.has(stop) {
                    acc.add(Term::Passed, params::PASSER_BLOCKED, 1);
                }
            }
        }
    }

    // Pieces other than pawns that an enemy pawn attacks.
    let minors_majors = own & !own_pawns & !(1u64 << king.index());
    let threatened = (minors_majors & pawn_attacks(pos, them)).count_ones() as i32;
    acc.add(Term::Threats, params::PAWN_THREAT, threatened);

    if relative_rank(color, king) <= 1 {
        let front = king_attacks(king).0 & ahead(color, king) & own_pawns;
        acc.add(Term::KingShield, params::SHIELD, front.count_ones() as i32);
    }
}

/// All terms, White's minus Black's, middlegame and endgame.
pub fn terms(pos: &Position) -> (i32, i32) {
    let mut w = (0, 0);
    side_terms(pos, Color::White, &mut w);
    let mut b = (0, 0);
    side_terms(pos, Color::Black, &mut b);
    (w.0 - b.0, w.1 - b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_terms(fen: &str) -> (i32, i32) {
        terms(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn mirrored_positions_score_opposite() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let (x, y) = (terms(&pos), terms(&pos.mirrored()));
            assert_eq!((x.0, x.1), (-y.0, -y.1), "{fen}");
        }
    }

    #[test]
    fn a_passed_pawn_counts_more_the_further_it_is() {
        // Kings on h1 and h8 are as far from b7 as from b4: no king race.
        let far = eval_terms("7k/8/1P6/8/8/8/8/7K w - - 0 1");
        let near = eval_terms("7k/8/8/8/8/1P6/8/7K w - - 0 1");
        assert!(far.1 > near.1, "{far:?} {near:?}");
        let blocked = eval_terms("4k3/1p6/8/8/8/1P6/8/4K3 w - - 0 1");
        let free = eval_terms("4k3/p7/8/8/8/7P/8/4K3 w - - 0 1");
        assert!(free.1 >= blocked.1, "{free:?} {blocked:?}");
    }

    #[test]
    fn doubled_and_isolated_pawns_cost() {
        let healthy = eval_terms("4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1");
        let doubled = eval_terms("4k3/8/8/8/8/3P4/3P4/4K3 w - - 0 1");
        assert!(doubled.1 < healthy.1, "{doubled:?} {healthy:?}");
    }
}
