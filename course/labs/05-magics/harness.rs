//! Lab 5's queries: maps the checker's query names to your functions. Provided by the course.

use super::{arg, bb, bitboard, int, square};
use crate::lab05_magics as lab;

/// Answers one query of lab 5.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let sq = || square(arg(args, 0)?);
    let occ = || bitboard(arg(args, 1)?);
    Ok(match function {
        "rook_mask" => bb(lab::rook_mask(sq()?)),
        "bishop_mask" => bb(lab::bishop_mask(sq()?)),
        "subset" => bb(lab::subset(int(arg(args, 0)?)?, bitboard(arg(args, 1)?)?)),
        "magic_index" => lab::magic_index(
            bitboard(arg(args, 0)?)?,
            bitboard(arg(args, 1)?)?,
            int(arg(args, 2)?)?,
            int(arg(args, 3)?)?,
        )
        .to_string(),
        "plain_rook_attacks" => bb(lab::plain_rook_attacks(sq()?, occ()?)),
        "plain_bishop_attacks" => bb(lab::plain_bishop_attacks(sq()?, occ()?)),
        "rook_magic" => magic(lab::rook_magic(sq()?)),
        "bishop_magic" => magic(lab::bishop_magic(sq()?)),
        "fancy_table_len" => lab::fancy_table_len().to_string(),
        "rook_attacks" => bb(lab::rook_attacks(sq()?, occ()?)),
        "bishop_attacks" => bb(lab::bishop_attacks(sq()?, occ()?)),
        "queen_attacks" => bb(lab::queen_attacks(sq()?, occ()?)),
        _ => return Err(format!("lab 5 has no function {function}")),
    })
}

/// A fancy-table entry: mask, magic, shift, offset.
fn magic(m: lab::Magic) -> String {
    format!("{} {} {} {}", bb(m.mask), m.magic, m.shift, m.offset)
}
