//! Moves, per-piece move sets and the fixed-capacity move list.

use crate::bitboard::Bitboard;
use crate::piece::Piece;
use crate::square::{File, Rank, Square};
use std::fmt;
use std::ops::Deref;

/// What kind of move a [`Move`] is, beyond its two squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// Any move that is none of the others (quiet moves, captures, double pushes).
    Normal,
    /// Castling, encoded as the king moving onto its own rook's square.
    Castle,
    /// An en-passant capture; `to` is the square the capturing pawn lands on.
    EnPassant,
    /// A pawn promotion to the given piece (knight, bishop, rook or queen).
    Promotion(Piece),
}

/// A move in 16 bits: from (6), to (6) and kind (4).
///
/// Castling is stored as "king takes own rook" (`e1h1`), which covers Chess960
/// too; [`Move::to_uci`] converts it to the king's two-square step (`e1g1`) for
/// standard chess. `Display` gives that standard UCI form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_CASTLE: u16 = 1;
const KIND_EP: u16 = 2;
const KIND_PROMO: u16 = 4;

impl Move {
    /// The null move, written `0000` in UCI.
    pub const NULL: Move = Move(0);

    /// A move of `kind` from `from` to `to` (for castling, `to` is the rook's square).
    ///
    /// # Panics
    /// On a promotion to a pawn or a king, which is no chess move.
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let k = match kind {
            MoveKind::Normal => KIND_NORMAL,
            MoveKind::Castle => KIND_CASTLE,
            MoveKind::EnPassant => KIND_EP,
            MoveKind::Promotion(p) => match p {
                Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen => {
                    KIND_PROMO + p as u16 - Piece::Knight as u16
                }
                _ => panic!("promotion piece must be N, B, R or Q"),
            },
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | k << 12)
    }

    /// The square the moving piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked((self.0 & 63) as usize)
    }

    /// The square the moving piece reaches (the castling rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6 & 63) as usize)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_CASTLE => MoveKind::Castle,
            KIND_EP => MoveKind::EnPassant,
            k if k >= KIND_PROMO => MoveKind::Promotion(Piece::ALL[(k - KIND_PROMO) as usize + 1]),
            _ => MoveKind::Normal,
        }
    }

    /// The promotion piece, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Piece> {
        match self.kind() {
            MoveKind::Promotion(p) => Some(p),
            _ => None,
        }
    }

    /// Whether this is castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    /// The raw 16 bits (for hash tables).
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// A move from its raw bits, as returned by [`Move::bits`]. Any value is a
    /// well-formed move, though not necessarily a legal one.
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The square the king lands on; for castling, the g- or c-file square.
    pub fn king_destination(self) -> Square {
        if self.is_castle() {
            let file = if self.to() > self.from() {
                File::G
            } else {
                File::C
            };
            Square::new(file, self.from().rank())
        } else {
            self.to()
        }
    }

    /// The move in UCI notation: castling as the king's step in standard chess
    /// (`e1g1`) or as king-takes-rook when `chess960` (`e1h1`).
    pub fn to_uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }
}

/// A [`Move`] formatted for UCI in one of the two castling notations.
#[derive(Clone, Copy, Debug)]
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        if mv == Move::NULL {
            return f.write_str("0000");
        }
        let to = if self.chess960 {
            mv.to()
        } else {
            mv.king_destination()
        };
        write!(f, "{}{}", mv.from(), to)?;
        if let Some(p) = mv.promotion() {
            write!(f, "{}", p.to_char())?;
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_uci(false).fmt(f)
    }
}

/// The legal moves of one piece: a source square and a target set.
///
/// `special` marks targets that are not plain moves: the en-passant square for a
/// pawn, the castling rooks' squares for a king. Pawn targets on the last rank
/// stand for four promotions each.
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
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PawnMoves {
    /// The target squares.
    pub to: Bitboard,
    /// How far each target lies from its source: `to - from` in square indices.
    pub delta: i8,
}

impl PawnMoves {
    /// The number of moves, promotions counting four.
    #[inline(always)]
    pub fn len(&self) -> usize {
        (self.to.len() + 3 * (self.to & PROMOTION_RANKS).len()) as usize
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The source square of target `to`.
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

/// Capacity of a [`MoveList`]. Reachable positions have at most 218 legal
/// moves; the FEN parser allows at most 16 pieces a side, and 15 queens and a
/// king have at most 15 * 27 + 8 = 413, so no position we accept overflows it.
pub const MAX_MOVES: usize = 416;

/// A fixed-capacity list of moves: no allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves, which no legal position reaches.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The moves as a mutable slice (for sorting).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn encodes_and_decodes() {
        let kinds = [
            MoveKind::Normal,
            MoveKind::Castle,
            MoveKind::EnPassant,
            MoveKind::Promotion(Piece::Knight),
            MoveKind::Promotion(Piece::Bishop),
            MoveKind::Promotion(Piece::Rook),
            MoveKind::Promotion(Piece::Queen),
        ];
        for kind in kinds {
            let mv = Move::new(sq("b7"), sq("a8"), kind);
            assert_eq!((mv.from(), mv.to(), mv.kind()), (sq("b7"), sq("a8"), kind));
        }
    }

    #[test]
    fn uci_castling_notation() {
        let short = Move::new(sq("e1"), sq("h1"), MoveKind::Castle);
        let long = Move::new(sq("e8"), sq("a8"), MoveKind::Castle);
        assert_eq!(short.to_string(), "e1g1");
        assert_eq!(long.to_string(), "e8c8");
        assert_eq!(short.to_uci(true).to_string(), "e1h1");
        assert_eq!(long.to_uci(true).to_string(), "e8a8");
        let promo = Move::new(sq("e7"), sq("e8"), MoveKind::Promotion(Piece::Queen));
        assert_eq!(promo.to_string(), "e7e8q");
        assert_eq!(Move::NULL.to_string(), "0000");
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
