//! The sets a teacher draws: squares each side attacks, the check mask and
//! the pin rays, computed from the public position queries.
//!
//! These are for display and explanation, not for the generator's hot path
//! (which keeps its own checkers and pinned pieces per position).

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::Square;
use alloc::vec::Vec;

/// The squares `piece` of `color` on `sq` attacks, with `occupied` as the blockers.
///
/// # Examples
///
/// ```
/// use movegen::{piece_attacks, Bitboard, Color, Piece, Square};
///
/// let knight = piece_attacks(Piece::Knight, Color::White, Square::G1, Bitboard::EMPTY);
/// assert_eq!(knight.len(), 3); // e2, f3, h3
/// let pawn = piece_attacks(Piece::Pawn, Color::Black, Square::E5, Bitboard::EMPTY);
/// assert_eq!(pawn, Bitboard::from_square(Square::D4) | Bitboard::from_square(Square::F4));
/// ```
pub fn piece_attacks(piece: Piece, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece {
        Piece::Pawn => pawn_attacks(color, sq),
        Piece::Knight => knight_attacks(sq),
        Piece::Bishop => bishop_attacks(sq, occupied),
        Piece::Rook => rook_attacks(sq, occupied),
        Piece::Queen => queen_attacks(sq, occupied),
        Piece::King => king_attacks(sq),
    }
}

/// Every square a piece of `color` attacks in `pos` (pawns: their capture
/// squares), with the board's pieces as blockers. Squares holding pieces of
/// `color` count too: they are defended.
///
/// # Examples
///
/// ```
/// use movegen::{attacked_by, Color, Position, Rank, Square, Bitboard};
///
/// let pos = Position::startpos();
/// let white = attacked_by(&pos, Color::White);
/// assert_eq!(white & Bitboard::rank(Rank::Third), Bitboard::rank(Rank::Third));
/// assert!(!white.has(Square::E4));
/// ```
pub fn attacked_by(pos: &Position, color: Color) -> Bitboard {
    let occ = pos.occupied();
    let mut set = Bitboard::EMPTY;
    for piece in Piece::ALL {
        for sq in pos.pieces_of(color, piece) {
            set |= piece_attacks(piece, color, sq, occ);
        }
    }
    set
}

/// The squares a piece other than the king may move to with the side to move
/// in check: the checker and the squares between it and the king. Not in check,
/// every square ([`Bitboard::FULL`]); in double check, none.
///
/// # Examples
///
/// ```
/// use movegen::{check_mask, Bitboard, Position, Square};
///
/// assert_eq!(check_mask(&Position::startpos()), Bitboard::FULL);
/// // The rook on e8 checks the king on e1: block on e2..e7 or take on e8.
/// let pos = Position::from_fen("k3r3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
/// let mask = check_mask(&pos);
/// assert_eq!(mask.len(), 7);
/// assert!(mask.has(Square::E8) && mask.has(Square::E2));
/// ```
pub fn check_mask(pos: &Position) -> Bitboard {
    let checkers = pos.checkers();
    match checkers.first() {
        None => Bitboard::FULL,
        Some(_) if checkers.has_many() => Bitboard::EMPTY,
        Some(checker) => {
            between(pos.king(pos.side_to_move()), checker) | Bitboard::from_square(checker)
        }
    }
}

/// A piece of the side to move pinned to its own king.
///
/// # Examples
///
/// ```
/// use movegen::{pins, Pin, Position, Square};
///
/// let pos = Position::from_fen("4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1").unwrap();
/// let pin: Pin = pins(&pos)[0];
/// assert_eq!((pin.pinned, pin.pinner), (Square::E2, Square::E4));
/// assert_eq!(pin.ray.len(), 3); // e2, e3 and the rook on e4
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pin {
    /// The pinned piece's square.
    pub pinned: Square,
    /// The enemy slider that pins it.
    pub pinner: Square,
    /// The squares the pinned piece may stay on: between king and pinner, and
    /// the pinner itself.
    pub ray: Bitboard,
}

