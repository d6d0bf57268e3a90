//! Accumulators: each perspective's hidden layer before the activation,
//! kept per ply and updated from an ancestor's instead of recomputed.
//!
//! The search makes moves by copying positions, so there is no move to
//! undo. Each ply's entry keeps the piece sets it was computed for; to
//! evaluate a position, the nearest ancestor on the current path whose
//! entry is up to date gives the start, and only the pieces that differ
//! between its sets and the position's are added and removed: two to four
//! features for one move, a few more across plies the search did not
//! evaluate. A position too far from any (more than [`MAX_CHANGES`]
//! features) is computed from scratch. Nothing is allocated per node.
//!
//! The inner loops are written for the compiler to vectorise, and compiled
//! for AVX2 where the CPU has it (see `simd.rs`): the integer results are
//! the same either way.

use super::simd::avx2_dispatch;
use super::{feature, Network, EVAL_LIMIT, HIDDEN, QA, QB};
use movegen::{Color, Piece, Position, Square};

/// Feature changes beyond which a fresh computation is cheaper.
const MAX_CHANGES: usize = 16;

/// One position's accumulators, by perspective, and its piece sets.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// White's and Black's accumulator.
    v: [[i16; HIDDEN]; 2],
    /// The position's pieces, by colour and piece kind.
    boards: [u64; 12],
}

/// The pieces of `pos`, by colour and piece kind.
fn boards(pos: &Position) -> [u64; 12] {
    let mut b = [0; 12];
    for color in Color::ALL {
        for piece in Piece::ALL {
            b[color.index() * 6 + piece.index()] = pos.pieces_of(color, piece).0;
        }
    }
    b
}

/// The (colour, piece) of board index `k`.
fn board_piece(k: usize) -> (Color, Piece) {
    (Color::ALL[k / 6], Piece::ALL[k % 6])
}

/// `dst = src + Σ columns of adds − Σ columns of subs`.
#[inline(always)]
fn apply_generic(
    dst: &mut [i16; HIDDEN],
    src: &[i16; HIDDEN],
    net: &Network,
    adds: &[usize],
    subs: &[usize],
) {
    *dst = *src;
    for &f in adds {
        let col = &net.ft_weights[f];
        for i in 0..HIDDEN {
            dst[i] = dst[i].wrapping_add(col[i]);
        }
    }
    for &f in subs {
        let col = &net.ft_weights[f];
        for i in 0..HIDDEN {
            dst[i] = dst[i].wrapping_sub(col[i]);
        }
    }
}

/// `Σ crelu(acc)² · w` over one half of the output layer. `crelu(a) · w`
/// fits `i16` (255 · 127), so the products pair up as the hardware's
/// multiply-add of 16-bit lanes into 32-bit ones.
#[inline(always)]
fn dot_generic(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let w = &w[..HIDDEN];
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        let c = acc[i].clamp(0, QA as i16);
        let cw = c.wrapping_mul(w[i]);
        sum = sum.wrapping_add(i32::from(cw) * i32::from(c));
    }
    sum
}

avx2_dispatch! {
    /// [`apply_generic`], for AVX2 where the CPU has it.
    fn apply(
        dst: &mut [i16; HIDDEN],
        src: &[i16; HIDDEN],
        net: &Network,
        adds: &[usize],
        subs: &[usize],
    ) = apply_generic;
}

avx2_dispatch! {
    /// [`dot_generic`], for AVX2 where the CPU has it.
    fn dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 = dot_generic;
}

