//! Playing below full strength (`UCI_LimitStrength`, `UCI_Elo`) by the
//! search's own means: fewer nodes per move, and a choice among the best few
//! root lines by their scores plus a noise that shrinks as the Elo grows.
//! Only lines the search ranks within a margin of the best are ever played,
//! so a weak setting makes the mistakes of a shallow search with a fuzzy
//! judgement, never a random move.
//!
//! At 2100, the strongest level, there is no noise and a single line: the
//! engine plays at full strength within its node budget. There is no level
//! above it: a larger budget no longer fits the time a move gets at 10+0.1
//! on a 2-core machine, and full strength there stays well short of
//! Stockfish's 2400, so a level above 2100 could not be what its label says.
//! `UCI_LimitStrength` off is full strength.
//!
//! The constants were set by matches against Stockfish 15.1 at the same
//! `UCI_Elo` (see docs/strength-levels.md).

use crate::limits::Score;
use movegen::rng::SplitMix64;
use movegen::Move;

/// The weakest Elo offered (Stockfish 15.1's range).
pub const ELO_MIN: u32 = 1350;
/// The strongest Elo offered: the strongest level measured against its
/// label (docs/strength-levels.md).
pub const ELO_MAX: u32 = 2100;

/// Nodes per move at a few Elo anchors, set by matches; between two
/// anchors the count grows geometrically with the Elo.
const NODES: [(u32, f64); 4] = [
    (ELO_MIN, 1_100.0),
    (1500, 1_700.0),
    (1800, 11_000.0),
    (ELO_MAX, 220_000.0),
];
/// Root lines the weakened search ranks and chooses among.
const LINES: usize = 4;
/// Noise in centipawns at a few Elo anchors, linear between them and none
/// from the last one up, where the search ranks a single line.
const NOISE: [(u32, f64); 3] = [(ELO_MIN, 65.0), (1800, 37.0), (ELO_MAX, 0.0)];
/// A line more than this many noise widths below the best is never played,
/// nor one more than `MARGIN_MAX` centipawns below it.
const MARGIN_WIDTHS: i32 = 2;
const MARGIN_MAX: i32 = 200;

/// A strength setting: an Elo and a seed for the choice among lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
    seed: u64,
}

impl Strength {
    /// The setting for `elo` (clamped to [`ELO_MIN`]..=[`ELO_MAX`]); `seed`
    /// varies the choice from move to move and game to game.
    pub fn new(elo: u32, seed: u64) -> Strength {
        Strength {
            elo: elo.clamp(ELO_MIN, ELO_MAX),
            seed,
        }
    }

    /// The Elo.
    pub fn elo(&self) -> u32 {
        self.elo
    }

    /// The most nodes a move may take.
    pub fn nodes(&self) -> u64 {
        let ((n0, n1), t) = between(&NODES, self.elo);
        (n0 * (n1 / n0).powf(t)).round() as u64
    }

    /// How far below the best line a line may be and still be played.
    fn margin(&self) -> i32 {
        (MARGIN_WIDTHS * self.noise()).min(MARGIN_MAX)
    }

    /// Root lines to rank (at least this many `MultiPV` lines).
    pub fn lines(&self) -> usize {
        if self.noise() > 0 {
            LINES
        } else {
            1
        }
    }

    /// The noise width in centipawns.
    pub fn noise(&self) -> i32 {
        if self.elo >= NOISE[NOISE.len() - 1].0 {
            return 0;
        }
        let ((w0, w1), t) = between(&NOISE, self.elo);
        (w0 + (w1 - w0) * t) as i32
    }

    /// Picks the move to play from the last depth's lines, best first:
    /// the line with the highest score plus noise, among those within the
    /// margin of the best. Mate scores are never traded for noise.
    pub fn choose(&self, lines: &[(Move, Score)]) -> Option<Move> {
        let (_, best) = *lines.first()?;
        let best = centipawns(best);
        let width = self.noise();
        let mut rng = SplitMix64::new(self.seed);
        lines
            .iter()
            .filter(|(_, s)| centipawns(*s) >= best - self.margin())
            .map(|&(mv, s)| {
                // A triangular noise in (-width, width): the sum of two uniforms.
                let noise = if width > 0 {
                    rng.below(width as usize) as i32 + rng.below(width as usize) as i32 - width
                } else {
                    0
                };
                (mv, centipawns(s) + noise)
            })
            .max_by_key(|&(_, score)| score)
            .map(|(mv, _)| mv)
    }
}

