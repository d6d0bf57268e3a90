//! Time controls in cutechess-cli's form (`40/10+0.1`, `10+0.1`, `1:30`) and the clock of one
//! side.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control: `base` for the first `moves` moves (or the whole game), `increment` after
/// each move; with `moves`, `base` is added again after every `moves` moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period, or `None` for the whole game in one period.
    pub moves: Option<u32>,
    /// Time for one period.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Why a time control was rejected: the text and what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControlError {
    text: String,
    why: &'static str,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a time control ({}); write [MOVES/]SECONDS[+INCREMENT], e.g. 40/10+0.1 or 10+0.1",
            self.text, self.why
        )
    }
}

impl std::error::Error for TimeControlError {}

/// The longest base or increment accepted (a day): beyond it a typo is more likely than intent.
const LONGEST: f64 = 86_400.0;

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let fail = |why| TimeControlError {
            text: text.to_string(),
            why,
        };
        let trimmed = text.trim();
        let (moves, rest) = match trimmed.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| fail("moves must be a whole number"))?;
                if m == 0 {
                    return Err(fail("moves must be at least 1"));
                }
                (Some(m), rest)
            }
            None => (None, trimmed),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = seconds(base).ok_or_else(|| fail("the time must be seconds or m:ss"))?;
        if base.is_zero() {
            return Err(fail("the time must be more than zero"));
        }
        let increment = match increment {
            Some(i) => seconds(i).ok_or_else(|| fail("the increment must be seconds"))?,
            None => Duration::ZERO,
        };
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

/// `10`, `0.5` or `1:30` (minutes and seconds) as a duration.
fn seconds(text: &str) -> Option<Duration> {
    let (minutes, secs) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<u32>().ok()?, s),
        None => (0, text),
    };
    // `f64::from_str` also reads `inf`, `NaN` and `1e3`: only digits and one point here.
    if secs.is_empty() || !secs.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let total = f64::from(minutes) * 60.0 + secs.parse::<f64>().ok()?;
    (total <= LONGEST).then(|| Duration::from_secs_f64(total))
}

impl fmt::Display for TimeControl {
    /// The cutechess-cli form, as PGN's `TimeControl` tag carries it here: `40/10+0.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", decimal_seconds(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", decimal_seconds(self.increment))?;
        }
        Ok(())
    }
}

/// Seconds to the millisecond, without trailing zeros: `10`, `0.1`, `2.05`.
pub fn decimal_seconds(d: Duration) -> String {
    let ms = d.as_millis();
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One side's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    left: Duration,
    moves: u32,
}

impl Clock {
    /// A clock at the start of a game.
    pub fn new(tc: &TimeControl) -> Clock {
        Clock {
            left: tc.base,
            moves: 0,
        }
    }

    /// The time left.
    pub fn left(&self) -> Duration {
        self.left
    }

    /// Moves to play until the next period, for `go movestogo` (`None` without periods).
    pub fn moves_to_go(&self, tc: &TimeControl) -> Option<u32> {
        tc.moves.map(|m| m - self.moves % m)
    }

    /// Charges a move that took `used` (within the time left and the margin: a move that used
    /// part of the margin leaves nothing but the increment), then adds the increment, and the
    /// base again at the end of a period.
    pub fn punch(&mut self, tc: &TimeControl, used: Duration) {
        self.left = self.left.saturating_sub(used) + tc.increment;
        self.moves += 1;
        if tc.moves.is_some_and(|m| self.moves.is_multiple_of(m)) {
            self.left += tc.base;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn reads_cutechess_forms_and_writes_them_back() {
        for (text, moves, base, inc, shown) in [
            ("40/10+0.1", Some(40), 10_000, 100, "40/10+0.1"),
            ("10+0.1", None, 10_000, 100, "10+0.1"),
            ("2+0.05", None, 2_000, 50, "2+0.05"),
            ("0.5", None, 500, 0, "0.5"),
            ("1:30+1", None, 90_000, 1_000, "90+1"),
            ("40/60", Some(40), 60_000, 0, "40/60"),
        ] {
            let tc: TimeControl = text.parse().expect(text);
            assert_eq!(
                tc,
                TimeControl {
                    moves,
                    base: ms(base),
                    increment: ms(inc)
                },
                "{text}"
            );
            assert_eq!(tc.to_string(), shown);
        }
    }

    #[test]
    fn rejects_what_is_not_a_time_control_with_the_reason() {
        for (text, why) in [
            ("", "the time must be seconds or m:ss"),
            ("abc", "the time must be seconds or m:ss"),
            ("0+1", "the time must be more than zero"),
            ("0/10", "moves must be at least 1"),
            ("x/10", "moves must be a whole number"),
            ("10+", "the increment must be seconds"),
            ("10+-1", "the increment must be seconds"),
            ("inf", "the time must be seconds or m:ss"),
            ("1e9", "the time must be seconds or m:ss"),
            ("100000", "the time must be seconds or m:ss"),
        ] {
            let err = text.parse::<TimeControl>().expect_err(text);
            assert_eq!(err.why, why, "{text}");
            assert!(err.to_string().contains("e.g. 40/10+0.1"), "{err}");
        }
    }

    #[test]
    fn the_clock_adds_increments_and_a_new_period_every_moves() {
        let tc: TimeControl = "2/1+0.1".parse().expect("valid");
        let mut clock = Clock::new(&tc);
        assert_eq!(clock.moves_to_go(&tc), Some(2));
        clock.punch(&tc, ms(300));
        assert_eq!((clock.left(), clock.moves_to_go(&tc)), (ms(800), Some(1)));
        clock.punch(&tc, ms(300));
        assert_eq!((clock.left(), clock.moves_to_go(&tc)), (ms(1600), Some(2)));
        // A move into the margin leaves the increment only.
        clock.punch(&tc, ms(2000));
        assert_eq!(clock.left(), ms(100));
        let tc: TimeControl = "1".parse().expect("valid");
        assert_eq!(Clock::new(&tc).moves_to_go(&tc), None);
    }
}
