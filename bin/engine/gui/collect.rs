//! The collect mode: one expert's list compared with the generator, and
//! cases appended to the `--cases` file.

use super::api;
use super::extract::{Json, Query};
use super::http::Reply;
use super::lock::lock;
use super::page::At;
use super::router::{route, Route};
use axum::http::Method;
use movegen::CastlingMode;
use serde::Deserialize;
use serde_json::json;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Most claims a case may hold (a position has at most 218 legal moves).
pub const MAX_CLAIMS: usize = 1000;

/// The `--cases` file, if any. Appends from two threads must not
/// interleave within a line, so each holds the lock.
pub struct Cases(Mutex<Option<PathBuf>>);

impl Cases {
    /// Cases appended to `path`, or refused without one.
    pub fn new(path: Option<PathBuf>) -> Arc<Cases> {
        Arc::new(Cases(Mutex::new(path)))
    }
}

/// Collect's table: `GET /api/compare` and `POST /api/cases`.
pub fn routes() -> Vec<Route<Arc<Cases>>> {
    vec![
        route(Method::GET, "/api/compare", compare),
        route(Method::POST, "/api/cases", save_case),
    ]
}

/// The query of `GET /api/compare` beside the position's.
#[derive(Deserialize)]
struct CompareQuery {
    /// The claimed moves, separated by commas or spaces.
    moves: Option<String>,
}

/// `GET /api/compare?fen=&chess960=&moves=`: the claims judged.
fn compare(_: &Arc<Cases>, (at, Query(query)): (At, Query<CompareQuery>)) -> Result<Reply, Reply> {
    let claims: Vec<String> = query
        .moves
        .unwrap_or_default()
        .split([',', ' '])
        .filter(|m| !m.is_empty())
        .map(String::from)
        .collect();
    if claims.len() > MAX_CLAIMS {
        return Err(Reply::error(400, format!("at most {MAX_CLAIMS} moves")));
    }
    Ok(Reply::json(
        api::judge(&at.pos, &claims, at.chess960).to_json(),
    ))
}

/// The body of `POST /api/cases`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseBody {
    fen: String,
    moves: Vec<String>,
    chess960: Option<bool>,
}

/// `POST /api/cases` with `{"fen": ..., "moves": [...]}`: judges the claims
/// and appends the case as one line to the `--cases` file.
fn save_case(cases: &Arc<Cases>, Json(body): Json<CaseBody>) -> Result<Reply, Reply> {
    let path = lock(&cases.0);
    let Some(path) = path.as_ref() else {
        return Err(Reply::error(
            409,
            "no cases file: start the page with `engine gui --cases FILE`",
        ));
    };
    let moves = claims(&body.moves)?;
    let at = At::new(Some(&body.fen), body.chess960 == Some(true))?;
    let verdict = api::judge(&at.pos, &moves, at.chess960);
    let fen = at.pos.fen_with(CastlingMode::from_chess960(at.chess960));
    let line = verdict.case_line(&fen, &moves);
    let written = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
    if let Err(e) = written {
        log::warn!("cannot save a case to {}: {e}", path.display());
        return Err(Reply::json_status(
            500,
            json!({"error": format!("cannot write {}: {e}", path.display())}),
        ));
    }
    let mut reply = verdict.to_json();
    reply["line"] = json!(line);
    reply["file"] = json!(path.display().to_string());
    Ok(Reply::json(reply))
}

/// Claimed moves as a body gives them: at most [`MAX_CLAIMS`] strings
/// shaped like UCI moves (legal or not).
pub fn claims(given: &[String]) -> Result<Vec<String>, Reply> {
    if given.len() > MAX_CLAIMS {
        return Err(Reply::error(
            400,
            format!("field \"moves\": at most {MAX_CLAIMS} moves"),
        ));
    }
    match given.iter().find(|m| !api::looks_like_uci(m)) {
        Some(bad) => Err(Reply::error(
            400,
            format!("field \"moves\": not a UCI move: {bad:?}"),
        )),
        None => Ok(given.to_vec()),
    }
}
