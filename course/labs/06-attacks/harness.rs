//! Lab 6's queries: maps the checker's query names to your functions. Provided by the course.

use super::{arg, bb, bitboard, color, fen, square};
use crate::lab06_attacks as lab;

/// Answers one query of lab 6.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let board = fen(arg(args, 0)?)?;
    Ok(match function {
        "attackers_to" => bb(lab::attackers_to(&board, square(arg(args, 1)?)?, color(arg(args, 2)?)?)),
        "attackers_to_with" => bb(lab::attackers_to_with(
            &board,
            square(arg(args, 1)?)?,
            color(arg(args, 2)?)?,
            bitboard(arg(args, 3)?)?,
        )),
        "checkers" => bb(lab::checkers(&board)),
        "in_check" => lab::in_check(&board).to_string(),
        _ => return Err(format!("lab 6 has no function {function}")),
    })
}
