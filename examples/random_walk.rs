//! Seeded random games for differential testing against python-chess.
//!
//! Prints one line per position reached: `FEN;sorted legal moves;verdict;move
//! played;SAN of the sorted moves` (the verdict is `none`, `check`, `checkmate`
//! or `stalemate`), after a `game <index> <std|960> <start FEN>` header per game
//! and before an `end <games> <positions>` trailer. `scripts/differential` reads
//! the stream and replays every game with python-chess. Each game has its own
//! generator, seeded from `--seed` and the game index, so `--game I` replays
//! game I alone. With `--every-source`, each position of the EPD files is first
//! printed as a game of its own with no move played, so every legal move of
//! every suite position is compared; the random games follow.
//!
//! While walking it also checks what python-chess cannot see: the incremental
//! key equals the from-scratch key, the printed FEN parses back to the same
//! position and key, the move counters agree with the move list, and every move
//! round-trips through its UCI text and its SAN (also without its `+`/`#`).
//! Failures are `selfcheck ...` lines.
//!
//! ```text
//! cargo run --release --example random_walk -- --positions 100000 \
//!     --epd tests/data/perft_standard.epd --epd960 tests/data/perft_chess960.epd \
//!     | scripts/differential
//! ```

use movegen::rng::SplitMix64;
use movegen::{CastlingMode, Move, Position, STARTPOS_FEN};
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// What to walk, from the command line.
struct Options {
    seed: u64,
    positions: u64,
    max_plies: u32,
    game: Option<usize>,
    every_source: bool,
    /// Start positions with their Chess960 flag; the start position comes first.
    sources: Vec<(String, bool)>,
}

const USAGE: &str = "usage: random_walk [--seed S] [--positions N] [--max-plies P] \
[--game I] [--every-source] [--epd FILE]... [--epd960 FILE]...";

fn parse_args() -> Result<Options, String> {
    let mut opts = Options {
        seed: 1,
        positions: 10_000,
        max_plies: 200,
        game: None,
        every_source: false,
        sources: vec![(STARTPOS_FEN.to_string(), false)],
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: not a number"))
        };
        match flag.as_str() {
            "--seed" => opts.seed = number(value()?)?,
            "--positions" => opts.positions = number(value()?)?,
            "--max-plies" => opts.max_plies = number(value()?)? as u32,
            "--game" => opts.game = Some(number(value()?)? as usize),
            "--every-source" => opts.every_source = true,
            "--epd" | "--epd960" => {
                let path = value()?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                let chess960 = flag == "--epd960";
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    let fen = line.split(';').next().unwrap_or("").trim();
                    opts.sources.push((fen.to_string(), chess960));
                }
            }
            _ => return Err(format!("unknown argument {flag}\n{USAGE}")),
        }
    }
    Ok(opts)
}

/// `none`, `check`, `checkmate` or `stalemate`.
fn verdict(pos: &Position, has_moves: bool) -> &'static str {
    match (pos.in_check(), has_moves) {
        (false, true) => "none",
        (true, true) => "check",
        (true, false) => "checkmate",
        (false, false) => "stalemate",
    }
}

/// Checks python-chess cannot make; returns a description of each failure.
fn self_checks(pos: &Position, moves: &[Move], fen: &str) -> Vec<String> {
    let mode = pos.castling_mode();
    let mut failures = Vec::new();
    if pos.key() != pos.compute_key() {
        failures.push("incremental key differs from compute_key()".to_string());
    }
    match Position::from_fen(fen) {
        Ok(back) if back.fen_with(CastlingMode::Standard) != fen => {
            failures.push("FEN does not round-trip".into())
        }
        Ok(back) if back.key() != pos.key() => failures.push("parsed FEN has another key".into()),
        Ok(_) => {}
        Err(e) => failures.push(format!("own FEN rejected: {e}")),
    }
    if pos.count_moves() != moves.len() || pos.has_legal_move() == moves.is_empty() {
        failures.push("count_moves/has_legal_move disagree with legal_moves".into());
    }
    for &mv in moves {
        let text = mv.to_uci(mode).to_string();
        if !pos.is_legal(mv) || pos.parse_uci_move(&text) != Ok(mv) {
            failures.push(format!("move {text} fails is_legal or parse_uci_move"));
        }
        let san = pos.san(mv).expect("a listed move is legal").to_string();
        let bare = san.trim_end_matches(['+', '#']);
        if pos.parse_san(&san) != Ok(mv) || pos.parse_san(bare) != Ok(mv) {
            failures.push(format!("move {text} does not round-trip through SAN {san}"));
        }
    }
    failures
}

