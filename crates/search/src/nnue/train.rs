//! The trainer: fits the network of [`super`] to self-play records
//! (docs/datagen.md) in floating point, then quantises it to a [`Network`].
//!
//! # The method
//!
//! Every record is one position with the search's score and the game's
//! result. Both are turned to the side to move's view, and the target is a
//! blend of the two on a win-probability scale:
//!
//! ```text
//! target = λ · σ(score / K) + (1 − λ) · result,   result ∈ {0, ½, 1}
//! ```
//!
//! `K` (centipawns per logit) is fitted first, on the training records
//! alone: the `K` that makes `σ(score / K)` predict the results best in
//! squared error (a golden-section search over 50 to 1000). The network's
//! output `y` is read in logits, the prediction is `σ(y)`, and the loss is
//! the mean of `(σ(y) − target)²`. The network file's scale is `round(K)`,
//! so the engine's evaluation is `y · K` centipawns.
//!
//! The parameters are `f32`. Their start comes from a seeded SplitMix64
//! generator: accumulator weights uniform in ±`0.5/√32` (with about 30
//! pieces, an accumulator then starts with a spread of about 0.3, across the
//! clipped ReLU's live range 0 to 1), output weights uniform in ±`1/√256`,
//! biases zero (so the first predictions are all near ½). Adam (β₁ 0.9,
//! β₂ 0.999, ε 10⁻⁸) steps once per mini-batch, the learning rate dropping
//! tenfold for the last quarter of the epochs (from epoch
//! `epochs − epochs / 4 + 1` on). After each step every accumulator weight
//! and bias is clipped to ±1.98 and every output weight to ±127/`QB`:
//! quantised, they then stay within ±505 and ±127, and
//! [`Network::check_range`] passes. (`QB` is 256 rather than 64 because
//! trained output weights are small: at 64 the rounding of weights near
//! 0.2 cost about 7 centipawns on average.)
//! The training records are shuffled each epoch with the same generator.
//!
//! The last `valid` fraction of the games (whole games, split at a game's
//! first record) is held out, and its loss reported after each epoch.
//!
//! # Speed and determinism
//!
//! A position touches only the accumulator rows of its pieces (at most 32
//! per perspective), forward and backward. A batch is cut into
//! [`CHUNKS`] fixed chunks whatever the number of threads; each chunk's
//! gradient goes to its own buffer, the threads take chunks, and the
//! buffers are summed in chunk order. Every floating-point sum is thus done
//! in the same order on any number of threads, and the same records, seed
//! and settings give the same network, byte for byte.

use super::simd::avx2_dispatch;
use super::{accumulator, Network, HIDDEN, INPUTS, QA, QB};
use crate::datagen::record::{self, RECORD_BYTES};
use movegen::rng::SplitMix64;
use std::io::Read;
use std::path::Path;
use std::time::Instant;

/// The bit of a training index that says its position is seen mirrored.
const MIRROR: u32 = 1 << 31;

/// Chunks per batch (and per validation pass): fixed, so that sums do not
/// depend on the number of threads.
pub const CHUNKS: usize = 16;
/// The bound every accumulator weight and bias is clipped to.
pub const CLIP: f32 = 1.98;
/// Output weights are kept within this: quantised, they stay within
/// [`MAX_OUTPUT_WEIGHT`](super::MAX_OUTPUT_WEIGHT).
pub const OUT_CLIP: f32 = super::MAX_OUTPUT_WEIGHT as f32 / QB as f32;
/// The range `K` is searched in (centipawns per logit).
pub const K_RANGE: (f64, f64) = (50.0, 1000.0);
/// Validation positions the quantised network is compared on.
const QUANT_SAMPLE: usize = 1000;

/// Offsets of the parameters in the flat vector.
const FT_W: usize = 0;
const FT_B: usize = INPUTS * HIDDEN;
const OUT_W: usize = FT_B + HIDDEN;
const OUT_B: usize = OUT_W + 2 * HIDDEN;
/// Parameters in all.
const PARAMS: usize = OUT_B + 1;

