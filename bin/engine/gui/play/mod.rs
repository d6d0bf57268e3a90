//! Play mode: a game against the engine, with a clock, SAN, undo and PGN.
//!
//! The HTTP thread owns the game; the engine's search runs as a job on its
//! own thread ([`job`]). The page asks for the game's state while the engine
//! thinks, and each request first takes in the engine's move if its search
//! has ended (charging the engine's clock up to the instant the search
//! returned, not the instant the page asked) and checks for a fallen flag.

mod clock;
mod job;
mod pgn;
mod session;

use super::api;
use super::http::{json_body, Reply, Router};
use job::{Job, Thinker};
use movegen::{Color, Position};
use serde_json::{json, Value};
use session::{End, Reason, Session, Setup, Strength};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tiny_http::{Method, Request};

/// Longest base time a clock may have (three hours).
const MAX_BASE: Duration = Duration::from_secs(3 * 3600);
/// Largest increment (one minute).
const MAX_INC: Duration = Duration::from_secs(60);

/// The game on the page and the engine that plays it.
pub struct Play {
    session: Option<Session>,
    game_id: u64,
    thinker: Thinker,
    /// The engine's last completed depth for the current game.
    last_info: Option<search::SearchInfo>,
    /// An internal error of the engine in the current game.
    engine_error: Option<String>,
}

impl Play {
    /// No game yet; the engine thread is started.
    pub fn new() -> Play {
        Play {
            session: None,
            game_id: 0,
            thinker: Thinker::start(),
            last_info: None,
            engine_error: None,
        }
    }
}

/// Play mode's requests: `GET` reads, `POST` acts.
const ROUTES: [(bool, &str); 6] = [
    (false, "/api/play/state"),
    (false, "/api/play/pgn"),
    (true, "/api/play/new"),
    (true, "/api/play/move"),
    (true, "/api/play/undo"),
    (true, "/api/play/resign"),
];

/// Registers Play mode's script and routes. The game and its engine are
/// one value behind one lock: requests from the server's threads take turns
/// with it, and none waits for a search (that runs on the engine's thread).
pub fn register(router: &mut Router) {
    router.add(Method::Get, "/play.js", |_| {
        Ok(Reply::file(
            "text/javascript; charset=utf-8",
            include_str!("../page/play.js"),
        ))
    });
    let play = Arc::new(Mutex::new(Play::new()));
    for (post, path) in ROUTES {
        let play = Arc::clone(&play);
        let method = if post { Method::Post } else { Method::Get };
        router.add(method, path, move |call| {
            // A panic inside a request is answered 500 by the server; the
            // game it held stays usable.
            let mut play = play.lock().unwrap_or_else(PoisonError::into_inner);
            respond(&mut play, path, call.request)
        });
    }
}

/// Answers a request on one of [`ROUTES`] (the router checked the method).
fn respond(play: &mut Play, path: &str, request: &mut Request) -> Result<Reply, Reply> {
    let now = Instant::now();
    play.refresh(now);
    match path {
        "/api/play/state" => Ok(Reply::json(play.state(now))),
        "/api/play/pgn" => play.pgn().map(|text| Reply {
            content_type: "application/x-chess-pgn; charset=utf-8",
            ..Reply::text(text)
        }),
        "/api/play/new" => {
            let setup = setup(&json_body(request)?)?;
            play.new_game(setup, now);
            Ok(Reply::json(play.state(now)))
        }
        "/api/play/move" => {
            let body = json_body(request)?;
            let text = body
                .get("move")
                .and_then(Value::as_str)
                .ok_or_else(|| Reply::error(400, "body needs \"move\": a UCI move"))?;
            play.person_move(text, now)?;
            Ok(Reply::json(play.state(now)))
        }
        "/api/play/undo" => {
            let session = play.session_mut()?;
            session.undo(now).map_err(|e| Reply::error(409, e))?;
            play.thinker.stop();
            Ok(Reply::json(play.state(now)))
        }
        "/api/play/resign" => {
            let session = play.session_mut()?;
            if session.end.is_some() {
                return Err(Reply::error(409, "the game is over"));
            }
            session.resign(now);
            play.thinker.stop();
            Ok(Reply::json(play.state(now)))
        }
        _ => Err(Reply::error(404, format!("no such page: {path}"))),
    }
}

