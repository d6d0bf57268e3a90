//! Play mode: games against the engine, one per browser, with a clock, SAN,
//! undo and PGN.
//!
//! Each browser gets a session cookie (random, HttpOnly, SameSite=Strict)
//! when it starts its first game; its game is a [`seat::Seat`] behind its
//! own lock, so two people never see or touch each other's game. The
//! engine's searches for every game (and Review mode's jobs, through
//! [`Play::submit_review`]) run on one bounded [`pool::Pool`]; a
//! dispatcher thread takes the pool's reports and applies them to their
//! seats. Every change is written to the database before it is answered or
//! pushed (Server-Sent Events, `GET /api/play/events`), so a restarted
//! server resumes every game.

mod pgn;
mod pool;
mod seat;
mod session;
mod store;

use super::api;
use super::db::{now_ms, Writer};
use super::events;
use super::extract::{Json, JsonOrEmpty};
use super::http::{cookie, Reply};
use super::lock::{lock, read, write};
use super::router::{route, script, Router};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method};
use movegen::{Color, Position};
use pool::{Pool, Report};
pub use pool::{ReviewJob, Ticket};
use seat::Seat;
use serde::Deserialize;
use serde_json::json;
use session::{PlayStrength, Setup};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use store::GameStore;

/// Longest base time a clock may have (three hours).
const MAX_BASE: Duration = Duration::from_secs(3 * 3600);
/// Largest increment (one minute).
const MAX_INC: Duration = Duration::from_secs(60);
/// The cookie that names a browser's session.
const COOKIE: &str = "pinmask_play";
/// A game nobody has asked about for this long is forgotten.
pub const IDLE_LIMIT: Duration = Duration::from_secs(24 * 3600);
/// Most games kept; a new session beyond it replaces the longest idle game.
pub const MAX_GAMES: usize = 1000;

/// Every seat, the engine's pool and the games' table.
pub struct Play {
    seats: RwLock<HashMap<Arc<str>, Arc<Mutex<Seat>>>>,
    pool: Mutex<Option<Pool>>,
    store: Mutex<Option<GameStore>>,
    next_game: AtomicU64,
    dispatcher: Mutex<Option<JoinHandle<()>>>,
    /// The runtime that runs the flag timers (set when the routes are).
    runtime: Mutex<Option<tokio::runtime::Handle>>,
}

