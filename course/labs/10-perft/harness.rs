//! Lab 10's queries: perft, divide, and the move list your generator gives.
//! Provided by the course (rewritten by `course init`).

use super::{arg, fen, int};
use crate::lab08_special::legal_moves;
use crate::lab10_perft::{divide, perft};

/// Answers one query.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let board = fen(arg(args, 0)?)?;
    match function {
        "perft" => Ok(perft(&board, int(arg(args, 1)?)?).to_string()),
        // `e2e4:20 g1f3:20 ...`, sorted by move.
        "divide" => {
            let mut lines: Vec<String> = divide(&board, int(arg(args, 1)?)?)
                .iter()
                .map(|(mv, n)| format!("{mv}:{n}"))
                .collect();
            lines.sort();
            Ok(lines.join(" "))
        }
        "moves" => Ok(super::moves(&legal_moves(&board))),
        _ => Err(format!("lab 10 has no function {function}")),
    }
}
