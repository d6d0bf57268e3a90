//! Time controls in cutechess-cli's form (`40/10+0.1`, `10+0.1`, `1:30`) and the clock of a
//! game: base time, increment (Fischer) and periods, one side running at a time.

use movegen::Color;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

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

impl TimeControl {
    /// `base` for the whole game, `increment` after each move.
    pub fn new(base: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            moves: None,
            base,
            increment,
        }
    }
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

/// A game's clock: both sides' time under one [`TimeControl`], at most one side's running.
///
/// A running clock is for a game at a board: the side to move's time runs from
/// [`Clock::start`], a completed move ([`Clock::press`]) stops it, adds the increment (and the
/// base again at the end of a period) and starts the other side's, and a clock at zero has
/// fallen. A referee that measures each move's time itself charges it with [`Clock::charge`]
/// and never runs the clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    /// Time left when each side's clock last stopped (or started).
    left: [Duration; 2],
    /// Moves each side has completed, for the periods.
    moves: [u32; 2],
    /// The running side and since when.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// A clock at the start of a game: the base for both sides, stopped.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left: [tc.base; 2],
            moves: [0; 2],
            running: None,
        }
    }

    /// A clock as stored: what each side had left and the moves each had completed, the
    /// running side's clock starting again at `now`.
    pub fn resume(
        tc: TimeControl,
        left: [Duration; 2],
        moves: [u32; 2],
        running: Option<Color>,
        now: Instant,
    ) -> Clock {
        Clock {
            tc,
            left,
            moves,
            running: running.map(|side| (side, now)),
        }
    }

    /// The time control.
    pub fn time_control(&self) -> &TimeControl {
        &self.tc
    }

    /// Time `side` has left at `now`.
    pub fn left(&self, side: Color, now: Instant) -> Duration {
        let stored = self.left[side.index()];
        match self.running {
            Some((running, since)) if running == side => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// Moves `side` has to play until its next period, for `go movestogo` (`None` without
    /// periods).
    pub fn moves_to_go(&self, side: Color) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves[side.index()] % m)
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// The side whose flag has fallen at `now`, if any.
    pub fn fallen(&self, now: Instant) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&side| self.left(side, now).is_zero())
    }

    /// Starts `side`'s clock (stopping the other's without an increment).
    pub fn start(&mut self, side: Color, now: Instant) {
        self.stop(now);
        self.running = Some((side, now));
    }

    /// Stops the running clock, keeping what it had left.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.left[side.index()] = self.left(side, now);
            self.running = None;
        }
    }

    /// The running side completed a move at `at`: its clock stops, gains the increment, and
    /// the other side's starts at `at`. Returns the side whose flag fell before the move,
    /// instead of pressing. A stopped clock is left as it is.
    pub fn press(&mut self, at: Instant) -> Result<(), Color> {
        let Some((side, _)) = self.running else {
            return Ok(());
        };
        if let Some(fallen) = self.fallen(at) {
            return Err(fallen);
        }
        self.stop(at);
        self.completed(side);
        self.running = Some((!side, at));
        Ok(())
    }

    /// Charges `side` a move that took `used`, measured by the caller; a move that took more
    /// than the time left (a referee's margin) leaves nothing but the increment. Then adds the
    /// increment, and the base again at the end of a period.
    pub fn charge(&mut self, side: Color, used: Duration) {
        let left = &mut self.left[side.index()];
        *left = left.saturating_sub(used);
        self.completed(side);
    }

    /// `side` completed a move: the increment, and the base at the end of a period.
    fn completed(&mut self, side: Color) {
        let i = side.index();
        self.left[i] += self.tc.increment;
        self.moves[i] += 1;
        if self
            .tc
            .moves
            .is_some_and(|m| self.moves[i].is_multiple_of(m))
        {
            self.left[i] += self.tc.base;
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

    fn fischer(base: u64, inc: u64) -> TimeControl {
        TimeControl::new(ms(base), ms(inc))
    }

    #[test]
    fn the_running_side_loses_time_and_gains_the_increment() {
        let t0 = Instant::now();
        let mut c = Clock::new(fischer(10_000, 1_000));
        c.start(Color::White, t0);
        assert_eq!(c.left(Color::White, t0 + ms(2_500)), ms(7_500));
        assert_eq!(c.left(Color::Black, t0 + ms(2_500)), ms(10_000));
        assert_eq!(c.press(t0 + ms(3_000)), Ok(()));
        assert_eq!(c.running(), Some(Color::Black));
        assert_eq!(c.left(Color::White, t0 + ms(9_000)), ms(8_000));
        assert_eq!(c.left(Color::Black, t0 + ms(4_000)), ms(9_000));
        assert_eq!(c.press(t0 + ms(4_000)), Ok(()));
        assert_eq!(c.left(Color::Black, t0 + ms(60_000)), ms(10_000));
        assert_eq!(c.running(), Some(Color::White));
    }

    #[test]
    fn a_flag_falls_at_zero_and_the_late_move_does_not_count() {
        let t0 = Instant::now();
        let mut c = Clock::new(fischer(1_000, 5_000));
        c.start(Color::White, t0);
        assert_eq!(c.fallen(t0 + ms(999)), None);
        assert_eq!(c.fallen(t0 + ms(1_000)), Some(Color::White));
        assert_eq!(c.press(t0 + ms(1_200)), Err(Color::White));
        // The increment did not rescue it.
        assert_eq!(c.left(Color::White, t0 + ms(1_200)), Duration::ZERO);
    }

    #[test]
    fn a_stopped_clock_keeps_its_times() {
        let t0 = Instant::now();
        let mut c = Clock::new(fischer(5_000, 0));
        c.start(Color::Black, t0);
        c.stop(t0 + ms(1_000));
        assert_eq!(c.running(), None);
        assert_eq!(c.left(Color::Black, t0 + ms(100_000)), ms(4_000));
        assert_eq!(c.press(t0 + ms(200_000)), Ok(()));
        c.start(Color::White, t0 + ms(2_000));
        assert_eq!(c.left(Color::White, t0 + ms(3_000)), ms(4_000));
        assert_eq!(c.left(Color::Black, t0 + ms(3_000)), ms(4_000));
        let resumed = Clock::resume(c.tc, [ms(4_000), ms(3_000)], [0, 0], Some(Color::Black), t0);
        assert_eq!(resumed.left(Color::Black, t0 + ms(500)), ms(2_500));
        assert_eq!(resumed.left(Color::White, t0 + ms(500)), ms(4_000));
    }

    #[test]
    fn charges_add_increments_and_a_new_period_every_moves() {
        let tc: TimeControl = "2/1+0.1".parse().expect("valid");
        let now = Instant::now();
        let mut clock = Clock::new(tc);
        let white = |c: &Clock| (c.left(Color::White, now), c.moves_to_go(Color::White));
        assert_eq!(white(&clock), (ms(1_000), Some(2)));
        clock.charge(Color::White, ms(300));
        assert_eq!(white(&clock), (ms(800), Some(1)));
        assert_eq!(clock.moves_to_go(Color::Black), Some(2));
        clock.charge(Color::White, ms(300));
        assert_eq!(white(&clock), (ms(1_600), Some(2)));
        // A move into the margin leaves the increment only.
        clock.charge(Color::White, ms(2_000));
        assert_eq!(clock.left(Color::White, now), ms(100));
        assert_eq!(clock.left(Color::Black, now), ms(1_000));
        let tc: TimeControl = "1".parse().expect("valid");
        assert_eq!(Clock::new(tc).moves_to_go(Color::White), None);
        // Pressing a running clock counts the periods too.
        let mut pressed = Clock::new("1/1".parse().expect("valid"));
        pressed.start(Color::White, now);
        assert_eq!(pressed.press(now + ms(400)), Ok(()));
        assert_eq!(pressed.left(Color::White, now + ms(400)), ms(1_600));
    }
}
