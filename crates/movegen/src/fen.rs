//! Forsyth-Edwards Notation: parsing with typed errors, and printing.

use crate::attacks::{pawn_attacks, Magics};
use crate::bitboard::Bitboard;
use crate::castling::{lane_index, CastleSide, CastlingRights};
use crate::castling_mode::CastlingMode;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::{File, Rank, Square};
use alloc::{format, string::String, vec::Vec};
use core::fmt;

/// Why a FEN string was rejected. "Not a FEN" problems name the field;
/// [`FenError::OpponentInCheck`] and the king and pawn checks reject a
/// well-formed FEN of an impossible position.
///
/// # Examples
///
/// ```
/// use movegen::{Color, FenError, Position};
///
/// assert_eq!(Position::from_fen("8/8/8 w - - 0 1"), Err(FenError::RankCount(3)));
/// assert_eq!(
///     Position::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1"),
///     Err(FenError::KingCount(Color::Black, 0))
/// );
/// let err = Position::from_fen("4k3/8/8/8/8/8/8/4K3 x - - 0 1").unwrap_err();
/// assert_eq!(err, FenError::SideToMove);
/// assert!(!err.to_string().is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields (the count found).
    FieldCount(usize),
    /// The placement has other than 8 ranks (the count found).
    RankCount(usize),
    /// A rank (1-8) that does not describe exactly 8 squares.
    RankLength(Rank),
    /// A character that is neither a piece letter nor a digit 1-8.
    PieceLetter(char),
    /// A colour with other than one king (the count found).
    KingCount(Color, u32),
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// A colour with more than 16 pieces (the count found).
    TooManyPieces(Color, u32),
    /// The side to move is not `w` or `b`.
    SideToMove,
    /// A castling field character that is not `KQkq`, a file letter or a lone `-`.
    CastlingChar(char),
    /// A castling right claimed twice for one side.
    CastlingRepeated(char),
    /// A castling right whose king or rook is not on its square.
    CastlingPieces(char),
    /// The en-passant field is neither `-` nor a square name.
    EnPassantSquare,
    /// An en-passant square off the rank it must be on with this side to
    /// move (rank 6 with White to move, rank 3 with Black).
    EnPassantRank(Color, Square),
    /// An en-passant square with no pawn that could have just double-stepped past it.
    EnPassantPawn(Square),
    /// The half-move clock is not a non-negative integer.
    HalfmoveClock,
    /// The full-move number is not a non-negative integer.
    FullmoveNumber,
    /// The side not to move is in check.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FenError::FieldCount(n) => write!(f, "expected 4 to 6 fields, found {n}"),
            FenError::RankCount(n) => write!(f, "piece placement: expected 8 ranks, found {n}"),
            FenError::RankLength(r) => write!(
                f,
                "piece placement: rank {} does not have 8 squares",
                r.to_char()
            ),
            FenError::PieceLetter(c) => write!(f, "piece placement: bad character {c:?}"),
            FenError::KingCount(c, n) => {
                write!(f, "piece placement: {c:?} has {n} kings, expected 1")
            }
            FenError::PawnOnBackRank(sq) => write!(f, "piece placement: pawn on {sq}"),
            FenError::TooManyPieces(c, n) => {
                write!(
                    f,
                    "piece placement: {c:?} has {n} pieces, at most 16 are possible"
                )
            }
            FenError::SideToMove => f.write_str("side to move: expected 'w' or 'b'"),
            FenError::CastlingChar(c) => write!(f, "castling: bad character {c:?}"),
            FenError::CastlingRepeated(c) => write!(f, "castling: right {c:?} given twice"),
            FenError::CastlingPieces(c) => write!(
                f,
                "castling: right {c:?} needs its king and rook on their squares"
            ),
            FenError::EnPassantSquare => f.write_str("en passant: expected '-' or a square"),
            FenError::EnPassantRank(side, sq) => {
                let rank = match side {
                    Color::White => 6,
                    Color::Black => 3,
                };
                write!(
                    f,
                    "en passant: {sq} is not on rank {rank}, where the square must be with {side} to move"
                )
            }
            FenError::EnPassantPawn(sq) => write!(
                f,
                "en passant: no pawn can have just double-stepped past {sq}"
            ),
            FenError::HalfmoveClock => f.write_str("half-move clock: not a non-negative integer"),
            FenError::FullmoveNumber => f.write_str("full-move number: not a non-negative integer"),
            FenError::OpponentInCheck => {
                f.write_str("illegal position: side not to move is in check")
            }
        }
    }
}

impl core::error::Error for FenError {}

