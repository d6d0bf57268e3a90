//! Texel tuning of every evaluation weight, from our own self-play games.
//!
//! Two steps, both reproducible on any machine:
//!
//! ```text
//! cargo run --release --example texel -- gen GAMES NODES FILE   # self-play, one line per position
//! cargo run --release --example texel -- tune FILE [ITERATIONS] [LAMBDA] # fit, write weights.rs
//! ```
//!
//! `gen` plays the engine against itself at a fixed number of nodes per move
//! on one thread per game (games are shared out over the machine's cores, and
//! each game is fixed by its number, so the file is the same on every run).
//! Each game starts from an opening of `tests/data/openings.epd` and a few
//! seeded random plies. A game ends by the rules, or is adjudicated: won once
//! both sides have scored it beyond 1000 centipawns for 4 plies in a row,
//! drawn once the score has stayed within 10 centipawns for 16 plies after
//! ply 80. Every position after the random plies where the side to move is
//! not in check and the engine's move neither captures nor promotes is
//! written as `FEN;result`, the result from White's side (1, 0.5 or 0).
//!
//! `tune` computes how often each weight counts in each position
//! (`search::tune::features`), so the evaluation is linear in the weights,
//! then minimises the mean squared error between the game result and
//! `sigmoid(k · eval / 400)`, with `k` first fitted to the current weights.
//! It takes full-batch Adam steps over all weights at once, holding out one
//! run of positions in ten, keeps the weights that predict those best (the
//! positions of a game share its result, so a long fit learns the games),
//! and writes them rounded to `crates/search/src/weights.rs`.

#[path = "support/selfplay.rs"]
mod selfplay;

use movegen::{Color, Move, MoveKind, Position};
use search::tune::{self, Features};
use search::{Limits, Score, SearchControl, SearchInfo, Searcher};
use selfplay::{opening_game, openings};
use std::fmt::Write as _;
use std::io::Write as _;

const RANDOM_PLIES: usize = 6;
const MAX_PLIES: usize = 400;
const WEIGHTS_FILE: &str = "crates/search/src/weights.rs";
/// How hard each weight is pulled back to its starting value: the games
/// hold few independent results (one per game), so without the pull the
/// rarely seen weights wander with the noise.
const LAMBDA: f64 = 1e-8;

/// Whether `mv` captures or promotes.
fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.promotion().is_some()
        || mv.kind() == MoveKind::EnPassant
        || (!mv.is_castle() && pos.occupied().has(mv.to()))
}

/// Plays game `index`; returns its quiet positions as FENs and the result
/// from White's side.
fn play(index: usize, start: &Position, nodes: u64, searcher: &mut Searcher) -> (Vec<String>, f64) {
    let mut game = opening_game(start, 0x7E8E_0000 + index as u64, RANDOM_PLIES);
    searcher.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut quiet = Vec::new();
    let (mut winning, mut level) = (0i32, 0);
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if game.moves().len() >= MAX_PLIES {
            break 0.5;
        }
        let mut last = None;
        let found = searcher.search(
            &game,
            &limits,
            &SearchControl::default(),
            &mut |info: &SearchInfo| last = Some(info.score),
        );
        let pos = *game.position();
        let mv = found
            .best
            .expect("a position with legal moves has a best move");
        if !pos.in_check() && !is_tactical(&pos, mv) {
            quiet.push(pos.fen());
        }
        // The score from White's side, mates as large scores.
        let white = match last {
            Some(Score::Cp(cp)) => cp,
            Some(Score::Mate(n)) => 30_000 * n.signum(),
            None => 0,
        } * if pos.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        winning = if white.abs() >= 1000 && white.signum() == winning.signum() {
            winning + white.signum()
        } else if white.abs() >= 1000 {
            white.signum()
        } else {
            0
        };
        level = if white.abs() <= 10 { level + 1 } else { 0 };
        if winning.abs() >= 4 {
            break if winning > 0 { 1.0 } else { 0.0 };
        }
        if level >= 16 && game.moves().len() >= 80 {
            break 0.5;
        }
        game.play(mv).expect("the search returns a legal move");
    };
    (quiet, result)
}

