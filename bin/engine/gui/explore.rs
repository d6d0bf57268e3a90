//! The explore mode's own route: divide counts. (Its bitboards come with
//! every `/api/position` reply.)

use super::http::{param, Reply, Router};
use super::{api, position_param};
use axum::http::Method;

/// Registers `GET /api/divide`.
pub fn register(router: &mut Router) {
    router.add(Method::GET, "/api/divide", |call| {
        let (pos, chess960) = position_param(&call.params)?;
        let depth = match param(&call.params, "depth").unwrap_or("1").parse::<u32>() {
            Ok(d @ 1..=3) => d,
            _ => return Err(Reply::error(400, "depth must be 1, 2 or 3")),
        };
        Ok(Reply::json(api::divide(&pos, depth, chess960)))
    });
}