/// The values of the two anchors around `elo` (the first two below the
/// table) and how far `elo` lies from the first to the second, from 0 to 1.
fn between(table: &[(u32, f64)], elo: u32) -> ((f64, f64), f64) {
    let i = table
        .windows(2)
        .position(|w| elo <= w[1].0)
        .unwrap_or(table.len() - 2);
    let ((e0, v0), (e1, v1)) = (table[i], table[i + 1]);
    let t = f64::from(elo.saturating_sub(e0)) / f64::from(e1 - e0);
    ((v0, v1), t.min(1.0))
}

/// A score on one scale, mates far beyond any noise.
fn centipawns(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;

    fn moves(n: usize) -> Vec<Move> {
        Position::startpos()
            .legal_moves()
            .iter()
            .take(n)
            .copied()
            .collect()
    }

    #[test]
    fn more_elo_means_more_nodes_and_less_noise() {
        let weak = Strength::new(1350, 0);
        let strong = Strength::new(ELO_MAX, 0);
        assert!(weak.nodes() < Strength::new(1400, 0).nodes());
        let anchor = NODES[2].1 as u64;
        assert_eq!(NODES[2].0, 1800);
        assert_eq!(Strength::new(1800, 0).nodes(), anchor);
        assert!(Strength::new(1799, 0).nodes() < anchor);
        assert!(Strength::new(1801, 0).nodes() > anchor);
        assert_eq!(strong.nodes(), NODES[NODES.len() - 1].1 as u64);
        assert_eq!(Strength::new(9999, 0).nodes(), strong.nodes());
        assert!(weak.nodes() < strong.nodes());
        assert!(weak.noise() > Strength::new(2000, 0).noise());
        assert_eq!(strong.noise(), 0);
        assert_eq!(strong.lines(), 1);
        // Noise shrinks with the Elo and is gone from the last noise anchor up.
        let widths: Vec<i32> = (ELO_MIN..=ELO_MAX)
            .map(|elo| Strength::new(elo, 0).noise())
            .collect();
        assert!(widths.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(Strength::new(1800, 0).noise(), 37);
        assert!(Strength::new(2050, 0).noise() > 0);
        assert_eq!(Strength::new(2100, 0).noise(), 0);
        assert_eq!(Strength::new(2100, 0).lines(), 1);
        assert_eq!(Strength::new(2050, 0).lines(), LINES);
        assert_eq!(Strength::new(10, 0).elo(), ELO_MIN);
        assert_eq!(Strength::new(9999, 0).elo(), ELO_MAX);
    }

    #[test]
    fn a_line_far_below_the_best_is_never_played() {
        let m = moves(3);
        let weak = Strength::new(ELO_MIN, 0);
        let margin = weak.margin();
        let lines = [
            (m[0], Score::Cp(0)),
            (m[1], Score::Cp(-margin - 1)),
            (m[2], Score::Mate(-3)),
        ];
        for seed in 0..200 {
            assert_eq!(Strength::new(ELO_MIN, seed).choose(&lines), Some(m[0]));
        }
        // A found mate is always played.
        let mate = [(m[0], Score::Mate(2)), (m[1], Score::Cp(900))];
        for seed in 0..200 {
            assert_eq!(Strength::new(ELO_MIN, seed).choose(&mate), Some(m[0]));
        }
    }

    #[test]
    fn close_lines_are_chosen_by_the_noise_and_full_strength_takes_the_best() {
        let m = moves(2);
        let lines = [(m[0], Score::Cp(10)), (m[1], Score::Cp(0))];
        let second = (0..1000)
            .filter(|&seed| Strength::new(1500, seed).choose(&lines) == Some(m[1]))
            .count();
        // Two triangular noises of width 55 differ by more than 10 cp in
        // favour of the second line a little under half the time.
        assert!((250..500).contains(&second), "{second}");
        for seed in 0..100 {
            assert_eq!(Strength::new(ELO_MAX, seed).choose(&lines), Some(m[0]));
        }
        assert_eq!(Strength::new(1500, 0).choose(&[]), None);
    }
}