fn generate(games: usize, nodes: u64, path: &str) {
    let openings = openings();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut per_game: Vec<(usize, Vec<String>, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (openings, done) = (&openings, &done);
                s.spawn(move || {
                    let mut searcher = Searcher::new(16);
                    let mut out = Vec::new();
                    for index in (w..games).step_by(workers) {
                        let start = &openings[index % openings.len()];
                        let (fens, result) = play(index, start, nodes, &mut searcher);
                        out.push((index, fens, result));
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if n.is_multiple_of(100) {
                            eprintln!("{n}/{games} games");
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a self-play thread panicked"))
            .collect()
    });
    per_game.sort_by_key(|g| g.0);
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("create the file"));
    let (mut positions, mut scores) = (0, [0; 3]);
    for (_, fens, result) in &per_game {
        scores[(result * 2.0) as usize] += 1;
        for fen in fens {
            writeln!(file, "{fen};{result}").expect("write the file");
            positions += 1;
        }
    }
    file.flush().expect("write the file");
    println!(
        "{games} games at {nodes} nodes: White won {}, drew {}, lost {}; {positions} quiet positions in {path}",
        scores[2], scores[1], scores[0]
    );
}

/// The positions as the tuner sees them.
struct Data {
    features: Vec<Features>,
    results: Vec<f64>,
}

fn load(path: &str) -> Data {
    let text = std::fs::read_to_string(path).expect("read the positions file");
    let mut data = Data {
        features: Vec::new(),
        results: Vec::new(),
    };
    for line in text.lines() {
        let (fen, result) = line.rsplit_once(';').expect("lines are FEN;result");
        let pos = Position::from_fen(fen).expect("the file holds legal FENs");
        data.features.push(tune::features(&pos));
        data.results
            .push(result.parse().expect("a result is a number"));
    }
    data
}

/// The evaluation from White's side, in floating point.
fn eval(f: &Features, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(slot, n) in &f.counts {
        let n = f64::from(n);
        mg += w[usize::from(slot)][0] * n;
        eg += w[usize::from(slot)][1] * n;
    }
    let phase = f64::from(f.phase) / f64::from(tune::MAX_PHASE);
    let tempo = f64::from(tune::TEMPO);
    mg * phase
        + eg * (1.0 - phase)
        + if f.side_to_move == Color::White {
            tempo
        } else {
            -tempo
        }
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0).exp())
}

/// Mean squared error over the positions `pick` selects.
fn error(data: &Data, w: &[[f64; 2]], k: f64, pick: impl Fn(usize) -> bool) -> f64 {
    let (mut sum, mut n) = (0.0, 0);
    for (i, f) in data.features.iter().enumerate().filter(|(i, _)| pick(*i)) {
        let d = data.results[i] - sigmoid(k, eval(f, w));
        sum += d * d;
        n += 1;
    }
    sum / f64::from(n.max(1))
}

/// Positions go in runs of 100 (about a game and a half: the file is in
/// game order), one run in ten held out, so held-out positions mostly come
/// from games the fit never saw.
fn held_out(i: usize) -> bool {
    (i / 100).is_multiple_of(10)
}

fn train(i: usize) -> bool {
    !held_out(i)
}