impl Play {
    /// Opens the games' table in `db`, resumes every stored game (their
    /// clocks start again now) and starts `engine_threads` engine workers.
    ///
    /// # Errors
    /// When the database cannot be opened.
    pub fn open(db: &Path, engine_threads: usize, writer: Writer) -> Result<Arc<Play>, String> {
        let store = GameStore::open(db, writer)?;
        let saved = store
            .load()
            .map_err(|e| format!("cannot read the games in {}: {e}", db.display()))?;
        let now = Instant::now();
        let mut seats = HashMap::new();
        let mut last_game = 0;
        for row in &saved {
            match Seat::restore(row, now) {
                Ok(seat) => {
                    last_game = last_game.max(row.game);
                    seats.insert(Arc::clone(&seat.key), Arc::new(Mutex::new(seat)));
                }
                Err(e) => {
                    log::warn!("stored game {} dropped: {e}", row.game);
                    let _ = store.delete(&row.session);
                }
            }
        }
        let (reports, queue) = crossbeam_channel::unbounded();
        let play = Arc::new(Play {
            seats: RwLock::new(seats),
            pool: Mutex::new(Some(Pool::start(engine_threads, reports))),
            store: Mutex::new(Some(store)),
            next_game: AtomicU64::new(last_game + 1),
            dispatcher: Mutex::new(None),
            runtime: Mutex::new(None),
        });
        play.expire(now_ms(), false);
        for seat in play.all_seats() {
            let mut seat = lock(&seat);
            play.queue_engine(&mut seat, now);
        }
        let owner = Arc::clone(&play);
        let dispatcher = std::thread::Builder::new()
            .name("play-dispatch".into())
            .spawn(move || {
                for report in queue {
                    owner.apply(report);
                }
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        *lock(&play.dispatcher) = Some(dispatcher);
        Ok(play)
    }

    /// Stops every search, saves every game with its clocks as they stand
    /// (they resume when the server starts again) and closes the table.
    pub fn close(&self) {
        for seat in self.all_seats() {
            lock(&seat).stop_job();
        }
        if let Some(pool) = lock(&self.pool).take() {
            pool.shutdown();
        }
        if let Some(dispatcher) = lock(&self.dispatcher).take() {
            let _ = dispatcher.join();
        }
        let now = Instant::now();
        for seat in self.all_seats() {
            let seat = lock(&seat);
            if let Err(e) = self.save(&seat, now) {
                log::warn!("game not saved at shutdown: {}", e.body);
            }
        }
        if let Some(store) = lock(&self.store).take() {
            store.close();
        }
    }

    /// Queues a game review on the engine pool, behind the searches already
    /// waiting; `None` once the pool has shut down.
    pub fn submit_review(&self, name: Arc<str>, job: ReviewJob) -> Option<Ticket> {
        lock(&self.pool)
            .as_ref()
            .map(|pool| pool.submit_review(name, job))
    }

    fn all_seats(&self) -> Vec<Arc<Mutex<Seat>>> {
        read(&self.seats).values().cloned().collect()
    }

    fn seat(&self, key: &str) -> Option<Arc<Mutex<Seat>>> {
        read(&self.seats).get(key).cloned()
    }

    /// The seat named by the request's cookie, if it is one of ours.
    fn seat_of(&self, headers: &HeaderMap) -> Option<Arc<Mutex<Seat>>> {
        self.seat(cookie(headers, COOKIE)?)
    }

    fn queue_engine(&self, seat: &mut Seat, now: Instant) {
        if let Some(pool) = lock(&self.pool).as_ref() {
            seat.queue_engine(pool, now);
        }
    }

    /// Writes the seat's row.
    fn save(&self, seat: &Seat, now: Instant) -> Result<(), Reply> {
        let store = lock(&self.store);
        let Some(store) = store.as_ref() else {
            return Err(Reply::error(503, "the server is shutting down"));
        };
        store.save(&seat.saved(now)).map_err(|e| {
            log::error!("database: {e}");
            Reply::error(503, "the game could not be saved: try again")
        })
    }

    /// Saves the changed seat and pushes its state as event `name`; a
    /// running clock of the person gets a timer for its flag.
    fn changed(
        self: &Arc<Play>,
        seat: &mut Seat,
        name: &'static str,
        now: Instant,
    ) -> Result<(), Reply> {
        self.save(seat, now)?;
        seat.push(name, now);
        self.watch_flag(seat, now);
        Ok(())
    }

    /// At the instant the person's flag would fall, checks it: a fallen
    /// flag ends the game and is pushed without the page asking. A timer
    /// made stale by a move only checks a flag that has not fallen.
    fn watch_flag(self: &Arc<Play>, seat: &Seat, now: Instant) {
        let (Some(deadline), Some(runtime)) =
            (seat.flag_deadline(now), lock(&self.runtime).clone())
        else {
            return;
        };
        let (play, key) = (Arc::clone(self), Arc::clone(&seat.key));
        runtime.spawn(async move {
            tokio::time::sleep_until((deadline + Duration::from_millis(5)).into()).await;
            let _ = tokio::task::spawn_blocking(move || {
                let Some(seat) = play.seat(&key) else { return };
                let mut seat = lock(&seat);
                let now = Instant::now();
                if seat.refresh(now) {
                    if let Err(e) = play.changed(&mut seat, "end", now) {
                        log::warn!("a flag fall not saved: {}", e.body);
                    }
                }
            })
            .await;
        });
    }

    /// Applies a worker's report to its seat, saves and pushes.
    fn apply(self: &Arc<Play>, report: Report) {
        let key = match &report {
            Report::Started { seat, .. } => Arc::clone(seat),
            Report::Done(done) => Arc::clone(&done.seat),
        };
        let Some(seat) = self.seat(&key) else {
            return;
        };
        let mut seat = lock(&seat);
        let now = Instant::now();
        let event = match report {
            Report::Started { id, at, .. } => seat.started(id, at).then_some("clock"),
            Report::Done(done) => seat.finished(done, now),
        };
        if let Some(name) = event {
            if let Err(e) = self.changed(&mut seat, name, now) {
                log::warn!("engine's move not saved: {}", e.body);
            }
        }
    }

    /// Forgets games idle longer than [`IDLE_LIMIT`], and with `room` the
    /// longest idle ones until a new game fits under [`MAX_GAMES`].
    fn expire(&self, now_ms: i64, room: bool) {
        let limit = now_ms - IDLE_LIMIT.as_millis() as i64;
        let mut gone = Vec::new();
        {
            let mut seats = write(&self.seats);
            let mut by_age: Vec<(i64, Arc<str>)> = seats
                .iter()
                .map(|(k, s)| (lock(s).touched_ms, Arc::clone(k)))
                .collect();
            by_age.sort();
            let keep = if room { MAX_GAMES - 1 } else { MAX_GAMES };
            let excess = by_age.len().saturating_sub(keep);
            for (k, (touched, key)) in by_age.into_iter().enumerate() {
                if touched < limit || k < excess {
                    gone.extend(seats.remove(&key));
                }
            }
        }
        for seat in gone {
            let mut seat = lock(&seat);
            seat.stop_job();
            if let Some(store) = lock(&self.store).as_ref() {
                if let Err(e) = store.delete(&seat.key) {
                    log::warn!("expired game not deleted: {e}");
                }
            }
        }
    }
}

/// The body of `POST /api/play/new`; every field may be left out.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct NewBody {
    fen: Option<String>,
    chess960: Option<u32>,
    color: Option<SideChoice>,
    strength: Option<String>,
    base: Option<f64>,
    inc: Option<f64>,
}

/// The person's side as `POST /api/play/new` asks for it.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum SideChoice {
    White,
    Black,
    Random,
}

