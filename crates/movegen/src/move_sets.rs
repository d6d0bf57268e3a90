//! Moves as sets: one piece's targets, or one kind of pawn move for all pawns.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::piece::Piece;
use crate::square::{Rank, Square};

/// The legal moves of one piece: a source square and a target set.
///
/// `special` marks targets that are not plain moves: the en-passant square for a
/// pawn, the castling rooks' squares for a king. Pawn targets on the last rank
/// stand for four promotions each.
///
/// # Examples
///
/// ```
/// use movegen::{Piece, PieceMoves, Position, Square};
///
/// let pos = Position::startpos();
/// let mut knight = None;
/// pos.generate_moves(|moves: PieceMoves| {
///     if moves.from == Square::G1 {
///         knight = Some(moves);
///     }
///     false
/// });
/// let knight = knight.unwrap();
/// assert_eq!(knight.piece, Piece::Knight);
/// assert!(knight.to.has(Square::F3) && knight.to.has(Square::H3));
/// assert_eq!(knight.into_iter().count(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceMoves {
    /// The moving piece.
    pub piece: Piece,
    /// Its square.
    pub from: Square,
    /// Where it may go.
    pub to: Bitboard,
    /// Targets that are en passant (pawn) or castling (king).
    pub special: Bitboard,
}

const PROMOTION_RANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);

impl PieceMoves {
    /// The number of moves this set stands for (promotions count four times).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Piece, PieceMoves, Position};
    ///
    /// // A pinned pawn that captures onto the last rank makes four moves.
    /// let pos = Position::from_fen("2r1k3/1P6/K7/8/8/8/8/8 w - - 0 1").unwrap();
    /// let mut sizes = Vec::new();
    /// pos.generate_moves(|moves: PieceMoves| {
    ///     if moves.piece == Piece::Pawn {
    ///         sizes.push((moves.to.len(), moves.len()));
    ///     }
    ///     false
    /// });
    /// assert_eq!(sizes.iter().map(|s| s.1).sum::<usize>(), 8); // b8 and c8, four each
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        let n = self.to.len() as usize;
        if self.piece == Piece::Pawn {
            n + 3 * (self.to & PROMOTION_RANKS).len() as usize
        } else {
            n
        }
    }

    /// Whether the set is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Piece, PieceMoves, Position};
    ///
    /// // Sets handed to a listener are never empty.
    /// let mut any_empty = false;
    /// Position::startpos().generate_moves(|moves: PieceMoves| {
    ///     any_empty |= moves.is_empty();
    ///     false
    /// });
    /// assert!(!any_empty);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }
}

impl IntoIterator for PieceMoves {
    type Item = Move;
    type IntoIter = PieceMovesIter;

    fn into_iter(self) -> PieceMovesIter {
        PieceMovesIter {
            moves: self,
            promo: 0,
        }
    }
}

/// Iterator over the moves of a [`PieceMoves`].
///
/// # Examples
///
/// ```
/// use movegen::{PieceMoves, PieceMovesIter, Position, Square};
///
/// let mut total = 0;
/// Position::startpos().generate_moves(|moves: PieceMoves| {
///     let iter: PieceMovesIter = moves.into_iter();
///     total += iter.filter(|mv| mv.from() == Square::B1).count();
///     false
/// });
/// assert_eq!(total, 2);
/// ```
pub struct PieceMovesIter {
    moves: PieceMoves,
    promo: u8,
}

const PROMOTION_ORDER: [Piece; 4] = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];

