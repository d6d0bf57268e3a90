//! The command line: one `Args` struct per subcommand, and how each becomes
//! the options of the module that runs it.

use crate::{analyse, datagen, gui, train};
use clap::{Args, Parser, Subcommand};
use movegen::STARTPOS_FEN;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

/// A bitboard legal move generator with a UCI chess engine around it.
#[derive(Parser)]
#[command(version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

// The variants' doc comments are the subcommands' help; the structs carry
// none, so that they cannot override it.
#[derive(Subcommand)]
pub enum Cmd {
    /// Speak UCI on stdin/stdout (the default with no subcommand).
    Uci,
    /// Count the leaf nodes of the legal move tree to DEPTH; or split a deep
    /// perft into units, count units, merge their results (subcommands).
    Perft(PerftArgs),
    /// List the legal moves of a position, one per line, in UCI notation (or SAN).
    Moves(MovesArgs),
    /// Search the fixed benchmark positions; the last line is `<nodes> nodes <nps> nps`.
    Bench(BenchArgs),
    /// Review games: search every mainline position and write the games
    /// again as PGN with NAGs (?!, ?, ??, !), the better moves as variations,
    /// [%eval] comments and each player's accuracy.
    Analyse(AnalyseArgs),
    /// Play self-play games at a fixed node budget and write their positions,
    /// search scores and results as 32-byte training records (docs/datagen.md).
    ///
    /// The file is the same on every machine for the same arguments, whatever
    /// the number of threads. It is written as FILE.part and renamed to FILE
    /// at the end.
    Datagen(DatagenArgs),
    /// Train an evaluation network on datagen records (docs/datagen.md) and
    /// write it as a network file (crates/search/src/nnue).
    ///
    /// The last games of the data are held out for validation. The same data,
    /// seed and settings give the same file whatever the number of threads.
    /// It is written as FILE.part and renamed to FILE at the end.
    #[command(allow_negative_numbers = true)]
    Train(TrainArgs),
    /// Serve the board page: Collect, Explore, Crowd, Play and Review.
    ///
    /// One page, five modes: Collect (find every legal move of a position,
    /// compared with the move generator), Explore (the generator's
    /// bitboards: pins, checkers, attacks), Crowd (many experts enter move
    /// lists; agreed lists go to a database), Play (a game per browser
    /// against the engine, with clocks) and Review (a game's mistakes, found
    /// by the engine).
    Gui(GuiArgs),
}

/// `threads` where given, else one per core (1 where that is unknown).
fn threads_or_cores(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

// `engine perft`: a count, or one of the steps of a deep perft.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct PerftArgs {
    #[command(subcommand)]
    pub step: Option<PerftStep>,
    /// Depth in plies, 1 or more.
    #[arg(required = true, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: Option<u32>,
    /// Position to start from (default: the start position).
    #[arg(long, default_value = STARTPOS_FEN)]
    pub fen: String,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Castling in king-takes-rook notation (Chess960); a FEN whose castling
    /// only Chess960 can write uses it anyway.
    #[arg(long)]
    pub chess960: bool,
    /// Threads to share the work (split two plies below the root).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// MiB of cached subtree counts (0: no hashing).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=65536))]
    pub hash: u32,
}

/// The steps of a perft split over many runs or machines.
#[derive(Subcommand)]
pub enum PerftStep {
    /// Write every unique position SPLIT plies below the root, with the number
    /// of paths to it, as a units file (the summary goes to stdout).
    Split(SplitArgs),
    /// Count perft(D - S) for units I <= index < J of a units file (`-`:
    /// stdin), printing `index count` as each unit finishes.
    Units(UnitsArgs),
    /// Check that every unit has exactly one result and print the exact total.
    Merge(MergeArgs),
}

// `engine perft split`.
#[derive(Args)]
pub struct SplitArgs {
    /// The split depth S.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=8))]
    pub split: u32,
    /// The total depth D of the perft (each unit needs perft D - S).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Root position, standard or Chess960 (default: the start position).
    #[arg(long, default_value = STARTPOS_FEN)]
    pub fen: String,
    /// The units file to write (default: stdout, without the summary).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

// `engine perft units`.
#[derive(Args)]
pub struct UnitsArgs {
    /// The units file.
    pub file: PathBuf,
    /// Depth per unit; must be D - S from the file's header (the default).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub depth: Option<u32>,
    /// First unit to count (default 0).
    #[arg(long)]
    pub from: Option<usize>,
    /// Unit to stop before (default: the end of the file).
    #[arg(long)]
    pub to: Option<usize>,
    /// Threads: whole units each, or one unit at a time when few.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// MiB of cached subtree counts, shared by all units (0: no hashing).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=65536))]
    pub hash: u32,
}

// `engine perft merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The units file.
    pub units: PathBuf,
    /// The `index count` lines of `engine perft units` (`-`: stdin).
    pub results: PathBuf,
}

