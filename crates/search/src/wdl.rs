//! The win-draw-loss model behind `UCI_ShowWDL`: the chance of each result
//! for the side to move, given the search's score and the material on the
//! board.
//!
//! The model is logistic: with `s` the score in centipawns and `m` the
//! material (see [`wdl_material`]), the win rate is `σ((s − a(m)) / b(m))`
//! and the loss rate `σ((−s − a(m)) / b(m))`, where `σ` is the logistic
//! function and `a`, `b` are linear in `m`; a draw is what is left. `a` is
//! the score at which a win is as likely as not, `b` how fast the win rate
//! grows with the score. The four constants were fitted by
//! `examples/wdl_fit.rs` to our own self-play games (docs/strength-levels.md gives
//! the fit and its check on held-out games).

use crate::limits::Score;
use movegen::{Piece, Position};

/// `a(m) = A[0] + A[1] · m`, centipawns, as fitted by
/// `cargo run --release --example wdl_fit` (2000 games, 5000 nodes a move).
const A: [f64; 2] = [329.1, -3.767];
/// `b(m) = B[0] + B[1] · m`, centipawns, from the same fit.
const B: [f64; 2] = [160.1, -0.650];

/// Material on the board for the model: 1 per pawn, 3 per knight or
/// bishop, 5 per rook, 9 per queen, both sides together (78 at the start).
pub fn wdl_material(pos: &Position) -> u32 {
    [
        (Piece::Pawn, 1),
        (Piece::Knight, 3),
        (Piece::Bishop, 3),
        (Piece::Rook, 5),
        (Piece::Queen, 9),
    ]
    .iter()
    .map(|&(piece, value)| pos.pieces(piece).len() * value)
    .sum()
}

/// A logistic WDL model: the win rate's midpoint `a` and scale `b`, each
/// linear in the material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a(m) = a[0] + a[1] · m`.
    pub a: [f64; 2],
    /// `b(m) = b[0] + b[1] · m`.
    pub b: [f64; 2],
}

/// The fitted model the engine reports with.
pub const WDL_MODEL: WdlModel = WdlModel { a: A, b: B };

impl WdlModel {
    /// Win, draw and loss probabilities for the side to move with `cp`
    /// centipawns and `material` on the board.
    pub fn probabilities(&self, cp: f64, material: u32) -> [f64; 3] {
        let m = f64::from(material);
        let a = self.a[0] + self.a[1] * m;
        // A scale near zero or below would make the model a step: keep it sane.
        let b = (self.b[0] + self.b[1] * m).max(1.0);
        let sigma = |x: f64| 1.0 / (1.0 + (-x).exp());
        let win = sigma((cp - a) / b);
        let loss = sigma((-cp - a) / b);
        let draw = (1.0 - win - loss).max(0.0);
        let sum = win + draw + loss;
        [win / sum, draw / sum, loss / sum]
    }
}

/// `wdl W D L` in per mille for the side to move (they add up to 1000):
/// the model's rates for a centipawn score, certainty for a mate.
pub fn wdl(score: Score, material: u32) -> [u32; 3] {
    match score {
        Score::Mate(n) if n > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
        Score::Cp(cp) => {
            let [w, _, l] = WDL_MODEL.probabilities(f64::from(cp), material);
            let win = (w * 1000.0).round() as u32;
            let loss = (l * 1000.0).round() as u32;
            [win, 1000 - win - loss, loss]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_all_its_material() {
        assert_eq!(wdl_material(&Position::startpos()), 78);
        let kpk = Position::from_fen("8/8/4k3/8/2P5/8/3K4/8 b - - 0 1").unwrap();
        assert_eq!(wdl_material(&kpk), 1);
    }

    #[test]
    fn rates_add_up_grow_with_the_score_and_mirror() {
        for material in [0, 20, 50, 78] {
            let mut last_win = 0;
            for cp in (-1000..=1000).step_by(50) {
                let [w, d, l] = wdl(Score::Cp(cp), material);
                assert_eq!(w + d + l, 1000);
                assert!(w >= last_win, "{cp} {material}");
                last_win = w;
                assert_eq!(wdl(Score::Cp(-cp), material), [l, d, w]);
            }
            let [w, d, l] = wdl(Score::Cp(0), material);
            assert!(w == l && d > 0, "{material}: {w} {d} {l}");
        }
        assert_eq!(wdl(Score::Mate(3), 40), [1000, 0, 0]);
        assert_eq!(wdl(Score::Mate(-1), 40), [0, 0, 1000]);
    }

    #[test]
    fn a_big_advantage_is_mostly_a_win() {
        let [w, _, l] = wdl(Score::Cp(900), 40);
        assert!(w > 800 && l < 10, "{w} {l}");
    }
}
