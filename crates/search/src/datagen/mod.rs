//! Training data from our own games (`engine datagen`): self-play at a fixed
//! node budget on many threads, written as fixed-size records.
//!
//! The data depends only on the arguments, never on the machine or on how
//! the threads were scheduled: each game is played on one thread by a
//! searcher of its own, cleared before the game, with a node limit (no
//! clock); game `i` draws its opening and random plies from a generator
//! seeded by the run's seed and `i` alone; and the games are written in
//! index order whichever finishes first. The format is in [`record`] and
//! docs/datagen.md.

pub(crate) mod play;
pub mod record;

pub use play::{game_seed, play_random, Ending, DRAW_FROM_PLY, DRAW_PLIES, DRAW_SCORE, MAX_PLIES};
pub use play::{RESIGN_PLIES, RESIGN_SCORE};
pub use record::{decode, encode, GameResult, Record, RecordError, RECORD_BYTES};

use crate::limits::SearchControl;
use crate::nnue::Network;
use crate::Searcher;
use movegen::Position;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

/// Transposition table per game thread, MiB. Fixed: the table's size
/// changes the search, and so the data.
pub const HASH_MB: usize = 16;

/// A run fails after this many games in a row without a record.
const MAX_EMPTY_GAMES: u32 = 1000;

/// Stack for the game threads: the search recurses up to `MAX_PLY` deep.
const STACK: usize = 16 << 20;

/// When a run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// After this many games (some may give no record).
    Games(u64),
    /// After this many records (the last game is cut to fit).
    Positions(u64),
}

/// What a run does.
#[derive(Clone, Debug)]
pub struct Config {
    /// Start positions; each game picks one by its seed.
    pub openings: Vec<Position>,
    /// When to stop.
    pub target: Target,
    /// Nodes per move.
    pub nodes: u64,
    /// The run's seed.
    pub seed: u64,
    /// Game threads (0 counts as 1).
    pub threads: usize,
    /// The evaluation network the games are played with (`None`: the
    /// hand-written evaluation).
    pub net: Option<Arc<Network>>,
}

/// Counts of a run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games written (in index order).
    pub games: u64,
    /// Records written.
    pub positions: u64,
    /// Games won by White, drawn, won by Black.
    pub results: [u64; 3],
    /// Games ended by the rules, by resignation, by draw adjudication.
    pub endings: [u64; 3],
}

/// Why openings could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsError(pub String);

impl std::fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningsError {}

/// Reads EPD or FEN lines (the first four fields are the position; blank
/// lines and `#` comments are skipped).
///
/// # Errors
///
/// A line that is not a legal position, one the format cannot store
/// (Chess960 castling), or a text with no position at all.
pub fn parse_openings(text: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = line
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        let pos = Position::from_fen(&fen)
            .map_err(|e| OpeningsError(format!("line {}: '{fen}': {e}", n + 1)))?;
        record::castling_bits(&pos)
            .map_err(|e| OpeningsError(format!("line {}: '{fen}': {e}", n + 1)))?;
        if let Some(outcome) = movegen::Game::new(pos).outcome() {
            return Err(OpeningsError(format!(
                "line {}: '{fen}': the game is already over ({outcome})",
                n + 1
            )));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(OpeningsError("no positions".to_string()));
    }
    Ok(out)
}

/// Plays the games of `config` and writes their records to `out`, one
/// `write_all` and `flush` per game, so whatever `out` holds after an
/// interruption is whole games. `progress` is called after each game
/// written. Returns the totals.
///
/// # Errors
///
/// The first error writing to `out`; the games in flight are then abandoned.
pub fn run(
    config: &Config,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&Totals),
) -> io::Result<Totals> {
    let threads = config.threads.max(1);
    let next = AtomicU64::new(0);
    let control = SearchControl::default();
    let (send, receive) = mpsc::channel::<(u64, play::Played)>();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let send = send.clone();
            let (next, control) = (&next, &control);
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{t}"))
                .stack_size(STACK)
                .spawn_scoped(scope, move || worker(config, next, control, &send));
            if let Err(e) = spawned {
                log::warn!("datagen: could not start thread {t}: {e}");
                if t == 0 {
                    return Err(e);
                }
                break;
            }
        }
        drop(send);
        let written = write_in_order(config.target, &receive, out, progress);
        // Tell the games in flight to stop; their results are not wanted.
        control.stop.store(true, Ordering::Relaxed);
        written
    })
}