/// What [`train`] is asked to do.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training records (1 or more).
    pub epochs: usize,
    /// Positions per Adam step (1 or more).
    pub batch: usize,
    /// Adam's learning rate (dropped tenfold for the last quarter of the epochs).
    pub lr: f32,
    /// Weight of the score in the target, against the game's result (0 to 1).
    pub lambda: f64,
    /// Centipawns per logit; `None` fits it to the training records.
    pub k: Option<f64>,
    /// Seed of the start weights and of the shuffles.
    pub seed: u64,
    /// Threads (the result does not depend on them).
    pub threads: usize,
    /// Fraction of the games, the last ones, held out (0 to below 1).
    pub valid: f64,
    /// Whether half of the positions without castling rights are seen
    /// mirrored (files a and h swapped), drawn anew each epoch.
    pub mirror: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 20,
            batch: 16384,
            lr: 0.001,
            lambda: 0.75,
            k: None,
            seed: 0,
            threads: 1,
            valid: 0.05,
            mirror: true,
        }
    }
}

impl TrainConfig {
    /// Refuses settings out of range.
    pub fn check(&self) -> Result<(), String> {
        if self.epochs == 0 {
            return Err("epochs must be 1 or more".into());
        }
        if self.batch == 0 {
            return Err("the batch must be 1 position or more".into());
        }
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return Err(format!("learning rate {} is not above 0", self.lr));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(format!("lambda {} is not in 0..1", self.lambda));
        }
        if let Some(k) = self.k {
            if !(1.0..=2000.0).contains(&k) {
                return Err(format!("K {k} is not in 1..2000"));
            }
        }
        if !(0.0..1.0).contains(&self.valid) {
            return Err(format!(
                "the validation fraction {} is not in 0..1",
                self.valid
            ));
        }
        Ok(())
    }
}

/// What [`train`] tells its caller as it goes.
#[derive(Clone, Debug)]
pub enum Event {
    /// The data is split and `K` known; training starts.
    Start {
        /// Centipawns per logit.
        k: f64,
        /// Whether `k` was fitted (rather than given).
        fitted: bool,
        /// Training positions and games.
        train: (usize, usize),
        /// Validation positions and games.
        valid: (usize, usize),
    },
    /// A batch is done.
    Batch {
        /// The epoch, from 1.
        epoch: usize,
        /// Training positions done in this epoch.
        done: usize,
        /// Training positions per epoch.
        total: usize,
    },
    /// An epoch is done.
    Epoch(EpochReport),
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// The learning rate used.
    pub lr: f32,
    /// Mean loss over the epoch's batches (each taken before its step).
    pub train_loss: f64,
    /// Loss on the held-out games after the epoch (`None` without any).
    pub valid_loss: Option<f64>,
    /// Seconds the epoch took, validation included.
    pub seconds: f64,
}

/// What a finished run reports besides the network.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Centipawns per logit (the network's scale is its rounding).
    pub k: f64,
    /// Training positions.
    pub train_positions: usize,
    /// Training games.
    pub train_games: usize,
    /// Held-out positions.
    pub valid_positions: usize,
    /// Held-out games.
    pub valid_games: usize,
    /// The last epoch's figures.
    pub last: EpochReport,
    /// Positions the quantised network was compared on.
    pub quant_positions: usize,
    /// Mean |float evaluation − integer evaluation| over them, centipawns.
    pub quant_error_cp: f64,
    /// Seconds for the whole run.
    pub seconds: f64,
}

