//! Zobrist keys from a fixed-seed generator, so hashes match on every build.

use crate::castling::CastlingRights;
use crate::piece::{Color, Piece};
use crate::rng::SplitMix64;
use crate::square::Square;

/// All keys: 768 piece-square keys, 16 castling-rights keys, 8 en-passant file
/// keys and the side-to-move key, drawn in that order from one seed.
struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    castling: [u64; 16],
    ep_file: [u64; 8],
    black_to_move: u64,
}

const fn build_keys() -> Keys {
    let mut keys = Keys {
        pieces: [[[0; 64]; 6]; 2],
        castling: [0; 16],
        ep_file: [0; 8],
        black_to_move: 0,
    };
    let mut rng = SplitMix64::new(0x5EED_0FC0_FFEE);
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 6 {
            let mut s = 0;
            while s < 64 {
                keys.pieces[c][p][s] = rng.next_u64();
                s += 1;
            }
            p += 1;
        }
        c += 1;
    }
    // No rights hashes to zero, so a position without castling needs no key.
    let mut i = 1;
    while i < 16 {
        keys.castling[i] = rng.next_u64();
        i += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.ep_file[f] = rng.next_u64();
        f += 1;
    }
    keys.black_to_move = rng.next_u64();
    keys
}

static KEYS: Keys = build_keys();

/// The key of a `color` `piece` on `sq`.
///
/// # Examples
///
/// ```
/// use movegen::zobrist::{castling_key, piece_key};
/// use movegen::{CastlingRights, Color, Piece, Position, Square};
///
/// // An empty board's key holds only its castling rights.
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
/// assert_eq!(
///     pos.key(),
///     piece_key(Color::White, Piece::King, Square::E1)
///         ^ piece_key(Color::Black, Piece::King, Square::E8)
///         ^ castling_key(CastlingRights::NONE)
/// );
/// assert_ne!(
///     piece_key(Color::White, Piece::King, Square::E1),
///     piece_key(Color::Black, Piece::King, Square::E1)
/// );
/// ```
#[inline(always)]
pub fn piece_key(color: Color, piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[color.index()][piece.index()][sq.index()]
}

/// The key of a set of castling rights.
///
/// # Examples
///
/// ```
/// use movegen::zobrist::castling_key;
/// use movegen::{CastlingRights, Position};
///
/// let all = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
/// let none = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
/// assert_eq!(
///     all.key() ^ none.key(),
///     castling_key(CastlingRights::ALL) ^ castling_key(CastlingRights::NONE)
/// );
/// ```
#[inline(always)]
pub fn castling_key(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.index()]
}

/// The key of an en-passant square on this file.
///
/// # Examples
///
/// ```
/// use movegen::zobrist::{ep_key, side_key};
/// use movegen::{Position, Square};
///
/// // After 1. e4 d5 2. e5 f5 the e5 pawn may take en passant on f6.
/// let pos = Position::from_fen("4k3/8/8/4Pp2/8/8/8/4K3 w - f6 0 1").unwrap();
/// let without = Position::from_fen("4k3/8/8/4Pp2/8/8/8/4K3 w - - 0 1").unwrap();
/// assert_eq!(pos.key() ^ without.key(), ep_key(Square::F6));
/// assert_ne!(ep_key(Square::F6), side_key());
/// ```
#[inline(always)]
pub fn ep_key(sq: Square) -> u64 {
    KEYS.ep_file[sq.file().index()]
}

/// The key XORed in when Black is to move.
///
/// # Examples
///
/// ```
/// use movegen::zobrist::side_key;
/// use movegen::Position;
///
/// let white = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
/// let black = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
/// assert_eq!(white.key() ^ black.key(), side_key());
/// ```
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.black_to_move
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.pieces.iter().flatten().flatten().copied().collect();
        all.extend(&KEYS.castling[1..]);
        all.extend(&KEYS.ep_file);
        all.push(KEYS.black_to_move);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_eq!(n, 768 + 15 + 8 + 1);
    }
}