/// Writes the line of one position, with `played` (if any) as its move, and
/// any self-check failures before it.
fn write_position(
    out: &mut impl Write,
    where_: &str,
    pos: &Position,
    moves: &[Move],
    played: Option<Move>,
) -> io::Result<()> {
    // X-FEN, as python-chess's `Board.fen()` writes it.
    let fen = pos.fen_with(CastlingMode::Standard);
    let mode = pos.castling_mode();
    for failure in self_checks(pos, moves, &fen) {
        writeln!(out, "selfcheck {where_}: {failure}: {fen}")?;
    }
    let mut texts: Vec<(String, String)> = moves
        .iter()
        .map(|&m| {
            (
                m.to_uci(mode).to_string(),
                pos.san(m).expect("a listed move is legal").to_string(),
            )
        })
        .collect();
    texts.sort_unstable();
    let (ucis, sans): (Vec<String>, Vec<String>) = texts.into_iter().unzip();
    let played = played.map_or("-".to_string(), |m| m.to_uci(mode).to_string());
    let v = verdict(pos, !moves.is_empty());
    writeln!(
        out,
        "{fen};{};{v};{played};{}",
        ucis.join(" "),
        sans.join(" ")
    )
}

/// A source position, castling written as Chess960 for a Chess960 suite
/// (as python-chess's `chess960=True` board does) and as the FEN implies
/// otherwise.
fn start_position(fen: &str, chess960: bool) -> Result<Position, String> {
    let pos = Position::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
    Ok(pos
        .with_castling_mode(CastlingMode::from_chess960(chess960))
        .unwrap_or(pos))
}

/// Plays one game, writing its lines; returns the number of positions printed.
fn walk(
    out: &mut impl Write,
    index: usize,
    opts: &Options,
    budget: u64,
) -> Result<u64, Box<dyn std::error::Error>> {
    let mut rng = SplitMix64::new(opts.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
    // Game 0 starts from the start position; the others from a random source.
    let source = if index == 0 {
        0
    } else {
        rng.below(opts.sources.len())
    };
    let (start, chess960) = &opts.sources[source];
    let chess960 = *chess960;
    let mut pos = start_position(start, chess960)?;
    writeln!(
        out,
        "game {index} {} {start}",
        if chess960 { "960" } else { "std" }
    )?;
    let mut printed = 0;
    for ply in 0.. {
        let moves = pos.legal_moves();
        let stop = moves.is_empty()
            || ply >= opts.max_plies
            || pos.halfmove_clock() >= 100
            || printed + 1 >= budget;
        let played = (!stop).then(|| moves[rng.below(moves.len())]);
        let where_ = format!("game {index} ply {ply}");
        write_position(out, &where_, &pos, &moves, played)?;
        printed += 1;
        match played {
            Some(mv) => pos = pos.play(mv),
            None => break,
        }
    }
    Ok(printed)
}

/// Prints every source position as a game of its own with no move played;
/// returns how many.
fn every_source(out: &mut impl Write, opts: &Options) -> Result<u64, Box<dyn std::error::Error>> {
    for (k, (fen, chess960)) in opts.sources.iter().enumerate() {
        let pos = start_position(fen, *chess960)?;
        let kind = if *chess960 { "960" } else { "std" };
        writeln!(out, "source {k} {kind} {fen}")?;
        let moves = pos.legal_moves();
        write_position(out, &format!("source {k}"), &pos, &moves, None)?;
    }
    Ok(opts.sources.len() as u64)
}

fn run(opts: &Options) -> Result<(), Box<dyn std::error::Error>> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let (mut games, mut positions) = (0u64, 0u64);
    if opts.every_source {
        let n = every_source(&mut out, opts)?;
        games += n;
        positions += n;
    }
    match opts.game {
        Some(index) => {
            positions += walk(&mut out, index, opts, u64::MAX)?;
            games += 1;
        }
        None => {
            let mut index = 0;
            let mut walked = 0;
            while walked < opts.positions {
                walked += walk(&mut out, index, opts, opts.positions - walked)?;
                games += 1;
                index += 1;
            }
            positions += walked;
        }
    }
    writeln!(out, "end {games} {positions}")?;
    out.flush()?;
    Ok(())
}

fn main() -> ExitCode {
    let result = parse_args().map_err(Into::into).and_then(|opts| run(&opts));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("random_walk: {e}");
            ExitCode::FAILURE
        }
    }
}