/// The set-up a `POST /api/play/new` body asks for.
fn setup(body: &Value) -> Result<Setup, Reply> {
    let bad = |m: String| Reply::error(400, m);
    let fen = match body.get("fen") {
        None | Some(Value::Null) => None,
        Some(Value::String(fen)) => Some(fen),
        Some(_) => return Err(bad("\"fen\" must be a string".into())),
    };
    let number = match body.get("chess960") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .and_then(Position::chess960)
                .ok_or_else(|| bad("chess960 must be a start position number, 0 to 959".into()))?,
        ),
    };
    let start = match (fen, number) {
        (Some(_), Some(_)) => return Err(bad("give a fen or a chess960 number, not both".into())),
        (Some(fen), None) => Position::from_fen(fen).map_err(|e| bad(e.to_string()))?,
        (None, Some(pos)) => pos,
        (None, None) => Position::startpos(),
    };
    let person = match body.get("color").and_then(Value::as_str).unwrap_or("white") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => {
            if super::clock_seed() & 1 == 0 {
                Color::White
            } else {
                Color::Black
            }
        }
        other => {
            return Err(bad(format!(
                "color must be white, black or random, not {other:?}"
            )))
        }
    };
    let strength = Strength::parse(
        body.get("strength")
            .and_then(Value::as_str)
            .unwrap_or("full"),
    )
    .map_err(bad)?;
    let secs = |name: &str, max: Duration| -> Result<Duration, Reply> {
        match body.get(name) {
            None | Some(Value::Null) => Ok(Duration::ZERO),
            Some(v) => v
                .as_f64()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(Duration::from_secs_f64)
                .filter(|d| *d <= max)
                .ok_or_else(|| bad(format!("{name} must be 0 to {} seconds", max.as_secs()))),
        }
    };
    let (base, inc) = (secs("base", MAX_BASE)?, secs("inc", MAX_INC)?);
    Ok(Setup {
        chess960: number.is_some() || api::is_chess960(&start),
        start,
        person,
        strength,
        clock: (!base.is_zero()).then_some((base, inc)),
    })
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Play {
    fn session_mut(&mut self) -> Result<&mut Session, Reply> {
        self.session
            .as_mut()
            .ok_or_else(|| Reply::error(409, "no game: start one with POST /api/play/new"))
    }

    /// Takes in the engine's move if its search ended, then checks the flags.
    fn refresh(&mut self, now: Instant) {
        let Some(session) = &mut self.session else {
            return;
        };
        if let Some(done) = self.thinker.poll() {
            if done.info.is_some() {
                self.last_info = done.info;
            }
            match done.best {
                Some(mv) if session.engine_to_move() => session.play(mv, done.ended),
                Some(_) => {}
                None => self.engine_error = Some("the engine's search failed (logged)".into()),
            }
        }
        session.check_flag(now);
        if session.end.is_some() {
            self.thinker.stop();
        }
    }

    fn new_game(&mut self, setup: Setup, now: Instant) {
        self.thinker.new_game();
        self.game_id += 1;
        self.last_info = None;
        self.engine_error = None;
        self.session = Some(Session::new(setup, now));
        self.start_engine(now);
    }

    /// Starts the engine's search when it is to move and not yet thinking.
    fn start_engine(&mut self, now: Instant) {
        let Some(session) = &self.session else {
            return;
        };
        if session.engine_to_move() && !self.thinker.thinking() {
            self.thinker.think(Job {
                game: session.game().clone(),
                limits: session.limits(now),
            });
        }
    }

    fn person_move(&mut self, text: &str, now: Instant) -> Result<(), Reply> {
        let session = self.session_mut()?;
        if session.end.is_some() {
            return Err(Reply::error(409, "the game is over"));
        }
        if session.engine_to_move() {
            return Err(Reply::error(409, "it is the engine's move"));
        }
        let pos = *session.position();
        let mv = movegen::explain_move(&pos, text, session.setup.chess960).map_err(|why| {
            Reply::json_status(
                400,
                json!({"error": format!("{text} is not legal here: {}", why.reason(&pos)), "reason": why.reason(&pos).to_string()}),
            )
        })?;
        session.play(mv, now);
        self.start_engine(now);
        Ok(())
    }

    fn state(&self, now: Instant) -> Value {
        let Some(s) = &self.session else {
            return json!({ "game": null });
        };
        let chess960 = s.setup.chess960;
        let positions = s.positions();
        let moves: Vec<Value> = s
            .moves()
            .iter()
            .zip(positions)
            .zip(&positions[1..])
            .map(|((&mv, before), after)| {
                json!({
                    "uci": mv.to_uci(chess960).to_string(),
                    "san": session::san(before, mv),
                    "fen": after.fen(chess960),
                })
            })
            .collect();
        let clock = s.clock.as_ref().map(|c| {
            json!({
                "white_ms": c.left(Color::White, now).as_millis() as u64,
                "black_ms": c.left(Color::Black, now).as_millis() as u64,
                "running": c.running().map(color_name),
                "base_ms": c.base.as_millis() as u64,
                "inc_ms": c.inc.as_millis() as u64,
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
            "start_fen": positions[0].fen(chess960),
            "chess960": chess960,
            "person": color_name(s.setup.person),
            "strength": s.setup.strength.code(),
            "strength_label": s.setup.strength.label(),
            "position": api::position(s.position(), chess960),
            "first_move": [positions[0].fullmove_number(), color_name(positions[0].side_to_move())],
            "moves": moves,
            "thinking": self.thinker.thinking(),
            "clock": clock,
            "end": end,
            "result": s.end.map_or("*", End::result),
            "engine": engine,
            "engine_error": self.engine_error,
        })
    }

    fn pgn(&self) -> Result<String, Reply> {
        let s = self
            .session
            .as_ref()
            .ok_or_else(|| Reply::error(409, "no game: start one with POST /api/play/new"))?;
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
        let standard = start.fen(false) == movegen::STARTPOS_FEN;
        let termination = s.end.map(|e| match e.reason {
            Reason::Time => "time forfeit",
            _ => "normal",
        });
        Ok(pgn::write(&pgn::PgnGame {
            players,
            date: s.started,
            setup_fen: (!standard).then(|| start.fen(chess960)),
            chess960,
            time_control: s.setup.clock,
            movetext: &s.movetext(),
            result: s.end.map_or("*", End::result),
            termination,
        }))
    }
}