impl Position {
    /// Parses a FEN. The clocks may be missing (they default to `0 1`, as GUIs
    /// send 4-field FENs). Castling accepts `KQkq` (the outermost rook of that
    /// side, as in X-FEN) and file letters (Shredder-FEN, `HAha`), so Chess960
    /// positions parse too.
    ///
    /// The position's [`CastlingMode`] is `Chess960` when the castling field
    /// can only be Chess960: a right whose king is off the e-file or whose
    /// rook is off the a- or h-file, or a right written as a file letter
    /// (Shredder-FEN, Chess960's own notation; so `HAha` reads back what
    /// [`Position::fen`] writes for `Position::chess960(518)`). Otherwise it
    /// is `Standard`; [`Position::with_castling_mode`] changes it.
    ///
    /// # Errors
    /// A [`FenError`] naming the field and the problem.
    ///
    /// ```
    /// use movegen::{FenError, Position};
    ///
    /// use movegen::CastlingMode;
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// assert_eq!(pos.count_moves(), 15);
    /// assert_eq!(pos.castling_mode(), CastlingMode::Standard);
    /// assert_eq!(Position::from_fen("4k3/8/8/8/8/8/8/4K2R w"), Err(FenError::FieldCount(2)));
    ///
    /// // The king on f1 can only castle in Chess960.
    /// let chess960 = Position::from_fen("4k3/8/8/8/8/8/8/5K1R w K - 0 1")?;
    /// assert_eq!(chess960.castling_mode(), CastlingMode::Chess960);
    /// assert_eq!(chess960.fen(), "4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    /// # Ok::<(), FenError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(FenError::SideToMove),
        };
        parse_castling(&mut pos, fields[2])?;
        parse_ep(&mut pos, fields[3])?;
        if let Some(h) = fields.get(4) {
            pos.halfmove = h.parse().map_err(|_| FenError::HalfmoveClock)?;
        }
        if let Some(n) = fields.get(5) {
            pos.fullmove = n.parse().map_err(|_| FenError::FullmoveNumber)?;
        }
        let them = !pos.side;
        if pos.is_attacked(pos.king(them), pos.side, pos.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        pos.update_check_info::<Magics>();
        pos.normalise_ep();
        pos.reset_castling_squares();
        pos.key = pos.compute_key();
        // Parsed already, so anything but `KQkq-` is a file letter.
        let file_letters = fields[2].chars().any(|c| !"KQkq-".contains(c));
        pos.castling_mode = if file_letters || pos.castling_needs_chess960() {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        Ok(pos)
    }

    /// The FEN, with castling written in the position's own
    /// [`CastlingMode`]: `KQkq` in standard chess, the rooks' file letters
    /// (Shredder-FEN, `HFhf`) in Chess960. [`Position::from_fen`] reads it
    /// back to an equal position with the same mode whenever a castling
    /// right is left.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let chess960 = Position::chess960(0).unwrap();
    /// let fen = chess960.fen();
    /// assert_eq!(fen, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    /// assert_eq!(Position::from_fen(&fen).unwrap().fen(), fen);
    /// assert_eq!(Position::startpos().fen(), movegen::STARTPOS_FEN);
    /// ```
    pub fn fen(&self) -> String {
        self.fen_with(self.castling_mode)
    }

    /// The FEN with castling written in `mode`, whatever the position's own:
    /// `Standard` gives X-FEN (`KQkq`, and a file letter only for a rook that
    /// is not the outermost on its side, which standard chess never needs);
    /// `Chess960` gives Shredder-FEN (every right as its rook's file).
    ///
    /// ```
    /// use movegen::{CastlingMode, Position};
    ///
    /// let pos = Position::chess960(0).unwrap();
    /// let x_fen = pos.fen_with(CastlingMode::Standard);
    /// assert_eq!(x_fen, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert_eq!(Position::from_fen(&x_fen).unwrap(), pos);
    /// assert_eq!(
    ///     Position::startpos().fen_with(CastlingMode::Chess960),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    /// );
    /// ```
    pub fn fen_with(&self, mode: CastlingMode) -> String {
        let mut out = String::with_capacity(90);
        for rank in Rank::ALL.into_iter().rev() {
            let mut gap = 0;
            for file in File::ALL {
                let sq = Square::new(file, rank);
                match (self.piece_on(sq), self.color_on(sq)) {
                    (Some(p), Some(c)) => {
                        if gap > 0 {
                            out.push(char::from(b'0' + gap));
                            gap = 0;
                        }
                        out.push(p.to_fen_char(c));
                    }
                    _ => gap += 1,
                }
            }
            if gap > 0 {
                out.push(char::from(b'0' + gap));
            }
            if rank != Rank::First {
                out.push('/');
            }
        }
        out.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let castling = self.castling_field(mode == CastlingMode::Chess960);
        out.push_str(if castling.is_empty() { "-" } else { &castling });
        match self.ep {
            Some(sq) => out.push_str(&format!(" {sq}")),
            None => out.push_str(" -"),
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }

    fn castling_field(&self, shredder: bool) -> String {
        let mut out = String::new();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let Some(rook) = self.castle_rook(color, side) else {
                    continue;
                };
                let outermost = outermost_rook(self, color, side) == Some(rook);
                let c = if shredder || !outermost {
                    rook.file().to_char().to_ascii_uppercase()
                } else if side == CastleSide::Short {
                    'K'
                } else {
                    'Q'
                };
                out.push(match color {
                    Color::White => c,
                    Color::Black => c.to_ascii_lowercase(),
                });
            }
        }
        out
    }
}

