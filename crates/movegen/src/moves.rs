//! Moves and their UCI text, both ways.

use crate::castling_mode::CastlingMode;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::{File, Square};
use core::fmt;

/// What kind of move a [`Move`] is, beyond its two squares.
///
/// # Examples
///
/// ```
/// use movegen::{MoveKind, Piece, Position};
///
/// let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K2R w K - 0 1").unwrap();
/// let castle = pos.parse_uci_move("e1g1").unwrap();
/// assert_eq!(castle.kind(), MoveKind::Castle);
/// let promo = pos.parse_uci_move("a7a8n").unwrap();
/// assert_eq!(promo.kind(), MoveKind::Promotion(Piece::Knight));
/// assert_eq!(pos.parse_uci_move("h1h2").unwrap().kind(), MoveKind::Normal);
/// ```
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
///
/// # Examples
///
/// ```
/// use movegen::{Move, MoveKind, Position, Square};
///
/// let pos = Position::startpos();
/// let mv: Move = pos.parse_uci_move("g1f3").unwrap();
/// assert_eq!((mv.from(), mv.to()), (Square::G1, Square::F3));
/// assert_eq!(mv, Move::new(Square::G1, Square::F3, MoveKind::Normal));
/// assert_eq!(mv.to_string(), "g1f3");
/// assert_eq!(Move::from_bits(mv.bits()), mv);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_CASTLE: u16 = 1;
const KIND_EP: u16 = 2;
const KIND_PROMO: u16 = 4;

impl Move {
    /// The null move, written `0000` in UCI.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Move, Position};
    ///
    /// assert_eq!(Move::NULL.to_string(), "0000");
    /// assert_eq!(Move::default(), Move::NULL);
    /// assert!(!Position::startpos().is_legal(Move::NULL));
    /// ```
    pub const NULL: Move = Move(0);

    /// A move of `kind` from `from` to `to` (for castling, `to` is the rook's square).
    ///
    /// # Panics
    /// On a promotion to a pawn or a king, which is no chess move.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Move, MoveKind, Piece, Position, Square};
    ///
    /// let promo = Move::new(Square::B7, Square::B8, MoveKind::Promotion(Piece::Queen));
    /// assert_eq!(promo.to_string(), "b7b8q");
    /// let pos = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    /// assert!(pos.is_legal(promo));
    /// ```
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
    ///
    /// ```
    /// use movegen::{Position, Square};
    ///
    /// let mv = Position::startpos().parse_uci_move("g1f3").unwrap();
    /// assert_eq!((mv.from(), mv.to()), (Square::G1, Square::F3));
    /// ```
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked((self.0 & 63) as usize)
    }

    /// The square the moving piece reaches (the castling rook's square for castling).
    ///
    /// ```
    /// use movegen::{Position, Square};
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
    /// let castle = pos.parse_uci_move("e1g1").unwrap();
    /// assert_eq!(castle.to(), Square::H1);
    /// assert_eq!(castle.king_destination(), Square::G1);
    /// ```
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6 & 63) as usize)
    }

    /// The kind of move.
    ///
    /// ```
    /// use movegen::{MoveKind, Piece, Position};
    ///
    /// let pos: Position = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
    /// let promo = pos.parse_uci_move("a7a8n").unwrap();
    /// assert_eq!(promo.kind(), MoveKind::Promotion(Piece::Knight));
    /// ```
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_CASTLE => MoveKind::Castle,
            KIND_EP => MoveKind::EnPassant,
            // Only 4 to 7 are made by `Move::new`; the mask keeps any bits
            // from `Move::from_bits` on the board of promotion pieces (such
            // a move never equals a legal one, so it is never played).
            k if k >= KIND_PROMO => {
                MoveKind::Promotion(Piece::ALL[((k - KIND_PROMO) & 3) as usize + 1])
            }
            _ => MoveKind::Normal,
        }
    }

    /// The promotion piece, if this is a promotion.
    ///
    /// ```
    /// use movegen::{Piece, Position};
    ///
    /// let pos: Position = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
    /// assert_eq!(pos.parse_uci_move("a7a8q").unwrap().promotion(), Some(Piece::Queen));
    /// ```
    #[inline(always)]
    pub const fn promotion(self) -> Option<Piece> {
        match self.kind() {
            MoveKind::Promotion(p) => Some(p),
            _ => None,
        }
    }

    /// Whether this is castling.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
    /// assert!(pos.parse_uci_move("e1g1").unwrap().is_castle());
    /// ```
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    /// The raw 16 bits (for hash tables).
    ///
    /// ```
    /// use movegen::{Move, Position};
    ///
    /// let mv = Position::startpos().parse_uci_move("e2e4").unwrap();
    /// assert_eq!(Move::from_bits(mv.bits()), mv);
    /// ```
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// A move from its raw bits, as returned by [`Move::bits`]. Any value is a
    /// well-formed move, though not necessarily a legal one: check it with
    /// [`Position::is_legal`] or play it with [`Position::try_play`].
    ///
    /// ```
    /// use movegen::{Move, Position};
    ///
    /// let pos = Position::startpos();
    /// let stored = pos.parse_uci_move("d2d4").unwrap().bits();
    /// assert!(pos.is_legal(Move::from_bits(stored)));
    /// assert!(pos.try_play(Move::from_bits(0xffff)).is_err());
    /// ```
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The square the king lands on; for castling, the g- or c-file square.
    ///
    /// ```
    /// use movegen::{Position, Square};
    ///
    /// let pos: Position = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1".parse().unwrap();
    /// let castle = pos.parse_uci_move("e8c8").unwrap();
    /// assert_eq!(castle.king_destination(), Square::C8);
    /// ```
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

    /// The move in UCI notation, castling written in `mode`: the king's step
    /// in standard chess (`e1g1`), king-takes-rook in Chess960 (`e1h1`). A
    /// move does not know its position, so the mode is given; it is usually
    /// the position's own, [`Position::castling_mode`].
    ///
    /// ```
    /// use movegen::{CastlingMode, Position};
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
    /// let castle = pos.parse_uci_move("e1g1").unwrap();
    /// assert_eq!(castle.to_uci(pos.castling_mode()).to_string(), "e1g1");
    /// assert_eq!(castle.to_uci(CastlingMode::Standard).to_string(), "e1g1");
    /// assert_eq!(castle.to_uci(CastlingMode::Chess960).to_string(), "e1h1");
    /// ```
    pub fn to_uci(self, mode: CastlingMode) -> UciMove {
        if self == Move::NULL {
            return UciMove::Null;
        }
        UciMove::Normal {
            from: self.from(),
            to: if mode == CastlingMode::Chess960 {
                self.to()
            } else {
                self.king_destination()
            },
            promotion: self.promotion(),
        }
    }
}