impl Iterator for PieceMovesIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let to = self.moves.to.first()?;
        let from = self.moves.from;
        let kind = if self.moves.special.has(to) {
            if self.moves.piece == Piece::King {
                MoveKind::Castle
            } else {
                MoveKind::EnPassant
            }
        } else if self.moves.piece == Piece::Pawn && matches!(to.rank(), Rank::First | Rank::Eighth)
        {
            let p = PROMOTION_ORDER[self.promo as usize];
            self.promo += 1;
            if self.promo < 4 {
                return Some(Move::new(from, to, MoveKind::Promotion(p)));
            }
            self.promo = 0;
            MoveKind::Promotion(p)
        } else {
            MoveKind::Normal
        };
        self.moves.to.0 &= self.moves.to.0 - 1;
        Some(Move::new(from, to, kind))
    }
}

/// Pawn moves of one kind for a whole set of pawns at once: every square of
/// `to` is reached by the pawn standing `delta` squares before it (`from =
/// to - delta`), e.g. all single pushes of White's unpinned pawns with `delta`
/// 8. Pawns reaching the last rank make four moves each, queen first.
///
/// Counting needs no loop: [`PawnMoves::len`] is a population count.
///
/// # Examples
///
/// ```
/// use movegen::{MoveSink, PawnMoves, PieceMoves, Position, Square};
///
/// // A sink that keeps the single pushes (delta 8 for White).
/// struct Pushes(Vec<PawnMoves>);
/// impl MoveSink for Pushes {
///     fn piece(&mut self, _: PieceMoves) -> bool {
///         false
///     }
///     fn pawns(&mut self, moves: PawnMoves) -> bool {
///         if moves.delta == 8 {
///             self.0.push(moves);
///         }
///         false
///     }
/// }
/// let mut sink = Pushes(Vec::new());
/// Position::startpos().generate(&mut sink);
/// let pushes = sink.0[0];
/// assert_eq!(pushes.len(), 8);
/// assert_eq!(pushes.from(Square::E3), Square::E2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PawnMoves {
    /// The target squares.
    pub to: Bitboard,
    /// How far each target lies from its source: `to - from` in square indices.
    pub delta: i8,
}

impl PawnMoves {
    /// The number of moves, promotions counting four.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{MoveSink, PawnMoves, PieceMoves, Position};
    ///
    /// struct PawnCount(usize);
    /// impl MoveSink for PawnCount {
    ///     fn piece(&mut self, _: PieceMoves) -> bool {
    ///         false
    ///     }
    ///     fn pawns(&mut self, moves: PawnMoves) -> bool {
    ///         self.0 += moves.len();
    ///         false
    ///     }
    /// }
    /// let mut count = PawnCount(0);
    /// Position::startpos().generate(&mut count);
    /// assert_eq!(count.0, 16); // eight single and eight double pushes
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        (self.to.len() + 3 * (self.to & PROMOTION_RANKS).len()) as usize
    }

    /// Whether there are no moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{MoveSink, PawnMoves, PieceMoves, Position};
    ///
    /// struct AnyEmpty(bool);
    /// impl MoveSink for AnyEmpty {
    ///     fn piece(&mut self, _: PieceMoves) -> bool {
    ///         false
    ///     }
    ///     fn pawns(&mut self, moves: PawnMoves) -> bool {
    ///         self.0 |= moves.is_empty();
    ///         false
    ///     }
    /// }
    /// // Unless a sink sets `TAKES_EMPTY_SETS`, the generator skips empty sets.
    /// let mut sink = AnyEmpty(false);
    /// Position::startpos().generate(&mut sink);
    /// assert!(!sink.0);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The source square of target `to`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{MoveSink, PawnMoves, PieceMoves, Position, Square};
    ///
    /// struct Doubles(Vec<(Square, Square)>);
    /// impl MoveSink for Doubles {
    ///     fn piece(&mut self, _: PieceMoves) -> bool {
    ///         false
    ///     }
    ///     fn pawns(&mut self, moves: PawnMoves) -> bool {
    ///         if moves.delta == -16 {
    ///             self.0.extend(moves.to.into_iter().map(|to| (moves.from(to), to)));
    ///         }
    ///         false
    ///     }
    /// }
    /// let black = Position::from_fen("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1").unwrap();
    /// let mut sink = Doubles(Vec::new());
    /// black.generate(&mut sink);
    /// assert_eq!(sink.0, [(Square::D7, Square::D5)]);
    /// ```
    #[inline(always)]
    pub fn from(&self, to: Square) -> Square {
        Square::from_index_masked((to.index() as isize - self.delta as isize) as usize)
    }
}

