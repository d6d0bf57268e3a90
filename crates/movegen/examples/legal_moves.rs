//! Lists the legal moves of a position in UCI and SAN, and what the
//! position is: check, checkmate, stalemate.
//!
//! ```text
//! cargo run -p pinmask-movegen --example legal_moves -- "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
//! ```

use movegen::{Game, Position};
use std::process::ExitCode;

fn main() -> ExitCode {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| movegen::STARTPOS_FEN.to_string());
    let pos: Position = match fen.parse() {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("invalid FEN '{fen}': {e}");
            return ExitCode::FAILURE;
        }
    };
    for mv in pos.legal_moves() {
        println!(
            "{:<6} {}",
            mv.to_string(),
            pos.san(mv).expect("a listed move is legal")
        );
    }
    let moves = pos.legal_moves().len();
    match Game::new(pos).outcome() {
        Some(outcome) => println!("{moves} legal moves; {outcome}"),
        None if pos.is_check() => println!("{moves} legal moves; in check"),
        None => println!("{moves} legal moves"),
    }
    ExitCode::SUCCESS
}