/// Parses a FEN, as [`Position::from_fen`].
impl core::str::FromStr for Position {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

/// The FEN, as [`Position::fen`] writes it (castling in the position's own mode).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

fn parse_placement(pos: &mut Position, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::PieceLetter(c))?;
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let f = File::from_index(file).ok_or(FenError::RankLength(rank))?;
                pos.toggle::<true>(color, piece, Square::new(f, rank));
                file += 1;
            }
            if file > 8 {
                return Err(FenError::RankLength(rank));
            }
        }
        if file != 8 {
            return Err(FenError::RankLength(rank));
        }
    }
    for color in Color::ALL {
        let kings = pos.pieces_of(color, Piece::King).len();
        if kings != 1 {
            return Err(FenError::KingCount(color, kings));
        }
    }
    // Sixteen pieces a side also bounds the move count (15 queens and a king
    // have at most 413 moves) below the move list's capacity.
    for color in Color::ALL {
        let n = pos.colored(color).len();
        if n > 16 {
            return Err(FenError::TooManyPieces(color, n));
        }
    }
    let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
    if let Some(sq) = (pos.pieces(Piece::Pawn) & back_ranks).first() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    Ok(())
}

fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// The rook of `color` furthest from its king on `side`, on the back rank.
fn outermost_rook(pos: &Position, color: Color, side: CastleSide) -> Option<Square> {
    let king = pos.king(color);
    let rooks = pos.pieces_of(color, Piece::Rook) & Bitboard::rank(back_rank(color));
    let mut candidates = rooks.iter().filter(|r| match side {
        CastleSide::Short => r.file() > king.file(),
        CastleSide::Long => r.file() < king.file(),
    });
    match side {
        CastleSide::Short => candidates.next_back(),
        CastleSide::Long => candidates.next(),
    }
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let king = pos.king(color);
        let rook = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let side = if c.eq_ignore_ascii_case(&'k') {
                    CastleSide::Short
                } else {
                    CastleSide::Long
                };
                let rook = if king.rank() == back_rank(color) {
                    outermost_rook(pos, color, side)
                } else {
                    None
                };
                rook.ok_or(FenError::CastlingPieces(c))?
            }
            'a'..='h' => {
                let file = File::from_char(c).ok_or(FenError::CastlingChar(c))?;
                let sq = Square::new(file, back_rank(color));
                let ok = king.rank() == back_rank(color)
                    && file != king.file()
                    && pos.pieces_of(color, Piece::Rook).has(sq);
                if !ok {
                    return Err(FenError::CastlingPieces(c));
                }
                sq
            }
            _ => return Err(FenError::CastlingChar(c)),
        };
        let side = if rook.file() > king.file() {
            CastleSide::Short
        } else {
            CastleSide::Long
        };
        if pos.rights.has(color, side) {
            return Err(FenError::CastlingRepeated(c));
        }
        pos.rights = pos.rights.with(CastlingRights::single(color, side));
        pos.castle_rooks[color.index()][side.index()] = rook;
        pos.castle_lanes[color.index()][side.index()] = lane_index(color, king.file(), rook.file());
    }
    Ok(())
}

impl Position {
    /// Keeps the en-passant square a FEN named only while a capture there is
    /// legal, as `play` does, and notes it for the Polyglot key while a pawn
    /// stands ready to take (legal or not). Needs up-to-date checkers.
    fn normalise_ep(&mut self) {
        let Some(ep) = self.ep.take() else {
            return;
        };
        let us = self.side;
        if (pawn_attacks(!us, ep) & self.pieces_of(us, Piece::Pawn)).nonempty() {
            self.pseudo_ep = Some(ep);
            if self.any_legal_ep::<Magics>(ep) {
                self.ep = Some(ep);
            }
        }
    }
}

fn parse_ep(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let sq = Square::parse(field).ok_or(FenError::EnPassantSquare)?;
    let (ep_rank, dir) = match pos.side {
        Color::White => (Rank::Sixth, -1),
        Color::Black => (Rank::Third, 1),
    };
    if sq.rank() != ep_rank {
        return Err(FenError::EnPassantRank(pos.side, sq));
    }
    let pawn = sq.offset_rank(dir).expect("rank 3 and 6 have neighbours");
    let origin = sq.offset_rank(-dir).expect("rank 3 and 6 have neighbours");
    let pushed = pos.pieces_of(!pos.side, Piece::Pawn).has(pawn);
    let empty = !pos.occupied().has(sq) && !pos.occupied().has(origin);
    if !pushed || !empty {
        return Err(FenError::EnPassantPawn(sq));
    }
    pos.ep = Some(sq);
    Ok(())
}
