//! Lab 11: search. Alpha-beta with move ordering, quiescence, and a
//! material and piece-square evaluation.

use crate::lab06_attacks::in_check;
use crate::lab08_special::legal_moves;
use crate::lab09_position::play;
use crate::types::{Board, Color, Move, Square};

/// The score of being checkmated now; mated in `n` plies scores
/// `-(MATE - n)`, so a quicker mate is a bigger number.
pub const MATE: i32 = 100_000;
/// Larger than any score: the initial window is `-INFINITY..INFINITY`.
pub const INFINITY: i32 = 1_000_000;

/// What `search` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, `None` when there is no legal move.
    pub best: Option<Move>,
    /// Its score from the side to move's point of view, in centipawns.
    pub score: i32,
    /// Positions visited: one per call of `alpha_beta` or `quiesce`.
    pub nodes: u64,
}

/// Centipawn values of pawn, knight, bishop, rook, queen, king.
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The piece-square bonus of `piece` (index 0..6) on `sq`, seen from
/// White: a1 is White's corner. Black's pieces use the square mirrored
/// top to bottom (`sq ^ 56`).
fn square_bonus(piece: usize, sq: Square) -> i32 {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    // 0 on the rim, 3 in the four centre squares.
    let centre = (3 - (2 * file - 7).abs() / 2).min(3 - (2 * rank - 7).abs() / 2);
    match piece {
        0 => 8 * (rank - 1) + if (2..=5).contains(&file) { 4 * centre } else { 0 },
        1 => 12 * centre - 20,
        2 => 6 * centre - 6,
        3 => if rank == 6 { 15 } else { 0 },
        4 => 3 * centre,
        _ => if rank == 0 { 10 } else { -5 * rank },
    }
}

/// The static score of `board` for the side to move: material plus
/// piece-square bonuses, White's minus Black's, negated when Black is to
/// move. The same position with the colours swapped scores the same.
pub fn evaluate(board: &Board) -> i32 {
    let mut white_minus_black = 0;
    for (color, sign) in [(0, 1), (1, -1)] {
        for piece in 0..6 {
            let mut bb = board.pieces[color][piece];
            while bb != 0 {
                let sq = bb.trailing_zeros() as Square;
                let seen_from_white = if color == 0 { sq } else { sq ^ 56 };
                white_minus_black += sign * (VALUES[piece] + square_bonus(piece, seen_from_white));
                bb &= bb - 1;
            }
        }
    }
    if board.side == Color::White {
        white_minus_black
    } else {
        -white_minus_black
    }
}

/// The piece index (0..6) on `sq` for `color`, if any.
fn piece_index(board: &Board, color: usize, sq: Square) -> Option<usize> {
    (0..6).find(|&p| board.pieces[color][p] & (1u64 << sq) != 0)
}

/// Whether `mv` captures (en passant too) or promotes.
pub fn is_noisy(board: &Board, mv: Move) -> bool {
    let them = 1 - board.side as usize;
    mv.promotion.is_some()
        || piece_index(board, them, mv.to).is_some()
        || (Some(mv.to) == board.en_passant && piece_index(board, board.side as usize, mv.from) == Some(0))
}

/// The ordering key, bigger first: captures (group 2) by the victim's
/// value, then by the attacker's, smaller first, then by what a capturing
/// pawn promotes to; promotions (group 1) by the new piece; quiet moves
/// (group 0) last. A tuple, not one number: the victim decides, and the
/// attacker only breaks a tie.
fn order_key(board: &Board, mv: Move) -> (i32, i32, i32, i32) {
    let us = board.side as usize;
    let attacker = piece_index(board, us, mv.from).unwrap_or(0);
    let victim = piece_index(board, 1 - us, mv.to)
        .or_else(|| (Some(mv.to) == board.en_passant && attacker == 0).then_some(0));
    let promotion = mv.promotion.map_or(0, |p| VALUES[p as usize]);
    match victim {
        Some(v) => (2, VALUES[v], -VALUES[attacker], promotion),
        None if promotion > 0 => (1, promotion, 0, 0),
        None => (0, 0, 0, 0),
    }
}

/// Sorts `moves` best first: captures (most valuable victim first, then
/// least valuable attacker), then promotions, then quiet moves (in the
/// order they came: the sort is stable).
pub fn order_moves(board: &Board, moves: &mut [Move]) {
    moves.sort_by_key(|&mv| std::cmp::Reverse(order_key(board, mv)));
}

/// Quiescence search: the score of `board` once the captures are played
/// out. Not in check, the side to move may "stand pat" (take the static
/// evaluation) or try a capture or promotion; in check it must answer the
/// check, with every legal move, and no move is mate (`-(MATE - ply)`).
pub fn quiesce(board: &Board, mut alpha: i32, beta: i32, ply: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let checked = in_check(board);
    let mut moves = legal_moves(board);
    if checked && moves.is_empty() {
        return -(MATE - ply as i32);
    }
    let mut best = -INFINITY;
    if !checked {
        best = evaluate(board);
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        moves.retain(|&mv| is_noisy(board, mv));
    }
    order_moves(board, &mut moves);
    for mv in moves {
        let score = -quiesce(&play(board, mv), -beta, -alpha, ply + 1, nodes);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Alpha-beta (negamax form) to `depth` plies, then quiescence. `ply` is
/// the distance from the root (for mate scores). The result is exact when
/// it lies strictly inside `alpha..beta`; otherwise it is a bound.
pub fn alpha_beta(board: &Board, depth: u32, ply: u32, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    if depth == 0 {
        return quiesce(board, alpha, beta, ply, nodes);
    }
    *nodes += 1;
    let mut moves = legal_moves(board);
    if moves.is_empty() {
        return if in_check(board) { -(MATE - ply as i32) } else { 0 };
    }
    order_moves(board, &mut moves);
    let mut best = -INFINITY;
    for mv in moves {
        let score = -alpha_beta(&play(board, mv), depth - 1, ply + 1, -beta, -alpha, nodes);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Searches `board` to `depth` plies (at least 1) with the full window.
pub fn search(board: &Board, depth: u32) -> SearchResult {
    let mut nodes = 1;
    let mut moves = legal_moves(board);
    if moves.is_empty() {
        let score = if in_check(board) { -MATE } else { 0 };
        return SearchResult { best: None, score, nodes };
    }
    order_moves(board, &mut moves);
    let mut best = None;
    let mut alpha = -INFINITY;
    for mv in moves {
        let score = -alpha_beta(&play(board, mv), depth.max(1) - 1, 1, -INFINITY, -alpha, &mut nodes);
        if score > alpha {
            alpha = score;
            best = Some(mv);
        }
    }
    SearchResult { best, score: alpha, nodes }
}
