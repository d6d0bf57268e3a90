//! `engine train`: the command-line side of `search::nnue::train` (reading
//! the record files, the progress bar, the epoch lines, writing the network).
//!
//! The network goes to `FILE.part` and is renamed to `FILE` at the end, so
//! `FILE` is only ever a finished network; a run that fails leaves neither.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use search::nnue::train::{self, Event, TrainConfig};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `engine train` was asked to do.
pub struct TrainOptions {
    pub out: PathBuf,
    pub data: Vec<PathBuf>,
    pub config: TrainConfig,
}

/// Trains and writes the network; the epochs and a summary go to stdout.
pub fn run(opts: TrainOptions) -> Result<(), String> {
    let start = Instant::now();
    opts.config.check()?;
    if opts.out.is_dir() {
        return Err(format!("{} is a directory", opts.out.display()));
    }
    let part = part_path(&opts.out);
    // Fail before the work if the file cannot be written.
    std::fs::File::create(&part).map_err(|e| format!("cannot create {}: {e}", part.display()))?;
    let result = train_and_write(&opts, &part, start);
    if result.is_err() {
        let _ = std::fs::remove_file(&part);
    }
    result
}

fn train_and_write(opts: &TrainOptions, part: &Path, start: Instant) -> Result<(), String> {
    let records = train::read_records(&opts.data)?;
    println!(
        "read {} records from {} file(s) in {:.1} s",
        records.len(),
        opts.data.len(),
        start.elapsed().as_secs_f64()
    );
    let bar = bar();
    let mut epoch_secs = 0.0;
    let (net, summary) = train::train(&records, &opts.config, &mut |event| match event {
        Event::Start {
            k,
            fitted,
            train,
            valid,
        } => {
            bar.suspend(|| println!(
                "K {k:.1} ({}); training {} positions of {} games, validation {} positions of {} games",
                if *fitted { "fitted" } else { "given" },
                train.0,
                train.1,
                valid.0,
                valid.1
            ));
            bar.set_length(train.0 as u64);
        }
        Event::Batch { epoch, done, .. } => {
            bar.set_position(*done as u64);
            bar.set_message(format!("epoch {epoch}/{}", opts.config.epochs));
        }
        Event::Epoch(r) => {
            epoch_secs += r.seconds;
            let valid = r
                .valid_loss
                .map_or_else(|| "-".to_string(), |v| format!("{v:.6}"));
            bar.suspend(|| {
                println!(
                    "epoch {:>3}  lr {:.1e}  train {:.6}  valid {valid}  {:.1} s",
                    r.epoch, r.lr, r.train_loss, r.seconds
                )
            });
        }
    })?;
    bar.finish_and_clear();
    std::fs::write(part, net.to_bytes()).map_err(|e| format!("writing {}: {e}", part.display()))?;
    std::fs::rename(part, &opts.out).map_err(|e| {
        format!(
            "cannot move {} to {}: {e}",
            part.display(),
            opts.out.display()
        )
    })?;
    let secs = start.elapsed().as_secs_f64();
    let positions = summary.train_positions * opts.config.epochs;
    println!("file {} scale {}", opts.out.display(), net.scale());
    println!(
        "positions {} train, {} validation; games {} train, {} validation",
        summary.train_positions, summary.valid_positions, summary.train_games, summary.valid_games
    );
    println!(
        "quantisation: mean |float - integer| {:.2} cp over {} positions",
        summary.quant_error_cp, summary.quant_positions
    );
    println!(
        "time {secs:.1} s; epochs {epoch_secs:.1} s, {:.1} s each, {:.0} positions/s",
        epoch_secs / opts.config.epochs as f64,
        positions as f64 / epoch_secs.max(1e-9)
    );
    Ok(())
}

/// `FILE.part`, where the network is written until it is done.
fn part_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// A bar of the epoch's positions on stderr when it is a terminal; hidden
/// otherwise.
fn bar() -> ProgressBar {
    let draw = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(1), draw);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:20}] {pos}/{len} positions, {msg}, ETA {eta}",
        )
        .expect("the progress template is valid")
        .progress_chars("=> "),
    );
    bar
}
