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
    /// The en-passant file counts, as the Polyglot rule has it, when a pawn
    /// just moved two squares and a pawn of the side to move stands next to
    /// it, whether or not the capture is legal: after a double step reached
    /// by [`Position::play`], or named by the FEN the position was read
    /// from. That is more than [`Position::ep_square`], which (like the
    /// FEN, `==` and [`Position::key`]) keeps the square only while the
    /// capture is legal; so a FEN written by [`Position::fen`] after a
    /// double step whose capture would be illegal (a pawn pinned to its
    /// king) no longer carries it, and its key lacks the file.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// assert_eq!(Position::startpos().polyglot_key(), 0x463b_9618_1691_fc9c);
    /// // After 1.e4 no black pawn can take on e3: no file in the key.
    /// let e4: Position = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse()?;
    /// assert_eq!(e4.polyglot_key(), 0x823c_9b50_fd11_4196);
    /// // b5xc6 would expose the white king to the rook: illegal, yet counted.
    /// let pinned: Position = "8/8/8/KPp4r/8/8/8/7k w - c6 0 1".parse()?;
    /// assert_eq!(pinned.ep_square(), None);
    /// assert_eq!(pinned.polyglot_key(), 0xf008_b0d4_b67d_65ee);
    /// # Ok::<(), movegen::FenError>(())
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
        if let Some(ep) = self.pseudo_ep {
            key ^= KEYS[772 + ep.file().index()];
        }
        if self.side_to_move() == Color::White {
            key ^= KEYS[780];
        }
        key
    }
}
