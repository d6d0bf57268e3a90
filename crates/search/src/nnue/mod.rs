//! The evaluation network: 768 inputs, one accumulator of [`HIDDEN`]
//! neurons per side, a squared clipped ReLU, and one output, in integers.
//!
//! The inputs are one per (colour, piece, square), seen from each side: for
//! the side a perspective belongs to, its own pieces are features 0 to 383
//! and the other side's 384 to 767, with the board flipped top to bottom
//! for Black, so both sides see their pieces going up the board. Each
//! perspective's accumulator is the bias plus the columns of its active
//! features, and is updated as pieces come and go
//! ([`accumulator`]). The output reads the side to move's accumulator
//! first, then the other's:
//!
//! ```text
//! y = Σ w[i] · crelu(stm[i])² + Σ w[N + i] · crelu(other[i])² + b,  crelu(x) = clamp(x, 0, 1)
//! ```
//!
//! and the evaluation is `y · scale` centipawns for the side to move.
//! Weights are trained in floating point by [`train`] and stored as
//! integers: accumulator weights and biases times [`QA`], output weights
//! times [`QB`], the output bias times `QA · QB`. The sums stay in range by
//! construction: the loader refuses a network whose accumulator could leave
//! `i16` with 32 pieces on the board, or either half of whose output could
//! leave `i32` ([`Network::from_bytes`]).
//!
//! The file format (little-endian), [`FILE_BYTES`] long:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `PMNN` |
//! | 4 | 2 | format version, 1 |
//! | 6 | 2 | hidden neurons per side, [`HIDDEN`] |
//! | 8 | 2 | output scale, centipawns per unit of `y` (1 to 2000) |
//! | 10 | 2 | `QA`, 255 |
//! | 12 | 2 | `QB`, 256 |
//! | 14 | 2 | 0 |
//! | 16 | 768 · N · 2 | accumulator weights, `i16`, feature by feature |
//! | | N · 2 | accumulator biases, `i16` |
//! | | 2N · 2 | output weights, `i16`, side to move's half first |
//! | | 4 | output bias, `i32` |

pub mod accumulator;
mod simd;
pub mod train;

use movegen::{Color, Piece, Square};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Neurons per side.
pub const HIDDEN: usize = 128;
/// Input features: colour (own or other) × piece × square.
pub const INPUTS: usize = 768;
/// Accumulator quantisation: an activation of 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output weight quantisation: a weight of 1.0 is `QB`.
pub const QB: i32 = 256;
/// Bytes of a network file.
pub const FILE_BYTES: usize = 16 + INPUTS * HIDDEN * 2 + HIDDEN * 2 + 2 * HIDDEN * 2 + 4;
/// The largest output weight magnitude. With it each half of the output
/// sum, at most `N · QA² · 127`, stays inside `i32` for up to 258 neurons
/// (checked below at compile time); the two halves are added in `i64`.
/// It also keeps `clamp(a) · w` inside `i16` (255 · 127), which the
/// inference's 16-bit multiply-adds need.
pub const MAX_OUTPUT_WEIGHT: i32 = 127;
const _: () = assert!(
    HIDDEN as i64 * (QA as i64 * QA as i64) * MAX_OUTPUT_WEIGHT as i64 <= i32::MAX as i64,
    "one half of the output sum could overflow i32"
);
const _: () = assert!(
    QA * MAX_OUTPUT_WEIGHT <= i16::MAX as i32,
    "clamp(a) · w could overflow i16"
);
/// The most pieces a legal position has: the accumulator adds at most this
/// many columns to its bias.
const MAX_PIECES: i32 = 32;
/// Evaluations are kept this far from mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

const MAGIC: &[u8; 4] = b"PMNN";
const VERSION: u16 = 1;

/// The network built into the binary (`nets/default.nnue` of this crate).
static DEFAULT_BYTES: &[u8] = include_bytes!("../../nets/default.nnue");

