//! Standard Algebraic Notation: writing a legal move, and reading what
//! people write back into one.
//!
//! Writing follows the PGN standard: the piece letter (none for pawns), the
//! fewest origin coordinates that tell the move apart from the other legal
//! moves of the same kind of piece to the same square (file first, then rank,
//! then both), `x` for a capture, the target, `=Q` for a promotion, `O-O` or
//! `O-O-O` for castling (Chess960 too), and `+` or `#`.
//!
//! Reading accepts the common variants (`0-0`, `e8Q`, `e8=q`, `Ng1-f3`,
//! `exd6 e.p.`, a missing or extra `+`/`#`, trailing `!`/`?` glyphs, more
//! origin coordinates than needed, a capture without `x`) and refuses what
//! cannot be settled: text that matches no legal move, text that matches
//! several, an `x` on a move that captures nothing, a promotion without its
//! piece.

use crate::castling::CastleSide;
use crate::masks::piece_attacks;
use crate::moves::{Move, MoveError, MoveKind};
use crate::piece::Piece;
use crate::position::Position;
use crate::square::{File, Rank, Square};
use alloc::string::String;
use core::fmt;

/// A move in SAN, worked out against the position it is played in; `Display`
/// writes it (`Nbd7`, `exd6`, `e8=Q+`, `O-O-O#`).
///
/// ```
/// use movegen::Position;
///
/// let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
/// let castle = pos.parse_uci_move("e1c1").unwrap();
/// assert_eq!(pos.san(castle).unwrap().to_string(), "O-O-O");
/// assert_eq!(pos.parse_san("0-0-0"), Ok(castle));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct San {
    body: Body,
    suffix: Suffix,
}

/// The move part of SAN (everything but `+`/`#`): as written for a legal
/// move, and as a parsed string asks for it before it is matched.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Body {
    Castle(CastleSide),
    Normal {
        piece: Piece,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Piece>,
    },
}

/// What a move does to the opponent's king: nothing, check, or mate.
///
/// # Examples
///
/// ```
/// use movegen::{Position, Suffix};
///
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// let mate = pos.san(pos.parse_uci_move("a1a8").unwrap()).unwrap();
/// assert_eq!(mate.suffix(), Suffix::Mate);
/// assert_eq!(mate.to_string(), "Ra8#");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Suffix {
    /// No check.
    None,
    /// Check (`+`).
    Check,
    /// Checkmate (`#`).
    Mate,
}

impl San {
    /// Whether the move gives check or mate.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Position, Suffix};
    ///
    /// let pos = Position::from_fen("6k1/8/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    /// let check = pos.san(pos.parse_uci_move("a1a8").unwrap()).unwrap();
    /// assert_eq!(check.suffix(), Suffix::Check);
    /// let quiet = pos.san(pos.parse_uci_move("a1a2").unwrap()).unwrap();
    /// assert_eq!(quiet.suffix(), Suffix::None);
    /// ```
    pub fn suffix(&self) -> Suffix {
        self.suffix
    }

    /// Whether the move is a capture (en passant included).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// // After 1. e4 d5: exd5 captures, e5 does not.
    /// let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")
    ///     .unwrap();
    /// let take = pos.san(pos.parse_uci_move("e4d5").unwrap()).unwrap();
    /// assert!(take.is_capture());
    /// assert_eq!(take.to_string(), "exd5");
    /// assert!(!pos.san(pos.parse_uci_move("e4e5").unwrap()).unwrap().is_capture());
    /// ```
    pub fn is_capture(&self) -> bool {
        matches!(self.body, Body::Normal { capture: true, .. })
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.body {
            Body::Castle(CastleSide::Short) => f.write_str("O-O")?,
            Body::Castle(CastleSide::Long) => f.write_str("O-O-O")?,
            Body::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if piece != Piece::Pawn {
                    write!(f, "{}", piece_letter(piece))?;
                }
                if let Some(file) = file {
                    write!(f, "{}", file.to_char())?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", rank.to_char())?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={}", piece_letter(p))?;
                }
            }
        }
        match self.suffix {
            Suffix::None => Ok(()),
            Suffix::Check => f.write_str("+"),
            Suffix::Mate => f.write_str("#"),
        }
    }
}

