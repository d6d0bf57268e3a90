//! Fits the win-draw-loss model of `UCI_ShowWDL` (`crates/search/src/wdl.rs`)
//! to our own self-play games, and checks it on games it was not fitted on.
//!
//! Each game starts from an opening of `tests/data/openings.epd` followed by
//! a few random plies (seeded by the game's number), and is played by the
//! engine against itself at a fixed number of nodes per move on one thread,
//! so a run is reproducible on any machine. Every position after the random
//! plies gives a sample: the search's score, the material, and the game's
//! result, all for the side to move. Games end by mate, stalemate, the
//! fifty-move rule, threefold repetition, insufficient material, or as a
//! draw at 400 plies.
//!
//! The model's four constants are found by maximising the likelihood of the
//! results on four games in five (a pattern search over the constants); the
//! fifth game of each five is held out, and the model's predicted rates are
//! compared with what happened there, by bins of predicted win rate.
//!
//! `--csv FILE` also writes the calibration table as CSV, in the form of
//! `docs/data/wdl-calibration.csv`, from which `scripts/charts` draws the
//! calibration chart.
//!
//! ```text
//! cargo run --release --example wdl_fit -- [GAMES] [NODES] [--csv FILE]   # default 2000 games, 5000 nodes
//! ```

#[path = "support/selfplay.rs"]
mod selfplay;

use movegen::{Color, Position};
use search::{
    wdl_material, Limits, Score, SearchControl, SearchInfo, Searcher, WdlModel, WDL_MODEL,
};
use selfplay::{opening_game, openings};

/// One position of a game: score and material for the side to move, and the
/// result for the side to move (1 win, 0 draw, -1 loss).
#[derive(Clone, Copy)]
struct Sample {
    cp: f64,
    material: u32,
    result: i8,
}

const RANDOM_PLIES: usize = 4;
const MAX_PLIES: usize = 400;

/// Plays game `index` and returns its samples.
fn play(index: usize, start: &Position, nodes: u64, searcher: &mut Searcher) -> Vec<Sample> {
    let mut game = opening_game(start, 0x5EED_0000 + index as u64, RANDOM_PLIES);
    searcher.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    // (score for the side to move, material, side to move) per position.
    let mut seen: Vec<(i32, u32, Color)> = Vec::new();
    let winner: Option<Color> = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.winner();
        }
        if game.moves().len() >= MAX_PLIES {
            break None;
        }
        let mut last = None;
        let result = searcher.search(
            &game,
            &limits,
            &SearchControl::default(),
            &mut |info: &SearchInfo| last = Some(info.score),
        );
        let pos = *game.position();
        if let Some(Score::Cp(cp)) = last {
            seen.push((cp, wdl_material(&pos), pos.side_to_move()));
        }
        let mv = result
            .best
            .expect("a position with legal moves has a best move");
        game.play(mv).expect("the search returns a legal move");
    };
    seen.into_iter()
        .map(|(cp, material, side)| Sample {
            cp: f64::from(cp),
            material,
            result: match winner {
                None => 0,
                Some(w) if w == side => 1,
                Some(_) => -1,
            },
        })
        .collect()
}

/// Mean negative log-likelihood of the results under `model`; infinite for
/// a model whose midpoint or scale leaves the sane range anywhere between
/// bare kings and the full set (a step function or a draw-free model).
fn loss(model: &WdlModel, samples: &[Sample]) -> f64 {
    let sane = [0.0, 78.0]
        .iter()
        .all(|m| model.a[0] + model.a[1] * m >= 0.0 && model.b[0] + model.b[1] * m >= 10.0);
    if !sane {
        return f64::INFINITY;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = model.probabilities(s.cp, s.material);
            let i = match s.result {
                1 => 0,
                0 => 1,
                _ => 2,
            };
            -p[i].max(1e-9).ln()
        })
        .sum();
    total / samples.len() as f64
}

/// Hooke-Jeeves pattern search from `start`: try each constant up and down
/// by its step, keep what lowers the loss, halve the steps when nothing does.
fn fit(start: WdlModel, samples: &[Sample]) -> WdlModel {
    let mut x = [start.a[0], start.a[1], start.b[0], start.b[1]];
    let mut step = [50.0, 1.0, 20.0, 0.5];
    let model = |x: &[f64; 4]| WdlModel {
        a: [x[0], x[1]],
        b: [x[2], x[3]],
    };
    let mut best = loss(&model(&x), samples);
    for _ in 0..2000 {
        let mut improved = false;
        for i in 0..4 {
            for dir in [1.0, -1.0] {
                let mut y = x;
                y[i] += dir * step[i];
                let l = loss(&model(&y), samples);
                if l < best {
                    (x, best, improved) = (y, l, true);
                }
            }
        }
        if !improved {
            step.iter_mut().for_each(|s| *s /= 2.0);
            if step[0] < 0.01 {
                break;
            }
        }
    }
    model(&x)
}

