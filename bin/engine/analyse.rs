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
//!
//! With `-o OUT` the games go to a temporary file beside OUT, renamed over
//! it once every game is written: an interrupted or failed run leaves OUT
//! as it was. An OUT that is the input itself (by another name, a symbolic
//! or a hard link) is refused before anything is opened for writing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use movegen::pgn::{write_game, PgnGame, PgnReader};
use search::annotate::{review_game, ReviewStop};
use search::{Limits, SearchControl, Searcher};
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Stack for the analysing thread: the search recurses deeply.
const STACK: usize = 64 << 20;

/// What `engine analyse` was asked to do.
pub struct AnalyseOptions {
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
pub fn run(opts: AnalyseOptions) -> Result<(), String> {
    let open = || File::open(&opts.file).map_err(|e| format!("{}: {e}", opts.file.display()));
    if let Some(out) = &opts.out {
        refuse_input_as_output(&opts.file, out)?;
    }
    // A first pass counts the games and positions, for the progress bar.
    let (mut count, mut total) = (0, 0);
    for game in PgnReader::new(BufReader::new(open()?)) {
        count += 1;
        total += game.map_or(0, |g| g.mainline.moves.len() as u64 + 1);
    }
    let games = PgnReader::new(BufReader::new(open()?));
    let mut target = opts.out.as_deref().map(Target::new).transpose()?;
    let name = opts.file.display().to_string();
    std::thread::Builder::new()
        .name("analyse".into())
        .stack_size(STACK)
        .spawn(move || {
            let tally = match &mut target {
                Some(target) => analyse_all(&opts, games, &mut target.file, (count, total), &name),
                None => {
                    let mut out = BufWriter::new(std::io::stdout());
                    analyse_all(&opts, games, &mut out, (count, total), &name)
                }
            }?;
            // The output replaces the old one only once every game that
            // could be read is written; with none, the old one stays.
            if let Some(target) = target.filter(|_| tally.read > 0) {
                target.commit()?;
            }
            tally.verdict(&name)
        })
        .map_err(|e| format!("could not start the analysis thread: {e}"))?
        .join()
        .map_err(|_| "the analysis stopped on an internal error".to_string())?
}

/// Refuses an output file that is the input file, under whatever name: the
/// same path once links and `.` are resolved, or (on Unix) the same device
/// and inode, which also catches a hard link.
fn refuse_input_as_output(input: &Path, out: &Path) -> Result<(), String> {
    let refuse = || {
        Err(format!(
            "{}: this is the input file {}; write the annotated games to another file",
            out.display(),
            input.display()
        ))
    };
    // An output that does not exist yet cannot be the input.
    let (Ok(a), Ok(b)) = (fs::canonicalize(input), fs::canonicalize(out)) else {
        return Ok(());
    };
    if a == b {
        return refuse();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (fs::metadata(&a), fs::metadata(&b)) {
            if (a.dev(), a.ino()) == (b.dev(), b.ino()) {
                return refuse();
            }
        }
    }
    Ok(())
}

/// The output file being written: a temporary file in the output's
/// directory, renamed over the output by [`Target::commit`], removed if
/// dropped before (an error, a panic).
struct Target {
    /// The file to replace (a symbolic link's target: the link stays).
    path: PathBuf,
    temp: PathBuf,
    file: BufWriter<File>,
}

impl Target {
    fn new(out: &Path) -> Result<Target, String> {
        let shown = |e: std::io::Error| format!("{}: {e}", out.display());
        // Writing through a link replaces what it points to, as `File::create`
        // would have.
        let path = match fs::symlink_metadata(out) {
            Ok(m) if m.file_type().is_symlink() => fs::canonicalize(out).map_err(shown)?,
            _ => out.to_path_buf(),
        };
        let old = fs::metadata(&path).ok();
        if old.as_ref().is_some_and(|m| m.is_dir()) {
            return Err(format!("{}: is a directory", out.display()));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let base = path
            .file_name()
            .ok_or_else(|| format!("{}: not a file name", out.display()))?
            .to_string_lossy()
            .into_owned();
        let mut n = 0;
        let (temp, file) = loop {
            let temp = dir.join(format!(".{base}.{}-{n}.tmp", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => break (temp, file),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
                Err(e) => return Err(format!("{}: {e}", out.display())),
            }
        };
        // The new file keeps the old one's permissions.
        if let Some(old) = old {
            let _ = file.set_permissions(old.permissions());
        }
        Ok(Target {
            path,
            temp,
            file: BufWriter::new(file),
        })
    }

    /// Puts the finished file in the output's place.
    fn commit(mut self) -> Result<(), String> {
        let shown = |e: std::io::Error| format!("{}: {e}", self.temp.display());
        self.file.flush().map_err(shown)?;
        // On disk before the rename, so a crash cannot leave an empty file
        // in place of the old one.
        self.file.get_ref().sync_all().map_err(shown)?;
        fs::rename(&self.temp, &self.path).map_err(|e| format!("{}: {e}", self.path.display()))?;
        // Renamed: nothing left for `drop` to remove.
        self.temp = PathBuf::new();
        Ok(())
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        if !self.temp.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Games read and games that could not be read.
struct Tally {
    read: usize,
    bad: usize,
}

impl Tally {
    /// The run's outcome: `Err` when a game could not be read or there was
    /// none.
    fn verdict(&self, name: &str) -> Result<(), String> {
        match (self.read, self.bad) {
            (0, 0) => Err(format!("{name}: no games found")),
            (_, 0) => Ok(()),
            (read, bad) => Err(format!(
                "{name}: {bad} of {} games could not be read (the others were analysed)",
                read + bad
            )),
        }
    }
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
    opts: &AnalyseOptions,
    games: PgnReader<BufReader<File>>,
    out: &mut dyn Write,
    (count, total): (usize, u64),
    name: &str,
) -> Result<Tally, String> {
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
    Ok(Tally { read, bad })
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
