//! bug: a pawn pinned on a diagonal may still push: the push leaves its pin line
//! expect: targets(board, e2) (the pawn on e2) is wrong: extra e1
//! Lab 7: legal moves with the check mask and the pin masks.
//!
//! Two bitboards make every non-king move legal without trying it:
//! - the check mask: where a piece must go when the king is in check (onto
//!   the checker or between it and the king); all squares when not in check,
//!   none in double check;
//! - the pin masks: the rays from the king through exactly one of our pieces
//!   to an enemy slider, pinner included. A pinned piece stays on its ray.
//!
//! The king is different: it may go to any square no enemy attacks, looking
//! at the board as if the king were already gone (else it steps back along
//! a checking ray, "hiding" behind itself).

use crate::lab02_pawns::pawn_attacks;
use crate::lab03_leapers::{king_attacks, knight_attacks};
use crate::lab05_magics::{bishop_attacks, rook_attacks};
use crate::lab06_attacks::{attackers_to_with, checkers};
use crate::types::{Bitboard, Board, Color, Move, Piece, Square};

const RANK_1: Bitboard = 0xff;
const RANK_8: Bitboard = 0xff << 56;

/// The squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
pub fn between(a: Square, b: Square) -> Bitboard {
    let (bit_a, bit_b) = (1u64 << a, 1u64 << b);
    if rook_attacks(a, 0) & bit_b != 0 {
        rook_attacks(a, bit_b) & rook_attacks(b, bit_a)
    } else if bishop_attacks(a, 0) & bit_b != 0 {
        bishop_attacks(a, bit_b) & bishop_attacks(b, bit_a)
    } else {
        0
    }
}

/// Where a piece other than the king may move: every square when the side to
/// move is not in check; the checker and the squares between it and the king
/// in single check; nothing in double check.
pub fn check_mask(board: &Board) -> Bitboard {
    let checks = checkers(board);
    match checks.count_ones() {
        0 => !0,
        1 => checks | between(board.king_square(board.side), checks.trailing_zeros() as Square),
        _ => 0,
    }
}

/// The pin masks `(straight, diagonal)`: for every enemy rook or queen (bishop
/// or queen) whose ray to our king crosses exactly one of our pieces and no
/// enemy piece, the squares between them plus the pinner's square.
pub fn pin_masks(board: &Board) -> (Bitboard, Bitboard) {
    let king = board.king_square(board.side);
    let ours = board.us();
    let theirs = board.them();
    let enemy = &board.pieces[board.side.other() as usize];
    let queens = enemy[Piece::Queen as usize];
    let mut straight = 0;
    // Looking from the king with only the enemy pieces as blockers sees
    // through our own pieces up to the first enemy piece on each ray.
    let mut pinners = rook_attacks(king, theirs) & (enemy[Piece::Rook as usize] | queens);
    while pinners != 0 {
        let pinner = pinners.trailing_zeros() as Square;
        let ray = between(king, pinner);
        if (ray & ours).count_ones() == 1 {
            straight |= ray | 1u64 << pinner;
        }
        pinners &= pinners - 1;
    }
    let mut diagonal = 0;
    let mut pinners = bishop_attacks(king, theirs) & (enemy[Piece::Bishop as usize] | queens);
    while pinners != 0 {
        let pinner = pinners.trailing_zeros() as Square;
        let ray = between(king, pinner);
        if (ray & ours).count_ones() == 1 {
            diagonal |= ray | 1u64 << pinner;
        }
        pinners &= pinners - 1;
    }
    (straight, diagonal)
}

/// The squares the king of the side to move may step to (castling is lab 8):
/// its neighbours without our own pieces and without any square an enemy
/// attacks once the king has left its square.
pub fn king_targets(board: &Board) -> Bitboard {
    let king = board.king_square(board.side);
    let occupied = board.occupied();
    let without_king = occupied & !(1u64 << king);
    let mut candidates = king_attacks(1u64 << king) & !board.us();
    let mut safe = 0;
    while candidates != 0 {
        let to = candidates.trailing_zeros() as Square;
        if attackers_to_with(board, to, board.side.other(), without_king) == 0 {
            safe |= 1u64 << to;
        }
        candidates &= candidates - 1;
    }
    safe
}

/// The legal destinations of our piece on `from` (no castling, no en passant;
/// pawn moves onto the last rank are included). Empty when `from` holds no
/// piece of the side to move.
pub fn targets(board: &Board, from: Square) -> Bitboard {
    let us = board.side;
    let bit = 1u64 << from;
    let mine = &board.pieces[us as usize];
    let ours = board.us();
    if ours & bit == 0 {
        return 0;
    }
    if mine[Piece::King as usize] & bit != 0 {
        return king_targets(board);
    }
    let theirs = board.them();
    let occupied = ours | theirs;
    let (straight, diagonal) = pin_masks(board);
    let allowed = check_mask(board) & !ours;
    let moves = if mine[Piece::Knight as usize] & bit != 0 {
        if (straight | diagonal) & bit != 0 {
            0 // a pinned knight can never stay on its ray
        } else {
            knight_attacks(bit)
        }
    } else if mine[Piece::Pawn as usize] & bit != 0 {
        let (push, start_rank) = match us {
            Color::White => (bit << 8, 0xff00u64),
            Color::Black => (bit >> 8, 0xff00u64 << 40),
        };
        let mut pushes = push & !occupied;
        if bit & start_rank != 0 && pushes != 0 {
            let double = match us {
                Color::White => push << 8,
                Color::Black => push >> 8,
            };
            pushes |= double & !occupied;
        }
        let captures = pawn_attacks(us, bit) & theirs;
        if straight & bit != 0 {
            pushes & straight
        } else if diagonal & bit != 0 {
            pushes | (captures & diagonal)
        } else {
            pushes | captures
        }
    } else {
        let mut moves = 0;
        let diagonal_mover = mine[Piece::Bishop as usize] | mine[Piece::Queen as usize];
        let straight_mover = mine[Piece::Rook as usize] | mine[Piece::Queen as usize];
        if diagonal_mover & bit != 0 && straight & bit == 0 {
            let mut m = bishop_attacks(from, occupied);
            if diagonal & bit != 0 {
                m &= diagonal;
            }
            moves |= m;
        }
        if straight_mover & bit != 0 && diagonal & bit == 0 {
            let mut m = rook_attacks(from, occupied);
            if straight & bit != 0 {
                m &= straight;
            }
            moves |= m;
        }
        moves
    };
    moves & allowed
}

/// Every legal move of the side to move except castling, en passant and pawn
/// moves onto the last rank (lab 8 adds those three).
pub fn ordinary_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    let mine = &board.pieces[board.side as usize];
    let mut from_set = board.us();
    while from_set != 0 {
        let from = from_set.trailing_zeros() as Square;
        let mut to_set = targets(board, from);
        if mine[Piece::Pawn as usize] & 1u64 << from != 0 {
            to_set &= !(RANK_1 | RANK_8);
        }
        while to_set != 0 {
            let to = to_set.trailing_zeros() as Square;
            moves.push(Move { from, to, promotion: None });
            to_set &= to_set - 1;
        }
        from_set &= from_set - 1;
    }
    moves
}
