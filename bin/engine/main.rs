//! The engine binary: the UCI loop by default, plus perft, move listing and
//! bench subcommands for people at a terminal, and `analyse` to review games.

mod analyse;
mod datagen;
mod gui;
mod progress;
mod train;
mod units;

use clap::{Parser, Subcommand};
use movegen::{CastlingMode, Position, STARTPOS_FEN};
use std::path::PathBuf;
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
    /// Count the leaf nodes of the legal move tree to DEPTH; or split a deep
    /// perft into units, count units, merge their results (subcommands).
    Perft(PerftCmd),
    /// List the legal moves of a position, one per line, in UCI notation (or SAN).
    Moves {
        /// Position (default: the start position).
        #[arg(long, default_value = STARTPOS_FEN)]
        fen: String,
        /// Castling in king-takes-rook notation (Chess960); a FEN whose
        /// castling only Chess960 can write (king off the e-file, a rook off
        /// the a- or h-file, Shredder-FEN letters) uses it anyway.
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
    /// Review games: search every mainline position and write the games
    /// again as PGN with NAGs (?!, ?, ??, !), the better moves as variations,
    /// [%eval] comments and each player's accuracy.
    Analyse {
        /// The PGN file of games to review.
        games: PathBuf,
        /// Search each position to this depth.
        #[arg(long, default_value_t = search::annotate::REVIEW_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Search each position this many milliseconds instead of to a depth.
        #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        movetime: Option<u64>,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Transposition table in MiB (the board page's Review uses the default).
        #[arg(long, default_value_t = search::annotate::REVIEW_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
        /// Write the annotated games here (default: stdout).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Play self-play games at a fixed node budget and write their positions,
    /// search scores and results as 32-byte training records (docs/datagen.md).
    ///
    /// The file is the same on every machine for the same arguments, whatever
    /// the number of threads. It is written as FILE.part and renamed to FILE
    /// at the end.
    Datagen {
        /// The records file to write.
        #[arg(short, long)]
        out: PathBuf,
        /// Games to play.
        #[arg(long, required_unless_present = "positions", conflicts_with = "positions",
              value_parser = clap::value_parser!(u64).range(1..))]
        games: Option<u64>,
        /// Positions to write instead (the last game is cut to fit).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        positions: Option<u64>,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        nodes: u64,
        /// Seed of the openings and random plies (game i depends on it and i only).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Games played at once, one search thread each (default: the number of cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// EPD or FEN file of start positions (default: tests/data/openings.epd
        /// and openings-wide.epd, built in).
        #[arg(long)]
        openings: Option<PathBuf>,
        /// The evaluation the games are played with: `built-in` (the network
        /// in the binary), `hce` (the hand-written evaluation) or a network file.
        #[arg(long, default_value = "built-in")]
        eval: String,
    },
    /// Train an evaluation network on datagen records (docs/datagen.md) and
    /// write it as a network file (crates/search/src/nnue).
    ///
    /// The last games of the data are held out for validation. The same data,
    /// seed and settings give the same file whatever the number of threads.
    /// It is written as FILE.part and renamed to FILE at the end.
    #[command(allow_negative_numbers = true)]
    Train {
        /// The network file to write.
        #[arg(short, long)]
        out: PathBuf,
        /// Record files, read one after the other.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        epochs: u32,
        /// Positions per optimiser step.
        #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..=100_000_000))]
        batch: u32,
        /// Adam's learning rate (a tenth of it for the last quarter of the epochs).
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// Weight of the search score in the target against the game's result (0 to 1).
        #[arg(long, default_value_t = 0.75)]
        lambda: f64,
        /// Centipawns per logit (default: fitted to the training positions).
        #[arg(long)]
        k: Option<f64>,
        /// Seed of the start weights and the shuffles.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Threads (default: the number of cores); the file does not depend on them.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// Fraction of the games, the last ones, held out for validation.
        #[arg(long, default_value_t = 0.05)]
        valid: f64,
        /// Do not show positions without castling rights mirrored (files a
        /// and h swapped) to the trainer.
        #[arg(long)]
        no_mirror: bool,
    },
    /// Serve the board page: Collect, Explore, Crowd, Play and Review.
    ///
    /// One page, five modes: Collect (find every legal move of a position,
    /// compared with the move generator), Explore (the generator's
    /// bitboards: pins, checkers, attacks), Crowd (many experts enter move
    /// lists; agreed lists go to a database), Play (a game per browser
    /// against the engine, with clocks) and Review (a game's mistakes, found
    /// by the engine).
    Gui {
        /// Port to listen on (0: any free port; the URL is printed).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Address to listen on; anything but loopback serves other machines
        /// (put a TLS reverse proxy in front beyond a trusted LAN).
        #[arg(long, default_value = "127.0.0.1")]
        address: std::net::IpAddr,
        /// Another host name clients use for this server (repeatable), e.g.
        /// the reverse proxy's `chess.example.org`.
        #[arg(long = "host")]
        hosts: Vec<String>,
        /// Connections to the crowd's database (its requests served at once).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Engine searches run at once for all Play games (default: the
        /// number of cores); more games wait for a free worker.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        engine_threads: Option<u32>,
        /// Position the page opens with (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// File that "Save" appends cases to, one EPD line each.
        #[arg(long)]
        cases: Option<std::path::PathBuf>,
        /// The crowd's SQLite database (created if missing).
        #[arg(long, default_value = gui::DEFAULT_DB)]
        db: std::path::PathBuf,
        /// Experts whose identical move sets make a crowd task agreed.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=100))]
        agree: u32,
        /// File holding the organiser's token (written with a new token if
        /// missing); without it a new token is printed at start-up.
        #[arg(long)]
        organiser_token_file: Option<std::path::PathBuf>,
        /// Event streams open at once (each page in Play, Crowd or Review
        /// holds one); past it a page is refused with 503 and retries.
        #[arg(long, default_value_t = gui::DEFAULT_MAX_STREAMS as u32,
              value_parser = clap::value_parser!(u32).range(1..=100_000))]
        max_streams: u32,
    },
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct PerftCmd {
    #[command(subcommand)]
    step: Option<PerftStep>,
    /// Depth in plies, 1 or more.
    #[arg(required = true, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: Option<u32>,
    /// Position to start from (default: the start position).
    #[arg(long, default_value = STARTPOS_FEN)]
    fen: String,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Castling in king-takes-rook notation (Chess960); a FEN whose castling
    /// only Chess960 can write uses it anyway.
    #[arg(long)]
    chess960: bool,
    /// Threads to share the work (split two plies below the root).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// MiB of cached subtree counts (0: no hashing).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=65536))]
    hash: u32,
}

