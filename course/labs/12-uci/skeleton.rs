//! Lab 12: the UCI loop, so that a GUI or a tournament manager can play
//! your engine.
//!
//! The lab text: `labs/12-uci.md` in your workspace, or `course text 12`.
//!
//! `cargo run --release --bin engine` runs it on the terminal (type `uci`,
//! `isready`, `position startpos moves e2e4`, `go depth 3`, `quit`).

#![allow(unused_variables, unused_imports)]

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::lab08_special::legal_moves;
use crate::lab09_position::{parse_fen, play};
use crate::lab11_search::search;
use crate::types::{Board, Color};

/// Reads UCI commands from `input` line by line and answers on `output`
/// (flush after each answer) until `quit` or the end of the input:
///
/// - `uci`: `id name ...`, `id author ...`, then `uciok`;
/// - `isready`: `readyok`;
/// - `ucinewgame`: nothing to answer;
/// - `position startpos [moves m1 m2 ...]` or
///   `position fen <six fields> [moves ...]`: set the position, answer nothing;
/// - `go depth N`, `go movetime MS`, `go wtime .. btime ..`: search, then
///   exactly one `bestmove <move>` (`bestmove 0000` with no legal move);
/// - `quit`: return.
///
/// A command you cannot use (an unknown word, a bad FEN, an illegal move)
/// gets one `info string error: ...` line and changes nothing.
pub fn run(input: impl BufRead, output: impl Write) {
    todo!()
}
