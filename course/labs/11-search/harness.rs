//! Lab 11's queries: evaluation, ordering, quiescence, search.
//! Provided by the course (rewritten by `course init`).

use super::{arg, fen, int};
use crate::lab08_special::legal_moves;
use crate::lab11_search::{evaluate, order_moves, quiesce, search, INFINITY};

/// Answers one query.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let board = fen(arg(args, 0)?)?;
    match function {
        "evaluate" => Ok(evaluate(&board).to_string()),
        // Your order of the legal moves (not sorted by name).
        "order" => {
            let mut moves = legal_moves(&board);
            moves.sort_by_key(|m| m.to_string());
            order_moves(&board, &mut moves);
            Ok(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "))
        }
        // The order your search tries the moves in: legal_moves, then order_moves.
        "search_order" => {
            let mut moves = legal_moves(&board);
            order_moves(&board, &mut moves);
            Ok(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "))
        }
        "quiesce" => {
            let mut nodes = 0;
            let score = quiesce(&board, -INFINITY, INFINITY, 0, &mut nodes);
            Ok(format!("{score} {nodes}"))
        }
        // `best score nodes`; best is `none` without a legal move.
        "search" => {
            let result = search(&board, int(arg(args, 1)?)?);
            let best = result.best.map_or("none".to_string(), |m| m.to_string());
            Ok(format!("{best} {} {}", result.score, result.nodes))
        }
        _ => Err(format!("lab 11 has no function {function}")),
    }
}
