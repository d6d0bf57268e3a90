//! The engine binary: the UCI loop by default, plus perft, move listing and
//! bench subcommands for people at a terminal.

mod gui;
mod progress;

use clap::{Parser, Subcommand};
use movegen::{Position, STARTPOS_FEN};
use std::process::ExitCode;
use std::time::Instant;

/// A bitboard legal move generator with a UCI chess engine around it.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak UCI on stdin/stdout (the default with no subcommand).
    Uci,
    /// Count the leaf nodes of the legal move tree to DEPTH.
    Perft {
        /// Depth in plies, 1 or more.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(long, default_value = STARTPOS_FEN)]
        fen: String,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Castling in king-takes-rook notation (Chess960).
        #[arg(long)]
        chess960: bool,
        /// Threads to share the work (split two plies below the root).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// MiB of cached subtree counts (0: no hashing).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=65536))]
        hash: u32,
    },
    /// List the legal moves of a position, one per line, in UCI notation (or SAN).
    Moves {
        /// Position (default: the start position).
        #[arg(long, default_value = STARTPOS_FEN)]
        fen: String,
        /// Castling in king-takes-rook notation (Chess960).
        #[arg(long)]
        chess960: bool,
        /// Write the moves in SAN (`Nf3`, `exd6`, `O-O`) instead of UCI.
        #[arg(long)]
        san: bool,
    },
    /// Search the fixed benchmark positions; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Search depth.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: Option<u32>,
    },
    /// Serve the board page (move collection, bitboard pictures) on 127.0.0.1.
    Gui {
        /// Port to listen on (0: any free port; the URL is printed).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Position the page opens with (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// File that "Save" appends cases to, one EPD line each.
        #[arg(long)]
        cases: Option<std::path::PathBuf>,
    },
}

fn parse_fen(fen: &str) -> Result<Position, String> {
    Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))
}

/// What `engine perft` was asked to do.
struct PerftArgs {
    depth: u32,
    divide: bool,
    chess960: bool,
    threads: usize,
    hash_mb: usize,
}

fn perft(fen: &str, args: PerftArgs) -> Result<(), String> {
    let pos = parse_fen(fen)?;
    let hash = (args.hash_mb > 0).then(|| movegen::PerftHash::new(args.hash_mb));
    let start = Instant::now();
    let mut progress = progress::Progress::start(pos.legal_moves().len());
    let div = movegen::divide_streamed(&pos, args.depth, args.threads, hash.as_ref(), |mv, n| {
        let line = args.divide.then(|| uci::divide_line(mv, n, args.chess960));
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

fn moves(fen: &str, chess960: bool, san: bool) -> Result<(), String> {
    let pos = parse_fen(fen)?;
    for &mv in pos.legal_moves().iter() {
        if san {
            println!("{}", pos.san(mv));
        } else {
            println!("{}", mv.to_uci(chess960));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Cmd::Uci) => {
            uci::run(std::io::stdin(), uci::Output::stdout());
            Ok(())
        }
        Some(Cmd::Perft {
            depth,
            fen,
            divide,
            chess960,
            threads,
            hash,
        }) => perft(
            &fen,
            PerftArgs {
                depth,
                divide,
                chess960,
                threads: threads as usize,
                hash_mb: hash as usize,
            },
        ),
        Some(Cmd::Moves { fen, chess960, san }) => moves(&fen, chess960, san),
        Some(Cmd::Bench { depth }) => {
            println!("{}", uci::bench_line(depth));
            Ok(())
        }
        Some(Cmd::Gui { port, fen, cases }) => gui::run(gui::Options { port, fen, cases }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
