//! The explore mode's own route: divide counts. (Its bitboards come with
//! every `/api/position` reply.)

use super::api;
use super::extract::Query;
use super::http::Reply;
use super::page::At;
use super::router::{route, Route};
use axum::http::Method;
use serde::Deserialize;

/// The query of `GET /api/divide` beside the position's.
#[derive(Deserialize)]
struct DivideQuery {
    /// 1 to 3 (default 1).
    depth: Option<u32>,
}

/// Explore's table: `GET /api/divide`.
pub fn routes() -> Vec<Route<()>> {
    vec![route(Method::GET, "/api/divide", divide)]
}

/// `GET /api/divide?fen=&chess960=&depth=`: `go perft`-style counts.
fn divide(_: &(), (at, Query(query)): (At, Query<DivideQuery>)) -> Result<Reply, Reply> {
    let depth = query.depth.unwrap_or(1);
    if !(1..=3).contains(&depth) {
        return Err(Reply::error(400, "depth must be 1, 2 or 3"));
    }
    Ok(Reply::json(api::divide(&at.pos, depth, at.chess960)))
}
