//! One game between the person at the page and the engine: the game record,
//! who plays which side, the strength, the clock and how the game ended.
//!
//! The board rules (legal moves, SAN, checkmate, draws) are the library's;
//! this file only adds what a game at a board has on top: a clock whose flag
//! can fall, resignation, taking moves back, and the engine's limits.

use movegen::{Color, Game, Move, Outcome, Piece, Position};
use referee::{Clock, TimeControl};
use search::Limits;
use std::time::{Duration, Instant, SystemTime};

/// The engine's thinking time a move when there is no clock and no
/// strength setting limits it.
pub const UNTIMED_MOVE: Duration = Duration::from_secs(3);

/// Kept back from the engine's clock for the page's own delays.
const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayStrength {
    /// Full strength: the clock's time management (or [`UNTIMED_MOVE`]).
    Full,
    /// At most this long a move (a quarter of its clock if that is less).
    MoveTime(Duration),
    /// The UCI engine's `UCI_LimitStrength` at this Elo: the search's own
    /// node budget and choice among its best lines, on the real clock.
    Elo(u32),
}

impl PlayStrength {
    /// Parses `full`, `movetime:<ms>` (10 ms to 60 s) or `elo:<n>`
    /// ([`search::ELO_MIN`] to [`search::ELO_MAX`]).
    pub fn parse(text: &str) -> Result<PlayStrength, String> {
        if text == "full" {
            return Ok(PlayStrength::Full);
        }
        if let Some(Ok(ms @ 10..=60_000)) = text.strip_prefix("movetime:").map(str::parse::<u64>) {
            return Ok(PlayStrength::MoveTime(Duration::from_millis(ms)));
        }
        match text.strip_prefix("elo:").map(str::parse::<u32>) {
            Some(Ok(elo)) if (search::ELO_MIN..=search::ELO_MAX).contains(&elo) => {
                Ok(PlayStrength::Elo(elo))
            }
            _ => Err(format!(
                "strength must be \"full\", \"movetime:<10 to 60000 ms>\" or \"elo:<{} to {}>\", not {text:?}",
                search::ELO_MIN,
                search::ELO_MAX
            )),
        }
    }

    /// The name the page and the PGN show.
    pub fn label(self) -> String {
        match self {
            PlayStrength::Full => "full strength".to_string(),
            PlayStrength::MoveTime(t) => format!("{} s a move", t.as_secs_f64()),
            PlayStrength::Elo(elo) => format!("Elo {elo}"),
        }
    }

    /// The same value as [`PlayStrength::parse`] reads it.
    pub fn code(self) -> String {
        match self {
            PlayStrength::Full => "full".to_string(),
            PlayStrength::MoveTime(t) => format!("movetime:{}", t.as_millis()),
            PlayStrength::Elo(elo) => format!("elo:{elo}"),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no move and is not in check.
    Stalemate,
    /// The same position for the third time.
    Repetition,
    /// Fifty moves by each side without a capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A flag fell.
    Time,
    /// The person resigned.
    Resignation,
}

impl Reason {
    /// The word the JSON carries.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "threefold repetition",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Time => "time",
            Reason::Resignation => "resignation",
        }
    }

    /// The reason [`Reason::code`] wrote.
    pub fn from_code(code: &str) -> Option<Reason> {
        [
            Reason::Checkmate,
            Reason::Stalemate,
            Reason::Repetition,
            Reason::FiftyMoves,
            Reason::InsufficientMaterial,
            Reason::Time,
            Reason::Resignation,
        ]
        .into_iter()
        .find(|r| r.code() == code)
    }
}

