//! Turning `go` limits into a soft and a hard deadline.
//!
//! The soft deadline is checked between iterations (no new depth is started
//! after it); the hard one is checked inside the search every few thousand
//! nodes. Both are measured from the start of the search; after `ponderhit`
//! they apply from that same start, so a long ponder is followed by a quick
//! move played from what pondering found.

use crate::limits::Limits;
use movegen::Color;
use std::time::Duration;

/// Deadlines for one search; `None` means no time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// Do not start another iteration after this.
    pub soft: Option<Duration>,
    /// Abort the search at this.
    pub hard: Option<Duration>,
}

/// The deadlines for `side` to move under `limits`.
pub fn deadlines(limits: &Limits, side: Color) -> Deadlines {
    let overhead = limits.move_overhead;
    if let Some(movetime) = limits.movetime {
        let t = movetime
            .saturating_sub(overhead)
            .max(Duration::from_millis(1));
        return Deadlines {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let Some(left) = limits.time[side.index()] else {
        return Deadlines {
            soft: None,
            hard: None,
        };
    };
    let inc = limits.inc[side.index()].unwrap_or(Duration::ZERO);
    // Never plan to use more than the clock minus the overhead.
    let usable = left.saturating_sub(overhead);
    let moves = limits.movestogo.unwrap_or(30).clamp(1, 40);
    // The time we aim to spend on this move.
    let target = (usable / (moves + 2) + inc * 3 / 4).min(usable / 3);
    // An iteration takes about as long as all before it, so one started after
    // half the target would end near twice the target.
    let soft = target / 2;
    // Spending at most a quarter of the clock plus the increment per move
    // shrinks the clock geometrically, so even a string of aborted searches
    // never runs it out.
    let hard = (target * 2).min(usable / 4 + inc).min(usable * 4 / 5);
    let floor = Duration::from_millis(1);
    Deadlines {
        soft: Some(soft.max(floor)),
        hard: Some(hard.max(floor)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        let limits = Limits {
            movetime: Some(ms(1000)),
            move_overhead: ms(30),
            ..Limits::default()
        };
        let d = deadlines(&limits, Color::White);
        assert_eq!((d.soft, d.hard), (Some(ms(970)), Some(ms(970))));
    }

    #[test]
    fn always_aborting_at_the_hard_deadline_never_flags() {
        for inc in [20, 50, 1000] {
            let mut left = ms(2000);
            for _ in 0..500 {
                let limits = Limits {
                    time: [Some(left), Some(left)],
                    inc: [Some(ms(inc)), Some(ms(inc))],
                    move_overhead: ms(30),
                    ..Limits::default()
                };
                let hard = deadlines(&limits, Color::White).hard.unwrap();
                assert!(
                    hard + ms(30) <= left.max(ms(31)),
                    "{inc}: {hard:?} of {left:?}"
                );
                left = left.saturating_sub(hard) + ms(inc);
            }
        }
    }

    #[test]
    fn clock_budget_stays_well_inside_the_clock() {
        for left in [10, 100, 1000, 60_000] {
            for inc in [0, 10, 1000] {
                let limits = Limits {
                    time: [Some(ms(left)), Some(ms(1))],
                    inc: [Some(ms(inc)), None],
                    move_overhead: ms(30),
                    ..Limits::default()
                };
                let d = deadlines(&limits, Color::White);
                let (soft, hard) = (d.soft.unwrap(), d.hard.unwrap());
                assert!(soft <= hard);
                assert!(hard <= ms(left).max(ms(1)), "{left} {inc}: {hard:?}");
            }
        }
    }

    #[test]
    fn no_clock_means_no_deadline() {
        let d = deadlines(&Limits::default(), Color::Black);
        assert_eq!((d.soft, d.hard), (None, None));
    }
}
