//! Game review: how much a move lowered its player's chances, the verdict
//! that drop earns, and each player's totals. Plain functions over scores
//! from a search; `engine analyse` runs the searches.
//!
//! A player's chances are the expected score `W + D/2` of our
//! [`WDL_MODEL`](crate::WDL_MODEL) for the side to move, using the material
//! of the position before the move for both scores compared (so a capture
//! does not move the scale between them). The drop is the best move's
//! expected score less the played move's, never below zero (a deeper look
//! at the played move can score it above the best). Like lichess's
//! inaccuracy / mistake / blunder, the verdict is read off the drop:
//!
//! | drop in expected score | verdict      | NAG        |
//! |------------------------|--------------|------------|
//! | at least 0.10          | inaccuracy   | `?!` ($6)  |
//! | at least 0.20          | mistake      | `?` ($2)   |
//! | at least 0.30          | blunder      | `??` ($4)  |
//!
//! A move is marked `!` ($1) when it is the only good move: it is the best,
//! it keeps at least a draw's chances (expected score 0.45 or more), the
//! second-best move would have been a blunder, and it is not forcing in the
//! obvious way: neither a capture, nor a reply to check, nor a mate in one
//! (recapturing a piece is the only move, but no one calls it a find).

use crate::limits::Score;
use crate::wdl::WDL_MODEL;
use movegen::Move;

/// Drop in expected score from which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.10;
/// Drop in expected score from which a move is a mistake.
pub const MISTAKE: f64 = 0.20;
/// Drop in expected score from which a move is a blunder.
pub const BLUNDER: f64 = 0.30;
/// Expected score the only good move must keep to earn a `!`.
pub const ONLY_MOVE_KEEPS: f64 = 0.45;

/// The expected score (0 to 1) of the side to move with `score` and
/// `material` on the board (see [`wdl_material`](crate::wdl_material)); a
/// mate is 1 or 0.
///
/// ```
/// use search::{review::expected_score, Score};
/// assert_eq!(expected_score(Score::Cp(0), 78), 0.5);
/// assert!(expected_score(Score::Cp(300), 78) > 0.8);
/// assert_eq!(expected_score(Score::Mate(-2), 40), 0.0);
/// ```
pub fn expected_score(score: Score, material: u32) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
        Score::Cp(cp) => {
            let [w, d, _] = WDL_MODEL.probabilities(f64::from(cp), material);
            w + d / 2.0
        }
    }
}

/// What a move was judged to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReviewVerdict {
    /// The only move that keeps the game: `!`.
    OnlyMove,
    /// Nothing to remark.
    Good,
    /// `?!`.
    Inaccuracy,
    /// `?`.
    Mistake,
    /// `??`.
    Blunder,
}

impl ReviewVerdict {
    /// The verdict for a drop in expected score (not an only move).
    ///
    /// ```
    /// use search::review::ReviewVerdict;
    /// assert_eq!(ReviewVerdict::from_drop(0.05), ReviewVerdict::Good);
    /// assert_eq!(ReviewVerdict::from_drop(0.25), ReviewVerdict::Mistake);
    /// ```
    pub fn from_drop(drop: f64) -> ReviewVerdict {
        if drop >= BLUNDER {
            ReviewVerdict::Blunder
        } else if drop >= MISTAKE {
            ReviewVerdict::Mistake
        } else if drop >= INACCURACY {
            ReviewVerdict::Inaccuracy
        } else {
            ReviewVerdict::Good
        }
    }

    /// The PGN NAG of the verdict (`$1`, `$6`, `$2`, `$4`), none for a good
    /// move.
    ///
    /// ```
    /// use search::review::ReviewVerdict;
    /// assert_eq!(ReviewVerdict::Blunder.nag(), Some(4));
    /// assert_eq!(ReviewVerdict::Good.nag(), None);
    /// ```
    pub fn nag(self) -> Option<u8> {
        match self {
            ReviewVerdict::OnlyMove => Some(1),
            ReviewVerdict::Good => None,
            ReviewVerdict::Inaccuracy => Some(6),
            ReviewVerdict::Mistake => Some(2),
            ReviewVerdict::Blunder => Some(4),
        }
    }

    /// The verdict's name as lichess writes it (`Inaccuracy`, ...).
    ///
    /// ```
    /// assert_eq!(search::review::ReviewVerdict::Mistake.name(), "Mistake");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ReviewVerdict::OnlyMove => "Only move",
            ReviewVerdict::Good => "Good",
            ReviewVerdict::Inaccuracy => "Inaccuracy",
            ReviewVerdict::Mistake => "Mistake",
            ReviewVerdict::Blunder => "Blunder",
        }
    }
}

/// What the searches said about one move, scores for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveFacts {
    /// The move played.
    pub played: Move,
    /// Its score.
    pub played_score: Score,
    /// The search's best move and its score.
    pub best: (Move, Score),
    /// The second-best move's score, if the search looked at one.
    pub second: Option<Score>,
    /// Material before the move (see [`wdl_material`](crate::wdl_material)).
    pub material: u32,
    /// The move is a capture, answers a check or mates (never marked `!`).
    pub obvious: bool,
}

