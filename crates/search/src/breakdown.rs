//! The static evaluation taken apart term by term, for people (`eval` over
//! UCI, the board page): the same code as [`evaluate`](crate::evaluate),
//! with every term recorded per side instead of only summed.

use crate::eval::{taper, MAX_PHASE, PHASE, TEMPO};
use crate::params::W;
use crate::terms::{side_pieces, side_terms, Tally};
use movegen::{Color, Piece, Position};

/// One term of the evaluation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Term {
    /// Piece values.
    Material,
    /// Piece-square bonuses (centralisation, pawn advance, king shelter).
    PieceSquares,
    /// Safe squares reachable by knights, bishops, rooks and queens.
    Mobility,
    /// Doubled, isolated and supported pawns.
    Pawns,
    /// Passed pawns: by rank, the kings' race to them, and blockers.
    Passed,
    /// The bishop pair.
    BishopPair,
    /// Rooks on open and half-open files.
    Rooks,
    /// Attack units on the squares around the enemy king.
    KingAttack,
    /// Own pawns in front of the king.
    KingShield,
    /// Pieces attacked by enemy pawns.
    Threats,
}

impl Term {
    /// Every term, in the order they are printed.
    pub const ALL: [Term; 10] = [
        Term::Material,
        Term::PieceSquares,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::BishopPair,
        Term::Rooks,
        Term::KingAttack,
        Term::KingShield,
        Term::Threats,
    ];
    /// How many terms there are.
    pub const NUM: usize = Term::ALL.len();

    /// The term's place in [`Term::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::PieceSquares => "Piece squares",
            Term::Mobility => "Mobility",
            Term::Pawns => "Pawn structure",
            Term::Passed => "Passed pawns",
            Term::BishopPair => "Bishop pair",
            Term::Rooks => "Rook files",
            Term::KingAttack => "King attack",
            Term::KingShield => "King shield",
            Term::Threats => "Threats",
        }
    }
}

/// A (middlegame, endgame) pair in centipawns.
pub type MgEg = (i32, i32);

/// The static evaluation of a position, term by term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Per term, White's and Black's part, each from its own side's point
    /// of view; the term's contribution is White's minus Black's.
    pub terms: [[MgEg; 2]; Term::NUM],
    /// The phase: [`MAX_PHASE`] with every piece on, 0 with none.
    pub phase: i32,
    /// The side to move, which gets the tempo bonus.
    pub side_to_move: Color,
}

/// Per-term table for one side.
struct SideTable<'a>(&'a mut [[MgEg; 2]; Term::NUM], Color);

impl Tally for SideTable<'_> {
    fn add(&mut self, term: Term, slot: usize, times: i32) {
        let (mg, eg) = W[slot];
        let row = &mut self.0[term.index()][self.1.index()];
        row.0 += mg * times;
        row.1 += eg * times;
    }
}

impl Breakdown {
    /// The full phase, for printing the phase as a fraction.
    pub const MAX_PHASE: i32 = MAX_PHASE;
    /// The bonus for the side to move, in centipawns.
    pub const TEMPO: i32 = TEMPO;

    /// Takes the evaluation of `pos` apart.
    pub fn of(pos: &Position) -> Breakdown {
        let mut terms = [[(0, 0); 2]; Term::NUM];
        let mut phase = 0;
        for color in Color::ALL {
            let mut table = SideTable(&mut terms, color);
            side_pieces(pos, color, &mut table);
            side_terms(pos, color, &mut table);
            for piece in Piece::ALL {
                phase += PHASE[piece.index()] * pos.pieces_of(color, piece).len() as i32;
            }
        }
        Breakdown {
            terms,
            phase: phase.min(MAX_PHASE),
            side_to_move: pos.side_to_move(),
        }
    }

    /// A term's contribution, White's part minus Black's.
    pub fn net(&self, term: Term) -> MgEg {
        let [w, b] = self.terms[term.index()];
        (w.0 - b.0, w.1 - b.1)
    }

    /// The sum of every term, White's point of view, before tapering.
    pub fn total(&self) -> MgEg {
        Term::ALL.iter().fold((0, 0), |acc, &t| {
            let (m, e) = self.net(t);
            (acc.0 + m, acc.1 + e)
        })
    }

    /// The tapered score from White's point of view, without the tempo.
    pub fn tapered(&self) -> i32 {
        let (mg, eg) = self.total();
        taper(mg, eg, self.phase)
    }

    /// The evaluation as the search sees it: tapered, from the side to
    /// move's point of view, tempo included; equal to `evaluate`.
    pub fn final_score(&self) -> i32 {
        match self.side_to_move {
            Color::White => self.tapered() + TEMPO,
            Color::Black => -self.tapered() + TEMPO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate;
    use crate::params;

    const FENS: [&str; 6] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        "8/8/4k3/8/2P5/8/3K4/8 b - - 0 1",
    ];

    #[test]
    fn the_parts_add_up_to_the_evaluation() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(Breakdown::of(&pos).final_score(), evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn the_start_position_is_even_side_by_side() {
        let b = Breakdown::of(&Position::startpos());
        assert_eq!(b.phase, MAX_PHASE);
        for t in Term::ALL {
            assert_eq!(b.net(t), (0, 0), "{t:?}");
        }
        // Eight pawns, two knights, bishops, rooks and a queen.
        let value = |p: Piece| W[params::MATERIAL + p.index()].0;
        let material = 8 * value(Piece::Pawn)
            + 2 * (value(Piece::Knight) + value(Piece::Bishop) + value(Piece::Rook))
            + value(Piece::Queen);
        assert_eq!(b.terms[Term::Material.index()][0].0, material);
        assert_eq!(b.final_score(), TEMPO);
    }

    #[test]
    fn each_term_lands_in_its_row() {
        // White has a passed pawn on c4 (its fourth rank), Black only a king: phase 0.
        let b = Breakdown::of(&Position::from_fen(FENS[5]).unwrap());
        assert_eq!(b.phase, 0);
        // The race to c5: Black's king (e6) is 2 steps away, White's (d2) 3,
        // times the pawn's rank index 3.
        let (rank, race) = (W[params::PASSED + 3], W[params::PASSER_KINGS]);
        let passed = (rank.0 - 3 * race.0, rank.1 - 3 * race.1);
        assert_eq!(b.terms[Term::Passed.index()][0], passed);
        assert_eq!(b.terms[Term::Passed.index()][1], (0, 0));
        assert_eq!(b.terms[Term::Pawns.index()][0], W[params::ISOLATED]);
        assert_eq!(b.net(Term::Material), W[params::MATERIAL]);
        assert_eq!(b.side_to_move, Color::Black);
    }
}
