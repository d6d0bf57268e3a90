//! Review mode: a game (pasted or uploaded PGN, or the Play game just
//! ended, which the page sends as its PGN) reviewed by the engine on the
//! page.
//!
//! `POST /api/review` reads the first game of the PGN and queues one job on
//! Play's bounded engine pool; the job runs `search::annotate::review_game`,
//! the same loop as `engine analyse`, and pushes the review as it grows
//! (`GET /api/review/events?id=`, Server-Sent Events: each event carries all
//! of it, so a slow page skips to the newest). A review is named by a random
//! id that only the page that asked for it knows; the most recent
//! [`MAX_REVIEWS`] are kept, in memory only. When done, the annotated PGN
//! downloads from `GET /api/review/pgn?id=`.

use super::events::{self, Pushed};
use super::extract::{Json, Query};
use super::http::Reply;
use super::lock::lock;
use super::play::{Play, Ticket};
use super::router::{route, script, Router};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::Method;
use movegen::pgn::{read_games, write_game, PgnGame};
use movegen::{CastlingMode, Color, Position};
use search::annotate::{review_game, white_view, PositionEval, ReviewStop, Step, REVIEW_HASH_MB};
use search::review::{expected_score, Judgement, ReviewVerdict};
use search::{wdl_material, Limits, Score, SearchControl, Searcher};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// Depth of each position's search when the request names none: as
/// `engine analyse`, the deepest that reviews a 40-move game well inside a
/// minute on one loaded core.
pub const DEFAULT_DEPTH: u32 = search::annotate::REVIEW_DEPTH;
/// Deepest search a review may ask for.
pub const MAX_DEPTH: u32 = 16;
/// Reviews kept; a new one beyond it drops (and stops) the oldest.
pub const MAX_REVIEWS: usize = 64;

/// The body of `POST /api/review`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewBody {
    /// PGN text; its first game is reviewed.
    pgn: String,
    /// Search depth a position (1 to [`MAX_DEPTH`]).
    depth: Option<u32>,
}

/// The body of `POST /api/review/stop`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StopBody {
    id: String,
}

/// Every review kept, oldest first.
pub struct Reviews {
    play: Arc<Play>,
    entries: Mutex<VecDeque<Arc<Entry>>>,
}

/// One review: what is known so far and the channel that pushes it.
struct Entry {
    id: Arc<str>,
    ticket: Mutex<Option<Ticket>>,
    state: Mutex<State>,
    pushed: watch::Sender<Pushed>,
}

/// A review as the page sees it.
struct State {
    depth: u32,
    tags: Value,
    start_fen: String,
    chess960: bool,
    /// Per move: SAN, UCI, the FEN after it, the mover.
    moves: Vec<Value>,
    /// Per position (0 = the start), as they come.
    evals: Vec<Value>,
    /// Per move, as they come (`null` when there was nothing to compare).
    verdicts: Vec<Value>,
    status: &'static str,
    summary: Option<Value>,
    pgn: Option<String>,
}

impl State {
    fn json(&self, id: &str) -> Value {
        json!({
            "id": id,
            "status": self.status,
            "depth": self.depth,
            "tags": self.tags,
            "start_fen": self.start_fen,
            "chess960": self.chess960,
            "moves": self.moves,
            "evals": self.evals,
            "verdicts": self.verdicts,
            "summary": self.summary,
        })
    }
}

impl Entry {
    fn push(&self, state: &State) {
        self.pushed
            .send_replace(Pushed::new("review", &state.json(&self.id)));
    }
}

impl Reviews {
    /// No reviews yet; their jobs go to `play`'s engine pool.
    pub fn new(play: Arc<Play>) -> Arc<Reviews> {
        Arc::new(Reviews {
            play,
            entries: Mutex::new(VecDeque::new()),
        })
    }

    /// Stops every review still queued or running (before the pool shuts
    /// down).
    pub fn close(&self) {
        for entry in lock(&self.entries).iter() {
            stop(entry);
        }
    }

    fn find(&self, id: &str) -> Option<Arc<Entry>> {
        lock(&self.entries).iter().find(|e| &*e.id == id).cloned()
    }

