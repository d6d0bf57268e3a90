//! The crowd mode's routes (`/api/crowd/...`): joining, the next task,
//! submissions, the leaderboard, and the organiser's loading, closing and
//! export.

use super::agree::{self, Difference, Status};
use super::store::Task;
use super::{legal, normalise, store_error, token, Crowd, Expert, Organiser, Token, Who, COOKIE};
use crate::gui::api;
use crate::gui::collect::claims;
use crate::gui::events::{self, Pushed};
use crate::gui::extract::Json;
use crate::gui::http::Reply;
use crate::gui::router::{file, route, script, Router};
use axum::http::Method;
use movegen::{CastlingMode, Position};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Longest display name, in characters.
const MAX_NAME: usize = 40;
/// Most positions one load request may add.
const MAX_LOAD: usize = 2000;
/// Longest FEN accepted.
const MAX_FEN: usize = 120;
/// Shortest time between two pushed leaderboards (a burst of submissions
/// is one push).
const PUSH_EVERY: Duration = Duration::from_millis(250);

/// The body of `POST /api/crowd/join`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    name: String,
}

/// The body of `POST /api/crowd/submit`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SubmitBody {
    task: i64,
    moves: Vec<String>,
}

/// The body of `POST /api/crowd/close`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CloseBody {
    task: i64,
}

/// The body of `POST /api/crowd/tasks`: one of `suite`, `fens`, `epd`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadBody {
    suite: Option<String>,
    fens: Option<Vec<String>>,
    epd: Option<String>,
    chess960: Option<bool>,
}

/// Registers the crowd's table, and starts pushing its leaderboard.
pub fn register(router: &mut Router, crowd: Arc<Crowd>, streams: events::Streams) {
    tokio::spawn(push_leaderboard(Arc::clone(&crowd)));
    router.table(
        crowd,
        [
            script("/crowd.js", include_str!("../page/crowd.js")),
            file(
                "/crowd.css",
                "text/css; charset=utf-8",
                include_str!("../page/crowd.css"),
            ),
            route(Method::POST, "/api/crowd/join", join),
            route(Method::GET, "/api/crowd/me", me),
            route(Method::POST, "/api/crowd/next", next),
            route(Method::POST, "/api/crowd/submit", submit),
            route(Method::GET, "/api/crowd/leaderboard", leaderboard),
            route(Method::POST, "/api/crowd/tasks", load),
            route(Method::GET, "/api/crowd/tasks", tasks),
            route(Method::POST, "/api/crowd/close", close),
            route(Method::GET, "/api/crowd/export", export),
            events::route("/api/crowd/events", streams, |crowd: &Arc<Crowd>, ()| {
                crowd.board.subscribe()
            }),
        ],
    );
}

/// Pushes the leaderboard to the pages' event streams after each change,
/// at most once every [`PUSH_EVERY`]; ends when the crowd is dropped.
async fn push_leaderboard(crowd: Arc<Crowd>) {
    let mut changed = crowd.changed.subscribe();
    changed.mark_changed();
    while changed.changed().await.is_ok() {
        let board = Arc::clone(&crowd);
        match tokio::task::spawn_blocking(move || leaderboard_json(&board)).await {
            Ok(Ok(value)) => {
                crowd.board.send_replace(Pushed::new("leaderboard", &value));
            }
            Ok(Err(reply)) => log::warn!("leaderboard not pushed: {}", reply.body),
            Err(e) => log::error!("leaderboard not pushed: {e}"),
        }
        tokio::time::sleep(PUSH_EVERY).await;
    }
}

