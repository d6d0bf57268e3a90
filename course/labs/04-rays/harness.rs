//! Lab 4's dispatcher: query names to your functions. Provided by the course.

use super::{arg, bb, bitboard, square};
use crate::lab04_rays as lab;

/// Answers one query of lab 4.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let a = |i| arg(args, i);
    let sq = || square(a(0)?);
    let occ = || bitboard(a(1)?);
    Ok(bb(match function {
        "file_line" => lab::file_line(sq()?),
        "rank_line" => lab::rank_line(sq()?),
        "diagonal_line" => lab::diagonal_line(sq()?),
        "anti_diagonal_line" => lab::anti_diagonal_line(sq()?),
        "positive_ray_attacks" => lab::positive_ray_attacks(sq()?, occ()?, bitboard(a(2)?)?),
        "line_attacks" => lab::line_attacks(sq()?, occ()?, bitboard(a(2)?)?),
        "file_attacks" => lab::file_attacks(sq()?, occ()?),
        "rank_attacks" => lab::rank_attacks(sq()?, occ()?),
        "diagonal_attacks" => lab::diagonal_attacks(sq()?, occ()?),
        "anti_diagonal_attacks" => lab::anti_diagonal_attacks(sq()?, occ()?),
        "rook_attacks" => lab::rook_attacks(sq()?, occ()?),
        "bishop_attacks" => lab::bishop_attacks(sq()?, occ()?),
        "queen_attacks" => lab::queen_attacks(sq()?, occ()?),
        _ => return Err(format!("lab 4 has no function {function}")),
    }))
}
