//! Lab 09's queries: FEN in and out, copy-make, zobrist keys.
//! Provided by the course (rewritten by `course init`).

use super::{arg, fen, int};
use crate::lab09_position::{parse_fen, play, random_u64, to_fen, update_key, zobrist};
use crate::types::{square_name, Board, Move, Piece};

/// A board written out field by field (not as FEN, so that checking your
/// `parse_fen` and `play` does not depend on your `to_fen`): the twelve
/// piece bitboards (white pawn..king, then black), side, castling bits,
/// en-passant square, clocks.
pub fn dump(board: &Board) -> String {
    let sets: Vec<String> = board.pieces.iter().flatten().map(|&bb| super::bb(bb)).collect();
    let side = if board.side == crate::types::Color::White { "w" } else { "b" };
    let ep = board.en_passant.map_or("-".to_string(), square_name);
    format!("{} {side} {} {ep} {} {}", sets.join(","), board.castling, board.halfmove, board.fullmove)
}

/// A move in UCI form (`e2e4`, `e7e8q`).
pub fn uci_move(text: &str) -> Result<Move, String> {
    let bad = || format!("not a move: {text}");
    let from = super::square(text.get(0..2).ok_or_else(bad)?)?;
    let to = super::square(text.get(2..4).ok_or_else(bad)?)?;
    let promotion = match text.get(4..) {
        Some("") => None,
        Some("n") => Some(Piece::Knight),
        Some("b") => Some(Piece::Bishop),
        Some("r") => Some(Piece::Rook),
        Some("q") => Some(Piece::Queen),
        _ => return Err(bad()),
    };
    Ok(Move { from, to, promotion })
}

/// Answers one query.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    match function {
        "parse_fen" => Ok(match parse_fen(&arg(args, 0)?.replace('_', " ")) {
            Ok(board) => format!("board {}", dump(&board)),
            Err(message) => format!("err {message}"),
        }),
        "to_fen" => Ok(to_fen(&fen(arg(args, 0)?)?)),
        "play" => Ok(dump(&play(&fen(arg(args, 0)?)?, uci_move(arg(args, 1)?)?))),
        "zobrist" => Ok(format!("{:016x}", zobrist(&fen(arg(args, 0)?)?))),
        // The key before, the key after by `update_key`, and by `zobrist`
        // of `play`'s board.
        "keys" => {
            let board = fen(arg(args, 0)?)?;
            let mv = uci_move(arg(args, 1)?)?;
            let before = zobrist(&board);
            let incremental = update_key(&board, before, mv);
            let scratch = zobrist(&play(&board, mv));
            Ok(format!("{before:016x} {incremental:016x} {scratch:016x}"))
        }
        "random" => {
            let mut state: u64 = int(arg(args, 0)?)?;
            let count: usize = int(arg(args, 1)?)?;
            let numbers: Vec<String> = (0..count.min(10_000)).map(|_| format!("{:016x}", random_u64(&mut state))).collect();
            Ok(numbers.join(" "))
        }
        _ => Err(format!("lab 09 has no function {function}")),
    }
}
