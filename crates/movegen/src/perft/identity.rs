//! What makes two positions the same for perft, and a second key over it.
//!
//! Perft below a position depends on its pieces, side to move, castling rights
//! (with their rooks) and en-passant square, not on the clocks. Positions made
//! by [`Position::play`] set the en-passant square only when a capture there is
//! legal, so equal boards reached by different move orders compare equal.

use crate::piece::Color;
use crate::position::Position;
use crate::rng::mix;
use crate::CastleSide;

/// The contents of a position that perft depends on: the six piece sets,
/// White's pieces, and one word for side, rights, their rooks and en passant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Identity(pub(crate) [u64; 8]);

impl Identity {
    /// The identity of `pos`.
    #[inline]
    pub(crate) fn of(pos: &Position) -> Identity {
        let mut words = [0u64; 8];
        for (word, set) in words.iter_mut().zip(pos.pieces) {
            *word = set.0;
        }
        words[6] = pos.colors[Color::White].0;
        let mut meta = pos.side as u64 | (pos.rights.index() as u64) << 1;
        if let Some(ep) = pos.ep {
            meta |= (ep.index() as u64 + 1) << 5;
        }
        // The rook squares count only for rights still held (a lost right's
        // square is left as it was).
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = pos.castle_rook(color, side) {
                    let slot = 12 + 6 * (2 * color.index() + side.index());
                    meta |= (rook.index() as u64) << slot;
                }
            }
        }
        words[7] = meta;
        Identity(words)
    }

    /// A 64-bit hash of the identity, computed a different way from the
    /// zobrist key (a multiply and a shift per word, then a final mix, not a
    /// table of random keys), so that a collision of one says nothing about
    /// the other. One multiply per word rather than a full mix per word:
    /// against no second key, hashed startpos perft 6 (64 MiB) took 7.7% more
    /// instructions with the full mix, 5.6% with this (callgrind).
    #[inline]
    pub(crate) fn check_key(&self) -> u64 {
        let mut h: u64 = 0x243F_6A88_85A3_08D3;
        for &w in &self.0 {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 32;
        }
        mix(h)
    }
}

impl core::hash::Hash for Identity {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        // One well-mixed word stands for the eight (equal identities give
        // equal words, which is all `Hash` needs).
        state.write_u64(self.check_key());
    }
}

/// The second key of `pos` ([`Identity::check_key`]).
#[inline]
pub(crate) fn check_key(pos: &Position) -> u64 {
    Identity::of(pos).check_key()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_do_not_count_but_everything_else_does() {
        let fen = |f: &str| Position::from_fen(f).unwrap();
        let a = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let b = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30");
        assert_eq!(Identity::of(&a), Identity::of(&b));
        assert_eq!(check_key(&a), check_key(&b));
        let others = [
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
        ];
        for other in others {
            let o = fen(other);
            assert_ne!(Identity::of(&a), Identity::of(&o), "{other}");
            assert_ne!(check_key(&a), check_key(&o), "{other}");
        }
        // En passant only where it was set.
        let ep = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let no_ep = fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
        assert_ne!(Identity::of(&ep), Identity::of(&no_ep));
    }

    #[test]
    fn chess960_rights_name_their_rook() {
        // Both white rooks on the short side: the right belongs to one of them.
        let outer = Position::from_fen("4k3/8/8/8/8/8/8/1K4RR w H - 0 1").unwrap();
        let inner = Position::from_fen("4k3/8/8/8/8/8/8/1K4RR w G - 0 1").unwrap();
        assert_ne!(Identity::of(&outer), Identity::of(&inner));
    }
}
