//! Lab 2's dispatcher: query names to your functions. Provided by the course.

use super::{arg, bb, bitboard, color, fen, moves};
use crate::lab02_pawns as lab;

/// Answers one query of lab 2.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let a = |i| arg(args, i);
    Ok(match function {
        "single_pushes" => bb(lab::single_pushes(color(a(0)?)?, bitboard(a(1)?)?, bitboard(a(2)?)?)),
        "double_pushes" => bb(lab::double_pushes(color(a(0)?)?, bitboard(a(1)?)?, bitboard(a(2)?)?)),
        "captures_west" => bb(lab::captures_west(color(a(0)?)?, bitboard(a(1)?)?, bitboard(a(2)?)?)),
        "captures_east" => bb(lab::captures_east(color(a(0)?)?, bitboard(a(1)?)?, bitboard(a(2)?)?)),
        "pawn_attacks" => bb(lab::pawn_attacks(color(a(0)?)?, bitboard(a(1)?)?)),
        "pawn_moves" => moves(&lab::pawn_moves(&fen(a(0)?)?)),
        _ => return Err(format!("lab 2 has no function {function}")),
    })
}
