//! Lab 09: the position. FEN in and out, copy-make, zobrist keys.
//!
//! The lab text: `labs/09-position.md` in your workspace, or `course text 9`.
//!
//! Write the functions below (replace each `todo!()`). `course check 9`
//! tells you which one is wrong and shows you the position.

#![allow(unused_variables)]

use crate::types::{Board, Move};

/// Reads a FEN string. All six fields; the two move counters may be left
/// out and then default to `0 1`. The placement lists rank 8 first, and
/// each rank from the a-file to the h-file; a digit skips that many empty
/// squares. A string that is not a FEN gives `Err` with a message naming
/// the field that is wrong; it must never panic.
pub fn parse_fen(fen: &str) -> Result<Board, String> {
    todo!()
}

/// Writes the board as a FEN string with all six fields (`-` for no
/// castling right and for no en-passant square).
pub fn to_fen(board: &Board) -> String {
    todo!()
}

/// The board after `mv`, a legal move of `board` (copy-make: `board` is
/// not changed). Update the pieces (captures, castling's rook, en
/// passant's captured pawn, promotion), the side to move, the castling
/// rights (a right goes when its king or its rook moves, or when the rook
/// is captured), the en-passant square (the skipped square after every
/// double push, `None` after any other move), and both clocks.
pub fn play(board: &Board, mv: Move) -> Board {
    todo!()
}

/// The next number of your pseudo-random generator (xorshift64* is a good
/// choice); `state` is never 0. The same seed must give the same numbers on
/// every run and every machine, so `rand` or the clock won't do.
pub fn random_u64(state: &mut u64) -> u64 {
    todo!()
}

/// The zobrist key of `board`, from scratch: the XOR of one random number
/// per piece on its square, one if Black is to move, one for the castling
/// rights, one for the en-passant file when there is an en-passant square.
/// The clocks are not part of the key. Make the random numbers once (with
/// `random_u64` and a fixed seed), e.g. in a `std::sync::OnceLock`.
pub fn zobrist(board: &Board) -> u64 {
    todo!()
}

/// The key of `play(board, mv)`, computed from `key` (the key of `board`)
/// by XORing out what the move changes and XORing in what it makes: the
/// moving piece, a captured piece, castling's rook, the side, the castling
/// rights and the en-passant file. Don't recompute it from scratch: the
/// point is that it costs a few XORs.
pub fn update_key(board: &Board, key: u64, mv: Move) -> u64 {
    todo!()
}
