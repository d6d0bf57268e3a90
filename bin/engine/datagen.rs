//! `engine datagen`: the command-line side of `search::datagen` (openings,
//! the output file, the progress bar and the summary).
//!
//! The records go to `FILE.part`, flushed after each game, and the file is
//! renamed to `FILE` when the run ends, so `FILE` is only ever a finished
//! run; an interrupted run leaves `FILE.part` holding its first games
//! whole (see docs/datagen.md for what to do with it).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use search::datagen::{self, Config, Target, Totals};
use search::nnue::Network;
use std::fs::File;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The default openings: both files of `tests/data`, in the binary so the
/// data is the same wherever the command runs.
const OPENINGS: [&str; 2] = [
    include_str!("../../tests/data/openings.epd"),
    include_str!("../../tests/data/openings-wide.epd"),
];

/// What `engine datagen` was asked to do.
pub struct DatagenOptions {
    pub out: PathBuf,
    pub target: Target,
    pub nodes: u64,
    pub seed: u64,
    pub threads: usize,
    pub openings: Option<PathBuf>,
    /// `built-in`, `hce` or a network file.
    pub eval: String,
}

/// The network `--eval` names (`None`: the hand-written evaluation).
pub fn network(eval: &str) -> Result<Option<Arc<Network>>, String> {
    match eval {
        "built-in" => Ok(Some(Network::built_in())),
        "hce" => Ok(None),
        path => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read network {path}: {e}"))?;
            let net = Network::from_bytes(&bytes).map_err(|e| format!("network {path}: {e}"))?;
            Ok(Some(Arc::new(net)))
        }
    }
}

/// Runs the games and writes the file; a summary goes to stdout.
pub fn run(opts: DatagenOptions) -> Result<(), String> {
    let net = network(&opts.eval)?;
    let openings = match &opts.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
            datagen::parse_openings(&text)
                .map_err(|e| format!("openings {}: {e}", path.display()))?
        }
        None => datagen::parse_openings(&OPENINGS.concat())
            .map_err(|e| format!("built-in openings: {e}"))?,
    };
    if opts.out.is_dir() {
        return Err(format!("{} is a directory", opts.out.display()));
    }
    let part = part_path(&opts.out);
    let mut file =
        File::create(&part).map_err(|e| format!("cannot create {}: {e}", part.display()))?;
    let config = Config {
        openings,
        target: opts.target,
        nodes: opts.nodes,
        seed: opts.seed,
        threads: opts.threads,
        net,
    };
    let bar = bar(opts.target);
    let start = Instant::now();
    let totals = datagen::run(&config, &mut file, &mut |t| {
        bar.set_position(match opts.target {
            Target::Games(_) => t.games,
            Target::Positions(_) => t.positions,
        });
        bar.set_message(format!("{} games, {} positions", t.games, t.positions));
    })
    .map_err(|e| format!("writing {}: {e}", part.display()))?;
    bar.finish_and_clear();
    file.sync_all()
        .and_then(|()| std::fs::rename(&part, &opts.out))
        .map_err(|e| {
            format!(
                "cannot move {} to {}: {e}",
                part.display(),
                opts.out.display()
            )
        })?;
    summary(&opts, &totals, start.elapsed().as_secs_f64());
    Ok(())
}

/// `FILE.part`, where a run writes until it is done.
fn part_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// A bar on stderr when it is a terminal; hidden otherwise.
fn bar(target: Target) -> ProgressBar {
    let len = match target {
        Target::Games(n) | Target::Positions(n) => n,
    };
    let unit = match target {
        Target::Games(_) => "games",
        Target::Positions(_) => "positions",
    };
    let draw = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(len), draw);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:20}}] {{pos}}/{{len}} {unit}: {{msg}}, ETA {{eta}}"
        ))
        .expect("the progress template is valid")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    bar
}

fn summary(opts: &DatagenOptions, t: &Totals, secs: f64) {
    let per_hour = |n: u64| n as f64 * 3600.0 / secs.max(1e-9);
    println!("file {}", opts.out.display());
    println!("eval {} nodes {}", opts.eval, opts.nodes);
    println!("games {} positions {}", t.games, t.positions);
    println!(
        "results white {} draw {} black {}",
        t.results[0], t.results[1], t.results[2]
    );
    println!(
        "endings rules {} resigned {} adjudicated-draw {}",
        t.endings[0], t.endings[1], t.endings[2]
    );
    println!(
        "time {secs:.1} s: {:.0} games/h, {:.0} positions/h",
        per_hour(t.games),
        per_hour(t.positions)
    );
}