// `engine moves`.
#[derive(Args)]
pub struct MovesArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = STARTPOS_FEN)]
    pub fen: String,
    /// Castling in king-takes-rook notation (Chess960); a FEN whose
    /// castling only Chess960 can write (king off the e-file, a rook off
    /// the a- or h-file, Shredder-FEN letters) uses it anyway.
    #[arg(long)]
    pub chess960: bool,
    /// Write the moves in SAN (`Nf3`, `exd6`, `O-O`) instead of UCI.
    #[arg(long)]
    pub san: bool,
}

// `engine bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: Option<u32>,
}

// `engine analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
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
}

impl From<AnalyseArgs> for analyse::AnalyseOptions {
    fn from(args: AnalyseArgs) -> analyse::AnalyseOptions {
        analyse::AnalyseOptions {
            file: args.games,
            depth: args.depth,
            movetime: args.movetime.map(Duration::from_millis),
            threads: args.threads as usize,
            hash_mb: args.hash as usize,
            out: args.out,
        }
    }
}

// `engine datagen`.
#[derive(Args)]
pub struct DatagenArgs {
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
}

impl From<DatagenArgs> for datagen::DatagenOptions {
    fn from(args: DatagenArgs) -> datagen::DatagenOptions {
        use search::datagen::Target;
        let target = match (args.positions, args.games) {
            (Some(n), _) => Target::Positions(n),
            (None, n) => Target::Games(n.expect("clap requires --games without --positions")),
        };
        datagen::DatagenOptions {
            out: args.out,
            target,
            nodes: args.nodes,
            seed: args.seed,
            threads: threads_or_cores(args.threads),
            openings: args.openings,
            eval: args.eval,
        }
    }
}

// `engine train`.
#[derive(Args)]
pub struct TrainArgs {
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
}

impl From<TrainArgs> for train::TrainOptions {
    fn from(args: TrainArgs) -> train::TrainOptions {
        train::TrainOptions {
            out: args.out,
            data: args.data,
            config: search::nnue::train::TrainConfig {
                epochs: args.epochs as usize,
                batch: args.batch as usize,
                lr: args.lr,
                lambda: args.lambda,
                k: args.k,
                seed: args.seed,
                threads: threads_or_cores(args.threads),
                valid: args.valid,
                mirror: !args.no_mirror,
            },
        }
    }
}

// `engine gui`.
#[derive(Args)]
pub struct GuiArgs {
    /// Port to listen on (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Address to listen on; anything but loopback serves other machines
    /// (put a TLS reverse proxy in front beyond a trusted LAN).
    #[arg(long, default_value = "127.0.0.1")]
    address: IpAddr,
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
    cases: Option<PathBuf>,
    /// The crowd's SQLite database (created if missing).
    #[arg(long, default_value = gui::DEFAULT_DB)]
    db: PathBuf,
    /// Experts whose identical move sets make a crowd task agreed.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=100))]
    agree: u32,
    /// File holding the organiser's token (written with a new token if
    /// missing); without it a new token is printed at start-up.
    #[arg(long)]
    organiser_token_file: Option<PathBuf>,
    /// Event streams open at once (each page in Play, Crowd or Review
    /// holds one); past it a page is refused with 503 and retries.
    #[arg(long, default_value_t = gui::DEFAULT_MAX_STREAMS as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_streams: u32,
}

impl From<GuiArgs> for gui::GuiOptions {
    fn from(args: GuiArgs) -> gui::GuiOptions {
        gui::GuiOptions {
            address: args.address,
            port: args.port,
            hosts: args.hosts,
            threads: args.threads as usize,
            engine_threads: threads_or_cores(args.engine_threads),
            max_streams: args.max_streams as usize,
            fen: args.fen,
            cases: args.cases,
            crowd: gui::CrowdOptions {
                db: args.db,
                agree: args.agree as usize,
                organiser_token_file: args.organiser_token_file,
            },
        }
    }
}