/// The judgement of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The verdict.
    pub verdict: ReviewVerdict,
    /// The drop in the player's expected score (0 to 1).
    pub drop: f64,
    /// The move to show instead, for an inaccuracy, mistake or blunder.
    pub better: Option<Move>,
}

/// Judges one move.
///
/// ```
/// use movegen::Position;
/// use search::review::{judge, MoveFacts, ReviewVerdict};
/// use search::Score;
///
/// let pos = Position::startpos();
/// let (e4, f3) = (pos.parse_san("e4").unwrap(), pos.parse_san("f3").unwrap());
/// let facts = MoveFacts {
///     played: f3,
///     played_score: Score::Cp(-350),
///     best: (e4, Score::Cp(30)),
///     second: None,
///     material: 78,
///     obvious: false,
/// };
/// let j = judge(&facts);
/// assert_eq!((j.verdict, j.better), (ReviewVerdict::Blunder, Some(e4)));
/// ```
pub fn judge(facts: &MoveFacts) -> Judgement {
    let (best, best_score) = facts.best;
    let best_es = expected_score(best_score, facts.material);
    if facts.played == best {
        let only = !facts.obvious
            && facts.second.is_some_and(|second| {
                best_es >= ONLY_MOVE_KEEPS
                    && best_es - expected_score(second, facts.material) >= BLUNDER
            });
        return Judgement {
            verdict: if only {
                ReviewVerdict::OnlyMove
            } else {
                ReviewVerdict::Good
            },
            drop: 0.0,
            better: None,
        };
    }
    let drop = (best_es - expected_score(facts.played_score, facts.material)).max(0.0);
    let verdict = ReviewVerdict::from_drop(drop);
    Judgement {
        verdict,
        drop,
        better: (verdict != ReviewVerdict::Good).then_some(best),
    }
}

/// One move's accuracy in percent from its drop, by lichess's curve over
/// the drop in winning percentage points.
///
/// ```
/// use search::review::move_accuracy;
/// assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
/// assert!(move_accuracy(0.3) < 30.0);
/// ```
pub fn move_accuracy(drop: f64) -> f64 {
    (103.1668 * (-0.04354 * drop * 100.0).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A player's totals over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    /// Moves judged.
    pub moves: u32,
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
    /// Sum of the drops.
    pub total_drop: f64,
    /// Sum of the moves' accuracies.
    pub total_accuracy: f64,
}

impl PlayerSummary {
    /// Counts one judged move.
    ///
    /// ```
    /// use search::review::{Judgement, PlayerSummary, ReviewVerdict};
    /// let mut white = PlayerSummary::default();
    /// white.add(&Judgement { verdict: ReviewVerdict::Mistake, drop: 0.25, better: None });
    /// assert_eq!((white.moves, white.mistakes), (1, 1));
    /// assert!((white.average_loss() - 25.0).abs() < 1e-9);
    /// ```
    pub fn add(&mut self, j: &Judgement) {
        self.moves += 1;
        match j.verdict {
            ReviewVerdict::Inaccuracy => self.inaccuracies += 1,
            ReviewVerdict::Mistake => self.mistakes += 1,
            ReviewVerdict::Blunder => self.blunders += 1,
            ReviewVerdict::Good | ReviewVerdict::OnlyMove => {}
        }
        self.total_drop += j.drop;
        self.total_accuracy += move_accuracy(j.drop);
    }

    /// Mean accuracy in percent (100 with no moves).
    pub fn accuracy(&self) -> f64 {
        if self.moves == 0 {
            100.0
        } else {
            self.total_accuracy / f64::from(self.moves)
        }
    }

    /// Mean drop in expected score, in percentage points.
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            100.0 * self.total_drop / f64::from(self.moves)
        }
    }
}

