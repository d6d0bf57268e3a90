//! Lab 3's dispatcher: query names to your functions. Provided by the course.

use super::{arg, bb, bitboard, fen, moves, square};
use crate::lab03_leapers as lab;

/// Answers one query of lab 3.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let a = |i| arg(args, i);
    Ok(match function {
        "knight_attacks" => bb(lab::knight_attacks(bitboard(a(0)?)?)),
        "king_attacks" => bb(lab::king_attacks(bitboard(a(0)?)?)),
        "knight_table" => bb(lab::knight_table()[square(a(0)?)? as usize]),
        "king_table" => bb(lab::king_table()[square(a(0)?)? as usize]),
        "knight_moves" => moves(&lab::knight_moves(&fen(a(0)?)?)),
        "king_moves" => moves(&lab::king_moves(&fen(a(0)?)?)),
        _ => return Err(format!("lab 3 has no function {function}")),
    })
}
