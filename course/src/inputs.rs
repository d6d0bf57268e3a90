//! Seeded inputs for the checkers: squares, occupancies and legal positions. The same seed
//! gives the same inputs on every machine, so a failure can be reproduced.

use movegen::rng::SplitMix64;
use movegen::Position;

/// A small deterministic generator: the workspace's SplitMix64, with the draws the checkers use.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A square 0..64.
    pub fn square(&mut self) -> u8 {
        self.below(64) as u8
    }

    /// A bitboard with about one square in eight set (like the blockers on a real board).
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }

    /// A bitboard with about one square in four set.
    pub fn medium(&mut self) -> u64 {
        self.next_u64() & self.next_u64()
    }
}

/// Well-known test positions (the start, "kiwipete", and the chessprogramming wiki's perft
/// positions 3 to 6), all legal.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// A legal position reached by up to `plies` random legal moves from the start.
pub fn random_game_position(rng: &mut Rng, plies: usize) -> Position {
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        pos = pos.play(mv);
    }
    pos
}

/// A legal position with both kings and `pieces` other random pieces (pawns never on the
/// first or last rank) and a random side to move.
pub fn random_sparse_position(rng: &mut Rng, pieces: usize) -> Position {
    loop {
        let mut cells = ['.'; 64];
        let mut place = |rng: &mut Rng, c: char| loop {
            let sq = rng.square() as usize;
            let rank = sq / 8;
            if cells[sq] == '.' && !(c.eq_ignore_ascii_case(&'p') && (rank == 0 || rank == 7)) {
                cells[sq] = c;
                break;
            }
        };
        place(rng, 'K');
        place(rng, 'k');
        for _ in 0..pieces {
            let c = b"PNBRQpnbrqPPpp"[rng.below(14) as usize] as char;
            place(rng, c);
        }
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        let fen = format!("{} {side} - - 0 1", placement(&cells));
        if let Ok(pos) = Position::from_fen(&fen) {
            return pos;
        }
    }
}

/// Cells indexed by square (a1 = 0) as a FEN placement.
pub fn placement(cells: &[char; 64]) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let c = cells[rank * 8 + file];
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_positions() {
        let a = random_sparse_position(&mut Rng::new(7), 6).fen();
        let b = random_sparse_position(&mut Rng::new(7), 6).fen();
        assert_eq!(a, b);
        let pos = random_sparse_position(&mut Rng::new(7), 6);
        assert_eq!(pos.occupied().len(), 8);
        let game = random_game_position(&mut Rng::new(3), 30);
        assert!(Position::from_fen(&game.fen()).is_ok());
        for fen in POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }
}