/// Uniform in [-1, 1), from the top 24 bits of the next draw.
fn symmetric(rng: &mut SplitMix64) -> f32 {
    ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

/// Uniform in 0..n (n ≥ 1), by multiply-shift rather than
/// [`SplitMix64::below`]'s modulo: the trainer's draws since its first
/// network, kept so that a seed trains the same network as before.
fn below_by_multiply(rng: &mut SplitMix64, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// Reads record files, one after the other, into memory. A file that is
/// missing, empty, or not a whole number of records is an error.
pub fn read_records<P: AsRef<Path>>(paths: &[P]) -> Result<Vec<[u8; RECORD_BYTES]>, String> {
    let mut out = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let len = file
            .metadata()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .len();
        if len == 0 {
            return Err(format!("{} is empty", path.display()));
        }
        if len % RECORD_BYTES as u64 != 0 {
            return Err(format!(
                "{} is {len} bytes, not a whole number of {RECORD_BYTES}-byte records",
                path.display()
            ));
        }
        let n = usize::try_from(len / RECORD_BYTES as u64)
            .map_err(|_| format!("{} is too large", path.display()))?;
        out.reserve(n);
        let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
        for _ in 0..n {
            let mut rec = [0u8; RECORD_BYTES];
            reader
                .read_exact(&mut rec)
                .map_err(|e| format!("reading {}: {e}", path.display()))?;
            out.push(rec);
        }
    }
    Ok(out)
}

/// Checks that every record can be read as a position: at most 32 pieces,
/// piece codes 0 to 5 and 8 to 13, a result 0 to 2.
pub fn check_records(records: &[[u8; RECORD_BYTES]]) -> Result<(), String> {
    for (i, rec) in records.iter().enumerate() {
        let pieces = record::occupancy(rec).count_ones() as usize;
        let bad = if pieces > 32 {
            Some("more than 32 pieces")
        } else if (0..pieces).any(|k| record::piece_code(rec, k) & 7 > 5) {
            Some("a piece code beyond the king")
        } else if record::result(rec) > 2 {
            Some("a result beyond 2")
        } else {
            None
        };
        if let Some(why) = bad {
            return Err(format!("record {i} is not a valid record: {why}"));
        }
    }
    Ok(())
}

/// The index of the first held-out record and the number of games before
/// it and from it: the last `valid` fraction of the games (rounded, at
/// least one game kept for training). Record 0 always starts a game.
pub fn split_games(records: &[[u8; RECORD_BYTES]], valid: f64) -> (usize, usize, usize) {
    let starts: Vec<usize> = records
        .iter()
        .enumerate()
        .filter(|&(i, r)| i == 0 || record::first_of_game(r))
        .map(|(i, _)| i)
        .collect();
    let games = starts.len();
    if games == 0 {
        return (0, 0, 0);
    }
    let held = ((games as f64 * valid).round() as usize).min(games - 1);
    let split = if held == 0 {
        records.len()
    } else {
        starts[games - held]
    };
    (split, games - held, held)
}

/// The score and result of a record from the side to move's view: the
/// score in centipawns, the result as 0, ½ or 1.
fn stm_labels(rec: &[u8; RECORD_BYTES]) -> (f64, f64) {
    let score = f64::from(record::score(rec));
    let result = f64::from(record::result(rec)) / 2.0;
    if record::black_to_move(rec) {
        (-score, 1.0 - result)
    } else {
        (score, result)
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` in [`K_RANGE`] minimising `Σ (σ(score / K) − result)²` over
/// `records` (golden-section search).
pub fn fit_k(records: &[[u8; RECORD_BYTES]]) -> f64 {
    let labels: Vec<(f64, f64)> = records.iter().map(stm_labels).collect();
    let error = |k: f64| -> f64 {
        labels
            .iter()
            .map(|&(s, r)| (sigmoid(s / k) - r).powi(2))
            .sum()
    };
    let (mut lo, mut hi) = K_RANGE;
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut ea, mut eb) = (error(a), error(b));
    for _ in 0..40 {
        if ea < eb {
            hi = b;
            (b, eb) = (a, ea);
            a = hi - g * (hi - lo);
            ea = error(a);
        } else {
            lo = a;
            (a, ea) = (b, eb);
            b = lo + g * (hi - lo);
            eb = error(b);
        }
    }
    (lo + hi) / 2.0
}

/// The training target of a record for `k` and `lambda`.
fn target(rec: &[u8; RECORD_BYTES], k: f64, lambda: f64) -> f32 {
    let (score, result) = stm_labels(rec);
    (lambda * sigmoid(score / k) + (1.0 - lambda) * result) as f32
}

/// A position's active features: the side to move's, then the other side's.
struct Features {
    stm: [u16; 32],
    nstm: [u16; 32],
    len: usize,
}

/// The features of a record (checked by [`check_records`]), as
/// [`super::feature`] numbers them.
#[inline(always)]
fn features(rec: &[u8; RECORD_BYTES], mirror: bool) -> Features {
    let mut out = Features {
        stm: [0; 32],
        nstm: [0; 32],
        len: 0,
    };
    let black_to_move = record::black_to_move(rec);
    let mut bits = record::occupancy(rec);
    let mut k = 0;
    while bits != 0 && k < 32 {
        let sq = bits.trailing_zeros() as u16 ^ if mirror { 7 } else { 0 };
        bits &= bits - 1;
        let code = u16::from(record::piece_code(rec, k));
        let (black, piece) = (code >> 3, (code & 7).min(5));
        // White's view: own pieces first, squares as they are; Black's:
        // own pieces first, the board flipped top to bottom.
        let white = black * 384 + piece * 64 + sq;
        let blacks = (1 - black) * 384 + piece * 64 + (sq ^ 56);
        if black_to_move {
            out.stm[k] = blacks;
            out.nstm[k] = white;
        } else {
            out.stm[k] = white;
            out.nstm[k] = blacks;
        }
        k += 1;
    }
    out.len = k;
    out
}

/// The accumulator of `feats` (bias plus rows).
#[inline(always)]
fn accumulate(params: &[f32], feats: &[u16], acc: &mut [f32; HIDDEN]) {
    acc.copy_from_slice(&params[FT_B..FT_B + HIDDEN]);
    for &f in feats {
        let row = &params[FT_W + usize::from(f) * HIDDEN..][..HIDDEN];
        for i in 0..HIDDEN {
            acc[i] += row[i];
        }
    }
}

/// `Σ w[i] · crelu(acc[i])²`, in eight fixed lanes.
#[inline(always)]
fn half_output(acc: &[f32; HIDDEN], w: &[f32]) -> f32 {
    let w = &w[..HIDDEN];
    let mut lanes = [0f32; 8];
    for i in (0..HIDDEN).step_by(8) {
        for l in 0..8 {
            let c = acc[i + l].clamp(0.0, 1.0);
            lanes[l] += w[i + l] * (c * c);
        }
    }
    ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
        + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]))
}

/// The network's output in logits, with both accumulators.
#[inline(always)]
fn forward(
    params: &[f32],
    feats: &Features,
    us: &mut [f32; HIDDEN],
    them: &mut [f32; HIDDEN],
) -> f32 {
    accumulate(params, &feats.stm[..feats.len], us);
    accumulate(params, &feats.nstm[..feats.len], them);
    half_output(us, &params[OUT_W..]) + half_output(them, &params[OUT_W + HIDDEN..]) + params[OUT_B]
}

/// The loss summed over `indices`; with `grad`, also adds `scale` times the
/// gradient of that sum to it.
#[inline(always)]
fn chunk_generic(
    params: &[f32],
    records: &[[u8; RECORD_BYTES]],
    targets: &[f32],
    indices: &[u32],
    mut grad: Option<(&mut [f32], f32)>,
) -> f64 {
    let mut loss = 0f64;
    let (mut us, mut them) = ([0f32; HIDDEN], [0f32; HIDDEN]);
    let (mut d_us, mut d_them) = ([0f32; HIDDEN], [0f32; HIDDEN]);
    for &i in indices {
        let (i, mirror) = ((i & !MIRROR) as usize, i & MIRROR != 0);
        let feats = features(&records[i], mirror);
        let y = forward(params, &feats, &mut us, &mut them);
        let p = 1.0 / (1.0 + (-y).exp());
        let t = targets[i];
        loss += f64::from((p - t) * (p - t));
        let Some((grad, scale)) = grad.as_mut() else {
            continue;
        };
        let g = 2.0 * (p - t) * p * (1.0 - p) * *scale;
        grad[OUT_B] += g;
        for (acc, d, w, dw) in [
            (&us, &mut d_us, OUT_W, OUT_W),
            (&them, &mut d_them, OUT_W + HIDDEN, OUT_W + HIDDEN),
        ] {
            let (ow, gow) = (&params[w..w + HIDDEN], &mut grad[dw..dw + HIDDEN]);
            for k in 0..HIDDEN {
                let a = acc[k];
                let c = a.clamp(0.0, 1.0);
                gow[k] += g * (c * c);
                d[k] = if a > 0.0 && a < 1.0 {
                    g * ow[k] * 2.0 * a
                } else {
                    0.0
                };
            }
        }
        let gb = &mut grad[FT_B..FT_B + HIDDEN];
        for k in 0..HIDDEN {
            gb[k] += d_us[k] + d_them[k];
        }
        for (fs, d) in [(&feats.stm, &d_us), (&feats.nstm, &d_them)] {
            for &f in &fs[..feats.len] {
                let row = &mut grad[FT_W + usize::from(f) * HIDDEN..][..HIDDEN];
                for k in 0..HIDDEN {
                    row[k] += d[k];
                }
            }
        }
    }
    loss
}

avx2_dispatch! {
    /// [`chunk_generic`], for AVX2 where the CPU has it. The vector code
    /// adds lane by lane, with no fused multiply-add, so the results are
    /// the same bits either way.
    fn chunk(
        params: &[f32],
        records: &[[u8; RECORD_BYTES]],
        targets: &[f32],
        indices: &[u32],
        grad: Option<(&mut [f32], f32)>,
    ) -> f64 = chunk_generic;
}

/// The `c`th of [`CHUNKS`] near-equal parts of `indices`.
fn part(indices: &[u32], c: usize) -> &[u32] {
    let n = indices.len();
    &indices[n * c / CHUNKS..n * (c + 1) / CHUNKS]
}

/// Runs the chunks of `indices` on `threads` threads: the loss summed in
/// chunk order, and with `grads` (one buffer per chunk, zeroed here),
/// each chunk's gradient times `scale` in its buffer.
fn run_chunks(
    params: &[f32],
    records: &[[u8; RECORD_BYTES]],
    targets: &[f32],
    indices: &[u32],
    grads: Option<(&mut [Vec<f32>], f32)>,
    threads: usize,
) -> f64 {
    let mut losses = [0f64; CHUNKS];
    let threads = threads.clamp(1, CHUNKS);
    // Each chunk's job: its index, its loss slot and its gradient buffer.
    let mut jobs: Vec<(usize, &mut f64, Option<&mut Vec<f32>>)> = Vec::with_capacity(CHUNKS);
    let scale = grads.as_ref().map_or(0.0, |g| g.1);
    match grads {
        Some((bufs, _)) => {
            for ((c, loss), buf) in losses.iter_mut().enumerate().zip(bufs.iter_mut()) {
                jobs.push((c, loss, Some(buf)));
            }
        }
        None => {
            for (c, loss) in losses.iter_mut().enumerate() {
                jobs.push((c, loss, None));
            }
        }
    }
    let work = |(c, loss, buf): (usize, &mut f64, Option<&mut Vec<f32>>)| {
        let grad = buf.map(|b| {
            b.fill(0.0);
            (&mut b[..], scale)
        });
        *loss = chunk(params, records, targets, part(indices, c), grad);
    };
    if threads == 1 {
        jobs.into_iter().for_each(work);
    } else {
        let mut shares: Vec<Vec<_>> = (0..threads).map(|_| Vec::new()).collect();
        for (j, job) in jobs.into_iter().enumerate() {
            shares[j % threads].push(job);
        }
        std::thread::scope(|s| {
            for share in shares {
                s.spawn(|| share.into_iter().for_each(work));
            }
        });
    }
    losses.iter().sum()
}

/// The float parameters and Adam's moments.
struct Model {
    params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Model {
    /// The start weights, from `rng` (see the module's documentation).
    fn new(rng: &mut SplitMix64) -> Model {
        let mut params = vec![0f32; PARAMS];
        let ft = 0.5 / 32f32.sqrt();
        for w in &mut params[FT_W..FT_B] {
            *w = symmetric(rng) * ft;
        }
        let out = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        for w in &mut params[OUT_W..OUT_B] {
            *w = symmetric(rng) * out;
        }
        Model {
            params,
            m: vec![0.0; PARAMS],
            v: vec![0.0; PARAMS],
            step: 0,
        }
    }

    /// One Adam step with gradient `grad`, then the clipping.
    fn adam(&mut self, grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step);
        let c2 = 1.0 - B2.powi(self.step);
        let moments = self.m.iter_mut().zip(self.v.iter_mut());
        for (i, ((w, (m, v)), &g)) in self.params.iter_mut().zip(moments).zip(grad).enumerate() {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            let stepped = *w - lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
            // The output bias is not clipped (its range is wide: ±2^28 / (QA · QB)).
            *w = if i < OUT_W {
                stepped.clamp(-CLIP, CLIP)
            } else if i < OUT_B {
                stepped.clamp(-OUT_CLIP, OUT_CLIP)
            } else {
                stepped
            };
        }
    }

    /// The quantised network with `scale` centipawns per unit.
    fn quantise(&self, scale: i32) -> Network {
        let q = |w: f32, by: i32| (w * by as f32).round();
        let mut net = Network::zeroed(scale);
        for (f, row) in net.ft_weights.iter_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = q(self.params[FT_W + f * HIDDEN + i], QA) as i16;
            }
        }
        for (i, b) in net.ft_bias.iter_mut().enumerate() {
            *b = q(self.params[FT_B + i], QA) as i16;
        }
        for (i, w) in net.out_weights.iter_mut().enumerate() {
            *w = q(self.params[OUT_W + i], QB) as i16;
        }
        let bias = f64::from(self.params[OUT_B]) * f64::from(QA * QB);
        net.out_bias = bias.round().clamp(-f64::from(1 << 28), f64::from(1 << 28)) as i32;
        net
    }
}

/// The learning rate of epoch `epoch` (from 1) of `epochs`.
fn epoch_lr(config: &TrainConfig, epoch: usize) -> f32 {
    if epoch > config.epochs - config.epochs / 4 {
        config.lr * 0.1
    } else {
        config.lr
    }
}

/// Trains a network on `records` (in game order, as datagen writes them),
/// telling `report` how it goes; the network is quantised and checked.
pub fn train(
    records: &[[u8; RECORD_BYTES]],
    config: &TrainConfig,
    report: &mut dyn FnMut(&Event),
) -> Result<(Network, Summary), String> {
    let start = Instant::now();
    config.check()?;
    if records.is_empty() {
        return Err("no records".into());
    }
    if records.len() >= MIRROR as usize {
        return Err(format!("{} records is more than 2^31", records.len()));
    }
    check_records(records)?;
    let (split, train_games, valid_games) = split_games(records, config.valid);
    let (train_set, valid_set) = records.split_at(split);
    let (k, fitted) = match config.k {
        Some(k) => (k, false),
        None => (fit_k(train_set), true),
    };
    report(&Event::Start {
        k,
        fitted,
        train: (train_set.len(), train_games),
        valid: (valid_set.len(), valid_games),
    });
    let targets: Vec<f32> = records
        .iter()
        .map(|r| target(r, k, config.lambda))
        .collect();
    let mut rng = SplitMix64::new(config.seed);
    let mut model = Model::new(&mut rng);
    let mut grads: Vec<Vec<f32>> = (0..CHUNKS).map(|_| vec![0f32; PARAMS]).collect();
    let mut total = vec![0f32; PARAMS];
    let mut order: Vec<u32> = (0..train_set.len() as u32).collect();
    let valid_indices: Vec<u32> = (split as u32..records.len() as u32).collect();
    let mut last = None;
    for epoch in 1..=config.epochs {
        let epoch_start = Instant::now();
        let lr = epoch_lr(config, epoch);
        for i in (1..order.len()).rev() {
            order.swap(i, below_by_multiply(&mut rng, i + 1));
        }
        // Positions without castling rights are as good seen in a mirror
        // (files a and h swapped): half of them, drawn anew each epoch, are.
        for i in order.iter_mut() {
            *i &= !MIRROR;
            let castling = record::castling(&records[*i as usize]);
            if config.mirror && castling == 0 && rng.next_u64() & 1 == 1 {
                *i |= MIRROR;
            }
        }
        let mut loss = 0f64;
        for (b, batch) in order.chunks(config.batch).enumerate() {
            let scale = 1.0 / batch.len() as f32;
            loss += run_chunks(
                &model.params,
                records,
                &targets,
                batch,
                Some((&mut grads, scale)),
                config.threads,
            );
            total.copy_from_slice(&grads[0]);
            for g in &grads[1..] {
                for (t, x) in total.iter_mut().zip(g) {
                    *t += x;
                }
            }
            model.adam(&total, lr);
            report(&Event::Batch {
                epoch,
                done: (b * config.batch + batch.len()),
                total: order.len(),
            });
        }
        let valid_loss = (!valid_indices.is_empty()).then(|| {
            run_chunks(
                &model.params,
                records,
                &targets,
                &valid_indices,
                None,
                config.threads,
            ) / valid_indices.len() as f64
        });
        let r = EpochReport {
            epoch,
            lr,
            train_loss: loss / order.len() as f64,
            valid_loss,
            seconds: epoch_start.elapsed().as_secs_f64(),
        };
        report(&Event::Epoch(r.clone()));
        last = Some(r);
    }
    let scale = k.round() as i32;
    let net = model.quantise(scale);
    net.check_range()
        .map_err(|e| format!("the quantised network is out of range: {e}"))?;
    let sample = if valid_set.is_empty() {
        train_set
    } else {
        valid_set
    };
    let (quant_positions, quant_error_cp) = quantisation_error(&model.params, &net, sample);
    Ok((
        net,
        Summary {
            k,
            train_positions: train_set.len(),
            train_games,
            valid_positions: valid_set.len(),
            valid_games,
            last: last.expect("one epoch or more"),
            quant_positions,
            quant_error_cp,
            seconds: start.elapsed().as_secs_f64(),
        },
    ))
}

/// The float network's evaluation of a record in centipawns for the side to
/// move, at `scale` centipawns per logit.
fn float_eval(params: &[f32], rec: &[u8; RECORD_BYTES], scale: i32) -> f64 {
    let (mut us, mut them) = ([0f32; HIDDEN], [0f32; HIDDEN]);
    f64::from(forward(params, &features(rec, false), &mut us, &mut them)) * f64::from(scale)
}

/// Up to [`QUANT_SAMPLE`] records spread over `sample`, each rebuilt as a
/// position: how many, and the mean |float − integer| evaluation.
fn quantisation_error(
    params: &[f32],
    net: &Network,
    sample: &[[u8; RECORD_BYTES]],
) -> (usize, f64) {
    let step = sample.len().div_ceil(QUANT_SAMPLE).max(1);
    let (mut n, mut sum) = (0usize, 0f64);
    for rec in sample.iter().step_by(step) {
        let Ok(pos) = movegen::Position::from_fen(&record::decode(rec).fen) else {
            continue;
        };
        let int = accumulator::evaluate(net, &pos);
        sum += (float_eval(params, rec, net.scale) - f64::from(int)).abs();
        n += 1;
    }
    (n, if n == 0 { 0.0 } else { sum / n as f64 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::record::{encode, GameResult};
    use movegen::Position;

    /// Records from a few fixed games of random legal moves (seeded),
    /// scored by material, each game's result by the material at its end.
    fn synthetic(games: usize, plies: usize, seed: u64) -> Vec<[u8; RECORD_BYTES]> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        let values = [100, 300, 300, 500, 900, 0];
        let material = |pos: &Position| -> i32 {
            let mut s = 0;
            for color in movegen::Color::ALL {
                for piece in movegen::Piece::ALL {
                    let n = pos.pieces_of(color, piece).len() as i32 * values[piece.index()];
                    s += if color == movegen::Color::White {
                        n
                    } else {
                        -n
                    };
                }
            }
            s
        };
        for _ in 0..games {
            let mut pos = Position::startpos();
            let mut game = Vec::new();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[below_by_multiply(&mut rng, moves.len())];
                pos = pos.play(mv);
                if !pos.in_check() && pos.halfmove_clock() < 255 {
                    game.push(pos);
                }
            }
            let end = game.last().map_or(0, material);
            let result = match end {
                e if e > 150 => GameResult::WhiteWon,
                e if e < -150 => GameResult::BlackWon,
                _ => GameResult::Draw,
            };
            for (i, p) in game.iter().enumerate() {
                let score = material(p) + (below_by_multiply(&mut rng, 41) as i32 - 20);
                out.push(encode(p, score, result, i == 0).expect("a standard position"));
            }
        }
        out
    }

    #[test]
    fn features_match_the_engines_numbering() {
        let recs = synthetic(2, 40, 3);
        for rec in &recs {
            let pos = Position::from_fen(&record::decode(rec).fen).unwrap();
            let stm = pos.side_to_move();
            let mut want: Vec<[usize; 2]> = Vec::new();
            for sq in pos.occupied().iter() {
                let (c, p) = (pos.color_on(sq).unwrap(), pos.piece_on(sq).unwrap());
                want.push([
                    super::super::feature(stm, c, p, sq),
                    super::super::feature(!stm, c, p, sq),
                ]);
            }
            let f = features(rec, false);
            let got: Vec<[usize; 2]> = (0..f.len)
                .map(|k| [usize::from(f.stm[k]), usize::from(f.nstm[k])])
                .collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn k_fit_finds_the_scale_the_labels_were_made_with() {
        // Results drawn with probability σ(score / 250).
        let mut rng = SplitMix64::new(9);
        let base = synthetic(1, 1, 1)[0];
        let recs: Vec<[u8; RECORD_BYTES]> = (0..20000)
            .map(|_| {
                let mut r = base;
                let score = below_by_multiply(&mut rng, 1201) as i16 - 600;
                record::set_score(&mut r, score);
                let p = sigmoid(f64::from(score) / 250.0);
                let u = below_by_multiply(&mut rng, 1 << 30) as f64 / f64::from(1 << 30);
                let result = if u < p {
                    GameResult::WhiteWon
                } else {
                    GameResult::BlackWon
                };
                record::set_result(&mut r, result);
                record::set_black_to_move(&mut r, false);
                r
            })
            .collect();
        let k = fit_k(&recs);
        assert!((k - 250.0).abs() < 25.0, "K {k}");
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let recs = synthetic(2, 12, 5);
        let targets: Vec<f32> = recs.iter().map(|r| target(r, 200.0, 0.5)).collect();
        let idx: Vec<u32> = (0..recs.len() as u32).collect();
        let mut model = Model::new(&mut SplitMix64::new(1));
        // Larger weights than the start, for gradients well above rounding.
        for w in &mut model.params[OUT_W..OUT_B] {
            *w *= 8.0;
        }
        for b in &mut model.params[FT_B..OUT_W] {
            *b = 0.3;
        }
        model.params[OUT_B] = 0.2;
        let scale = 1.0 / idx.len() as f32;
        let mut grad = vec![0f32; PARAMS];
        chunk_generic(
            &model.params,
            &recs,
            &targets,
            &idx,
            Some((&mut grad, scale)),
        );
        let loss_at =
            |params: &[f32]| chunk_generic(params, &recs, &targets, &idx, None) / idx.len() as f64;
        let f0 = features(&recs[0], false);
        let mut check: Vec<usize> = vec![OUT_B, FT_B, FT_B + 7, OUT_W, OUT_W + 130];
        check.extend((0..4).map(|i| FT_W + usize::from(f0.stm[i]) * HIDDEN + 3 * i));
        check.extend((0..4).map(|i| FT_W + usize::from(f0.nstm[i + 8]) * HIDDEN + 5 + i));
        let h = 1e-3f32;
        let mut checked = 0;
        for &p in &check {
            let mut plus = model.params.clone();
            plus[p] += h;
            let mut minus = model.params.clone();
            minus[p] -= h;
            let numeric = (loss_at(&plus) - loss_at(&minus)) / (2.0 * f64::from(h));
            let analytic = f64::from(grad[p]);
            let tol = 2e-5 + 0.03 * analytic.abs().max(numeric.abs());
            assert!(
                (numeric - analytic).abs() <= tol,
                "parameter {p}: numeric {numeric:e}, analytic {analytic:e}"
            );
            if analytic.abs() > 1e-4 {
                checked += 1;
            }
        }
        assert!(checked >= 8, "only {checked} gradients of any size");
    }

    fn small_config(threads: usize) -> TrainConfig {
        TrainConfig {
            epochs: 4,
            batch: 256,
            lr: 0.01,
            threads,
            valid: 0.1,
            ..TrainConfig::default()
        }
    }

    #[test]
    fn training_lowers_the_loss_and_quantises_closely() {
        let recs = synthetic(60, 60, 7);
        let mut epochs = Vec::new();
        let (net, summary) = train(&recs, &small_config(2), &mut |e| {
            if let Event::Epoch(r) = e {
                epochs.push(r.clone());
            }
        })
        .unwrap();
        assert_eq!(epochs.len(), 4);
        assert!(summary.valid_games == 6 && summary.train_games == 54);
        assert!(
            epochs[3].train_loss < epochs[0].train_loss * 0.9,
            "{epochs:?}"
        );
        assert!(epochs[3].valid_loss.unwrap() < epochs[0].valid_loss.unwrap());
        assert!(epochs[3].lr < epochs[0].lr);
        assert!(summary.quant_positions > 100);
        assert!(summary.quant_error_cp < 5.0, "{summary:?}");
        net.check_range().unwrap();
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn one_and_three_threads_give_the_same_bytes() {
        let recs = synthetic(20, 50, 11);
        let mut config = small_config(1);
        config.epochs = 2;
        let (a, _) = train(&recs, &config, &mut |_| {}).unwrap();
        config.threads = 3;
        let (b, _) = train(&recs, &config, &mut |_| {}).unwrap();
        assert_eq!(a.to_bytes(), b.to_bytes());
        config.seed = 1;
        let (c, _) = train(&recs, &config, &mut |_| {}).unwrap();
        assert_ne!(a.to_bytes(), c.to_bytes());
    }

    #[test]
    fn the_split_is_at_a_game_boundary() {
        let recs = synthetic(10, 20, 2);
        let (split, train_games, valid_games) = split_games(&recs, 0.25);
        assert_eq!((train_games, valid_games), (7, 3));
        assert!(record::first_of_game(&recs[split]));
        assert_eq!(split_games(&recs, 0.0), (recs.len(), 10, 0));
    }

    #[test]
    fn bad_records_and_settings_are_refused() {
        let mut recs = synthetic(2, 10, 4);
        recs[3][8] = 0x7;
        assert!(check_records(&recs).unwrap_err().contains("record 3"));
        let good = synthetic(2, 10, 4);
        for bad in [
            TrainConfig {
                epochs: 0,
                ..TrainConfig::default()
            },
            TrainConfig {
                lambda: 1.5,
                ..TrainConfig::default()
            },
            TrainConfig {
                valid: 1.0,
                ..TrainConfig::default()
            },
            TrainConfig {
                batch: 0,
                ..TrainConfig::default()
            },
        ] {
            assert!(train(&good, &bad, &mut |_| {}).is_err());
        }
        assert!(train(&recs, &TrainConfig::default(), &mut |_| {}).is_err());
        assert!(train(&[], &TrainConfig::default(), &mut |_| {}).is_err());
    }
}