    /// `POST /api/review`: reads the game and queues its review.
    fn start(self: &Arc<Reviews>, Json(body): Json<NewBody>) -> Result<Reply, Reply> {
        let depth = body.depth.unwrap_or(DEFAULT_DEPTH);
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(Reply::json_status(
                400,
                json!({ "error": format!("depth must be 1 to {MAX_DEPTH}"), "field": "depth" }),
            ));
        }
        let game = first_game(&body.pgn)?;
        let id: Arc<str> = review_id()?.into();
        let state = initial_state(&game, depth);
        let (pushed, _) = watch::channel(Pushed::new("review", &state.json(&id)));
        let entry = Arc::new(Entry {
            id: Arc::clone(&id),
            ticket: Mutex::new(None),
            state: Mutex::new(state),
            pushed,
        });
        {
            let mut entries = lock(&self.entries);
            while entries.len() >= MAX_REVIEWS {
                if let Some(old) = entries.pop_front() {
                    stop(&old);
                }
            }
            entries.push_back(Arc::clone(&entry));
        }
        // The ticket is stored under the state's lock, which the job takes
        // first: a stop cannot miss a job that is about to start.
        let state = lock(&entry.state);
        let job_entry = Arc::clone(&entry);
        let name: Arc<str> = format!("review {}", &id[..8]).into();
        let ticket = self.play.submit_review(
            name,
            Box::new(move |control: &SearchControl| {
                run(&job_entry, game, depth, control);
            }),
        );
        match ticket {
            Some(ticket) => *lock(&entry.ticket) = Some(ticket),
            None => return Err(Reply::error(503, "the server is shutting down")),
        }
        Ok(Reply::json(state.json(&id)))
    }
}

fn stop(entry: &Entry) {
    // Never both locks at once here: `start` takes the state's, then the
    // ticket's.
    let ticket = lock(&entry.ticket).clone();
    if let Some(ticket) = ticket {
        ticket.stop();
    }
    let mut state = lock(&entry.state);
    if matches!(state.status, "queued" | "running") {
        state.status = "stopped";
        entry.push(&state);
    }
}

/// The first game of `text`, or a 400 naming the game, the move and the
/// token where reading failed.
fn first_game(text: &str) -> Result<PgnGame, Reply> {
    match read_games(text).next() {
        None => Err(Reply::error(400, "no game in the PGN")),
        Some(Err(e)) => Err(Reply::json_status(
            400,
            json!({
                "error": e.to_string(),
                "game": e.game,
                "move": e.ply.map(|(n, side)| {
                    format!("{n}{}", if side == Color::White { "." } else { "..." })
                }),
                "token": e.token,
            }),
        )),
        Some(Ok(game)) if game.mainline.moves.is_empty() => {
            Err(Reply::error(400, "game 1 has no moves to review"))
        }
        Some(Ok(game)) => Ok(game),
    }
}

/// A fresh review id: 16 bytes from the OS random source, in hex.
fn review_id() -> Result<String, Reply> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        log::error!("no random bytes for a review id: {e}");
        Reply::error(500, "no random bytes for a review id (logged)")
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn initial_state(game: &PgnGame, depth: u32) -> State {
    let chess960 = game
        .tag("Variant")
        .is_some_and(|v| v.eq_ignore_ascii_case("chess960"))
        || super::api::is_chess960(&game.start);
    let mut pos = game.start;
    let moves = game
        .mainline
        .moves
        .iter()
        .map(|node| {
            // The reader checked every mainline move.
            let san = pos.san(node.mv).map(|s| s.to_string()).unwrap_or_default();
            let mover = pos.side_to_move();
            pos = pos.play_unchecked(node.mv);
            json!({
                "san": san,
                "uci": node.mv.to_uci(CastlingMode::from_chess960(chess960)).to_string(),
                "fen": pos.fen_with(CastlingMode::from_chess960(chess960)),
                "side": if mover == Color::White { "white" } else { "black" },
            })
        })
        .collect();
    let tags: HashMap<&str, &str> = ["White", "Black", "Result", "Event", "Date"]
        .into_iter()
        .filter_map(|name| game.tag(name).map(|v| (name, v)))
        .collect();
    State {
        depth,
        tags: json!(tags),
        start_fen: game.start.fen_with(CastlingMode::from_chess960(chess960)),
        chess960,
        moves,
        evals: Vec::new(),
        verdicts: Vec::new(),
        status: "queued",
        summary: None,
        pgn: None,
    }
}

/// The job: reviews `game`, pushing each position's evaluation and each
/// move's verdict as they come.
fn run(entry: &Entry, mut game: PgnGame, depth: u32, control: &SearchControl) {
    let chess960 = {
        let mut state = lock(&entry.state);
        if control.stopped() || state.status == "stopped" {
            return;
        }
        state.status = "running";
        entry.push(&state);
        state.chess960
    };
    // A fresh searcher of `engine analyse`'s size, as it clears its own for
    // each game: the same game at the same depth gets the same review here
    // and there, whatever the worker searched before.
    let mut searcher = Searcher::new(REVIEW_HASH_MB);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let label = format!("depth {depth}");
    let mut on_step = |step: Step<'_>| {
        let mut state = lock(&entry.state);
        state
            .evals
            .push(eval_json(step.position, step.eval, chess960));
        if step.ply > 0 {
            let verdict = step
                .judged
                .map_or(Value::Null, |j| verdict_json(step.ply, j));
            state.verdicts.push(verdict);
        }
        entry.push(&state);
    };
    let result = review_game(
        &mut searcher,
        &limits,
        control,
        &mut game,
        &label,
        &mut on_step,
    );
    let mut state = lock(&entry.state);
    match result {
        Ok(summary) => {
            state.status = "done";
            state.summary = Some(json!({
                "white": player_json(&summary[Color::White.index()]),
                "black": player_json(&summary[Color::Black.index()]),
                "comment": game.mainline.comments.first(),
            }));
            state.pgn = Some(write_game(&game));
        }
        Err(ReviewStop::Stopped) => state.status = "stopped",
        Err(ReviewStop::IllegalMove(i)) => {
            // The reader checks every move, so this is our own fault.
            log::error!("review {}: mainline move {} is not legal", entry.id, i + 1);
            state.status = "failed";
        }
    }
    entry.push(&state);
}

