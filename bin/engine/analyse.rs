//! `engine analyse GAMES.pgn`: each game is reviewed by
//! `search::annotate::review_game` (every mainline position searched, each
//! move judged by `search::review`) and written again as PGN with NAGs, the
//! better move as a variation, `[%eval ...]` comments and each player's
//! totals in the first comment. The board page's Review calls the same
//! function.
//!
//! A game that cannot be read is reported on stderr (game number, move,
//! token) and the others are still analysed; the exit status is then
//! non-zero. The search runs on a thread of its own with a large stack, so
//! the main thread only waits for it and reports.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use movegen::pgn::{write_game, PgnGame, PgnReader};
use search::annotate::{review_game, ReviewStop};
use search::{Limits, SearchControl, Searcher};
use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

/// Stack for the analysing thread: the search recurses deeply.
const STACK: usize = 64 << 20;

/// What `engine analyse` was asked to do.
pub struct Options {
    /// The PGN file.
    pub file: PathBuf,
    /// Search each position to this depth (default when no movetime).
    pub depth: u32,
    /// Or search each position this long.
    pub movetime: Option<Duration>,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size.
    pub hash_mb: usize,
    /// Where to write the annotated games (default: stdout).
    pub out: Option<PathBuf>,
}

/// Runs the analysis; `Err` names what went wrong (after writing every game
/// that could be analysed).
pub fn run(opts: Options) -> Result<(), String> {
    let open = || File::open(&opts.file).map_err(|e| format!("{}: {e}", opts.file.display()));
    // A first pass counts the games and positions, for the progress bar.
    let (mut count, mut total) = (0, 0);
    for game in PgnReader::new(BufReader::new(open()?)) {
        count += 1;
        total += game.map_or(0, |g| g.mainline.moves.len() as u64 + 1);
    }
    let games = PgnReader::new(BufReader::new(open()?));
    let out: Box<dyn Write + Send> = match &opts.out {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout())),
    };
    let name = opts.file.display().to_string();
    std::thread::Builder::new()
        .name("analyse".into())
        .stack_size(STACK)
        .spawn(move || analyse_all(&opts, games, out, (count, total), &name))
        .map_err(|e| format!("could not start the analysis thread: {e}"))?
        .join()
        .map_err(|_| "the analysis stopped on an internal error".to_string())?
}

fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:20}] game {prefix}, {pos}/{len} positions, ETA {eta}",
        )
        .expect("the progress template is valid")
        .progress_chars("=> "),
    );
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar
}

fn analyse_all(
    opts: &Options,
    games: PgnReader<BufReader<File>>,
    mut out: Box<dyn Write + Send>,
    (count, total): (usize, u64),
    name: &str,
) -> Result<(), String> {
    let bar = progress_bar(total);
    let mut searcher = Searcher::new(opts.hash_mb);
    let limits = Limits {
        depth: opts.movetime.is_none().then_some(opts.depth),
        movetime: opts.movetime,
        threads: opts.threads,
        multipv: 2,
        ..Limits::default()
    };
    let label = match opts.movetime {
        Some(t) => format!("{} ms a position", t.as_millis()),
        None => format!("depth {}", opts.depth),
    };
    let (mut read, mut bad) = (0, 0);
    for (i, item) in games.enumerate() {
        bar.set_prefix(format!("{}/{count}", i + 1));
        match item {
            Ok(mut game) => {
                read += 1;
                searcher.clear();
                review_one(&mut searcher, &limits, &mut game, &label, &bar)?;
                out.write_all(write_game(&game).as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("writing the annotated games: {e}"))?;
            }
            Err(e) => {
                bad += 1;
                bar.suspend(|| eprintln!("error: {name}: {e}"));
            }
        }
    }
    bar.finish_and_clear();
    match (read, bad) {
        (0, 0) => Err(format!("{name}: no games found")),
        (_, 0) => Ok(()),
        (read, bad) => Err(format!(
            "{name}: {bad} of {} games could not be read (the others were analysed)",
            read + bad
        )),
    }
}

fn review_one(
    searcher: &mut Searcher,
    limits: &Limits,
    game: &mut PgnGame,
    label: &str,
    bar: &ProgressBar,
) -> Result<(), String> {
    let control = SearchControl::default();
    review_game(searcher, limits, &control, game, label, &mut |_| bar.inc(1))
        .map(|_| ())
        .map_err(|e| match e {
            ReviewStop::IllegalMove(i) => format!("mainline move {} is not legal", i + 1),
            ReviewStop::Stopped => "the analysis was stopped".to_string(),
        })
}
