//! The crowd mode's routes (`/api/crowd/...`): joining, the next task,
//! submissions, the leaderboard, and the organiser's loading, closing and
//! export.

use super::agree::{self, Difference, Status};
use super::store::Task;
use super::{legal, normalise, store_error, token, Crowd, COOKIE};
use crate::gui::api;
use crate::gui::collect::claims;
use crate::gui::http::{json_body, Call, Reply, Router};
use movegen::Position;
use serde_json::{json, Value};
use std::sync::Arc;
use tiny_http::Method;

/// Longest display name, in characters.
const MAX_NAME: usize = 40;
/// Most positions one load request may add.
const MAX_LOAD: usize = 2000;
/// Longest FEN accepted.
const MAX_FEN: usize = 120;

/// Registers the crowd's page files and routes, each route with its own
/// handle on `crowd`.
pub fn register(router: &mut Router, crowd: Arc<Crowd>) {
    router.add(Method::Get, "/crowd.js", |_| {
        Ok(Reply::file(
            "text/javascript; charset=utf-8",
            include_str!("../page/crowd.js"),
        ))
    });
    router.add(Method::Get, "/crowd.css", |_| {
        Ok(Reply::file(
            "text/css; charset=utf-8",
            include_str!("../page/crowd.css"),
        ))
    });
    type Route = fn(&Crowd, &mut Call) -> Result<Reply, Reply>;
    let routes: [(Method, &'static str, Route); 9] = [
        (Method::Post, "/api/crowd/join", join),
        (Method::Get, "/api/crowd/me", me),
        (Method::Post, "/api/crowd/next", next),
        (Method::Post, "/api/crowd/submit", submit),
        (Method::Get, "/api/crowd/leaderboard", leaderboard),
        (Method::Post, "/api/crowd/tasks", load),
        (Method::Get, "/api/crowd/tasks", tasks),
        (Method::Post, "/api/crowd/close", close),
        (Method::Get, "/api/crowd/export", export),
    ];
    for (method, path, route) in routes {
        let crowd = Arc::clone(&crowd);
        router.add(method, path, move |call| route(&crowd, call));
    }
}

/// `POST /api/crowd/join {"name"}`: a new expert, its token in the reply and
/// in an HttpOnly cookie.
fn join(crowd: &Crowd, call: &mut Call) -> Result<Reply, Reply> {
    let body = json_body(call.request)?;
    let name = body
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .ok_or_else(|| Reply::error(400, "body needs \"name\": a string"))?;
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
    Ok(
        Reply::json(json!({ "id": id, "name": name, "token": token })).with_header(
            "Set-Cookie",
            format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=31536000"),
        ),
    )
}

/// `GET /api/crowd/me`: who the token belongs to (`null` without a token:
/// the page asks before joining), and the rules in force.
fn me(crowd: &Crowd, call: &mut Call) -> Result<Reply, Reply> {
    let expert = if crowd.has_token(call.request) {
        let (id, name) = crowd.expert(call.request)?;
        json!({ "id": id, "name": name })
    } else {
        Value::Null
    };
    Ok(Reply::json(json!({ "expert": expert, "agree": crowd.k })))
}

/// `POST /api/crowd/next`: the task to do next, or `null` when none is left.
fn next(crowd: &Crowd, call: &mut Call) -> Result<Reply, Reply> {
    let (id, _) = crowd.expert(call.request)?;
    let task = crowd.store.next_task(id).map_err(store_error)?;
    let task = match task {
        None => Value::Null,
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
fn submit(crowd: &Crowd, call: &mut Call) -> Result<Reply, Reply> {
    let (expert, _) = crowd.expert(call.request)?;
    let body = json_body(call.request)?;
    let id = body
        .get("task")
        .and_then(Value::as_i64)
        .ok_or_else(|| Reply::error(400, "body needs \"task\": a task id"))?;
    let moves = claims(&body)?;
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
fn leaderboard(crowd: &Crowd, _: &mut Call) -> Result<Reply, Reply> {
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
    Ok(Reply::json(json!({
        "agree": crowd.k,
        "experts": rows,
        "tasks": {
            "open": count(Status::Open), "confirmed": count(Status::Confirmed),
            "flagged": count(Status::Flagged), "closed": count(Status::Closed),
        },
    })))
}

/// `POST /api/crowd/tasks` (organiser): `{"suite": name}`, `{"fens": [...]}`
/// or `{"epd": text}` (one position per line, the FEN before the first `;`).
/// All or nothing: one bad FEN refuses the lot.
fn load(crowd: &Crowd, call: &mut Call) -> Result<Reply, Reply> {
    crowd.organiser(call.request)?;
    let body = json_body(call.request)?;
    let force960 = body.get("chess960").and_then(Value::as_bool) == Some(true);
    let (fens, suite960): (Vec<String>, bool) = if let Some(name) = body.get("suite") {
        let name = name.as_str().unwrap_or("");
        let (text, chess960) = api::suite(name).ok_or_else(|| {
            Reply::error(
                400,
                format!("no suite {name:?}: thesis, standard or chess960"),
            )
        })?;
        (epd_fens(text), chess960)
    } else if let Some(list) = body.get("fens").and_then(Value::as_array) {
        let fens = list.iter().map(|f| f.as_str().map(String::from));
        let fens: Option<Vec<String>> = fens.collect();
        (
            fens.ok_or_else(|| Reply::error(400, "\"fens\" must be strings"))?,
            false,
        )
    } else if let Some(text) = body.get("epd").and_then(Value::as_str) {
        (epd_fens(text), false)
    } else {
        return Err(Reply::error(
            400,
            "body needs \"suite\", \"fens\" or \"epd\"",
        ));
    };
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
        tasks.push((pos.fen(chess960), chess960));
    }
    let added = crowd.store.add_tasks(&tasks).map_err(store_error)?;
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
                let reason = match movegen::explain_move(&pos, m, task.chess960) {
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
fn tasks(crowd: &Crowd, call: &mut Call) -> Result<Reply, Reply> {
    crowd.organiser(call.request)?;
    let tasks = crowd.store.tasks().map_err(store_error)?;
    let list: Vec<Value> = tasks.iter().map(task_json).collect();
    Ok(Reply::json(json!({ "agree": crowd.k, "tasks": list })))
}

/// `POST /api/crowd/close {"task"}` (organiser): stop serving an open task.
fn close(crowd: &Crowd, call: &mut Call) -> Result<Reply, Reply> {
    crowd.organiser(call.request)?;
    let body = json_body(call.request)?;
    let id = body
        .get("task")
        .and_then(Value::as_i64)
        .ok_or_else(|| Reply::error(400, "body needs \"task\": a task id"))?;
    let task = crowd.store.close(id).map_err(store_error)?;
    Ok(Reply::json(task_json(&task)))
}

/// `GET /api/crowd/export` (organiser): the confirmed and flagged tasks as
/// EPD lines (see [`agree::export_line`]).
fn export(crowd: &Crowd, call: &mut Call) -> Result<Reply, Reply> {
    crowd.organiser(call.request)?;
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