fn piece_letter(piece: Piece) -> char {
    piece.to_char().to_ascii_uppercase()
}

/// Why a SAN string was not accepted.
///
/// # Examples
///
/// ```
/// use movegen::{Position, SanError};
///
/// let pos = Position::startpos();
/// assert_eq!(pos.parse_san("Ke9"), Err(SanError::Syntax));
/// assert_eq!(pos.parse_san("Nd4"), Err(SanError::Illegal));
/// // Both knights can reach d2 here.
/// let two = Position::from_fen("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1").unwrap();
/// assert_eq!(two.parse_san("Ne2").map(|m| m.to_string()), Ok("g1e2".to_string()));
/// let amb = Position::from_fen("4k3/8/8/8/8/8/8/1N3N1K w - - 0 1").unwrap();
/// assert_eq!(amb.parse_san("Nd2"), Err(SanError::Ambiguous));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SanError {
    /// Not SAN syntax (nor one of the accepted variants).
    Syntax,
    /// Well formed, but no legal move matches.
    Illegal,
    /// Several legal moves match; more origin coordinates are needed.
    Ambiguous,
    /// Written as a capture (`x`), but the move it names captures nothing.
    NotACapture,
    /// A pawn move to the last rank without the piece it promotes to.
    MissingPromotion,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SanError::Syntax => "not a move in SAN",
            SanError::Illegal => "not a legal move in this position",
            SanError::Ambiguous => "ambiguous: several legal moves match",
            SanError::NotACapture => "written as a capture, but it captures nothing",
            SanError::MissingPromotion => "a pawn reaching the last rank needs a promotion piece",
        })
    }
}

impl core::error::Error for SanError {}