fn eval_json(pos: &Position, eval: &PositionEval, chess960: bool) -> Value {
    let side = pos.side_to_move();
    // White's expected score, 0 to 1: what the graph draws.
    let (white, text) = match eval.score {
        Score::Mate(0) if pos.in_check() => {
            let white_won = side == Color::Black;
            (
                if white_won { 1.0 } else { 0.0 },
                if white_won { "1-0" } else { "0-1" }.to_string(),
            )
        }
        score => {
            let w = white_view(score, side);
            (
                expected_score(w, wdl_material(pos)),
                search::review::eval_text(w),
            )
        }
    };
    let best = eval.best.as_ref().map(|(mv, _)| {
        json!({ "uci": mv.to_uci(CastlingMode::from_chess960(chess960)).to_string(), "san": pos.san(*mv).map(|s| s.to_string()).unwrap_or_default() })
    });
    json!({ "white": white, "eval": text, "best": best })
}

fn verdict_json(ply: usize, j: &Judgement) -> Value {
    let glyph = match j.verdict {
        ReviewVerdict::OnlyMove => Some("!"),
        ReviewVerdict::Good => None,
        ReviewVerdict::Inaccuracy => Some("?!"),
        ReviewVerdict::Mistake => Some("?"),
        ReviewVerdict::Blunder => Some("??"),
    };
    json!({
        "ply": ply,
        "verdict": j.verdict.name(),
        "glyph": glyph,
        "drop": j.drop,
        "better": j.better.is_some(),
    })
}

fn player_json(s: &search::review::PlayerSummary) -> Value {
    json!({
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
        "accuracy": s.accuracy(),
        "average_loss": s.average_loss(),
    })
}

/// The query that names a review.
#[derive(Deserialize)]
struct IdQuery {
    id: String,
}

/// The review the query's `id` names: 400 without one, 404 for one not
/// kept.
struct Named(Arc<Entry>);

impl FromRequestParts<Arc<Reviews>> for Named {
    type Rejection = Reply;

    async fn from_request_parts(parts: &mut Parts, reviews: &Arc<Reviews>) -> Result<Named, Reply> {
        let Query(query) = Query::<IdQuery>::from_request_parts(parts, reviews).await?;
        reviews.find(&query.id).map(Named).ok_or_else(|| {
            Reply::error(
                404,
                "no such review (reviews are kept in memory: start it again)",
            )
        })
    }
}

/// Registers Review mode's table.
pub fn register(router: &mut Router, reviews: Arc<Reviews>, streams: events::Streams) {
    router.table(
        reviews,
        [
            script("/review.js", include_str!("page/review.js")),
            route(Method::POST, "/api/review", Reviews::start),
            route(Method::GET, "/api/review/state", review_state),
            route(Method::GET, "/api/review/pgn", review_pgn),
            route(Method::POST, "/api/review/stop", review_stop),
            events::route(
                "/api/review/events",
                streams,
                |_: &Arc<Reviews>, Named(entry): Named| entry.pushed.subscribe(),
            ),
        ],
    );
}

/// `GET /api/review/state?id=`: the review so far.
fn review_state(_: &Arc<Reviews>, Named(entry): Named) -> Reply {
    let state = lock(&entry.state);
    Reply::json(state.json(&entry.id))
}

/// `GET /api/review/pgn?id=`: the annotated PGN, once the review is done.
fn review_pgn(_: &Arc<Reviews>, Named(entry): Named) -> Result<Reply, Reply> {
    let state = lock(&entry.state);
    match &state.pgn {
        Some(pgn) => Ok(Reply {
            content_type: "application/x-chess-pgn; charset=utf-8",
            ..Reply::text(pgn.clone())
        }
        .with_header(
            "Content-Disposition",
            "attachment; filename=\"pinmask-review.pgn\"".to_string(),
        )),
        None => Err(Reply::error(
            409,
            format!(
                "the review is {}: the PGN comes when it is done",
                state.status
            ),
        )),
    }
}

/// `POST /api/review/stop {"id"}`: stops a review queued or running.
fn review_stop(reviews: &Arc<Reviews>, Json(body): Json<StopBody>) -> Result<Reply, Reply> {
    let entry = reviews
        .find(&body.id)
        .ok_or_else(|| Reply::error(404, "no such review"))?;
    stop(&entry);
    let state = lock(&entry.state);
    Ok(Reply::json(state.json(&entry.id)))
}
