//! One browser's place at the board: its game, the engine job working on
//! it, and the events pushed to its pages. Every change goes through here;
//! [`super::Play`] saves the seat and pushes its state after each one.

use super::pgn;
use super::pool::{Done, Job, Pool, Ticket};
use super::session::{self, End, PlayStrength, Reason, Session, Setup};
use super::store::Saved;
use crate::gui::api;
use crate::gui::events::Pushed;
use crate::gui::http::Reply;
use movegen::{CastlingMode, Color, Position};
use referee::{Clock, TimeControl};
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, UNIX_EPOCH};
use tokio::sync::watch;

/// A session's game and the engine's work on it.
pub struct Seat {
    /// The session's id (its cookie).
    pub key: Arc<str>,
    session: Session,
    /// The game's number, new for each game.
    game_id: u64,
    /// The engine's job for the current position, queued or running.
    job: Option<Ticket>,
    /// Whether that job still waits for a free worker.
    waiting: bool,
    /// The engine's last completed depth in this game.
    last_info: Option<search::SearchInfo>,
    /// An internal error of the engine in this game.
    engine_error: Option<String>,
    /// When the session last asked anything (ms since the epoch).
    pub touched_ms: i64,
    /// Counts the pushed changes, so a page can drop an older state; it
    /// starts again at 0 with each server start (see [`server_start`]).
    version: u64,
    events: watch::Sender<Pushed>,
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn color_from(name: &str) -> Option<Color> {
    match name {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The moves White and Black completed in `plies` half-moves from a position
/// with `first` to move (what a resumed clock counts its periods from).
fn moves_by_side(first: Color, plies: usize) -> [u32; 2] {
    let (first_moves, second_moves) = (plies.div_ceil(2) as u32, (plies / 2) as u32);
    match first {
        Color::White => [first_moves, second_moves],
        Color::Black => [second_moves, first_moves],
    }
}

/// This server start's name, sent with every state beside `version`.
///
/// `version` orders the states of one server start only: it counts pushes,
/// and some (a page subscribing) change nothing stored, so continuing it
/// after a restart would cost a write per push, and after a kill the saved
/// count would lag what pages had seen. A page that holds a state from
/// another start takes the new server's state whatever its `version`: the
/// server that sent the older one is gone. 8 random bytes in hex (the
/// clock's nanoseconds and the process id if the OS has no random bytes).
pub fn server_start() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| {
        let mut bytes = [0u8; 8];
        let n = match getrandom::fill(&mut bytes) {
            Ok(()) => u64::from_le_bytes(bytes),
            Err(_) => {
                let nanos = UNIX_EPOCH.elapsed().map_or(0, |d| d.as_nanos() as u64);
                nanos ^ u64::from(std::process::id()).rotate_left(32)
            }
        };
        format!("{n:016x}")
    })
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

impl Seat {
    /// A seat with a new game.
    pub fn new(key: Arc<str>, setup: Setup, game_id: u64, now: Instant, now_ms: i64) -> Seat {
        let session = Session::new(setup, now);
        let events = watch::Sender::new(Pushed {
            name: "state",
            data: "null".into(),
        });
        Seat {
            key,
            session,
            game_id,
            job: None,
            waiting: false,
            last_info: None,
            engine_error: None,
            touched_ms: now_ms,
            version: 0,
            events,
        }
    }

    /// Replaces the game with a new one, stopping the engine's work.
    pub fn replace(&mut self, setup: Setup, game_id: u64, now: Instant) {
        self.stop_job();
        self.session = Session::new(setup, now);
        self.game_id = game_id;
        self.last_info = None;
        self.engine_error = None;
    }

    /// A seat as it was saved; the running clock resumes at `now`.
    ///
    /// # Errors
    /// When the row does not describe a game (a damaged file).
    pub fn restore(saved: &Saved, now: Instant) -> Result<Seat, String> {
        let start = Position::from_fen(&saved.start_fen).map_err(|e| e.to_string())?;
        let person = color_from(&saved.person).ok_or("bad side")?;
        let strength = PlayStrength::parse(&saved.strength)?;
        let clock_setup = saved
            .clock
            .map(|(b, i)| (Duration::from_millis(b), Duration::from_millis(i)));
        let setup = Setup {
            start,
            chess960: saved.chess960,
            person,
            strength,
            clock: clock_setup,
        };
        let moves: Vec<&str> = saved.moves.split_whitespace().collect();
        let clock = match (clock_setup, saved.left) {
            (Some((base, inc)), Some((w, b))) => Some(Clock::resume(
                TimeControl::new(base, inc),
                [Duration::from_millis(w), Duration::from_millis(b)],
                moves_by_side(start.side_to_move(), moves.len()),
                saved.running.as_deref().and_then(color_from),
                now,
            )),
            (None, _) => None,
            (Some(_), None) => return Err("a clock without times".into()),
        };
        let end = match &saved.end {
            Some((reason, winner)) => Some(End {
                reason: Reason::from_code(reason).ok_or("bad end")?,
                winner: winner.as_deref().and_then(color_from),
            }),
            None => None,
        };
        let started = UNIX_EPOCH + Duration::from_millis(saved.started_ms.max(0) as u64);
        let session = Session::restore(setup, &moves, clock, end, started)?;
        let mut seat = Seat::new(
            saved.session.as_str().into(),
            session.setup.clone(),
            saved.game,
            now,
            saved.touched_ms,
        );
        seat.session = session;
        Ok(seat)
    }

    /// The row that stores the seat at `now`.
    pub fn saved(&self, now: Instant) -> Saved {
        let s = &self.session;
        let chess960 = s.setup.chess960;
        let moves: Vec<String> = s
            .moves()
            .iter()
            .map(|m| m.to_uci(CastlingMode::from_chess960(chess960)).to_string())
            .collect();
        let started_ms = s
            .started
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        Saved {
            session: self.key.to_string(),
            game: self.game_id,
            start_fen: s.positions()[0].fen_with(CastlingMode::from_chess960(chess960)),
            chess960,
            person: color_name(s.setup.person).into(),
            strength: s.setup.strength.code(),
            clock: s.setup.clock.map(|(b, i)| (ms(b), ms(i))),
            moves: moves.join(" "),
            left: s
                .clock
                .as_ref()
                .map(|c| (ms(c.left(Color::White, now)), ms(c.left(Color::Black, now)))),
            running: s
                .clock
                .as_ref()
                .and_then(Clock::running)
                .map(|c| color_name(c).to_string()),
            end: s.end.map(|e| {
                (
                    e.reason.code().to_string(),
                    e.winner.map(|w| color_name(w).to_string()),
                )
            }),
            started_ms,
            touched_ms: self.touched_ms,
        }
    }

    /// Stops the engine's job, if any; its report will be dropped.
    pub fn stop_job(&mut self) {
        if let Some(ticket) = self.job.take() {
            ticket.stop();
        }
        self.waiting = false;
    }

    /// Queues the engine's search when it is to move and has no job. Its
    /// clock stands still until a worker takes the job ([`Seat::started`]).
    pub fn queue_engine(&mut self, pool: &Pool, now: Instant) {
        if !self.session.engine_to_move() || self.job.is_some() {
            return;
        }
        if let Some(clock) = &mut self.session.clock {
            clock.stop(now);
        }
        let job = Job {
            game: self.session.game().clone(),
            limits: self.session.limits(now),
        };
        self.job = Some(pool.submit(Arc::clone(&self.key), job));
        self.waiting = true;
    }

    fn is_current(&self, id: u64) -> bool {
        self.job.as_ref().is_some_and(|t| t.id == id)
    }

    /// A worker took job `id` at `at`: the engine's clock starts. Returns
    /// whether anything changed.
    pub fn started(&mut self, id: u64, at: Instant) -> bool {
        if !self.is_current(id) {
            return false;
        }
        self.waiting = false;
        let engine = !self.session.setup.person;
        if let (Some(clock), None) = (&mut self.session.clock, self.session.end) {
            clock.start(engine, at);
        }
        true
    }

    /// The engine's search ended: its move is played (the clock charged up
    /// to the instant the search returned). Returns the event to push.
    pub fn finished(&mut self, done: Done, now: Instant) -> Option<&'static str> {
        if !self.is_current(done.id) {
            return None;
        }
        self.job = None;
        self.waiting = false;
        if done.info.is_some() {
            self.last_info = done.info;
        }
        match done.best {
            Some(mv) if self.session.engine_to_move() => self.session.play(mv, done.ended),
            Some(_) => {}
            None => self.engine_error = Some("the engine's search failed (logged)".into()),
        }
        self.session.check_flag(now);
        Some(if self.session.end.is_some() {
            "end"
        } else {
            "move"
        })
    }

    /// When the person's flag falls, if their clock is running.
    pub fn flag_deadline(&self, now: Instant) -> Option<Instant> {
        let clock = self.session.clock.as_ref()?;
        let person = self.session.setup.person;
        (self.session.end.is_none() && clock.running() == Some(person))
            .then(|| now + clock.left(person, now))
    }

    /// Checks the flags at `now`; returns whether the game just ended.
    pub fn refresh(&mut self, now: Instant) -> bool {
        let before = self.session.end.is_some();
        self.session.check_flag(now);
        let ended = !before && self.session.end.is_some();
        if ended {
            self.stop_job();
        }
        ended
    }

    /// Plays the person's move `text`.
    pub fn person_move(&mut self, text: &str, now: Instant) -> Result<(), Reply> {
        let session = &mut self.session;
        if session.end.is_some() {
            return Err(Reply::error(409, "the game is over"));
        }
        if session.engine_to_move() {
            return Err(Reply::error(409, "it is the engine's move"));
        }
        let pos = *session.position();
        let mv = movegen::explain_move(&crate::gui::api::with_mode(&pos, session.setup.chess960), text).map_err(|why| {
            Reply::json_status(
                400,
                json!({"error": format!("{text} is not legal here: {}", why.reason(&pos)), "reason": why.reason(&pos).to_string()}),
            )
        })?;
        session.play(mv, now);
        Ok(())
    }

    /// Takes back the person's last move (and the engine's reply).
    pub fn undo(&mut self, now: Instant) -> Result<(), Reply> {
        self.session.undo(now).map_err(|e| Reply::error(409, e))?;
        self.stop_job();
        Ok(())
    }

    /// The person resigns.
    pub fn resign(&mut self, now: Instant) -> Result<(), Reply> {
        if self.session.end.is_some() {
            return Err(Reply::error(409, "the game is over"));
        }
        self.session.resign(now);
        self.stop_job();
        Ok(())
    }

    /// Pushes the state at `now` to the seat's pages as event `name`.
    pub fn push(&mut self, name: &'static str, now: Instant) {
        self.version += 1;
        self.events
            .send_replace(Pushed::new(name, &self.state(now)));
    }

    /// A receiver of the seat's events, its current value the state now.
    pub fn subscribe(&mut self, now: Instant) -> watch::Receiver<Pushed> {
        self.push("state", now);
        self.events.subscribe()
    }

    /// The game's state as the page reads it.
    pub fn state(&self, now: Instant) -> Value {
        let s = &self.session;
        let chess960 = s.setup.chess960;
        let positions = s.positions();
        let moves: Vec<Value> = s
            .moves()
            .iter()
            .zip(positions)
            .zip(&positions[1..])
            .map(|((&mv, before), after)| {
                json!({
                    "uci": mv.to_uci(CastlingMode::from_chess960(chess960)).to_string(),
                    "san": session::san(before, mv),
                    "fen": after.fen_with(CastlingMode::from_chess960(chess960)),
                })
            })
            .collect();
        let clock = s.clock.as_ref().map(|c| {
            json!({
                "white_ms": ms(c.left(Color::White, now)),
                "black_ms": ms(c.left(Color::Black, now)),
                "running": c.running().map(color_name),
                "base_ms": ms(c.time_control().base),
                "inc_ms": ms(c.time_control().increment),
            })
        });
        let end = s.end.map(|e| {
            json!({
                "result": e.result(),
                "reason": e.reason.code(),
                "winner": e.winner.map(color_name),
            })
        });
        let engine = self.last_info.as_ref().map(|i| {
            let (kind, value) = match i.score {
                search::Score::Cp(cp) => ("cp", cp),
                search::Score::Mate(n) => ("mate", n),
            };
            json!({ "depth": i.depth, kind: value, "nodes": i.nodes })
        });
        json!({
            "game": self.game_id,
            "start_fen": positions[0].fen_with(CastlingMode::from_chess960(chess960)),
            "chess960": chess960,
            "person": color_name(s.setup.person),
            "strength": s.setup.strength.code(),
            "strength_label": s.setup.strength.label(),
            "position": api::position(s.position(), chess960),
            "first_move": [positions[0].fullmove_number(), color_name(positions[0].side_to_move())],
            "moves": moves,
            "thinking": self.job.is_some(),
            "waiting": self.waiting,
            "version": self.version,
            "server": server_start(),
            "clock": clock,
            "end": end,
            "result": s.end.map_or("*", End::result),
            "engine": engine,
            "engine_error": self.engine_error,
        })
    }

    /// The game as PGN.
    pub fn pgn(&self) -> String {
        let s = &self.session;
        let chess960 = s.setup.chess960;
        let positions = s.positions();
        let engine = format!(
            "Pinmask {} ({})",
            env!("CARGO_PKG_VERSION"),
            s.setup.strength.label()
        );
        let mut players = ["Player".to_string(), engine];
        if s.setup.person == Color::Black {
            players.reverse();
        }
        let start = positions[0];
        let standard = start.fen_with(CastlingMode::Standard) == movegen::STARTPOS_FEN;
        let termination = s.end.map(|e| match e.reason {
            Reason::Time => "time forfeit",
            _ => "normal",
        });
        pgn::write(
            s.game(),
            &pgn::Header {
                players,
                date: s.started,
                setup_fen: (!standard)
                    .then(|| start.fen_with(CastlingMode::from_chess960(chess960))),
                chess960,
                time_control: s.setup.clock,
                result: s.end.map_or("*", End::result),
                termination,
            },
        )
    }
}
