//! Why a move someone claims is not legal, in terms a chess player reads:
//! the piece is pinned along a line, the king would be in check from a
//! square, castling passes an attacked square, and so on.
//!
//! The generator only says yes or no; this module finds the cause by walking
//! the rules in the order a player would: is there a piece, is it ours, does
//! it move like that, is the way clear, and only then what the move does to
//! our king.

use crate::attacks::{between, king_attacks, knight_attacks, line, pawn_attacks};
use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::castling_mode::CastlingMode;
use crate::masks::piece_attacks;
use crate::moves::{Move, UciMove};
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::{Rank, Square};
use alloc::{format, string::String, vec::Vec};
use core::fmt;

/// Why a move is not legal in a position (see [`explain_move`]).
///
/// # Examples
///
/// ```
/// use movegen::{explain_move, Illegal, Position, Square};
///
/// let pos = Position::startpos();
/// assert_eq!(explain_move(&pos, "e3e4"), Err(Illegal::NoPiece(Square::E3)));
/// assert_eq!(explain_move(&pos, "e2e"), Err(Illegal::Malformed));
/// assert!(matches!(explain_move(&pos, "e7e5"), Err(Illegal::NotYourTurn(Square::E7, _))));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Illegal {
    /// Not a move in UCI notation (`e2e4`, `e7e8q`; squares and the
    /// promotion letter in lower case).
    Malformed,
    /// The null move `0000`: a pass, well-formed UCI but never a legal move.
    NullMove,
    /// No piece stands on the move's first square.
    NoPiece(Square),
    /// The piece belongs to the side not to move.
    NotYourTurn(Square, Color),
    /// The target holds a piece of the side to move.
    OwnPiece(Square),
    /// The piece does not move that way, whatever stands around it.
    NotAMove(Piece, Square, Square),
    /// A piece stands in the way (the one nearest the mover).
    Blocked(Square),
    /// A pawn pushed onto an occupied square (pawns capture diagonally).
    PawnBlocked(Square),
    /// A pawn moved diagonally onto an empty square that is not the en-passant square.
    PawnNothingToTake(Square),
    /// A pawn reaching the last rank without a promotion piece.
    PromotionMissing,
    /// A promotion piece given for a move that is not a pawn reaching the last
    /// rank (castling with a letter, `e1g1q`, included).
    PromotionNotAllowed,
    /// The piece is pinned to its king by the slider on that square and leaves the line.
    Pinned(Square, Square),
    /// The king would stand on an attacked square: its destination and the attacker.
    IntoCheck(Square, Square),
    /// The move leaves the king in check from that square.
    LeavesCheck(Square),
    /// Double check from these two squares: only the king may move.
    DoubleCheck(Square, Square),
    /// En passant takes both pawns off the rank and exposes the king to that slider.
    EnPassantExposes(Square),
    /// No castling right left on that side.
    CastleNoRight(CastleSide),
    /// Castling while in check from that square.
    CastleInCheck(Square),
    /// A piece stands on a square castling needs empty.
    CastleBlocked(Square),
    /// The king would pass over a square attacked from the second square.
    CastleThrough(Square, Square),
    /// The king would land on a square attacked from the second square.
    CastleInto(Square, Square),
    /// None of the above applies; the generator still disagrees. Never
    /// expected: the tests check every claim on their positions.
    Unexplained,
}

/// An [`Illegal`] reason with the piece names filled in from its position.
///
/// # Examples
///
/// ```
/// use movegen::{explain_move, Position, Reason};
///
/// let pos = Position::startpos();
/// let illegal = explain_move(&pos, "e7e5").unwrap_err();
/// let reason: Reason = illegal.reason(&pos);
/// assert_eq!(reason.to_string(), "the pawn on e7 belongs to Black, but it is White to move");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Reason<'a> {
    /// The reason.
    pub illegal: Illegal,
    /// The position the move was claimed in.
    pub position: &'a Position,
}

fn name(piece: Piece) -> &'static str {
    ["pawn", "knight", "bishop", "rook", "queen", "king"][piece.index()]
}

fn side(side: CastleSide) -> &'static str {
    match side {
        CastleSide::Short => "king side (O-O)",
        CastleSide::Long => "queen side (O-O-O)",
    }
}

