//! Counts the leaf nodes of the legal move tree to a depth, per root move,
//! the way `go perft` does in UCI engines: the standard test of a move
//! generator.
//!
//! ```text
//! cargo run -p pinmask-movegen --release --example perft -- 5 "<FEN>"
//! ```

use movegen::Position;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let depth: u32 = match args.next().map(|d| d.parse()) {
        None => 5,
        Some(Ok(d)) if (1..=12).contains(&d) => d,
        Some(_) => {
            eprintln!("usage: perft [DEPTH 1-12] [FEN]");
            return ExitCode::FAILURE;
        }
    };
    let fen = args.next().unwrap_or_else(|| movegen::STARTPOS_FEN.into());
    let pos: Position = match fen.parse() {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("invalid FEN '{fen}': {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let mut total = 0;
    for (mv, count) in movegen::perft::divide(&pos, depth) {
        println!("{}: {count}", pos.san(mv).expect("a listed move is legal"));
        total += count;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "\nNodes searched: {total} ({:.1} Mnps)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