impl Accumulator {
    /// The accumulators of `pos`, computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            v: [[0; HIDDEN]; 2],
            boards: [0; 12],
        };
        acc.refresh(net, pos);
        acc
    }

    /// Recomputes from the biases and every piece.
    fn refresh(&mut self, net: &Network, pos: &Position) {
        self.boards = boards(pos);
        for perspective in Color::ALL {
            let mut adds = [0usize; 32];
            let mut n = 0;
            for (k, &bits) in self.boards.iter().enumerate() {
                let (color, piece) = board_piece(k);
                for sq in movegen::Bitboard(bits).iter() {
                    if n < adds.len() {
                        adds[n] = feature(perspective, color, piece, sq);
                        n += 1;
                    }
                }
            }
            let v = &mut self.v[perspective.index()];
            apply(v, &net.ft_bias, net, &adds[..n], &[]);
        }
    }

    /// This entry for `pos`, from `parent`'s by the pieces that differ;
    /// `false` (and nothing written) if they differ by too many.
    fn update_from(&mut self, parent: &Accumulator, net: &Network, pos: &Position) -> bool {
        let now = boards(pos);
        let mut changes = [(0usize, Square::A1, false); MAX_CHANGES];
        let mut n = 0;
        for (k, (&old, &new)) in parent.boards.iter().zip(&now).enumerate() {
            for (bits, added) in [(new & !old, true), (old & !new, false)] {
                for sq in movegen::Bitboard(bits).iter() {
                    if n == MAX_CHANGES {
                        return false;
                    }
                    changes[n] = (k, sq, added);
                    n += 1;
                }
            }
        }
        for perspective in Color::ALL {
            let (mut adds, mut subs) = ([0usize; MAX_CHANGES], [0usize; MAX_CHANGES]);
            let (mut na, mut ns) = (0, 0);
            for &(k, sq, added) in &changes[..n] {
                let (color, piece) = board_piece(k);
                let f = feature(perspective, color, piece, sq);
                if added {
                    adds[na] = f;
                    na += 1;
                } else {
                    subs[ns] = f;
                    ns += 1;
                }
            }
            let p = perspective.index();
            apply(&mut self.v[p], &parent.v[p], net, &adds[..na], &subs[..ns]);
        }
        self.boards = now;
        true
    }

    /// The network's output for these accumulators, in centipawns for
    /// `stm` to move.
    pub fn output(&self, net: &Network, stm: Color) -> i32 {
        let (us, them) = (&self.v[stm.index()], &self.v[(!stm).index()]);
        // Each half fits `i32` (`MAX_OUTPUT_WEIGHT`); both together need not.
        let sum = i64::from(dot(us, &net.out_weights[..HIDDEN]))
            + i64::from(dot(them, &net.out_weights[HIDDEN..]));
        let y = (sum / i64::from(QA) + i64::from(net.out_bias)) * i64::from(net.scale)
            / i64::from(QA * QB);
        y.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}

/// The network's evaluation of `pos` in centipawns for the side to move,
/// computed from scratch.
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    Accumulator::new(net, pos).output(net, pos.side_to_move())
}

/// One search thread's accumulators, an entry per ply, with whether each
/// is up to date for the node the search is at on that ply.
pub struct AccumulatorStack {
    entries: Vec<Accumulator>,
    fresh: Vec<bool>,
}