/// A move as UCI writes it: two squares and a promotion letter, or `0000`.
///
/// UCI text does not say whether `e1g1` castles or `e5d6` takes en passant;
/// the position does. So a `UciMove` parses without a position
/// (`"e2e4".parse()`), and [`UciMove::to_move`] finds the [`Move`] it names
/// among a position's legal moves.
///
/// ```
/// use movegen::{Position, UciMove};
///
/// let pos = Position::startpos();
/// let uci: UciMove = "g1f3".parse().unwrap();
/// let mv = uci.to_move(&pos).unwrap();
/// assert_eq!(mv.to_uci(pos.castling_mode()), uci);
/// assert_eq!(uci.to_string(), "g1f3");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UciMove {
    /// A move from one square to another, with the promotion piece if any.
    Normal {
        /// The square the piece leaves.
        from: Square,
        /// The square written second (the king's or, in Chess960, the rook's for castling).
        to: Square,
        /// The piece a pawn promotes to.
        promotion: Option<Piece>,
    },
    /// The null move, `0000`.
    Null,
}

impl UciMove {
    /// The legal move of `pos` this text names, castling read in the
    /// position's [`CastlingMode`]: as king-takes-own-rook (`e1h1`) in
    /// either mode, and also as the king's two-square step (`e1g1`) in
    /// `Standard` (in Chess960 that text is a king move, if legal).
    ///
    /// # Errors
    /// [`MoveError::Illegal`] if no legal move matches (the null move never does).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{MoveError, Position, UciMove};
    ///
    /// let pos = Position::startpos();
    /// let text: UciMove = "e2e4".parse().unwrap();
    /// assert_eq!(text.to_move(&pos).unwrap().to_string(), "e2e4");
    /// let illegal: UciMove = "e2e5".parse().unwrap();
    /// assert_eq!(illegal.to_move(&pos), Err(MoveError::Illegal));
    /// ```
    pub fn to_move(self, pos: &Position) -> Result<Move, MoveError> {
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = self
        else {
            return Err(MoveError::Illegal);
        };
        let kings_step = pos.castling_mode() == CastlingMode::Standard;
        pos.legal_moves()
            .iter()
            .copied()
            .find(|mv| {
                mv.from() == from
                    && mv.promotion() == promotion
                    && (mv.to() == to || (kings_step && mv.king_destination() == to))
            })
            .ok_or(MoveError::Illegal)
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(p) = promotion {
                    write!(f, "{}", p.to_char())?;
                }
                Ok(())
            }
        }
    }
}

