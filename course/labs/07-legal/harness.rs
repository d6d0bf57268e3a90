//! Lab 7's queries: maps the checker's query names to your functions. Provided by the course.

use super::{arg, bb, fen, moves, square};
use crate::lab07_legal as lab;

/// Answers one query of lab 7.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    if function == "between" {
        return Ok(bb(lab::between(square(arg(args, 0)?)?, square(arg(args, 1)?)?)));
    }
    let board = fen(arg(args, 0)?)?;
    Ok(match function {
        "check_mask" => bb(lab::check_mask(&board)),
        "pin_masks" => {
            let (straight, diagonal) = lab::pin_masks(&board);
            format!("{} {}", bb(straight), bb(diagonal))
        }
        "king_targets" => bb(lab::king_targets(&board)),
        "targets" => bb(lab::targets(&board, square(arg(args, 1)?)?)),
        "ordinary_moves" => moves(&lab::ordinary_moves(&board)),
        _ => return Err(format!("lab 7 has no function {function}")),
    })
}
