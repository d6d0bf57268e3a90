//! Legal move generation with check and pin masks (no make-and-test).

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList, PieceMoves};
use crate::piece::{Color, Piece};
use crate::position::{right_bit, CastleSide, Position};
use crate::square::{Rank, Square};
use std::fmt;

/// Why a UCI move string was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `e2e4` / `e7e8q` (squares `a1`-`h8`, promotion `nbrq`).
    Malformed,
    /// Well formed, but not a legal move in the position.
    Illegal,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::Malformed => "not a move in UCI notation",
            MoveError::Illegal => "not a legal move in this position",
        })
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// Calls `listener` with the legal moves of each piece of the side to move,
    /// as a source square and a target set; stops early when it returns `true`.
    /// Returns whether it was stopped.
    #[inline]
    pub fn generate_moves(&self, mut listener: impl FnMut(PieceMoves) -> bool) -> bool {
        let us = self.side;
        let own = self.colors[us];
        let king = self.king(us);
        if self.king_moves(king, own, &mut listener) {
            return true;
        }
        let target = match self.checkers.first() {
            None => !own,
            Some(_) if self.checkers.has_many() => return false,
            Some(checker) => between(king, checker) | self.checkers,
        };
        self.piece_moves(king, own, target, &mut listener)
            || self.pawn_moves(king, own, target, &mut listener)
    }

    #[inline(always)]
    fn king_moves(
        &self,
        king: Square,
        own: Bitboard,
        listener: &mut impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        let them = !self.side;
        // The king is lifted off the board so it cannot hide behind itself
        // from a slider it steps away from.
        let occ = self.occupied() ^ Bitboard::from_square(king);
        let mut to = Bitboard::EMPTY;
        for sq in king_attacks(king) & !own {
            if !self.is_attacked(sq, them, occ) {
                to |= Bitboard::from_square(sq);
            }
        }
        let castles = if self.rights != 0 && self.checkers.is_empty() {
            self.castles(king)
        } else {
            Bitboard::EMPTY
        };
        let to = to | castles;
        to.nonempty()
            && listener(PieceMoves {
                piece: Piece::King,
                from: king,
                to,
                special: castles,
            })
    }

    /// The rook squares the side to move may castle onto (it is not in check).
    fn castles(&self, king: Square) -> Bitboard {
        let us = self.side;
        let occ = self.occupied();
        let mut out = Bitboard::EMPTY;
        for side in CastleSide::ALL {
            if self.rights & right_bit(us, side) == 0 {
                continue;
            }
            let rook = self.castle_rooks[us.index()][side.index()];
            let (kf, rf) = side.destination_files();
            let king_to = Square::new(kf, king.rank());
            let rook_to = Square::new(rf, king.rank());
            let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
            let must_be_empty = (between(king, king_to)
                | Bitboard::from_square(king_to)
                | between(rook, rook_to)
                | Bitboard::from_square(rook_to))
                & !movers;
            if (occ & must_be_empty).nonempty() {
                continue;
            }
            // Without the king and rook on the board, so that a rook shielding
            // the king's destination (Chess960) counts as gone.
            let occ = occ ^ movers;
            let path = between(king, king_to) | Bitboard::from_square(king_to);
            if path.into_iter().all(|sq| !self.is_attacked(sq, !us, occ)) {
                out |= Bitboard::from_square(rook);
            }
        }
        out
    }

    #[inline(always)]
    fn piece_moves(
        &self,
        king: Square,
        own: Bitboard,
        target: Bitboard,
        listener: &mut impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        let occ = self.occupied();
        let pinned = self.pinned;
        // A pinned knight can never move.
        for from in self.pieces[Piece::Knight] & own & !pinned {
            let to = knight_attacks(from) & target;
            if to.nonempty() && listener(simple(Piece::Knight, from, to)) {
                return true;
            }
        }
        for piece in [Piece::Bishop, Piece::Rook, Piece::Queen] {
            for from in self.pieces[piece] & own {
                let mut to = match piece {
                    Piece::Bishop => bishop_attacks(from, occ),
                    Piece::Rook => rook_attacks(from, occ),
                    _ => queen_attacks(from, occ),
                } & target;
                if pinned.has(from) {
                    to &= line(king, from);
                }
                if to.nonempty() && listener(simple(piece, from, to)) {
                    return true;
                }
            }
        }
        false
    }

    #[inline(always)]
    fn pawn_moves(
        &self,
        king: Square,
        own: Bitboard,
        target: Bitboard,
        listener: &mut impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        let us = self.side;
        let empty = !self.occupied();
        let enemies = self.colors[!us];
        let (start_rank, up): (Rank, fn(Bitboard) -> Bitboard) = match us {
            Color::White => (Rank::Second, Bitboard::up),
            Color::Black => (Rank::Seventh, Bitboard::down),
        };
        let ep = self.ep;
        for from in self.pieces[Piece::Pawn] & own {
            let bb = Bitboard::from_square(from);
            let single = up(bb) & empty;
            let double = if from.rank() == start_rank {
                up(single) & empty
            } else {
                Bitboard::EMPTY
            };
            let attacks = pawn_attacks(us, from);
            let mut to = (single | double | (attacks & enemies)) & target;
            if self.pinned.has(from) {
                to &= line(king, from);
            }
            let mut special = Bitboard::EMPTY;
            if let Some(ep) = ep {
                // Pins and checks are settled by re-testing the king directly.
                if attacks.has(ep) && self.ep_is_legal(from, ep) {
                    special = Bitboard::from_square(ep);
                    to |= special;
                }
            }
            if to.nonempty()
                && listener(PieceMoves {
                    piece: Piece::Pawn,
                    from,
                    to,
                    special,
                })
            {
                return true;
            }
        }
        false
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(|pm| {
            for mv in pm {
                list.push(mv);
            }
            false
        });
        list
    }

    /// The number of legal moves, without listing them (promotions count four).
    #[inline]
    pub fn count_moves(&self) -> usize {
        let mut n = 0;
        self.generate_moves(|pm| {
            n += pm.len();
            false
        });
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        self.generate_moves(|_| true)
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.generate_moves(|pm| pm.from == mv.from() && pm.into_iter().any(|m| m == mv))
    }

    /// Finds the legal move written `text` in UCI notation. Castling is accepted
    /// as the king's two-square step (`e1g1`) unless `chess960`, and always as
    /// king-takes-own-rook (`e1h1`).
    ///
    /// # Errors
    /// [`MoveError::Malformed`] if `text` is not UCI move syntax,
    /// [`MoveError::Illegal`] if no legal move matches.
    pub fn parse_uci_move(&self, text: &str, chess960: bool) -> Result<Move, MoveError> {
        let bytes = text.as_bytes();
        if !(4..=5).contains(&bytes.len()) || !text.is_ascii() {
            return Err(MoveError::Malformed);
        }
        let from = Square::parse(&text[0..2]).ok_or(MoveError::Malformed)?;
        let to = Square::parse(&text[2..4]).ok_or(MoveError::Malformed)?;
        let promo = match bytes.get(4) {
            None => None,
            Some(b'n' | b'b' | b'r' | b'q') => Piece::from_char(bytes[4] as char),
            Some(_) => return Err(MoveError::Malformed),
        };
        self.legal_moves()
            .iter()
            .copied()
            .find(|mv| {
                mv.from() == from
                    && mv.promotion() == promo
                    && (mv.to() == to || (!chess960 && mv.king_destination() == to))
            })
            .ok_or(MoveError::Illegal)
    }
}

#[inline(always)]
fn simple(piece: Piece, from: Square, to: Bitboard) -> PieceMoves {
    PieceMoves {
        piece,
        from,
        to,
        special: Bitboard::EMPTY,
    }
}