/// The body of `POST /api/play/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
}

/// The body of `POST /api/play/undo` and `/resign`: nothing (or `{}`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoBody {}

/// The browser's game, if its session cookie names one of ours.
struct Session(Option<Arc<Mutex<Seat>>>);

impl FromRequestParts<Arc<Play>> for Session {
    type Rejection = Reply;

    async fn from_request_parts(parts: &mut Parts, play: &Arc<Play>) -> Result<Session, Reply> {
        Ok(Session(play.seat_of(&parts.headers)))
    }
}

/// The browser's game; without one, 409 before anything else is read.
struct Game(Arc<Mutex<Seat>>);

impl FromRequestParts<Arc<Play>> for Game {
    type Rejection = Reply;

    async fn from_request_parts(parts: &mut Parts, play: &Arc<Play>) -> Result<Game, Reply> {
        play.seat_of(&parts.headers).map(Game).ok_or_else(no_game)
    }
}

/// Registers Play mode's table, and the flag timers of the games resumed.
pub fn register(router: &mut Router, play: Arc<Play>, streams: events::Streams) {
    *lock(&play.runtime) = tokio::runtime::Handle::try_current().ok();
    let now = Instant::now();
    for seat in play.all_seats() {
        play.watch_flag(&lock(&seat), now);
    }
    router.table(
        play,
        [
            script("/play.js", include_str!("../page/play.js")),
            route(Method::GET, "/api/play/state", state),
            route(Method::GET, "/api/play/pgn", pgn),
            route(Method::POST, "/api/play/new", new_game),
            route(Method::POST, "/api/play/move", person_move),
            route(Method::POST, "/api/play/undo", undo),
            route(Method::POST, "/api/play/resign", resign),
            events::route(
                "/api/play/events",
                streams,
                |_: &Arc<Play>, Game(seat): Game| lock(&seat).subscribe(Instant::now()),
            ),
        ],
    );
}

fn no_game() -> Reply {
    Reply::error(409, "no game: start one with POST /api/play/new")
}