impl Reason<'_> {
    /// "the rook on e8" for a square of the position.
    fn on(&self, sq: Square) -> String {
        match self.position.piece_on(sq) {
            Some(p) => format!("the {} on {sq}", name(p)),
            None => format!("{sq}"),
        }
    }
}

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.position;
        match self.illegal {
            Illegal::Malformed => f.write_str("not a move in UCI notation (like e2e4 or e7e8q)"),
            Illegal::NullMove => {
                f.write_str("0000 is the null move (a pass), which is never legal")
            }
            Illegal::NoPiece(s) => write!(f, "there is no piece on {s}"),
            Illegal::NotYourTurn(s, c) => write!(
                f,
                "{} belongs to {}, but it is {} to move",
                self.on(s),
                color_name(c),
                color_name(pos.side_to_move())
            ),
            Illegal::OwnPiece(s) => write!(f, "{} is your own piece", self.on(s)),
            Illegal::NotAMove(p, a, b) => write!(f, "a {} does not move from {a} to {b}", name(p)),
            Illegal::Blocked(s) => write!(f, "{} is in the way", self.on(s)),
            Illegal::PawnBlocked(s) => write!(
                f,
                "a pawn cannot move straight onto {}: pawns capture diagonally",
                self.on(s)
            ),
            Illegal::PawnNothingToTake(s) => write!(
                f,
                "a pawn moves diagonally only to capture, and there is nothing to take on {s} (nor en passant)"
            ),
            Illegal::PromotionMissing => f.write_str("a pawn reaching the last rank must promote"),
            Illegal::PromotionNotAllowed => {
                f.write_str("only a pawn reaching the last rank promotes")
            }
            Illegal::Pinned(s, by) => write!(
                f,
                "{} is pinned to its king along the line {}-{} by {}",
                self.on(s),
                pos.king(pos.side_to_move()),
                by,
                self.on(by)
            ),
            Illegal::IntoCheck(to, by) => {
                write!(f, "the king would be in check on {to} from {}", self.on(by))
            }
            Illegal::LeavesCheck(by) => {
                write!(f, "the king would still be in check from {}", self.on(by))
            }
            Illegal::DoubleCheck(a, b) => write!(
                f,
                "double check from {} and {}: only the king may move",
                self.on(a),
                self.on(b)
            ),
            Illegal::EnPassantExposes(by) => write!(
                f,
                "en passant takes both pawns off the rank and exposes the king to {}",
                self.on(by)
            ),
            Illegal::CastleNoRight(s) => {
                write!(f, "no castling right is left on the {}", side(s))
            }
            Illegal::CastleInCheck(by) => {
                write!(f, "cannot castle out of check (from {})", self.on(by))
            }
            Illegal::CastleBlocked(s) => {
                write!(f, "castling needs {s} empty, but {} stands there", self.on(s))
            }
            Illegal::CastleThrough(s, by) => write!(
                f,
                "castling would take the king through {s}, attacked by {}",
                self.on(by)
            ),
            Illegal::CastleInto(s, by) => write!(
                f,
                "castling would put the king on {s}, attacked by {}",
                self.on(by)
            ),
            Illegal::Unexplained => f.write_str("not legal here (no simpler reason found)"),
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A reason with its position is a complete error message.
impl core::error::Error for Reason<'_> {}

impl Illegal {
    /// This reason in words, with the pieces of `position` named.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{explain_move, Position};
    ///
    /// let pos = Position::startpos();
    /// let illegal = explain_move(&pos, "d3d4").unwrap_err();
    /// assert_eq!(illegal.reason(&pos).to_string(), "there is no piece on d3");
    /// ```
    pub fn reason(self, position: &Position) -> Reason<'_> {
        Reason {
            illegal: self,
            position,
        }
    }
}

/// The legal move written `text` in UCI notation (castling read in the
/// position's [`CastlingMode`], as [`Position::parse_uci_move`] does), or
/// why there is none.
///
/// Any text is accepted and none panics: text that is not UCI is
/// [`Illegal::Malformed`], `0000` is [`Illegal::NullMove`].
///
/// # Errors
/// The first rule the claimed move breaks, as an [`Illegal`].
///
/// # Examples
///
/// ```
/// use movegen::{explain_move, Illegal, Position, Square};
///
/// // The knight on c3 is pinned by the bishop on b4.
/// let pos = Position::from_fen("rnbqk1nr/pppp1ppp/4p3/8/1b1PP3/2N5/PPP2PPP/R1BQKBNR w KQkq - 2 3")
///     .unwrap();
/// assert_eq!(explain_move(&pos, "c3e2"), Err(Illegal::Pinned(Square::C3, Square::B4)));
/// assert_eq!(explain_move(&pos, "g1e2").unwrap().to_string(), "g1e2");
/// assert_eq!(explain_move(&pos, "0000"), Err(Illegal::NullMove));
/// assert_eq!(explain_move(&pos, "E1G1"), Err(Illegal::Malformed));
/// // Only a pawn promotes, castling with a letter included.
/// assert_eq!(explain_move(&pos, "e1g1q"), Err(Illegal::PromotionNotAllowed));
/// ```
pub fn explain_move(pos: &Position, text: &str) -> Result<Move, Illegal> {
    let uci: UciMove = text.parse().map_err(|_| Illegal::Malformed)?;
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = uci
    else {
        return Err(Illegal::NullMove);
    };
    uci.to_move(pos)
        .map_err(|_| diagnose(pos, from, to, promotion))
}

