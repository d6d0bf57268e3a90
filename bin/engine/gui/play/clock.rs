//! A chess clock: base time and increment per side, one side running.
//!
//! Every method takes the current instant, so the rules are tested without
//! waiting. The side to move's clock runs from the start of the game; a
//! completed move stops it, adds the increment (Fischer) and starts the
//! other side's. A clock at zero has fallen, and stays fallen.

use movegen::Color;
use std::time::{Duration, Instant};

/// Two clocks, one of which may be running.
#[derive(Clone, Debug)]
pub struct Clock {
    /// Time each side had at the start.
    pub base: Duration,
    /// Time added after each of a side's moves.
    pub inc: Duration,
    /// Time left when each side's clock last stopped (or started).
    left: [Duration; 2],
    /// The running side and since when.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// A clock with `base` for both sides, stopped.
    pub fn new(base: Duration, inc: Duration) -> Clock {
        Clock {
            base,
            inc,
            left: [base; 2],
            running: None,
        }
    }

    /// A clock as stored: what each side had left, the running side's
    /// clock starting again at `now`.
    pub fn resume(
        base: Duration,
        inc: Duration,
        left: [Duration; 2],
        running: Option<Color>,
        now: Instant,
    ) -> Clock {
        Clock {
            base,
            inc,
            left,
            running: running.map(|side| (side, now)),
        }
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

    /// The running side completed a move at `at`: its clock stops, gains the
    /// increment, and the other side's starts at `at`. Returns the side
    /// whose flag fell before the move, instead of pressing.
    pub fn press(&mut self, at: Instant) -> Result<(), Color> {
        let Some((side, _)) = self.running else {
            return Ok(());
        };
        if let Some(fallen) = self.fallen(at) {
            return Err(fallen);
        }
        self.stop(at);
        self.left[side.index()] += self.inc;
        self.running = Some((!side, at));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_running_side_loses_time_and_gains_the_increment() {
        let t0 = Instant::now();
        let mut c = Clock::new(ms(10_000), ms(1_000));
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
        let mut c = Clock::new(ms(1_000), ms(5_000));
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
        let mut c = Clock::new(ms(5_000), Duration::ZERO);
        c.start(Color::Black, t0);
        c.stop(t0 + ms(1_000));
        assert_eq!(c.running(), None);
        assert_eq!(c.left(Color::Black, t0 + ms(100_000)), ms(4_000));
        assert_eq!(c.press(t0 + ms(200_000)), Ok(()));
        c.start(Color::White, t0 + ms(2_000));
        assert_eq!(c.left(Color::White, t0 + ms(3_000)), ms(4_000));
        assert_eq!(c.left(Color::Black, t0 + ms(3_000)), ms(4_000));
    }
}
