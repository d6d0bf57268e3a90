//! The evaluation as a linear function of its weights, for tuning.
//!
//! [`features`] lists, for one position, how many times each weight slot
//! counts for White minus for Black, and the phase. The evaluation is then
//! `taper(Σ count · mg, Σ count · eg, phase)` from White's point of view,
//! plus the tempo for the side to move: exactly what [`evaluate`] computes,
//! which a test checks. `examples/texel.rs` fits the weights to game results
//! through this, and writes `weights.rs`.
//!
//! [`evaluate`]: crate::evaluate

use crate::breakdown::Term;
use crate::eval::PHASE;
use crate::terms::{side_pieces, side_terms, Tally};
use movegen::{Color, Piece, Position};

pub use crate::eval::{MAX_PHASE, TEMPO};
pub use crate::params::{name, NUM, WEIGHTS};

/// How often each weight counts in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// (slot, White's count minus Black's), slots ascending, no zero counts.
    pub counts: Vec<(u16, i16)>,
    /// The phase, 0 (endgame) to [`MAX_PHASE`] (middlegame).
    pub phase: i32,
    /// The side to move, which gets [`TEMPO`].
    pub side_to_move: Color,
}

/// The tuner's tally: counts per slot, signed by side.
struct Counts {
    counts: Vec<(u16, i16)>,
    sign: i16,
}

impl Tally for Counts {
    fn add(&mut self, _: Term, slot: usize, times: i32) {
        let slot = u16::try_from(slot).expect("fewer than 65536 weight slots");
        let times = i16::try_from(times).expect("a term counts fewer than 32768 times");
        self.counts.push((slot, self.sign * times));
    }
}

/// The counts of every weight slot in `pos`.
pub fn features(pos: &Position) -> Features {
    let mut tally = Counts {
        counts: Vec::with_capacity(64),
        sign: 1,
    };
    let mut phase = 0;
    for color in Color::ALL {
        tally.sign = if color == Color::White { 1 } else { -1 };
        side_pieces(pos, color, &mut tally);
        side_terms(pos, color, &mut tally);
        for piece in Piece::ALL {
            phase += PHASE[piece.index()] * pos.pieces_of(color, piece).len() as i32;
        }
    }
    let mut counts = tally.counts;
    counts.sort_unstable_by_key(|&(slot, _)| slot);
    let mut merged: Vec<(u16, i16)> = Vec::with_capacity(counts.len());
    for (slot, n) in counts {
        match merged.last_mut() {
            Some(last) if last.0 == slot => last.1 += n,
            _ => merged.push((slot, n)),
        }
    }
    merged.retain(|&(_, n)| n != 0);
    Features {
        counts: merged,
        phase: phase.min(MAX_PHASE),
        side_to_move: pos.side_to_move(),
    }
}

/// The evaluation of `f` under `weights`, from the side to move's point of
/// view, in integers as the search computes it.
pub fn evaluate_with(f: &Features, weights: &[(i32, i32)]) -> i32 {
    let (mut mg, mut eg) = (0, 0);
    for &(slot, n) in &f.counts {
        let (m, e) = weights[usize::from(slot)];
        mg += m * i32::from(n);
        eg += e * i32::from(n);
    }
    let white = crate::eval::taper(mg, eg, f.phase);
    match f.side_to_move {
        Color::White => white + TEMPO,
        Color::Black => -white + TEMPO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate;

    #[test]
    fn the_linear_form_is_the_evaluation() {
        // A seeded walk through varied positions, both sides to move.
        let mut pos = Position::startpos();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let f = features(&pos);
            assert_eq!(evaluate_with(&f, &WEIGHTS), evaluate(&pos), "{}", pos.fen());
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmove_clock() > 60 {
                pos = Position::startpos();
                continue;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos = pos.play(moves[(seed % moves.len() as u64) as usize]);
        }
    }
}