/// Runs `act` on the game in `seat` (`Ok(Some(event))` when it changed
/// it), after the flags are checked; queues the engine, saves and pushes
/// if anything changed, and answers with the state.
fn on_game(
    play: &Arc<Play>,
    seat: &Mutex<Seat>,
    act: impl FnOnce(&mut Seat, Instant) -> Result<Option<&'static str>, Reply>,
) -> Result<Reply, Reply> {
    let now = Instant::now();
    let mut seat = lock(seat);
    seat.touched_ms = now_ms();
    let ended = seat.refresh(now).then_some("end");
    let acted = act(&mut seat, now);
    let event = match &acted {
        Ok(Some(name)) => Some(*name),
        _ => ended,
    };
    if let Some(name) = event {
        play.queue_engine(&mut seat, now);
        play.changed(&mut seat, name, now)?;
    }
    acted.map(|_| Reply::json(seat.state(now)))
}

/// `GET /api/play/state`: the game, or `{"game": null}` without one.
fn state(play: &Arc<Play>, Session(seat): Session) -> Result<Reply, Reply> {
    match seat {
        Some(seat) => on_game(play, &seat, |_, _| Ok(None)),
        None => Ok(Reply::json(json!({ "game": null }))),
    }
}

/// `GET /api/play/pgn`: the game so far as PGN.
fn pgn(play: &Arc<Play>, Game(seat): Game) -> Result<Reply, Reply> {
    let now = Instant::now();
    let mut seat = lock(&seat);
    seat.touched_ms = now_ms();
    if seat.refresh(now) {
        play.changed(&mut seat, "end", now)?;
    }
    Ok(Reply {
        content_type: "application/x-chess-pgn; charset=utf-8",
        ..Reply::text(seat.pgn())
    })
}

/// `POST /api/play/move {"move"}`: the person's move, in UCI.
fn person_move(
    play: &Arc<Play>,
    (Game(seat), Json(body)): (Game, Json<MoveBody>),
) -> Result<Reply, Reply> {
    on_game(play, &seat, |seat, now| {
        seat.person_move(&body.mv, now).map(|()| Some("move"))
    })
}

/// `POST /api/play/undo`: takes back the person's last move.
fn undo(play: &Arc<Play>, (Game(seat), _): (Game, JsonOrEmpty<NoBody>)) -> Result<Reply, Reply> {
    on_game(play, &seat, |seat, now| {
        seat.undo(now).map(|()| Some("game"))
    })
}

/// `POST /api/play/resign`: the person resigns.
fn resign(play: &Arc<Play>, (Game(seat), _): (Game, JsonOrEmpty<NoBody>)) -> Result<Reply, Reply> {
    on_game(play, &seat, |seat, now| {
        seat.resign(now).map(|()| Some("end"))
    })
}

/// `POST /api/play/new`: replaces the session's game, or starts the first
/// one under a new session cookie.
fn new_game(
    play: &Arc<Play>,
    (Session(seat), JsonOrEmpty(body)): (Session, JsonOrEmpty<NewBody>),
) -> Result<Reply, Reply> {
    let now = Instant::now();
    let setup = setup(body.unwrap_or_default())?;
    let game_id = play.next_game.fetch_add(1, Ordering::Relaxed);
    if let Some(seat) = seat {
        let mut seat = lock(&seat);
        seat.touched_ms = now_ms();
        seat.replace(setup, game_id, now);
        play.queue_engine(&mut seat, now);
        play.changed(&mut seat, "game", now)?;
        return Ok(Reply::json(seat.state(now)));
    }
    let key: Arc<str> = session_id()?.into();
    play.expire(now_ms(), true);
    // In the map before the engine's job is queued: the worker's reports
    // (a mate in one is found in a millisecond) must find their seat.
    let seat = Arc::new(Mutex::new(Seat::new(
        Arc::clone(&key),
        setup,
        game_id,
        now,
        now_ms(),
    )));
    write(&play.seats).insert(Arc::clone(&key), Arc::clone(&seat));
    let mut seat = lock(&seat);
    play.queue_engine(&mut seat, now);
    play.save(&seat, now)?;
    play.watch_flag(&seat, now);
    let state = seat.state(now);
    Ok(Reply::json(state).with_header(
        "Set-Cookie",
        format!("{COOKIE}={key}; HttpOnly; SameSite=Strict; Path=/; Max-Age=2592000"),
    ))
}

