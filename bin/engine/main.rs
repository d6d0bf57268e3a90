//! The engine binary: the UCI loop by default, plus perft, move listing and
//! bench subcommands for people at a terminal, and `analyse` to review games.

mod analyse;
mod cli;
mod datagen;
mod gui;
mod progress;
mod train;
mod units;

use clap::Parser;
use cli::{Cli, Cmd, MovesArgs, PerftArgs, PerftStep};
use movegen::{CastlingMode, Position};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let result = match Cli::parse().command.unwrap_or(Cmd::Uci) {
        Cmd::Uci => {
            uci::run(std::io::stdin(), uci::Output::stdout());
            Ok(())
        }
        Cmd::Perft(args) => match &args.step {
            None => perft(&args),
            Some(PerftStep::Split(step)) => units::split(step),
            Some(PerftStep::Units(step)) => units::units(step),
            Some(PerftStep::Merge(step)) => units::merge(step),
        },
        Cmd::Moves(args) => moves(&args),
        Cmd::Bench(args) => {
            println!("{}", uci::bench_line(args.depth));
            Ok(())
        }
        Cmd::Analyse(args) => analyse::run(args.into()),
        Cmd::Datagen(args) => datagen::run(args.into()),
        Cmd::Train(args) => train::run(args.into()),
        Cmd::Gui(args) => gui::run(args.into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn parse_fen(fen: &str) -> Result<Position, String> {
    Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))
}

/// `engine perft DEPTH`: the count, by root move with `--divide`.
fn perft(args: &PerftArgs) -> Result<(), String> {
    let depth = args
        .depth
        .expect("clap requires a depth without a subcommand");
    let pos = with_notation(parse_fen(&args.fen)?, args.chess960);
    let hash = (args.hash > 0).then(|| movegen::perft::PerftHash::new(args.hash as usize));
    let start = Instant::now();
    let mut progress = progress::Progress::start(pos.legal_moves().len());
    let div = movegen::perft::Perft::new(depth)
        .threads(args.threads as usize)
        .hash(hash.as_ref())
        .divide(&pos, |mv, n| {
            let line = args
                .divide
                .then(|| uci::divide_line(mv, n, pos.castling_mode()));
            progress.root_done(n, line);
        });
    progress.finish();
    if args.divide {
        println!();
    }
    let nodes: u64 = div.iter().map(|d| d.1).sum();
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("time {:.3} s", secs);
    println!("speed {:.1} Mnps", nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}

/// `pos` with castling written king-takes-rook if `chess960`, else in the
/// notation its FEN implies.
fn with_notation(pos: Position, chess960: bool) -> Position {
    if chess960 {
        pos.with_castling_mode(CastlingMode::Chess960)
            .expect("Chess960 notation can write any castling")
    } else {
        pos
    }
}

/// `engine moves`: the legal moves, one a line.
fn moves(args: &MovesArgs) -> Result<(), String> {
    let pos = with_notation(parse_fen(&args.fen)?, args.chess960);
    for &mv in pos.legal_moves().iter() {
        if args.san {
            println!("{}", pos.san(mv).expect("a listed move is legal"));
        } else {
            println!("{}", mv.to_uci(pos.castling_mode()));
        }
    }
    Ok(())
}
