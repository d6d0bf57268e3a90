//! Lab 8's queries: maps the checker's query names to your functions. Provided by the course.

use super::{arg, fen, moves};
use crate::lab08_special as lab;

/// Answers one query of lab 8.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let board = fen(arg(args, 0)?)?;
    Ok(match function {
        "castling_moves" => moves(&lab::castling_moves(&board)),
        "en_passant_moves" => moves(&lab::en_passant_moves(&board)),
        "promotion_moves" => moves(&lab::promotion_moves(&board)),
        "legal_moves" => moves(&lab::legal_moves(&board)),
        _ => return Err(format!("lab 8 has no function {function}")),
    })
}