impl Position {
    /// The legal move `mv` in SAN.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] if `mv` is not a legal move here (SAN names
    /// a move only against the legal moves of its position).
    ///
    /// ```
    /// use movegen::{Move, MoveError, Position};
    ///
    /// let pos = Position::startpos();
    /// let nf3 = pos.parse_uci_move("g1f3")?;
    /// assert_eq!(pos.san(nf3)?.to_string(), "Nf3");
    /// assert_eq!(pos.san(Move::NULL), Err(MoveError::Illegal));
    /// # Ok::<(), MoveError>(())
    /// ```
    pub fn san(&self, mv: Move) -> Result<San, MoveError> {
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal);
        }
        Ok(self.san_unchecked(mv))
    }

    /// [`Position::san`] of a move known to be legal here.
    pub(crate) fn san_unchecked(&self, mv: Move) -> San {
        let piece = self
            .piece_on(mv.from())
            .expect("a legal move starts on a square holding a piece");
        let body = if mv.is_castle() {
            Body::Castle(if mv.to() > mv.from() {
                CastleSide::Short
            } else {
                CastleSide::Long
            })
        } else {
            let capture =
                mv.kind() == MoveKind::EnPassant || self.colored(!self.side_to_move()).has(mv.to());
            let (file, rank) = match piece {
                Piece::Pawn => (capture.then(|| mv.from().file()), None),
                Piece::King => (None, None),
                _ => self.disambiguation(piece, mv),
            };
            Body::Normal {
                piece,
                file,
                rank,
                capture,
                to: mv.to(),
                promotion: mv.promotion(),
            }
        };
        let next = self.play_generated(mv);
        let suffix = if !next.in_check() {
            Suffix::None
        } else if next.has_legal_move() {
            Suffix::Check
        } else {
            Suffix::Mate
        };
        San { body, suffix }
    }

    /// The origin coordinates SAN needs to tell `mv`, by a knight, bishop,
    /// rook or queen, from the other legal moves of that kind of piece to
    /// the same square.
    fn disambiguation(&self, piece: Piece, mv: Move) -> (Option<File>, Option<Rank>) {
        let (from, to) = (mv.from(), mv.to());
        let us = self.side_to_move();
        // These pieces attack symmetrically: the squares they could come from
        // are the squares they would attack from the target.
        let near = self.pieces_of(us, piece) & piece_attacks(piece, us, to, self.occupied());
        let rivals = near
            .iter()
            .filter(|&sq| sq != from && self.is_legal(Move::new(sq, to, MoveKind::Normal)));
        let (mut same_file, mut same_rank, mut any) = (false, false, false);
        for sq in rivals {
            any = true;
            same_file |= sq.file() == from.file();
            same_rank |= sq.rank() == from.rank();
        }
        match (any, same_file, same_rank) {
            (false, _, _) => (None, None),
            (true, false, _) => (Some(from.file()), None),
            (true, true, false) => (None, Some(from.rank())),
            (true, true, true) => (Some(from.file()), Some(from.rank())),
        }
    }

    /// Finds the legal move written `text` in SAN.
    ///
    /// Besides strict SAN it accepts what people commonly write: `0-0` and
    /// `o-o`, `e8Q`, `e8=q` and `e8(Q)`, `Ng1-f3` or `Ng1f3` (more origin than
    /// needed), `exd6 e.p.`, a capture without `x` (`Nf3` taking on f3), a
    /// missing or extra `+`/`#`, and `!`/`?` glyphs. A pawn move without an
    /// origin file is a push, never a capture. Squares and files are lower
    /// case, as in SAN itself and as python-chess and shakmaty read it:
    /// `NF3` and `E4` are [`SanError::Syntax`] (an upper-case `B` is the
    /// bishop, never the b-file).
    ///
    /// # Errors
    /// A [`SanError`]: not SAN, no legal move matches, several match, a
    /// capture mark on a non-capture, or a promotion without its piece.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.parse_san("Nf3").unwrap().to_string(), "g1f3");
    /// assert_eq!(pos.parse_san("e4").unwrap().to_string(), "e2e4");
    /// assert_eq!(pos.parse_san("Ng1-f3"), pos.parse_san("Nf3")); // extra origin is accepted
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        match parse_body(text)? {
            Body::Castle(side) => self
                .legal_moves()
                .iter()
                .copied()
                .find(|mv| mv.is_castle() && (mv.to() > mv.from()) == (side == CastleSide::Short))
                .ok_or(SanError::Illegal),
            Body::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let us = self.side_to_move();
                let mut found = None;
                let mut needs_promotion = false;
                for mv in self.legal_moves().iter().copied() {
                    let fits = !mv.is_castle()
                        && mv.to() == to
                        && self.pieces_of(us, piece).has(mv.from())
                        && file.is_none_or(|f| mv.from().file() == f)
                        && rank.is_none_or(|r| mv.from().rank() == r);
                    if !fits {
                        continue;
                    }
                    if mv.promotion().is_some() && promotion.is_none() {
                        needs_promotion = true;
                    }
                    if mv.promotion() != promotion {
                        continue;
                    }
                    if found.replace(mv).is_some() {
                        return Err(SanError::Ambiguous);
                    }
                }
                let mv = match found {
                    Some(mv) => mv,
                    None if needs_promotion => return Err(SanError::MissingPromotion),
                    None => return Err(SanError::Illegal),
                };
                let captures = mv.kind() == MoveKind::EnPassant || self.colored(!us).has(to);
                if capture && !captures {
                    return Err(SanError::NotACapture);
                }
                Ok(mv)
            }
        }
    }
}