/// The pins on the side to move's king, one per piece in [`Position::pinned`],
/// in square order.
///
/// # Examples
///
/// ```
/// use movegen::{pins, Position, Square};
///
/// assert!(pins(&Position::startpos()).is_empty());
/// // The bishop on b4 pins the knight on c3 (after 1. e4 e6 2. d4 Bb4 3. Nc3).
/// let pos = Position::from_fen("rnbqk1nr/pppp1ppp/4p3/8/1b1PP3/2N5/PPP2PPP/R1BQKBNR w KQkq - 2 3")
///     .unwrap();
/// let pins = pins(&pos);
/// assert_eq!(pins.len(), 1);
/// assert_eq!((pins[0].pinned, pins[0].pinner), (Square::C3, Square::B4));
/// ```
pub fn pins(pos: &Position) -> Vec<Pin> {
    let us = pos.side_to_move();
    let king = pos.king(us);
    let occ = pos.occupied();
    let them = pos.colored(!us);
    let straight = (pos.pieces(Piece::Rook) | pos.pieces(Piece::Queen)) & them;
    let diagonal = (pos.pieces(Piece::Bishop) | pos.pieces(Piece::Queen)) & them;
    let mut out = Vec::new();
    for pinned in pos.pinned() {
        let on_line = line(king, pinned) & !between(king, pinned);
        // The line's straight or diagonal sliders, whichever kind pins along it.
        let sliders = if rook_attacks(king, Bitboard::EMPTY).has(pinned) {
            straight
        } else {
            diagonal
        };
        let pinner = (sliders & on_line).into_iter().find(|&s| {
            let gap = between(king, s);
            gap.has(pinned) && (gap & occ) == Bitboard::from_square(pinned)
        });
        if let Some(pinner) = pinner {
            out.push(Pin {
                pinned,
                pinner,
                ray: between(king, pinner) | Bitboard::from_square(pinner),
            });
        }
    }
    out
}

/// The union of the rays of all pins (see [`pins`]).
///
/// # Examples
///
/// ```
/// use movegen::{pin_rays, Bitboard, Position, Square};
///
/// let pos = Position::from_fen("4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1").unwrap();
/// let ray = pin_rays(&pos);
/// assert_eq!(ray.len(), 3);
/// assert!(ray.has(Square::E3) && ray.has(Square::E4));
/// assert_eq!(pin_rays(&Position::startpos()), Bitboard::EMPTY);
/// ```
pub fn pin_rays(pos: &Position) -> Bitboard {
    pins(pos)
        .iter()
        .fold(Bitboard::EMPTY, |acc, pin| acc | pin.ray)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn set(squares: &[&str]) -> Bitboard {
        squares.iter().map(|s| sq(s)).collect()
    }

    #[test]
    fn start_position_attacks() {
        let pos = Position::startpos();
        // Every square of ranks 2 and 3, and the back rank but a1 and h1.
        let white = attacked_by(&pos, Color::White);
        assert_eq!(white.0, 0x0000_0000_00ff_ff7e);
        let black = attacked_by(&pos, Color::Black);
        assert_eq!(black.0, 0x7eff_ff00_0000_0000);
    }

    #[test]
    fn attacks_match_a_square_by_square_query() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        for color in Color::ALL {
            let set = attacked_by(&pos, color);
            for i in 0..64 {
                let s = Square::from_index(i).unwrap();
                let expected = pos.is_attacked(s, color, pos.occupied());
                assert_eq!(set.has(s), expected, "{s} by {color:?}");
            }
        }
    }

    #[test]
    fn check_mask_cases() {
        let quiet = Position::startpos();
        assert_eq!(check_mask(&quiet), Bitboard::FULL);
        // Rook on e8 checks the king on e1: block on e2-e7 or capture on e8.
        let one = Position::from_fen("4r1k1/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            check_mask(&one),
            set(&["e2", "e3", "e4", "e5", "e6", "e7", "e8"])
        );
        // A knight check cannot be blocked.
        let knight = Position::from_fen("6k1/8/8/8/8/3n4/8/4K3 w - - 0 1").unwrap();
        assert_eq!(check_mask(&knight), set(&["d3"]));
        let double = Position::from_fen("4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1").unwrap();
        assert_eq!(check_mask(&double), Bitboard::EMPTY);
    }

    #[test]
    fn pins_name_pinner_and_ray() {
        // Knight d2 pinned by the bishop on b4, rook e2 by the rook on e8.
        let pos = Position::from_fen("4r1k1/8/8/8/1b6/8/3NR3/4K3 w - - 0 1").unwrap();
        let found = pins(&pos);
        assert_eq!(found.len(), 2);
        assert_eq!(
            found[0],
            Pin {
                pinned: sq("d2"),
                pinner: sq("b4"),
                ray: set(&["d2", "c3", "b4"]),
            }
        );
        assert_eq!(found[1].pinned, sq("e2"));
        assert_eq!(found[1].pinner, sq("e8"));
        assert_eq!(found[1].ray.len(), 7);
        assert_eq!(pin_rays(&pos), found[0].ray | found[1].ray);
        // A rook on the diagonal does not pin; two blockers are no pin.
        let none = Position::from_fen("4r1k1/8/4p3/8/1r6/8/3NR3/4K3 w - - 0 1").unwrap();
        assert!(pins(&none).is_empty());
    }
}