/// `POST /api/crowd/join {"name"}`: a new expert, its token in the reply and
/// in an HttpOnly cookie.
fn join(crowd: &Arc<Crowd>, Json(body): Json<JoinBody>) -> Result<Reply, Reply> {
    let name = body.name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME {
        return Err(Reply::error(
            400,
            format!("a name has 1 to {MAX_NAME} characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(Reply::error(400, "a name may not hold control characters"));
    }
    let secret = token::secret().map_err(|e| {
        log::error!("{e}");
        Reply::error(500, "no random bytes for a token (logged)")
    })?;
    let id = crowd
        .store
        .join(name, &token::hash(&secret))
        .map_err(store_error)?;
    let token = format!("{id}.{secret}");
    crowd.touch();
    Ok(
        Reply::json(json!({ "id": id, "name": name, "token": token })).with_header(
            "Set-Cookie",
            format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=31536000"),
        ),
    )
}

/// `GET /api/crowd/me`: who the token belongs to (`expert` is `null`
/// without a token, as the page asks before joining, and for the
/// organiser), and the rules in force.
fn me(crowd: &Arc<Crowd>, Token(who): Token<Option<Who>>) -> Result<Reply, Reply> {
    let expert = match &who {
        Some(Who::Expert(id, name)) => json!({ "id": id, "name": name }),
        _ => Value::Null,
    };
    let organiser = who == Some(Who::Organiser);
    Ok(Reply::json(
        json!({ "expert": expert, "organiser": organiser, "agree": crowd.k }),
    ))
}

/// `POST /api/crowd/next`: the task to do next, or `null` when none is left
/// with `why`: `"empty"` (no task loaded yet), `"done"` (this expert has
/// submitted every open task; others are still at work) or `"settled"`
/// (no task is open: each is confirmed, flagged or closed).
fn next(crowd: &Arc<Crowd>, Token(Expert(id)): Token<Expert>) -> Result<Reply, Reply> {
    let task = crowd.store.next_task(id).map_err(store_error)?;
    let task = match task {
        None => {
            let counts = crowd.store.task_counts().map_err(store_error)?;
            let why = if counts.iter().all(|c| c.1 == 0) {
                "empty"
            } else if counts.iter().any(|c| c.0 == Status::Open && c.1 > 0) {
                "done"
            } else {
                "settled"
            };
            return Ok(Reply::json(json!({ "task": null, "why": why })));
        }
        Some(t) => {
            let pos = Position::from_fen(&t.fen).map_err(|e| {
                log::error!("task {} holds a bad FEN: {e}", t.id);
                Reply::error(500, "a stored task is not a position (logged)")
            })?;
            json!({ "id": t.id, "position": api::position(&pos, t.chess960) })
        }
    };
    Ok(Reply::json(json!({ "task": task })))
}

/// `POST /api/crowd/submit {"task", "moves"}`: an expert's final set.
fn submit(
    crowd: &Arc<Crowd>,
    (Token(Expert(expert)), Json(body)): (Token<Expert>, Json<SubmitBody>),
) -> Result<Reply, Reply> {
    let id = body.task;
    let moves = claims(&body.moves)?;
    let task = crowd.store.task(id).map_err(store_error)?;
    let task = task.ok_or_else(|| Reply::error(404, "no such task"))?;
    let pos = Position::from_fen(&task.fen)
        .map_err(|_| Reply::error(500, "a stored task is not a position"))?;
    let set = normalise(&pos, &moves, task.chess960);
    let legal = legal(&pos, task.chess960);
    let after = crowd
        .store
        .submit(expert, id, &set, &legal, crowd.k)
        .map_err(store_error)?;
    crowd.touch();
    let score = agree::Score::of(&set, &legal);
    Ok(Reply::json(json!({
        "task": id,
        "status": after.status.name(),
        "score": {
            "found": score.found, "missed": score.missed, "wrong": score.wrong,
            "points": score.points(),
        },
    })))
}

/// `GET /api/crowd/leaderboard`: every expert's totals, ranked, and how
/// many tasks stand where.
fn leaderboard(crowd: &Arc<Crowd>, (): ()) -> Result<Reply, Reply> {
    leaderboard_json(crowd).map(Reply::json)
}

/// The leaderboard's JSON (also pushed as the `leaderboard` event).
fn leaderboard_json(crowd: &Crowd) -> Result<Value, Reply> {
    let rows = crowd.store.standings().map_err(store_error)?;
    let rows: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(k, s)| {
            json!({
                "rank": k + 1, "name": s.name, "tasks": s.tasks,
                "found": s.score.found, "missed": s.score.missed, "wrong": s.score.wrong,
                "points": s.score.points(), "seconds": s.millis as f64 / 1000.0,
            })
        })
        .collect();
    let counts = crowd.store.task_counts().map_err(store_error)?;
    let count = |status| counts.iter().find(|c| c.0 == status).map_or(0, |c| c.1);
    Ok(json!({
        "agree": crowd.k,
        "experts": rows,
        "tasks": {
            "open": count(Status::Open), "confirmed": count(Status::Confirmed),
            "flagged": count(Status::Flagged), "closed": count(Status::Closed),
        },
    }))
}

/// `POST /api/crowd/tasks` (organiser): `{"suite": name}`, `{"fens": [...]}`
/// or `{"epd": text}` (one position per line, the FEN before the first `;`).
/// All or nothing: one bad FEN refuses the lot.
fn load(
    crowd: &Arc<Crowd>,
    (Token(Organiser), Json(body)): (Token<Organiser>, Json<LoadBody>),
) -> Result<Reply, Reply> {
    let (fens, suite960): (Vec<String>, bool) = match (body.suite, body.fens, body.epd) {
        (Some(name), None, None) => {
            let (text, chess960) = api::suite(&name).ok_or_else(|| {
                Reply::error(
                    400,
                    format!("field \"suite\": no suite {name:?}: thesis, standard or chess960"),
                )
            })?;
            (epd_fens(text), chess960)
        }
        (None, Some(fens), None) => (fens, false),
        (None, None, Some(text)) => (epd_fens(&text), false),
        _ => {
            return Err(Reply::error(
                400,
                "the body needs one of \"suite\", \"fens\" or \"epd\"",
            ))
        }
    };
    let force960 = body.chess960 == Some(true);
    if fens.is_empty() || fens.len() > MAX_LOAD {
        return Err(Reply::error(
            400,
            format!("load 1 to {MAX_LOAD} positions at a time"),
        ));
    }
    let mut tasks = Vec::with_capacity(fens.len());
    for (k, fen) in fens.iter().enumerate() {
        let at = || format!("position {}", k + 1);
        if fen.len() > MAX_FEN {
            return Err(Reply::error(
                400,
                format!("{}: a FEN has at most {MAX_FEN} bytes", at()),
            ));
        }
        let pos =
            Position::from_fen(fen).map_err(|e| Reply::error(400, format!("{}: {e}", at())))?;
        let chess960 = force960 || suite960 || api::is_chess960(&pos);
        tasks.push((
            pos.fen_with(CastlingMode::from_chess960(chess960)),
            chess960,
        ));
    }
    let added = crowd.store.add_tasks(&tasks).map_err(store_error)?;
    crowd.touch();
    Ok(Reply::json(json!({ "added": added, "given": tasks.len() })))
}

/// The FEN of each non-blank line of an EPD text.
fn epd_fens(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split(';').next())
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(String::from)
        .collect()
}

/// A task for the organiser, with a flagged task's differing moves and why.
fn task_json(task: &Task) -> Value {
    let mut out = json!({
        "id": task.id, "fen": task.fen, "chess960": task.chess960,
        "status": task.status.name(), "submissions": task.submissions,
        "agreeing": task.agreeing,
        "agreed": task.agreed.as_ref().map(agree::join),
    });
    if let (Some(agreed), Ok(pos)) = (&task.agreed, Position::from_fen(&task.fen)) {
        let diff = Difference::of(agreed, &legal(&pos, task.chess960));
        let mut moves: Vec<Value> = diff
            .extra
            .iter()
            .map(|m| {
                let reason = match movegen::explain_move(
                    &crate::gui::api::with_mode(&pos, task.chess960),
                    m,
                ) {
                    Err(why) => why.reason(&pos).to_string(),
                    Ok(_) => "the generator lists it under another name".to_string(),
                };
                json!({ "move": m, "crowd": true, "generator": false, "reason": reason })
            })
            .collect();
        moves.extend(diff.missing.iter().map(|m| {
            json!({ "move": m, "crowd": false, "generator": true,
                    "reason": "legal by the generator; the crowd left it out" })
        }));
        out["differences"] = json!(moves);
    }
    out
}

/// `GET /api/crowd/tasks` (organiser): every task and where it stands.
fn tasks(crowd: &Arc<Crowd>, Token(Organiser): Token<Organiser>) -> Result<Reply, Reply> {
    let tasks = crowd.store.tasks().map_err(store_error)?;
    let list: Vec<Value> = tasks.iter().map(task_json).collect();
    Ok(Reply::json(json!({ "agree": crowd.k, "tasks": list })))
}

/// `POST /api/crowd/close {"task"}` (organiser): stop serving an open task.
fn close(
    crowd: &Arc<Crowd>,
    (Token(Organiser), Json(body)): (Token<Organiser>, Json<CloseBody>),
) -> Result<Reply, Reply> {
    let task = crowd.store.close(body.task).map_err(store_error)?;
    crowd.touch();
    Ok(Reply::json(task_json(&task)))
}

/// `GET /api/crowd/export` (organiser): the confirmed and flagged tasks as
/// EPD lines (see [`agree::export_line`]).
fn export(crowd: &Arc<Crowd>, Token(Organiser): Token<Organiser>) -> Result<Reply, Reply> {
    let tasks = crowd.store.tasks().map_err(store_error)?;
    let mut text = String::new();
    for task in &tasks {
        let (Some(agreed), Ok(pos)) = (&task.agreed, Position::from_fen(&task.fen)) else {
            continue;
        };
        let legal = legal(&pos, task.chess960);
        text += &agree::export_line(&task.fen, &legal, agreed, task.agreeing);
        text.push('\n');
    }
    Ok(Reply::text(text))
}
