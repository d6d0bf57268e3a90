//! Polyglot keys: the hash opening books in the Polyglot format are
//! indexed by.

use crate::castling::CastleSide;
use crate::piece::{Color, Piece};
use crate::polyglot_keys::KEYS;
use crate::position::Position;

impl Position {
    /// The position's key as the Polyglot opening-book format computes it
    /// (the same as python-chess's `chess.polyglot.zobrist_hash` and
    /// shakmaty's Polyglot hash), for looking positions up in `.bin` books.
    /// Computed from scratch, so slower than [`Position::key`], which the
    /// crate keeps up to date as moves are played and which uses other
    /// numbers.
    ///
    /// The en-passant file counts when the position has an en-passant
    /// square, which it keeps only while a capture there is legal. The
    /// Polyglot rule also counts a capture that is possible but illegal (a
    /// pinned pawn); in such rare positions the keys differ.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// assert_eq!(Position::startpos().polyglot_key(), 0x463b_9618_1691_fc9c);
    /// ```
    pub fn polyglot_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            // Polyglot orders black before white within each kind.
            let pivot = match color {
                Color::White => 1,
                Color::Black => 0,
            };
            for piece in Piece::ALL {
                let kind = 2 * piece.index() + pivot;
                for sq in self.pieces_of(color, piece) {
                    key ^= KEYS[64 * kind + sq.index()];
                }
            }
        }
        let rights = [
            (Color::White, CastleSide::Short),
            (Color::White, CastleSide::Long),
            (Color::Black, CastleSide::Short),
            (Color::Black, CastleSide::Long),
        ];
        for (i, (color, side)) in rights.into_iter().enumerate() {
            if self.castling_rights().has(color, side) {
                key ^= KEYS[768 + i];
            }
        }
        if let Some(ep) = self.ep_square() {
            key ^= KEYS[772 + ep.file().index()];
        }
        if self.side_to_move() == Color::White {
            key ^= KEYS[780];
        }
        key
    }
}