/// A fresh session id: 32 bytes from the OS random source, in hex.
fn session_id() -> Result<String, Reply> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| {
        log::error!("no random bytes for a session: {e}");
        Reply::error(500, "no random bytes for a session (logged)")
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The set-up a `POST /api/play/new` body asks for.
fn setup(body: NewBody) -> Result<Setup, Reply> {
    let bad = |field: &str, m: String| {
        Reply::json_status(
            400,
            json!({ "error": format!("field \"{field}\": {m}"), "field": field }),
        )
    };
    let number = match body.chess960 {
        None => None,
        Some(n) => Some(
            Position::chess960(n)
                .ok_or_else(|| bad("chess960", "a start position number is 0 to 959".into()))?,
        ),
    };
    let start = match (body.fen, number) {
        (Some(_), Some(_)) => {
            return Err(Reply::error(
                400,
                "give a fen or a chess960 number, not both",
            ))
        }
        (Some(fen), None) => Position::from_fen(&fen).map_err(|e| bad("fen", e.to_string()))?,
        (None, Some(pos)) => pos,
        (None, None) => Position::startpos(),
    };
    let person = match body.color.unwrap_or(SideChoice::White) {
        SideChoice::White => Color::White,
        SideChoice::Black => Color::Black,
        SideChoice::Random => {
            if super::clock_seed() & 1 == 0 {
                Color::White
            } else {
                Color::Black
            }
        }
    };
    let strength = PlayStrength::parse(body.strength.as_deref().unwrap_or("full"))
        .map_err(|e| bad("strength", e))?;
    let secs = |name: &str, value: Option<f64>, max: Duration| -> Result<Duration, Reply> {
        match value {
            None => Ok(Duration::ZERO),
            Some(s) => Some(s)
                .filter(|s| s.is_finite() && *s >= 0.0 && *s <= max.as_secs_f64())
                .map(Duration::from_secs_f64)
                .ok_or_else(|| bad(name, format!("0 to {} seconds", max.as_secs()))),
        }
    };
    let base = secs("base", body.base, MAX_BASE)?;
    let inc = secs("inc", body.inc, MAX_INC)?;
    Ok(Setup {
        chess960: number.is_some() || api::is_chess960(&start),
        start,
        person,
        strength,
        clock: (!base.is_zero()).then_some((base, inc)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> Setup {
        Setup {
            start: Position::startpos(),
            chess960: false,
            person: Color::White,
            strength: PlayStrength::Full,
            clock: None,
        }
    }

    #[test]
    fn idle_games_expire_and_the_cap_replaces_the_longest_idle() {
        let dir = std::env::temp_dir().join(format!("pinmask-expire-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("games.sqlite");
        let _ = std::fs::remove_file(&db);
        let play = Play::open(&db, 1, Writer::default()).unwrap();
        let now = Instant::now();
        let day = IDLE_LIMIT.as_millis() as i64;
        let t0 = now_ms();
        let add = |key: &str, touched: i64| {
            let seat = Seat::new(key.into(), setup(), 1, now, touched);
            play.save(&seat, now).unwrap();
            let mut seats = play.seats.write().unwrap();
            seats.insert(key.into(), Arc::new(Mutex::new(seat)));
        };
        add("old", t0 - day - 1);
        add("fresh", t0 - day + 60_000);
        play.expire(t0, false);
        assert!(play.seat("old").is_none() && play.seat("fresh").is_some());
        // The cap: one game more would pass it, so the longest idle goes.
        for k in 1..MAX_GAMES {
            add(&format!("g{k}"), t0 - k as i64);
        }
        assert_eq!(play.all_seats().len(), MAX_GAMES);
        play.expire(t0, true);
        assert_eq!(play.all_seats().len(), MAX_GAMES - 1);
        assert!(play.seat("fresh").is_none(), "the longest idle is replaced");
        assert!(play.seat("g1").is_some());
        play.close();
        // Only the kept games were saved again at shutdown and load back.
        let store = GameStore::open(&db, Writer::default()).unwrap();
        let rows = store.load().unwrap();
        assert_eq!(rows.len(), MAX_GAMES - 1);
        assert!(rows
            .iter()
            .all(|r| r.session != "old" && r.session != "fresh"));
        store.close();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