fn diagnose(pos: &Position, from: Square, to: Square, promo: Option<Piece>) -> Illegal {
    let us = pos.side_to_move();
    let Some(piece) = pos.piece_on(from) else {
        return Illegal::NoPiece(from);
    };
    if pos.color_on(from) != Some(us) {
        return Illegal::NotYourTurn(from, !us);
    }
    // Only a pawn promotes: a letter on any other move (castling-shaped
    // king moves included) is the first thing wrong with it.
    if piece != Piece::Pawn && promo.is_some() {
        return Illegal::PromotionNotAllowed;
    }
    if piece == Piece::King {
        if let Some(side) = castle_attempt(pos, from, to) {
            // Onto a rook that is not the castling one: just our own piece.
            let other_rook = pos.pieces_of(us, Piece::Rook).has(to)
                && pos.castle_rook(us, side).is_some_and(|rook| rook != to);
            if !other_rook {
                return castling(pos, from, side);
            }
        }
    }
    if pos.colored(us).has(to) {
        return Illegal::OwnPiece(to);
    }
    let ep = match geometry(pos, piece, from, to) {
        Ok(ep) => ep,
        Err(why) => return why,
    };
    let last_rank = to.rank() == Rank::First || to.rank() == Rank::Eighth;
    match (piece == Piece::Pawn && last_rank, promo) {
        (true, None) => return Illegal::PromotionMissing,
        (false, Some(_)) => return Illegal::PromotionNotAllowed,
        _ => {}
    }
    king_safety(pos, piece, from, to, ep)
}

/// Whether a king move is meant as castling, and on which side: onto its own
/// rook on its rank, or (in standard notation) two files along its back rank.
fn castle_attempt(pos: &Position, from: Square, to: Square) -> Option<CastleSide> {
    let us = pos.side_to_move();
    if from.rank() != to.rank() || from == to {
        return None;
    }
    let dir = if to > from {
        CastleSide::Short
    } else {
        CastleSide::Long
    };
    let onto_rook = pos.pieces_of(us, Piece::Rook).has(to);
    let back = if us == Color::White {
        Rank::First
    } else {
        Rank::Eighth
    };
    let two_files = (from.file().index() as i32 - to.file().index() as i32).abs() == 2;
    let kings_step = pos.castling_mode() == CastlingMode::Standard && two_files;
    (onto_rook || (kings_step && from.rank() == back)).then_some(dir)
}

fn castling(pos: &Position, king: Square, side: CastleSide) -> Illegal {
    let us = pos.side_to_move();
    let Some(rook) = pos.castle_rook(us, side) else {
        return Illegal::CastleNoRight(side);
    };
    if let Some(checker) = pos.checkers().first() {
        return Illegal::CastleInCheck(checker);
    }
    let (kf, rf) = side.destination_files();
    let king_to = Square::new(kf, king.rank());
    let rook_to = Square::new(rf, king.rank());
    let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
    let must_be_empty = (between(king, rook)
        | between(king, king_to)
        | Bitboard::from_square(king_to)
        | between(rook, rook_to)
        | Bitboard::from_square(rook_to))
        & !movers;
    if let Some(sq) = nearest(king, must_be_empty & pos.occupied()) {
        return Illegal::CastleBlocked(sq);
    }
    let occ = pos.occupied() ^ movers;
    let path = between(king, king_to) | Bitboard::from_square(king_to);
    let mut path: Vec<Square> = path.into_iter().collect();
    if king_to < king {
        path.reverse();
    }
    for sq in path {
        if let Some(by) = (pos.attackers_to(sq, occ) & pos.colored(!us)).first() {
            return if sq == king_to {
                Illegal::CastleInto(sq, by)
            } else {
                Illegal::CastleThrough(sq, by)
            };
        }
    }
    Illegal::Unexplained
}