/// One bin of the calibration table: its range of predicted win rates, its
/// positions, and the mean predicted and the observed W/D/L rates there.
struct Bin {
    low: f64,
    high: f64,
    positions: usize,
    predicted: [f64; 3],
    observed: [f64; 3],
}

/// Predicted against observed rates on `samples`, by bins of predicted win rate.
fn calibration(model: &WdlModel, samples: &[Sample]) -> Vec<Bin> {
    let edges = [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.01];
    let mut bins = Vec::new();
    for bin in edges.windows(2) {
        let inside: Vec<(&Sample, [f64; 3])> = samples
            .iter()
            .map(|s| (s, model.probabilities(s.cp, s.material)))
            .filter(|(_, p)| p[0] >= bin[0] && p[0] < bin[1])
            .collect();
        if inside.is_empty() {
            continue;
        }
        let n = inside.len() as f64;
        let mut predicted = [0.0; 3];
        let mut observed = [0.0; 3];
        for (s, p) in &inside {
            for k in 0..3 {
                predicted[k] += p[k] / n;
            }
            observed[(1 - s.result) as usize] += 1.0 / n;
        }
        bins.push(Bin {
            low: bin[0],
            high: bin[1].min(1.0),
            positions: inside.len(),
            predicted,
            observed,
        });
    }
    bins
}

/// Prints the calibration table as Markdown, rates in whole percent.
fn print_table(bins: &[Bin]) {
    let pct = |v: [f64; 3]| {
        format!(
            "{:.0}/{:.0}/{:.0}",
            v[0] * 100.0,
            v[1] * 100.0,
            v[2] * 100.0
        )
    };
    println!("| predicted win | positions | predicted W/D/L % | observed W/D/L % |");
    println!("|---|---|---|---|");
    for bin in bins {
        println!(
            "| {:.0}-{:.0}% | {} | {} | {} |",
            bin.low * 100.0,
            bin.high * 100.0,
            bin.positions,
            pct(bin.predicted),
            pct(bin.observed)
        );
    }
}

/// Writes the calibration table as CSV, rates in percent to one decimal,
/// after comment lines saying what it was measured on.
fn write_csv(path: &str, bins: &[Bin], about: &str) -> std::io::Result<()> {
    let mut text = format!("# {about}\n");
    text.push_str("bin_low,bin_high,positions,predicted_win,predicted_draw,predicted_loss,");
    text.push_str("observed_win,observed_draw,observed_loss\n");
    for bin in bins {
        text.push_str(&format!(
            "{:.0},{:.0},{}",
            bin.low * 100.0,
            bin.high * 100.0,
            bin.positions
        ));
        for rate in bin.predicted.iter().chain(&bin.observed) {
            text.push_str(&format!(",{:.1}", rate * 100.0));
        }
        text.push('\n');
    }
    std::fs::write(path, text)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let csv = match args.iter().position(|a| a == "--csv") {
        Some(at) if at + 1 < args.len() => {
            let path = args.remove(at + 1);
            args.remove(at);
            Some(path)
        }
        Some(_) => {
            eprintln!("--csv needs a file name");
            std::process::exit(2);
        }
        None => None,
    };
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let nodes: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let openings = openings();
    let mut searcher = Searcher::new(16);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut results = [0; 3];
    for index in 0..games {
        let samples = play(
            index,
            &openings[index % openings.len()],
            nodes,
            &mut searcher,
        );
        if let Some(first) = samples.first() {
            // The first sample's side is White or Black; count the result once.
            results[(1 - first.result.abs()) as usize] += 1;
        }
        if index % 5 == 4 {
            held.extend(samples);
        } else {
            train.extend(samples);
        }
    }
    println!(
        "{games} games at {nodes} nodes per move: {} decisive, {} drawn; {} positions to fit, {} held out",
        results[0],
        results[1],
        train.len(),
        held.len()
    );
    let model = fit(WDL_MODEL, &train);
    println!(
        "fitted: a(m) = {:.1} + {:.3} m, b(m) = {:.1} + {:.3} m",
        model.a[0], model.a[1], model.b[0], model.b[1]
    );
    // The baseline: the held-out results predicted by the training set's
    // overall rates, whatever the score.
    let mut rates = [0.0; 3];
    for s in &train {
        rates[(1 - s.result) as usize] += 1.0 / train.len() as f64;
    }
    let baseline: f64 = held
        .iter()
        .map(|s| -rates[(1 - s.result) as usize].max(1e-9).ln())
        .sum::<f64>()
        / held.len() as f64;
    println!(
        "held-out log loss: model {:.3}, the constants in wdl.rs {:.3}, score-blind rates {:.3}",
        loss(&model, &held),
        loss(&WDL_MODEL, &held),
        baseline
    );
    let bins = calibration(&model, &held);
    print_table(&bins);
    if let Some(path) = csv {
        let about = format!(
            "examples/wdl_fit: {games} self-play games at {nodes} nodes a move, the fitted model on \
             the {} held-out positions (every fifth game); rates in percent",
            held.len()
        );
        if let Err(e) = write_csv(&path, &bins, &about) {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