/// The end of a game: the winner (`None`: a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// Who won; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl End {
    /// The end the library's game outcome describes.
    pub fn from_outcome(outcome: Outcome) -> End {
        let reason = match outcome {
            Outcome::Checkmate { .. } => Reason::Checkmate,
            Outcome::Stalemate => Reason::Stalemate,
            Outcome::InsufficientMaterial => Reason::InsufficientMaterial,
            Outcome::FiftyMoves => Reason::FiftyMoves,
            Outcome::Repetition => Reason::Repetition,
        };
        End {
            winner: outcome.winner(),
            reason,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// How a game is set up.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The starting position.
    pub start: Position,
    /// Whether castling is written king-takes-rook.
    pub chess960: bool,
    /// The person's side.
    pub person: Color,
    /// The engine's strength.
    pub strength: PlayStrength,
    /// Base time and increment, or no clock.
    pub clock: Option<(Duration, Duration)>,
}

/// One game on the page.
pub struct Session {
    /// How the game was set up.
    pub setup: Setup,
    /// The moves and positions, with the board rules' outcome.
    game: Game,

    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    /// How the game ended, once it has.
    pub end: Option<End>,
    /// When the game started (for the PGN's date).
    pub started: SystemTime,
}

impl Session {
    /// A new game; the side to move's clock starts at `now`.
    pub fn new(setup: Setup, now: Instant) -> Session {
        let clock = setup.clock.map(|(base, inc)| {
            let mut clock = Clock::new(TimeControl::new(base, inc));
            clock.start(setup.start.side_to_move(), now);
            clock
        });
        let mut session = Session {
            game: Game::new(setup.start),
            setup,
            clock,
            end: None,
            started: SystemTime::now(),
        };
        session.end = session.board_end();
        if session.end.is_some() {
            session.stop_clock(now);
        }
        session
    }

    /// A game as it was stored: its set-up, its moves (UCI), its clock and
    /// its end.
    ///
    /// # Errors
    /// When a stored move is not legal where it stands.
    pub fn restore(
        setup: Setup,
        moves: &[&str],
        clock: Option<Clock>,
        end: Option<End>,
        started: SystemTime,
    ) -> Result<Session, String> {
        let mut game = Game::new(crate::gui::api::with_mode(&setup.start, setup.chess960));
        for text in moves {
            game.play_uci(text)
                .map_err(|e| format!("stored move {text}: {e}"))?;
        }
        Ok(Session {
            setup,
            game,
            clock,
            end,
            started,
        })
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// The positions, the start first, one more than the moves.
    pub fn positions(&self) -> &[Position] {
        self.game.positions()
    }

    /// Whether the engine is to move in a game still going.
    pub fn engine_to_move(&self) -> bool {
        self.end.is_none() && self.position().side_to_move() != self.setup.person
    }

    /// Plays `mv` (legal in the current position) completed at `at`: the
    /// clock is pressed, and the game ends if a flag had fallen or the
    /// board rules end it.
    pub fn play(&mut self, mv: Move, at: Instant) {
        if let Some(clock) = &mut self.clock {
            if let Err(fallen) = clock.press(at) {
                self.lose_on_time(fallen, at);
                return;
            }
        }
        self.game
            .play(mv)
            .expect("moves played are the person's checked ones or the search's legal ones");
        self.end = self.board_end();
        if self.end.is_some() {
            self.stop_clock(at);
        }
    }

    /// Ends the game if the running side's flag has fallen by `now`.
    pub fn check_flag(&mut self, now: Instant) {
        let fallen = self
            .clock
            .as_ref()
            .filter(|_| self.end.is_none())
            .and_then(|c| c.fallen(now));
        if let Some(side) = fallen {
            self.lose_on_time(side, now);
        }
    }

    /// The person resigns at `now`.
    pub fn resign(&mut self, now: Instant) {
        self.end = Some(End {
            winner: Some(!self.setup.person),
            reason: Reason::Resignation,
        });
        self.stop_clock(now);
    }

    /// Takes back the person's last move and any engine reply after it;
    /// the person's clock runs again (time spent stays spent).
    ///
    /// # Errors
    /// When the person has no move to take back, or the game ended on time
    /// or by resignation.
    pub fn undo(&mut self, now: Instant) -> Result<(), String> {
        if let Some(End {
            reason: reason @ (Reason::Time | Reason::Resignation),
            ..
        }) = self.end
        {
            return Err(format!("the game ended by {}", reason.code()));
        }
        let person = self.setup.person;
        let positions = self.game.positions();
        let last = (0..positions.len() - 1)
            .rev()
            .find(|&i| positions[i].side_to_move() == person)
            .ok_or("you have no move to take back")?;
        while self.game.moves().len() > last {
            self.game.undo();
        }
        self.end = None;
        if let Some(clock) = &mut self.clock {
            clock.start(person, now);
        }
        Ok(())
    }

    /// The limits the engine searches the current position with at `now`.
    pub fn limits(&self, now: Instant) -> Limits {
        let mut limits = Limits {
            move_overhead: MOVE_OVERHEAD,
            ..Limits::default()
        };
        let side = self.position().side_to_move();
        if let PlayStrength::Elo(elo) = self.setup.strength {
            // The position's key varies the choice among lines from move to
            // move, and repeats it for a repeated game.
            limits.strength = Some(search::Strength::new(elo, self.position().key()));
        }
        match (&self.clock, self.setup.strength) {
            (Some(clock), PlayStrength::Full | PlayStrength::Elo(_)) => {
                for color in Color::ALL {
                    limits.time[color.index()] = Some(clock.left(color, now));
                    limits.inc[color.index()] = Some(clock.time_control().increment);
                }
            }
            (Some(clock), PlayStrength::MoveTime(t)) => {
                // A quarter of what is left shrinks the clock geometrically:
                // a fixed-time level never loses on time.
                limits.movetime = Some(t.min(clock.left(side, now) / 4));
            }
            (None, PlayStrength::Full | PlayStrength::Elo(_)) => {
                limits.movetime = Some(UNTIMED_MOVE)
            }
            (None, PlayStrength::MoveTime(t)) => limits.movetime = Some(t),
        }
        limits
    }

    /// The game so far, for the engine to search.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// `side`'s flag fell: it loses, unless the other side has a bare king
    /// and so could never mate (then it is a draw, as FIDE's rules have it).
    fn lose_on_time(&mut self, side: Color, now: Instant) {
        let pos = self.position();
        let bare = pos.colored(!side) == pos.pieces_of(!side, Piece::King);
        self.end = Some(End {
            winner: (!bare).then_some(!side),
            reason: Reason::Time,
        });
        self.stop_clock(now);
    }

    fn stop_clock(&mut self, now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.stop(now);
        }
    }

    /// How the board rules end the game here, if they do.
    fn board_end(&self) -> Option<End> {
        self.game.outcome().map(End::from_outcome)
    }
}

/// `mv`, played from `before`, in SAN.
pub fn san(before: &Position, mv: Move) -> String {
    before
        .san(mv)
        .expect("a played move is legal where it was played")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn setup(person: Color, strength: PlayStrength, clock: Option<(u64, u64)>) -> Setup {
        Setup {
            start: Position::startpos(),
            chess960: false,
            person,
            strength,
            clock: clock.map(|(b, i)| (ms(b), ms(i))),
        }
    }

    fn play(s: &mut Session, text: &str, at: Instant) {
        let mv = s.position().parse_uci_move(text).unwrap();
        s.play(mv, at);
    }

    #[test]
    fn strengths_parse_and_print() {
        assert_eq!(PlayStrength::parse("full"), Ok(PlayStrength::Full));
        assert_eq!(
            PlayStrength::parse("movetime:500"),
            Ok(PlayStrength::MoveTime(ms(500)))
        );
        for bad in [
            "",
            "Full",
            "movetime:",
            "movetime:9",
            "movetime:60001",
            "movetime:-5",
        ] {
            assert!(PlayStrength::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(PlayStrength::parse("elo:1500"), Ok(PlayStrength::Elo(1500)));
        for bad in ["elo:1349", "elo:2101", "elo:", "elo:x"] {
            assert!(PlayStrength::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(PlayStrength::Elo(1800).label(), "Elo 1800");
        for s in [
            PlayStrength::Full,
            PlayStrength::MoveTime(ms(100)),
            PlayStrength::Elo(2100),
        ] {
            assert_eq!(PlayStrength::parse(&s.code()), Ok(s));
        }
        assert_eq!(PlayStrength::MoveTime(ms(500)).label(), "0.5 s a move");
    }

    #[test]
    fn the_engine_gets_the_clock_or_its_level() {
        let t0 = Instant::now();
        let full = Session::new(
            setup(Color::Black, PlayStrength::Full, Some((60_000, 2_000))),
            t0,
        );
        let limits = full.limits(t0 + ms(1_500));
        assert_eq!(limits.time, [Some(ms(58_500)), Some(ms(60_000))]);
        assert_eq!(limits.inc, [Some(ms(2_000)); 2]);
        assert_eq!(limits.movetime, None);
        let level = PlayStrength::MoveTime(ms(1_000));
        let short = Session::new(setup(Color::Black, level, Some((2_000, 0))), t0);
        assert_eq!(
            short.limits(t0).movetime,
            Some(ms(500)),
            "a quarter of the clock"
        );
        let long = Session::new(setup(Color::Black, level, Some((60_000, 0))), t0);
        assert_eq!(long.limits(t0).movetime, Some(ms(1_000)));
        let untimed = Session::new(setup(Color::Black, PlayStrength::Full, None), t0);
        assert_eq!(untimed.limits(t0).movetime, Some(UNTIMED_MOVE));
        assert_eq!(untimed.limits(t0).time, [None, None]);
        assert!(untimed.limits(t0).strength.is_none());
        let weak = Session::new(
            setup(Color::Black, PlayStrength::Elo(1500), Some((60_000, 0))),
            t0,
        );
        let limits = weak.limits(t0);
        assert_eq!(limits.strength.map(|s| s.elo()), Some(1500));
        assert_eq!(limits.time, [Some(ms(60_000)); 2], "the real clock");
    }

    #[test]
    fn undo_takes_back_to_the_persons_last_move() {
        let t0 = Instant::now();
        let mut s = Session::new(
            setup(Color::White, PlayStrength::Full, Some((60_000, 0))),
            t0,
        );
        assert!(s.undo(t0).is_err(), "nothing to take back");
        play(&mut s, "e2e4", t0);
        assert!(s.engine_to_move());
        // While the engine thinks: the person's move only.
        s.undo(t0).unwrap();
        assert_eq!(s.moves().len(), 0);
        play(&mut s, "e2e4", t0);
        play(&mut s, "e7e5", t0);
        play(&mut s, "g1f3", t0);
        play(&mut s, "b8c6", t0);
        assert_eq!(s.game().keys().len(), 4);
        s.undo(t0 + ms(5_000)).unwrap();
        assert_eq!(s.moves().len(), 2);
        assert_eq!(s.clock.as_ref().unwrap().running(), Some(Color::White));
        assert!(!s.engine_to_move());
    }

    #[test]
    fn a_flag_fall_and_a_resignation_are_final() {
        let t0 = Instant::now();
        let mut s = Session::new(
            setup(Color::Black, PlayStrength::Full, Some((1_000, 0))),
            t0,
        );
        play(&mut s, "e2e4", t0 + ms(500));
        play(&mut s, "e7e5", t0 + ms(600));
        s.check_flag(t0 + ms(1_000));
        assert_eq!(s.end, None);
        s.check_flag(t0 + ms(1_100));
        let time = Some(End {
            winner: Some(Color::Black),
            reason: Reason::Time,
        });
        assert_eq!(s.end, time);
        assert!(s.undo(t0 + ms(1_200)).is_err());
        // A move that arrives after the flag fell does not count.
        let mut late = Session::new(
            setup(Color::White, PlayStrength::Full, Some((1_000, 0))),
            t0,
        );
        play(&mut late, "e2e4", t0 + ms(1_001));
        assert_eq!(late.moves().len(), 0);
        assert_eq!(late.end.map(|e| e.winner), Some(Some(Color::Black)));
        let mut resigned = Session::new(setup(Color::White, PlayStrength::Full, None), t0);
        resigned.resign(t0);
        assert_eq!(resigned.end.map(End::result), Some("0-1"));
        assert!(resigned.undo(t0).is_err());
        // A bare king cannot win on time.
        let mut bare = Session::new(
            Setup {
                start: Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap(),
                ..setup(Color::Black, PlayStrength::Full, Some((1_000, 0)))
            },
            t0,
        );
        bare.check_flag(t0 + ms(1_000));
        let draw = Some(End {
            winner: None,
            reason: Reason::Time,
        });
        assert_eq!(bare.end, draw);
    }
}