/// The steps of a perft split over many runs or machines.
#[derive(Subcommand)]
enum PerftStep {
    /// Write every unique position SPLIT plies below the root, with the number
    /// of paths to it, as a units file (the summary goes to stdout).
    Split {
        /// The split depth S.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=8))]
        split: u32,
        /// The total depth D of the perft (each unit needs perft D - S).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Root position, standard or Chess960 (default: the start position).
        #[arg(long, default_value = STARTPOS_FEN)]
        fen: String,
        /// The units file to write (default: stdout, without the summary).
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Count perft(D - S) for units I <= index < J of a units file (`-`:
    /// stdin), printing `index count` as each unit finishes.
    Units {
        /// The units file.
        file: PathBuf,
        /// Depth per unit; must be D - S from the file's header (the default).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
        depth: Option<u32>,
        /// First unit to count (default 0).
        #[arg(long)]
        from: Option<usize>,
        /// Unit to stop before (default: the end of the file).
        #[arg(long)]
        to: Option<usize>,
        /// Threads: whole units each, or one unit at a time when few.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// MiB of cached subtree counts, shared by all units (0: no hashing).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=65536))]
        hash: u32,
    },
    /// Check that every unit has exactly one result and print the exact total.
    Merge {
        /// The units file.
        units: PathBuf,
        /// The `index count` lines of `engine perft units` (`-`: stdin).
        results: PathBuf,
    },
}

fn perft_cmd(cmd: PerftCmd) -> Result<(), String> {
    match cmd.step {
        None => perft(
            &cmd.fen,
            PerftArgs {
                depth: cmd
                    .depth
                    .expect("clap requires a depth without a subcommand"),
                divide: cmd.divide,
                chess960: cmd.chess960,
                threads: cmd.threads as usize,
                hash_mb: cmd.hash as usize,
            },
        ),
        Some(PerftStep::Split {
            split,
            depth,
            fen,
            out,
        }) => units::split(&fen, split, depth, out.as_deref()),
        Some(PerftStep::Units {
            file,
            depth,
            from,
            to,
            threads,
            hash,
        }) => units::units(units::UnitsArgs {
            file: &file,
            depth,
            from,
            to,
            threads: threads as usize,
            hash_mb: hash as usize,
        }),
        Some(PerftStep::Merge { units, results }) => units::merge(&units, &results),
    }
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
    let pos = with_notation(parse_fen(fen)?, args.chess960);
    let hash = (args.hash_mb > 0).then(|| movegen::perft::PerftHash::new(args.hash_mb));
    let start = Instant::now();
    let mut progress = progress::Progress::start(pos.legal_moves().len());
    let div =
        movegen::perft::divide_streamed(&pos, args.depth, args.threads, hash.as_ref(), |mv, n| {
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

fn moves(fen: &str, chess960: bool, san: bool) -> Result<(), String> {
    let pos = with_notation(parse_fen(fen)?, chess960);
    for &mv in pos.legal_moves().iter() {
        if san {
            println!("{}", pos.san(mv).expect("a listed move is legal"));
        } else {
            println!("{}", mv.to_uci(pos.castling_mode()));
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
        Some(Cmd::Perft(cmd)) => perft_cmd(cmd),
        Some(Cmd::Moves { fen, chess960, san }) => moves(&fen, chess960, san),
        Some(Cmd::Bench { depth }) => {
            println!("{}", uci::bench_line(depth));
            Ok(())
        }
        Some(Cmd::Analyse {
            games,
            depth,
            movetime,
            threads,
            hash,
            out,
        }) => analyse::run(analyse::Options {
            file: games,
            depth,
            movetime: movetime.map(std::time::Duration::from_millis),
            threads: threads as usize,
            hash_mb: hash as usize,
            out,
        }),
        Some(Cmd::Datagen {
            out,
            games,
            positions,
            nodes,
            seed,
            threads,
            openings,
            eval,
        }) => datagen::run(datagen::Options {
            eval,
            out,
            target: match (games, positions) {
                (_, Some(n)) => search::datagen::Target::Positions(n),
                (n, None) => search::datagen::Target::Games(
                    n.expect("clap requires --games without --positions"),
                ),
            },
            nodes,
            seed,
            threads: threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                |n| n as usize,
            ),
            openings,
        }),
        Some(Cmd::Train {
            out,
            data,
            epochs,
            batch,
            lr,
            lambda,
            k,
            seed,
            threads,
            valid,
            no_mirror,
        }) => train::run(train::Options {
            out,
            data,
            config: search::nnue::train::TrainConfig {
                epochs: epochs as usize,
                batch: batch as usize,
                lr,
                lambda,
                k,
                seed,
                threads: threads.map_or_else(
                    || std::thread::available_parallelism().map_or(1, |n| n.get()),
                    |n| n as usize,
                ),
                valid,
                mirror: !no_mirror,
            },
        }),
        Some(Cmd::Gui {
            port,
            address,
            hosts,
            threads,
            engine_threads,
            fen,
            cases,
            db,
            agree,
            organiser_token_file,
            max_streams,
        }) => gui::run(gui::Options {
            address,
            port,
            hosts,
            threads: threads as usize,
            engine_threads: engine_threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                |n| n as usize,
            ),
            max_streams: max_streams as usize,
            fen,
            cases,
            crowd: gui::CrowdOptions {
                db,
                agree: agree as usize,
                organiser_token_file,
            },
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