/// The scale `k` that fits the current weights best (golden-section search).
fn fit_k(data: &Data, w: &[[f64; 2]]) -> f64 {
    let (mut lo, mut hi) = (0.1, 4.0);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(data, w, a, train) < error(data, w, b, train) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn tune_weights(path: &str, iterations: usize, lambda: f64) {
    let data = load(path);
    let mut w: Vec<[f64; 2]> = tune::WEIGHTS
        .iter()
        .map(|&(m, e)| [f64::from(m), f64::from(e)])
        .collect();
    let prior = w.clone();
    let k = fit_k(&data, &w);
    println!(
        "{} positions; k = {k:.3}; error before: train {:.6}, held out {:.6}",
        data.features.len(),
        error(&data, &w, k, train),
        error(&data, &w, k, held_out)
    );
    let (beta1, beta2, rate) = (0.9, 0.999, 0.5);
    let mut m = vec![[0.0; 2]; w.len()];
    let mut v = vec![[0.0; 2]; w.len()];
    let n_train = (0..data.features.len()).filter(|&i| train(i)).count() as f64;
    let mut best = (error(&data, &w, k, held_out), 0, w.clone());
    for t in 1..=iterations {
        let mut grad = vec![[0.0f64; 2]; w.len()];
        for (i, f) in data.features.iter().enumerate().filter(|(i, _)| train(*i)) {
            let s = sigmoid(k, eval(f, &w));
            // d(error)/d(eval), shared by every weight of the position.
            let common = -2.0 * (data.results[i] - s) * s * (1.0 - s) * k / 400.0;
            let phase = f64::from(f.phase) / f64::from(tune::MAX_PHASE);
            for &(slot, n) in &f.counts {
                let g = &mut grad[usize::from(slot)];
                g[0] += common * f64::from(n) * phase;
                g[1] += common * f64::from(n) * (1.0 - phase);
            }
        }
        for j in 0..w.len() {
            for p in 0..2 {
                // The pull back to where the weight started (L2).
                let g = grad[j][p] / n_train + 2.0 * lambda * (w[j][p] - prior[j][p]);
                m[j][p] = beta1 * m[j][p] + (1.0 - beta1) * g;
                v[j][p] = beta2 * v[j][p] + (1.0 - beta2) * g * g;
                let mh = m[j][p] / (1.0 - beta1.powi(t as i32));
                let vh = v[j][p] / (1.0 - beta2.powi(t as i32));
                w[j][p] -= rate * mh / (vh.sqrt() + 1e-12);
            }
        }
        if t % 10 == 0 {
            let held = error(&data, &w, k, held_out);
            if held < best.0 {
                best = (held, t, w.clone());
            }
            if t % 100 == 0 {
                let train = error(&data, &w, k, train);
                println!("iteration {t}: train {train:.6}, held out {held:.6}");
            }
        }
    }
    // Positions of one game share its result, so the fit can learn the games
    // rather than the positions: keep the weights that did best on games it
    // never saw (early stopping).
    let (held, at, w) = best;
    println!("best on the held-out positions: {held:.6} at iteration {at}");
    let rounded: Vec<(i32, i32)> = w
        .iter()
        .map(|p| (p[0].round() as i32, p[1].round() as i32))
        .collect();
    let as_f: Vec<[f64; 2]> = rounded
        .iter()
        .map(|&(a, b)| [f64::from(a), f64::from(b)])
        .collect();
    println!(
        "rounded: train {:.6}, held out {:.6}",
        error(&data, &as_f, k, train),
        error(&data, &as_f, k, held_out)
    );
    std::fs::write(WEIGHTS_FILE, weights_source(&rounded)).expect("write weights.rs");
    println!("wrote {WEIGHTS_FILE}");
}

/// `weights.rs` for `w`, one commented block per table.
fn weights_source(w: &[(i32, i32)]) -> String {
    // (comment, weights per line, weights in the group), in slot order.
    let mut groups: Vec<(String, usize, usize)> = vec![(
        "material: pawn, knight, bishop, rook, queen, king".into(),
        6,
        6,
    )];
    for p in ["pawn", "knight", "bishop", "rook", "queen", "king"] {
        groups.push((format!("piece squares, {p}: a1..h1 up to a8..h8"), 8, 64));
    }
    for (name, n) in [("knight", 9), ("bishop", 14), ("rook", 15), ("queen", 28)] {
        groups.push((
            format!("mobility, {name}: 0 to {} safe squares", n - 1),
            7,
            n,
        ));
    }
    groups.push(("passed pawn by rank, 1 to 8".into(), 8, 8));
    groups.push((
        "doubled, isolated, bishop pair, rook open file, rook half-open file, king shield".into(),
        6,
        6,
    ));
    groups.push(("king danger by attack units, 0 to 47".into(), 8, 48));
    groups.push((
        "pawn supported, passer king race, passer blocked, threat by pawn".into(),
        4,
        4,
    ));
    let mut out = String::from(
        "//! Evaluation weights: (middlegame, endgame) centipawns in the slots named\n\
         //! by `params.rs`. Written by `cargo run --release --example texel` (see\n\
         //! docs/search.md); change the tuner or its data, not this file.\n\n\
         /// Every weight of the evaluation, in the order of `params.rs`.\n\
         #[rustfmt::skip]\n",
    );
    let _ = writeln!(out, "pub const WEIGHTS: [(i32, i32); {}] = [", w.len());
    let mut at = 0;
    for (name, per_line, size) in groups {
        let _ = writeln!(out, "    // {name}");
        for line in w[at..at + size].chunks(per_line) {
            let cells: Vec<String> = line.iter().map(|(m, e)| format!("({m}, {e}),")).collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
        at += size;
    }
    assert_eq!(at, w.len(), "the groups cover every slot");
    out.push_str("];\n");
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: texel gen GAMES NODES FILE | texel tune FILE [ITERATIONS] [LAMBDA] | texel write";
    match args.first().map(String::as_str) {
        Some("gen") if args.len() == 4 => {
            let games = args[1].parse().expect("GAMES is a number");
            let nodes = args[2].parse().expect("NODES is a number");
            generate(games, nodes, &args[3]);
        }
        Some("tune") if args.len() >= 2 => {
            let number = |i: usize, default: f64| {
                args.get(i).map_or(default, |a| {
                    a.parse().expect("ITERATIONS and LAMBDA are numbers")
                })
            };
            tune_weights(&args[1], number(2, 1000.0) as usize, number(3, LAMBDA));
        }
        // Rewrites weights.rs unchanged: checks the writer's format.
        Some("write") => {
            std::fs::write(WEIGHTS_FILE, weights_source(&tune::WEIGHTS)).expect("write weights.rs");
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