/// The square of `set` nearest to `from` along a line through it.
fn nearest(from: Square, set: Bitboard) -> Option<Square> {
    set.into_iter()
        .min_by_key(|s| (s.index() as i32 - from.index() as i32).abs())
}

/// Whether the piece moves like that with the board as it is. `Ok(true)` for
/// an en-passant capture.
fn geometry(pos: &Position, piece: Piece, from: Square, to: Square) -> Result<bool, Illegal> {
    let occ = pos.occupied();
    if piece == Piece::Pawn {
        return pawn_geometry(pos, from, to);
    }
    let (empty_board, here) = match piece {
        Piece::Knight => (knight_attacks(from), knight_attacks(from)),
        Piece::King => (king_attacks(from), king_attacks(from)),
        _ => (
            piece_attacks(piece, Color::White, from, Bitboard::EMPTY),
            piece_attacks(piece, Color::White, from, occ),
        ),
    };
    if !empty_board.has(to) {
        return Err(Illegal::NotAMove(piece, from, to));
    }
    if !here.has(to) {
        let blocker = nearest(from, between(from, to) & occ);
        return Err(blocker.map_or(Illegal::Unexplained, Illegal::Blocked));
    }
    Ok(false)
}

fn pawn_geometry(pos: &Position, from: Square, to: Square) -> Result<bool, Illegal> {
    let us = pos.side_to_move();
    let (step, start) = match us {
        Color::White => (1, Rank::Second),
        Color::Black => (-1, Rank::Seventh),
    };
    let occ = pos.occupied();
    let one = from.offset_rank(step);
    if Some(to) == one {
        return if occ.has(to) {
            Err(Illegal::PawnBlocked(to))
        } else {
            Ok(false)
        };
    }
    if from.rank() == start && Some(to) == from.offset_rank(2 * step) {
        let mid = one.expect("a pawn on its start rank can step once");
        return if occ.has(mid) {
            Err(Illegal::Blocked(mid))
        } else if occ.has(to) {
            Err(Illegal::PawnBlocked(to))
        } else {
            Ok(false)
        };
    }
    if pawn_attacks(us, from).has(to) {
        if pos.colored(!us).has(to) {
            return Ok(false);
        }
        // The square a pawn just skipped, also where taking is illegal
        // (`ep_square` names it only when legal): that gets its own reason.
        if pos.pseudo_ep == Some(to) {
            return Ok(true);
        }
        return Err(Illegal::PawnNothingToTake(to));
    }
    Err(Illegal::NotAMove(Piece::Pawn, from, to))
}

/// The move obeys the piece's rules; find what it does to our king.
fn king_safety(pos: &Position, piece: Piece, from: Square, to: Square, ep: bool) -> Illegal {
    let us = pos.side_to_move();
    let king = pos.king(us);
    let captured = if ep {
        Square::new(to.file(), from.rank())
    } else {
        to
    };
    let lifted = Bitboard::from_square(from) | Bitboard::from_square(captured);
    let occ = (pos.occupied() & !lifted) | Bitboard::from_square(to);
    let enemies = pos.colored(!us) & !Bitboard::from_square(captured);
    let king_after = if piece == Piece::King { to } else { king };
    let attackers = pos.attackers_to(king_after, occ) & enemies;
    let Some(first) = attackers.first() else {
        return Illegal::Unexplained;
    };
    if piece == Piece::King {
        return Illegal::IntoCheck(to, first);
    }
    let checkers = pos.checkers();
    if checkers.has_many() {
        let mut two = checkers.into_iter();
        let a = two.next().expect("two checkers");
        let b = two.next().expect("two checkers");
        return Illegal::DoubleCheck(a, b);
    }
    if let Some(checker) = (attackers & checkers).first() {
        return Illegal::LeavesCheck(checker);
    }
    if pos.pinned().has(from) {
        let pinner = (attackers & !checkers)
            .into_iter()
            .find(|&s| line(king, s).has(from) && between(king, s).has(from));
        if let Some(pinner) = pinner {
            return Illegal::Pinned(from, pinner);
        }
    }
    if ep {
        return Illegal::EnPassantExposes(first);
    }
    // Not reached while the position's checkers and pins are right.
    Illegal::Unexplained
}

#[cfg(test)]
mod tests;