/// Reads `e2e4`, `e7e8q` or `0000`.
impl core::str::FromStr for UciMove {
    type Err = MoveError;

    fn from_str(text: &str) -> Result<UciMove, MoveError> {
        if text == "0000" {
            return Ok(UciMove::Null);
        }
        let bytes = text.as_bytes();
        if !(4..=5).contains(&bytes.len()) || !text.is_ascii() {
            return Err(MoveError::Malformed);
        }
        let from = Square::parse_move_text(&bytes[0..2]).ok_or(MoveError::Malformed)?;
        let to = Square::parse_move_text(&bytes[2..4]).ok_or(MoveError::Malformed)?;
        let promotion = match bytes.get(4) {
            None => None,
            Some(b'n' | b'b' | b'r' | b'q') => Piece::from_char(bytes[4] as char),
            Some(_) => return Err(MoveError::Malformed),
        };
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_uci(CastlingMode::Standard).fmt(f)
    }
}

/// Why a UCI move string was not accepted.
///
/// # Examples
///
/// ```
/// use movegen::{MoveError, Position};
///
/// let pos = Position::startpos();
/// assert_eq!(pos.parse_uci_move("e2-e4"), Err(MoveError::Malformed));
/// assert_eq!(pos.parse_uci_move("e1e2"), Err(MoveError::Illegal));
/// assert_eq!(MoveError::Illegal.to_string(), "not a legal move in this position");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `e2e4` / `e7e8q`: squares `a1`-`h8` and the
    /// promotion letter `n`, `b`, `r` or `q`, all in lower case as the UCI
    /// protocol writes them (python-chess and shakmaty also refuse `E2E4`).
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

impl core::error::Error for MoveError {}

impl Position {
    /// Finds the legal move written `text` in UCI notation, castling read in
    /// the position's [`CastlingMode`] (see [`UciMove::to_move`]): `e1g1` or
    /// `e1h1` in standard chess, only `e1h1` in Chess960.
    ///
    /// # Errors
    /// [`MoveError::Malformed`] if `text` is not UCI move syntax,
    /// [`MoveError::Illegal`] if no legal move matches.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastlingMode, MoveKind, Position};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// let short = pos.parse_uci_move("e1g1").unwrap();
    /// assert_eq!(short.kind(), MoveKind::Castle);
    /// assert_eq!(pos.parse_uci_move("e1h1"), Ok(short)); // king takes rook
    /// let chess960 = pos.with_castling_mode(CastlingMode::Chess960).unwrap();
    /// assert!(chess960.parse_uci_move("e1g1").is_err()); // Chess960: a king step
    /// assert_eq!(chess960.parse_uci_move("e1h1"), Ok(short));
    /// ```
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        text.parse::<UciMove>()?.to_move(self)
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
        assert_eq!(short.to_uci(CastlingMode::Chess960).to_string(), "e1h1");
        assert_eq!(long.to_uci(CastlingMode::Chess960).to_string(), "e8a8");
        let promo = Move::new(sq("e7"), sq("e8"), MoveKind::Promotion(Piece::Queen));
        assert_eq!(promo.to_string(), "e7e8q");
        assert_eq!(Move::NULL.to_string(), "0000");
    }

    #[test]
    fn uci_text_parses_without_a_position() {
        for text in ["e2e4", "e7e8q", "a1h8", "0000"] {
            let uci: UciMove = text.parse().unwrap();
            assert_eq!(uci.to_string(), text);
        }
        for bad in [
            "", "e2", "e2e9", "e7e8k", "e7e8Q", "e2e4 ", "00000", "E2E4", "e2E4",
        ] {
            assert_eq!(bad.parse::<UciMove>(), Err(MoveError::Malformed), "{bad}");
        }
        let pos = Position::startpos();
        assert_eq!(UciMove::Null.to_move(&pos), Err(MoveError::Illegal));
        assert_eq!(pos.parse_uci_move("0000"), Err(MoveError::Illegal));
    }
}