/// Removes what may follow a move: `+`, `#`, `!` and `?` marks, and `e.p.`.
fn strip_suffixes(text: &str) -> &str {
    let mut s = text.trim();
    loop {
        let before = s.len();
        s = s.trim_end_matches(['+', '#', '!', '?']).trim_end();
        if let Some(rest) = s.strip_suffix("e.p.") {
            s = rest.trim_end();
        }
        if s.len() == before {
            return s;
        }
    }
}

fn parse_body(text: &str) -> Result<Body, SanError> {
    let s = strip_suffixes(text);
    if !s.is_ascii() || s.is_empty() {
        return Err(SanError::Syntax);
    }
    let castle: String = s
        .chars()
        .map(|c| if c == '0' || c == 'o' { 'O' } else { c })
        .collect();
    match castle.as_str() {
        "O-O" => return Ok(Body::Castle(CastleSide::Short)),
        "O-O-O" => return Ok(Body::Castle(CastleSide::Long)),
        _ => {}
    }
    let mut b = s.as_bytes();
    let piece = match b[0] {
        b'N' | b'B' | b'R' | b'Q' | b'K' | b'P' => {
            let p = Piece::from_char(b[0] as char).expect("a piece letter");
            b = &b[1..];
            p
        }
        _ => Piece::Pawn,
    };
    let promotion = promotion_suffix(&mut b)?;
    if promotion.is_some() && piece != Piece::Pawn {
        return Err(SanError::Syntax);
    }
    // What is left: [file][rank][x|-|:]<square>.
    if b.len() < 2 {
        return Err(SanError::Syntax);
    }
    let (head, target) = b.split_at(b.len() - 2);
    let to = Square::parse_move_text(target).ok_or(SanError::Syntax)?;
    let (head, capture) = match head.split_last() {
        Some((b'x' | b':', rest)) => (rest, true),
        Some((b'-', rest)) => (rest, false),
        _ => (head, false),
    };
    let (file, rank) = match *head {
        [] => (None, None),
        [c] => match (File::from_char(c as char), Rank::from_char(c as char)) {
            (Some(f), _) if c.is_ascii_lowercase() => (Some(f), None),
            (_, Some(r)) => (None, Some(r)),
            _ => return Err(SanError::Syntax),
        },
        [f, r] if f.is_ascii_lowercase() => (
            Some(File::from_char(f as char).ok_or(SanError::Syntax)?),
            Some(Rank::from_char(r as char).ok_or(SanError::Syntax)?),
        ),
        _ => return Err(SanError::Syntax),
    };
    if piece == Piece::Pawn && rank.is_some() && file.is_none() {
        return Err(SanError::Syntax);
    }
    // A pawn capture always names its file; without one it is a push.
    let file = match (piece, file) {
        (Piece::Pawn, None) => Some(to.file()),
        _ => file,
    };
    Ok(Body::Normal {
        piece,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

/// Takes a promotion (`=Q`, `Q`, `=q`, `(Q)`) off the end of `b`.
fn promotion_suffix(b: &mut &[u8]) -> Result<Option<Piece>, SanError> {
    let mut rest = *b;
    if let [head @ .., b'(', p, b')'] = rest {
        rest = head;
        return finish_promotion(b, rest, *p);
    }
    match rest {
        [head @ .., r, p] if !p.is_ascii_digit() && (*r == b'=' || r.is_ascii_digit()) => {
            rest = if *r == b'=' {
                head
            } else {
                &rest[..rest.len() - 1]
            };
            finish_promotion(b, rest, *p)
        }
        _ => Ok(None),
    }
}

fn finish_promotion<'a>(
    b: &mut &'a [u8],
    rest: &'a [u8],
    letter: u8,
) -> Result<Option<Piece>, SanError> {
    match Piece::from_char(letter as char) {
        Some(p @ (Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen)) => {
            *b = rest;
            Ok(Some(p))
        }
        _ => Err(SanError::Syntax),
    }
}

#[cfg(test)]
mod tests;
