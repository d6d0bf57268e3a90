//! The page's own files and the routes every mode reads: the start-up
//! settings, a position, random positions, the bundled suites; and [`At`],
//! the position a request names.

use super::api;
use super::extract::Query;
use super::http::Reply;
use super::router::{file, route, script, Route};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::Method;
use movegen::Position;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// What `GET /api/config` tells the page.
pub struct Config {
    /// The start position's FEN (`--fen`).
    pub start_fen: String,
    /// The `--cases` file, as shown.
    pub cases_file: Option<String>,
}

/// The page's files and shared routes, for [`super::router::Router::table`].
pub fn routes() -> Vec<Route<Arc<Config>>> {
    vec![
        file("/", "text/html; charset=utf-8", INDEX_HTML),
        file("/index.html", "text/html; charset=utf-8", INDEX_HTML),
        script("/app.js", APP_JS),
        file("/style.css", "text/css; charset=utf-8", STYLE_CSS),
        route(Method::GET, "/api/config", config),
        route(Method::GET, "/api/position", position),
        route(Method::GET, "/api/random", random),
        route(Method::GET, "/api/suites", |_: &Arc<Config>, ()| {
            Reply::json(api::suites())
        }),
    ]
}

/// `GET /api/config`: the start position and the cases file.
fn config(config: &Arc<Config>, (): ()) -> Reply {
    Reply::json(json!({ "start_fen": config.start_fen, "cases_file": config.cases_file }))
}

/// `GET /api/position?fen=&chess960=`: everything the page draws.
fn position(_: &Arc<Config>, at: At) -> Reply {
    Reply::json(api::position(&at.pos, at.chess960))
}

/// The query of `GET /api/random`.
#[derive(Deserialize)]
struct RandomQuery {
    /// Random plies from the start (0 to 400, default 16).
    plies: Option<u32>,
    /// The generator's seed (default: from the clock).
    seed: Option<u64>,
}

/// `GET /api/random?plies=&seed=`: a position a few random moves in.
fn random(_: &Arc<Config>, Query(query): Query<RandomQuery>) -> Result<Reply, Reply> {
    let plies = query.plies.unwrap_or(16);
    if plies > 400 {
        return Err(Reply::error(400, "plies must be 0 to 400"));
    }
    let seed = query.seed.unwrap_or_else(super::clock_seed);
    Ok(Reply::json(api::position(
        &api::random_position(plies, seed),
        false,
    )))
}

/// The position a request names and its castling notation.
pub struct At {
    pub pos: Position,
    /// Castling written king-takes-rook.
    pub chess960: bool,
}

/// The query that names a position.
#[derive(Deserialize)]
struct AtQuery {
    fen: Option<String>,
    chess960: Option<String>,
}

impl At {
    /// `fen` (default: the start position), in Chess960 notation if
    /// `forced` or if its castling rights need it; a bad FEN is a 400
    /// naming the FEN error.
    pub fn new(fen: Option<&str>, forced: bool) -> Result<At, Reply> {
        let fen = fen.unwrap_or(movegen::STARTPOS_FEN);
        let pos = Position::from_fen(fen).map_err(|e| Reply::error(400, e.to_string()))?;
        Ok(At {
            pos,
            chess960: forced || api::is_chess960(&pos),
        })
    }
}

/// From the query's `fen` and `chess960` (`1` or `true` asks for
/// king-takes-rook).
impl<S: Send + Sync> FromRequestParts<S> for At {
    type Rejection = Reply;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<At, Reply> {
        let Query(query) = Query::<AtQuery>::from_request_parts(parts, state).await?;
        let forced = matches!(query.chess960.as_deref(), Some("1" | "true"));
        At::new(query.fen.as_deref(), forced)
    }
}