impl IntoIterator for PawnMoves {
    type Item = Move;
    type IntoIter = PawnMovesIter;

    #[inline(always)]
    fn into_iter(self) -> PawnMovesIter {
        PawnMovesIter {
            moves: self,
            promo: 0,
        }
    }
}

/// Iterator over the moves of a [`PawnMoves`].
///
/// # Examples
///
/// ```
/// use movegen::{MoveSink, PawnMoves, PawnMovesIter, PieceMoves, Position};
///
/// // Pawn sets expand to one move per target, four per promotion.
/// struct Expand(Vec<String>);
/// impl MoveSink for Expand {
///     fn piece(&mut self, _: PieceMoves) -> bool {
///         false
///     }
///     fn pawns(&mut self, moves: PawnMoves) -> bool {
///         let iter: PawnMovesIter = moves.into_iter();
///         self.0.extend(iter.map(|mv| mv.to_string()));
///         false
///     }
/// }
/// let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
/// let mut sink = Expand(Vec::new());
/// pos.generate(&mut sink);
/// sink.0.sort();
/// assert_eq!(sink.0, ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]);
/// ```
pub struct PawnMovesIter {
    moves: PawnMoves,
    promo: u8,
}

impl Iterator for PawnMovesIter {
    type Item = Move;

    #[inline(always)]
    fn next(&mut self) -> Option<Move> {
        let to = self.moves.to.first()?;
        let from = self.moves.from(to);
        if PROMOTION_RANKS.has(to) {
            let p = PROMOTION_ORDER[self.promo as usize];
            self.promo += 1;
            if self.promo < 4 {
                return Some(Move::new(from, to, MoveKind::Promotion(p)));
            }
            self.promo = 0;
            self.moves.to.0 &= self.moves.to.0 - 1;
            return Some(Move::new(from, to, MoveKind::Promotion(p)));
        }
        self.moves.to.0 &= self.moves.to.0 - 1;
        Some(Move::new(from, to, MoveKind::Normal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn piece_moves_expand_promotions() {
        let pm = PieceMoves {
            piece: Piece::Pawn,
            from: sq("b7"),
            to: Bitboard::from_square(sq("a8")) | Bitboard::from_square(sq("b8")),
            special: Bitboard::EMPTY,
        };
        let moves: Vec<String> = pm.into_iter().map(|m| m.to_string()).collect();
        assert_eq!(moves.len(), pm.len());
        assert_eq!(
            moves,
            ["b7a8q", "b7a8r", "b7a8b", "b7a8n", "b7b8q", "b7b8r", "b7b8b", "b7b8n"]
        );
    }

    #[test]
    fn pawn_moves_find_their_sources_and_expand_promotions() {
        let set = |names: &[&str]| names.iter().map(|n| sq(n)).collect::<Bitboard>();
        let pm = PawnMoves {
            to: set(&["c8", "e4"]),
            delta: 9,
        };
        let moves: Vec<String> = pm.into_iter().map(|m| m.to_string()).collect();
        assert_eq!(moves.len(), pm.len());
        assert_eq!(moves, ["d3e4", "b7c8q", "b7c8r", "b7c8b", "b7c8n"]);
        let black = PawnMoves {
            to: set(&["a1", "h5"]),
            delta: -8,
        };
        let moves: Vec<String> = black.into_iter().map(|m| m.to_string()).collect();
        assert_eq!(moves[0], "a2a1q");
        assert_eq!(moves.last().unwrap(), "h6h5");
        assert_eq!(moves.len(), 5);
    }
}