/// A network, quantised.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Accumulator weights, by feature.
    pub(crate) ft_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// Accumulator biases.
    pub(crate) ft_bias: [i16; HIDDEN],
    /// Output weights: the side to move's accumulator, then the other's.
    pub(crate) out_weights: [i16; 2 * HIDDEN],
    /// Output bias, in units of `QA · QB`.
    pub(crate) out_bias: i32,
    /// Centipawns per unit of output.
    pub(crate) scale: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}x2->1, scale {})", self.scale)
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file is not `FILE_BYTES` long.
    Size(usize),
    /// The file does not start with `PMNN` and version 1.
    Header,
    /// A shape or quantisation other than this build's.
    Shape(String),
    /// Weights large enough to overflow the integer sums.
    Range(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Size(n) => write!(
                f,
                "a network file is {FILE_BYTES} bytes ({INPUTS}->{HIDDEN}x2->1), this one {n}"
            ),
            NetError::Header => f.write_str("not a Pinmask network (no PMNN version 1 header)"),
            NetError::Shape(s) | NetError::Range(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for NetError {}

/// The feature of `color`'s `piece` on `sq`, seen by `perspective`.
#[inline]
pub fn feature(perspective: Color, color: Color, piece: Piece, sq: Square) -> usize {
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    usize::from(color != perspective) * 384 + piece.index() * 64 + sq
}

/// Reads little-endian integers from a byte slice, in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const K: usize>(&mut self) -> [u8; K] {
        let out = self.bytes[self.at..self.at + K]
            .try_into()
            .expect("the caller checked the file's length");
        self.at += K;
        out
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
}

impl Network {
    /// The network built into the binary.
    pub fn built_in() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(Network::from_bytes(DEFAULT_BYTES).expect("the built-in network is valid"))
        })
        .clone()
    }

    /// A network of zero weights with `scale` (for the trainer to fill).
    pub fn zeroed(scale: i32) -> Network {
        Network {
            ft_weights: vec![[0; HIDDEN]; INPUTS]
                .into_boxed_slice()
                .try_into()
                .expect("INPUTS rows"),
            ft_bias: [0; HIDDEN],
            out_weights: [0; 2 * HIDDEN],
            out_bias: 0,
            scale,
        }
    }

    /// Parses and checks a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Size(bytes.len()));
        }
        let mut r = Reader { bytes, at: 4 };
        if &bytes[..4] != MAGIC || r.u16() != VERSION {
            return Err(NetError::Header);
        }
        let (hidden, scale, qa, qb, zero) = (r.u16(), r.u16(), r.u16(), r.u16(), r.u16());
        if usize::from(hidden) != HIDDEN || i32::from(qa) != QA || i32::from(qb) != QB || zero != 0
        {
            return Err(NetError::Shape(format!(
                "this build reads {HIDDEN} neurons with QA {QA}, QB {QB}; the file has {hidden}, {qa}, {qb}"
            )));
        }
        if !(1..=2000).contains(&scale) {
            return Err(NetError::Shape(format!("scale {scale} is not 1 to 2000")));
        }
        let mut net = Network::zeroed(i32::from(scale));
        for row in net.ft_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        for b in &mut net.ft_bias {
            *b = r.i16();
        }
        for w in &mut net.out_weights {
            *w = r.i16();
        }
        net.out_bias = r.i32();
        net.check_range()?;
        Ok(net)
    }

    /// Refuses weights that could overflow: an accumulator of 32 pieces must
    /// fit `i16`, each half of the output sum `i32` ([`MAX_OUTPUT_WEIGHT`]).
    pub fn check_range(&self) -> Result<(), NetError> {
        for i in 0..HIDDEN {
            let largest = self
                .ft_weights
                .iter()
                .map(|row| i32::from(row[i]).abs())
                .max()
                .unwrap_or(0);
            if i32::from(self.ft_bias[i]).abs() + MAX_PIECES * largest > i32::from(i16::MAX) {
                return Err(NetError::Range(format!(
                    "neuron {i}: bias and weights could overflow the accumulator"
                )));
            }
        }
        if self
            .out_weights
            .iter()
            .any(|&w| i32::from(w).abs() > MAX_OUTPUT_WEIGHT)
        {
            return Err(NetError::Range(format!(
                "an output weight beyond ±{MAX_OUTPUT_WEIGHT}"
            )));
        }
        if self.out_bias.abs() > 1 << 28 {
            return Err(NetError::Range("the output bias is beyond ±2^28".into()));
        }
        Ok(())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            HIDDEN as u16,
            self.scale as u16,
            QA as u16,
            QB as u16,
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for row in self.ft_weights.iter() {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.ft_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in &self.out_weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        debug_assert_eq!(out.len(), FILE_BYTES);
        out
    }

    /// Centipawns per unit of output.
    pub fn scale(&self) -> i32 {
        self.scale
    }
}