/// A game thread: plays the next unplayed index until the run is over.
fn worker(
    config: &Config,
    next: &AtomicU64,
    control: &SearchControl,
    send: &mpsc::Sender<(u64, play::Played)>,
) {
    let mut searcher = Searcher::new(HASH_MB);
    searcher.set_network(config.net.clone());
    loop {
        if control.stopped() {
            return;
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        if let Target::Games(n) = config.target {
            if index >= n {
                return;
            }
        }
        let seed = game_seed(config.seed, index);
        let played = play::play_game(&mut searcher, &config.openings, seed, config.nodes, control);
        if control.stopped() || send.send((index, played)).is_err() {
            return;
        }
    }
}

/// Writes games as they come, in index order, until the target.
fn write_in_order(
    target: Target,
    receive: &mpsc::Receiver<(u64, play::Played)>,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&Totals),
) -> io::Result<Totals> {
    let mut totals = Totals::default();
    let mut waiting: BTreeMap<u64, play::Played> = BTreeMap::new();
    // Games in a row that gave no record: with a position target, openings
    // whose games all end at once would otherwise never meet it.
    let mut empty = 0;
    // Games arrive out of order; the loop ends when every thread has hung up.
    for (index, played) in receive.iter() {
        waiting.insert(index, played);
        while let Some(game) = waiting.remove(&totals.games) {
            let mut bytes = &game.bytes[..];
            if let Target::Positions(n) = target {
                let room = (n - totals.positions) as usize * RECORD_BYTES;
                bytes = &bytes[..bytes.len().min(room)];
            }
            out.write_all(bytes)?;
            out.flush()?;
            totals.games += 1;
            totals.positions += (bytes.len() / RECORD_BYTES) as u64;
            totals.results[2 - game.result as usize] += 1;
            totals.endings[game.ending as usize] += 1;
            progress(&totals);
            empty = if bytes.is_empty() { empty + 1 } else { 0 };
            if empty >= MAX_EMPTY_GAMES {
                return Err(io::Error::other(format!(
                    "{MAX_EMPTY_GAMES} games in a row gave no position: the openings end too soon"
                )));
            }
            let done = match target {
                Target::Games(n) => totals.games >= n,
                Target::Positions(n) => totals.positions >= n,
            };
            if done {
                return Ok(totals);
            }
        }
    }
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(target: Target, threads: usize) -> Config {
        Config {
            openings: parse_openings(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
                 # a comment\n\
                 r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - hmvc 4;\n",
            )
            .unwrap(),
            target,
            nodes: 300,
            seed: 7,
            threads,
            net: Some(Network::built_in()),
        }
    }

    fn generate(config: &Config) -> (Vec<u8>, Totals) {
        let mut out = Vec::new();
        let mut calls = 0;
        let totals = run(config, &mut out, &mut |_| calls += 1).unwrap();
        assert_eq!(calls, totals.games);
        (out, totals)
    }

    #[test]
    fn the_data_does_not_depend_on_the_number_of_threads() {
        let (one, t1) = generate(&config(Target::Games(4), 1));
        let (three, t3) = generate(&config(Target::Games(4), 3));
        assert_eq!(t1, t3);
        assert_eq!(one, three);
        assert_eq!(t1.games, 4);
        assert_eq!(one.len() as u64, t1.positions * RECORD_BYTES as u64);
        assert!(t1.positions > 20, "{t1:?}");
    }

    #[test]
    fn a_position_target_is_met_exactly_with_a_prefix_of_the_games() {
        let (all, _) = generate(&config(Target::Games(3), 2));
        let n = (all.len() / RECORD_BYTES) as u64 - 3;
        let (cut, totals) = generate(&config(Target::Positions(n), 2));
        assert_eq!(totals.positions, n);
        assert_eq!(cut[..], all[..cut.len()]);
    }

    #[test]
    fn bad_openings_are_refused_with_their_line() {
        let err = parse_openings("\n8/8/8/8/8/8/8/8 w - -\n").unwrap_err();
        assert!(err.0.starts_with("line 2:"), "{err}");
        assert!(parse_openings("# nothing\n").is_err());
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq -";
        assert!(parse_openings(mated).unwrap_err().0.contains("over"));
        let bare = "8/8/4k3/8/8/3NK3/8/8 w - -";
        assert!(parse_openings(bare).unwrap_err().0.contains("insufficient"));
    }
}
