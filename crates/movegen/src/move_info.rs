//! What a move does in its position, and whether the game is over on the
//! board: queries for callers that hold a position and a move.

use crate::moves::{Move, MoveKind};
use crate::piece::Piece;
use crate::position::Position;

impl Position {
    /// Whether the side to move is checkmated: in check with no legal move.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let mate: Position = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
    /// assert!(mate.is_checkmate());
    /// assert!(!Position::startpos().is_checkmate());
    /// ```
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated: not in check, no legal move.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let stalemate: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
    /// assert!(stalemate.is_stalemate());
    /// assert!(!stalemate.is_checkmate());
    /// ```
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// The piece that makes `mv` (the king for castling), or `None` if no
    /// piece of the side to move stands on its square.
    ///
    /// ```
    /// use movegen::{Piece, Position};
    ///
    /// let pos = Position::startpos();
    /// let nf3 = pos.parse_uci_move("g1f3").unwrap();
    /// assert_eq!(pos.moving_piece(nf3), Some(Piece::Knight));
    /// ```
    pub fn moving_piece(&self, mv: Move) -> Option<Piece> {
        if self.colored(self.side_to_move()).has(mv.from()) {
            self.piece_on(mv.from())
        } else {
            None
        }
    }

    /// The kind of piece `mv` captures: the one on its target square, or
    /// the pawn taken en passant. Castling (stored as the king taking its
    /// own rook) captures nothing.
    ///
    /// ```
    /// use movegen::{Piece, Position};
    ///
    /// let pos: Position = "r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
    /// let exd5 = pos.parse_uci_move("e4d5").unwrap();
    /// assert_eq!(pos.captured(exd5), Some(Piece::Pawn));
    /// let castle = pos.parse_uci_move("e1g1").unwrap();
    /// assert_eq!(pos.captured(castle), None);
    /// ```
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        match mv.kind() {
            MoveKind::Castle => None,
            MoveKind::EnPassant => Some(Piece::Pawn),
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if self.colored(!self.side_to_move()).has(mv.to()) {
                    self.piece_on(mv.to())
                } else {
                    None
                }
            }
        }
    }

    /// Whether `mv` captures a piece (en passant too; castling never).
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let kiwipete: Position =
    ///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    ///         .parse()
    ///         .unwrap();
    /// let captures = kiwipete.legal_moves().iter().filter(|&&m| kiwipete.is_capture(m)).count();
    /// assert_eq!(captures, 8);
    /// ```
    pub fn is_capture(&self, mv: Move) -> bool {
        self.captured(mv).is_some()
    }
}

/// Hashes the zobrist key, which equal positions share (`Eq` compares
/// every field, and the key is a function of them).
///
/// ```
/// use movegen::Position;
/// use std::collections::HashSet;
///
/// let mut seen = HashSet::new();
/// seen.insert(Position::startpos());
/// assert!(seen.contains(&Position::default()));
/// ```
impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.key());
    }
}
