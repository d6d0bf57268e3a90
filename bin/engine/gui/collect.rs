//! The collect mode: one expert's list compared with the generator, and
//! cases appended to the `--cases` file.

use super::http::{param, Call, Reply, Router};
use super::lock::lock;
use super::{api, position_param};
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

/// Registers `GET /api/compare` and `POST /api/cases`.
pub fn register(router: &mut Router, cases: Option<PathBuf>) {
    router.add(Method::GET, "/api/compare", |call| {
        let (pos, chess960) = position_param(&call.params)?;
        let claims: Vec<String> = param(&call.params, "moves")
            .unwrap_or("")
            .split([',', ' '])
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect();
        if claims.len() > MAX_CLAIMS {
            return Err(Reply::error(400, format!("at most {MAX_CLAIMS} moves")));
        }
        Ok(Reply::json(api::judge(&pos, &claims, chess960).to_json()))
    });
    // Appends from two threads must not interleave within a line.
    let file = Arc::new(Mutex::new(cases));
    router.add(Method::POST, "/api/cases", move |call| {
        let path = lock(&file);
        save_case(path.as_ref(), call)
    });
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
fn save_case(path: Option<&PathBuf>, call: &mut Call) -> Result<Reply, Reply> {
    let Some(path) = path else {
        return Err(Reply::error(
            409,
            "no cases file: start the page with `engine gui --cases FILE`",
        ));
    };
    let body: CaseBody = call.json()?;
    let moves = claims(&body.moves)?;
    let mut params = vec![("fen".to_string(), body.fen)];
    if body.chess960 == Some(true) {
        params.push(("chess960".to_string(), "1".to_string()));
    }
    let (pos, chess960) = position_param(&params)?;
    let verdict = api::judge(&pos, &moves, chess960);
    let line = verdict.case_line(&pos.fen_with(CastlingMode::from_chess960(chess960)), &moves);
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
