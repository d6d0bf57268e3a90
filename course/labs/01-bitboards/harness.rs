//! Lab 1's dispatcher: query names to your functions. Provided by the course.

use super::{arg, bb, bitboard, int, square, text};
use crate::lab01_bitboards as lab;

/// Answers one query of lab 1.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    let a = |i| arg(args, i);
    Ok(match function {
        "square" => lab::square(int(a(0)?)?, int(a(1)?)?).to_string(),
        "file_of" => lab::file_of(square(a(0)?)?).to_string(),
        "rank_of" => lab::rank_of(square(a(0)?)?).to_string(),
        "bit" => bb(lab::bit(square(a(0)?)?)),
        "set" => bb(lab::set(bitboard(a(0)?)?, square(a(1)?)?)),
        "clear" => bb(lab::clear(bitboard(a(0)?)?, square(a(1)?)?)),
        "contains" => lab::contains(bitboard(a(0)?)?, square(a(1)?)?).to_string(),
        "file_mask" => bb(lab::file_mask(int(a(0)?)?)),
        "rank_mask" => bb(lab::rank_mask(int(a(0)?)?)),
        "popcount" => lab::popcount(bitboard(a(0)?)?).to_string(),
        "lsb" => lab::lsb(bitboard(a(0)?)?).to_string(),
        "pop_lsb" => {
            let mut b = bitboard(a(0)?)?;
            let sq = lab::pop_lsb(&mut b);
            format!("{sq} {}", bb(b))
        }
        "squares" => {
            let list: Vec<String> = lab::squares(bitboard(a(0)?)?).iter().map(|s| s.to_string()).collect();
            list.join(" ")
        }
        "draw" => text(&lab::draw(bitboard(a(0)?)?)),
        _ => return Err(format!("lab 1 has no function {function}")),
    })
}