/// A score as a PGN `[%eval ...]` value from White's point of view:
/// pawns with two decimals, or `#n` / `#-n` for a mate (lichess's form).
///
/// ```
/// use search::{review::eval_text, Score};
/// assert_eq!(eval_text(Score::Cp(-35)), "-0.35");
/// assert_eq!(eval_text(Score::Mate(-3)), "#-3");
/// ```
pub fn eval_text(white: Score) -> String {
    match white {
        Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// The score for the other side.
///
/// ```
/// use search::{review::flip, Score};
/// assert_eq!(flip(Score::Mate(2)), Score::Mate(-2));
/// ```
pub fn flip(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;

    fn moves() -> (Move, Move) {
        let pos = Position::startpos();
        (pos.parse_san("e4").unwrap(), pos.parse_san("a3").unwrap())
    }

    fn facts(best: i32, played: i32, second: Option<i32>, same: bool) -> MoveFacts {
        let (e4, a3) = moves();
        MoveFacts {
            played: if same { e4 } else { a3 },
            played_score: Score::Cp(played),
            best: (e4, Score::Cp(best)),
            second: second.map(Score::Cp),
            material: 40,
            obvious: false,
        }
    }

    #[test]
    fn expected_score_rises_with_the_score_and_mirrors() {
        for material in [0, 30, 78] {
            let mut last = 0.0;
            for cp in (-1500..=1500).step_by(25) {
                let es = expected_score(Score::Cp(cp), material);
                assert!(es >= last && (0.0..=1.0).contains(&es), "{cp} {material}");
                let mirrored = expected_score(Score::Cp(-cp), material);
                assert!((es + mirrored - 1.0).abs() < 1e-9);
                last = es;
            }
        }
    }

    #[test]
    fn verdicts_follow_the_drop_thresholds() {
        // Find the scores whose drops from an equal position cross each line.
        let verdict_at = |played| judge(&facts(0, played, None, false)).verdict;
        assert_eq!(verdict_at(0), ReviewVerdict::Good);
        assert_eq!(
            verdict_at(20),
            ReviewVerdict::Good,
            "a better-scored move is no loss"
        );
        let mut seen = Vec::new();
        for played in (-2000..=0).rev().step_by(5) {
            let v = verdict_at(played);
            let drop = 0.5 - expected_score(Score::Cp(played), 40);
            assert_eq!(v, ReviewVerdict::from_drop(drop), "{played}");
            if seen.last() != Some(&v) {
                seen.push(v);
            }
        }
        assert_eq!(
            seen,
            [
                ReviewVerdict::Good,
                ReviewVerdict::Inaccuracy,
                ReviewVerdict::Mistake,
                ReviewVerdict::Blunder
            ]
        );
    }

    #[test]
    fn a_lost_or_won_position_stays_so_without_verdicts() {
        // From +15 to +8 pawns, or from -9 to -20: the result does not change.
        assert_eq!(
            judge(&facts(1500, 800, None, false)).verdict,
            ReviewVerdict::Good
        );
        assert_eq!(
            judge(&facts(-900, -2000, None, false)).verdict,
            ReviewVerdict::Good
        );
        // Throwing away a winning position is a blunder.
        let j = judge(&facts(600, -300, None, false));
        assert_eq!(j.verdict, ReviewVerdict::Blunder);
        assert_eq!(j.better, Some(moves().0));
    }

    #[test]
    fn only_moves_need_a_blundering_alternative_and_a_held_position() {
        assert_eq!(
            judge(&facts(0, 0, Some(-800), true)).verdict,
            ReviewVerdict::OnlyMove
        );
        assert_eq!(
            judge(&facts(0, 0, Some(-30), true)).verdict,
            ReviewVerdict::Good
        );
        // Best but still lost: nothing saved.
        assert_eq!(
            judge(&facts(-700, -700, Some(-2000), true)).verdict,
            ReviewVerdict::Good
        );
        assert_eq!(judge(&facts(0, 0, None, true)).better, None);
        // A recapture or a check evasion is obvious, however forced.
        let recapture = MoveFacts {
            obvious: true,
            ..facts(0, 0, Some(-800), true)
        };
        assert_eq!(judge(&recapture).verdict, ReviewVerdict::Good);
    }

    #[test]
    fn mates_count_as_certain_results() {
        let (e4, a3) = moves();
        let missed_mate = MoveFacts {
            played: a3,
            played_score: Score::Cp(0),
            best: (e4, Score::Mate(2)),
            second: None,
            material: 20,
            obvious: false,
        };
        assert_eq!(judge(&missed_mate).verdict, ReviewVerdict::Blunder);
        let into_mate = MoveFacts {
            played_score: Score::Mate(-1),
            best: (e4, Score::Cp(0)),
            ..missed_mate
        };
        assert_eq!(judge(&into_mate).verdict, ReviewVerdict::Blunder);
    }

    #[test]
    fn summaries_count_and_average() {
        let mut s = PlayerSummary::default();
        assert_eq!((s.accuracy(), s.average_loss()), (100.0, 0.0));
        for (drop, verdict) in [
            (0.0, ReviewVerdict::Good),
            (0.12, ReviewVerdict::Inaccuracy),
            (0.4, ReviewVerdict::Blunder),
        ] {
            s.add(&Judgement {
                verdict,
                drop,
                better: None,
            });
        }
        assert_eq!(
            (s.moves, s.inaccuracies, s.mistakes, s.blunders),
            (3, 1, 0, 1)
        );
        assert!((s.average_loss() - 52.0 / 3.0).abs() < 1e-9);
        let expected = (move_accuracy(0.0) + move_accuracy(0.12) + move_accuracy(0.4)) / 3.0;
        assert!((s.accuracy() - expected).abs() < 1e-9);
        assert!(move_accuracy(0.12) > move_accuracy(0.4));
    }

    #[test]
    fn eval_text_is_whites_view_in_pawns() {
        assert_eq!(eval_text(Score::Cp(0)), "0.00");
        assert_eq!(eval_text(Score::Cp(1234)), "12.34");
        assert_eq!(eval_text(Score::Mate(5)), "#5");
        assert_eq!(flip(Score::Cp(7)), Score::Cp(-7));
    }
}