impl AccumulatorStack {
    /// A stack of `plies` entries, none up to date.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            entries: vec![
                Accumulator {
                    v: [[0; HIDDEN]; 2],
                    boards: [0; 12],
                };
                plies
            ],
            fresh: vec![false; plies],
        }
    }

    /// Forgets every entry (a new root).
    pub fn clear(&mut self) {
        self.fresh.fill(false);
    }

    /// The search has entered a new node on `ply`: its entry is stale.
    #[inline]
    pub fn enter(&mut self, ply: usize) {
        self.fresh[ply] = false;
    }

    /// The evaluation of `pos`, the node at `ply`, for the side to move.
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        if !self.fresh[ply] {
            let (below, rest) = self.entries.split_at_mut(ply);
            let entry = &mut rest[0];
            let updated = (0..ply)
                .rev()
                .find(|&q| self.fresh[q])
                .is_some_and(|q| entry.update_from(&below[q], net, pos));
            if !updated {
                entry.refresh(net, pos);
            }
            self.fresh[ply] = true;
        }
        self.entries[ply].output(net, pos.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::rng::SplitMix64;

    /// A number in `lo..=hi`.
    fn range(rng: &mut SplitMix64, lo: i32, hi: i32) -> i32 {
        lo + rng.below((hi - lo + 1) as usize) as i32
    }

    /// A network of random weights within the loader's ranges.
    fn random_net(seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut net = Network::zeroed(300);
        for row in net.ft_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = range(&mut rng, -500, 500) as i16;
            }
        }
        for b in &mut net.ft_bias {
            *b = range(&mut rng, -300, 300) as i16;
        }
        for w in &mut net.out_weights {
            *w = range(&mut rng, -127, 127) as i16;
        }
        net.out_bias = range(&mut rng, -5000, 5000);
        net.check_range().unwrap();
        net
    }

    /// Walks the tree below `pos` like the search: entering each node,
    /// evaluating only some, and compares every evaluation from the stack
    /// with one from scratch.
    fn walk(
        stack: &mut AccumulatorStack,
        net: &Network,
        pos: &Position,
        ply: usize,
        depth: u32,
        rng: &mut SplitMix64,
        checked: &mut u32,
    ) {
        stack.enter(ply);
        if !rng.next_u64().is_multiple_of(3) {
            assert_eq!(
                stack.evaluate(net, pos, ply),
                evaluate(net, pos),
                "{}",
                pos.fen()
            );
            *checked += 1;
        }
        if depth == 0 {
            return;
        }
        let moves = pos.legal_moves();
        for (i, &mv) in moves.iter().enumerate() {
            if i % 5 == rng.below(5) {
                walk(
                    stack,
                    net,
                    &pos.play_unchecked(mv),
                    ply + 1,
                    depth - 1,
                    rng,
                    checked,
                );
            }
        }
        if let Some(null) = pos.play_null() {
            walk(stack, net, &null, ply + 1, depth - 1, rng, checked);
        }
    }

    #[test]
    fn the_stack_agrees_with_a_fresh_computation() {
        let net = random_net(7);
        let mut rng = SplitMix64::new(1);
        let mut stack = AccumulatorStack::new(16);
        let mut checked = 0;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            stack.clear();
            walk(&mut stack, &net, &pos, 0, 4, &mut rng, &mut checked);
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn colour_flipped_positions_evaluate_the_same() {
        let net = random_net(3);
        let a =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let b =
            Position::from_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3")
                .unwrap();
        assert_eq!(evaluate(&net, &a), evaluate(&net, &b));
        assert_ne!(evaluate(&net, &a), 0);
    }

    #[test]
    fn the_file_round_trips_and_bad_files_are_refused() {
        let net = random_net(5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), crate::nnue::FILE_BYTES);
        assert!(Network::from_bytes(&bytes).unwrap() == net);
        assert!(matches!(
            Network::from_bytes(&bytes[1..]),
            Err(crate::nnue::NetError::Size(_))
        ));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(
            Network::from_bytes(&bad),
            Err(crate::nnue::NetError::Header)
        );
        let mut wide = bytes.clone();
        wide[6] = 0; // 0 hidden neurons
        assert!(matches!(
            Network::from_bytes(&wide),
            Err(crate::nnue::NetError::Shape(_))
        ));
        let mut big = bytes;
        let out = crate::nnue::FILE_BYTES - 4 - 2;
        big[out..out + 2].copy_from_slice(&500i16.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&big),
            Err(crate::nnue::NetError::Range(_))
        ));
    }

    #[test]
    fn feature_sees_each_side_from_its_own_back_rank() {
        let w = feature(Color::White, Color::White, Piece::Pawn, Square::E2);
        let b = feature(Color::Black, Color::Black, Piece::Pawn, Square::E7);
        assert_eq!(w, b);
        let wk = feature(Color::White, Color::Black, Piece::King, Square::E8);
        let bk = feature(Color::Black, Color::White, Piece::King, Square::E1);
        assert_eq!(wk, bk);
        assert_eq!(wk, 384 + 5 * 64 + Square::E8.index());
    }
}
