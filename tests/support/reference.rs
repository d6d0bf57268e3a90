//! A slow, obviously right model of the rules, to check the fast generator against.
//!
//! Attacks are found by walking from each enemy piece square by square on
//! (file, rank) coordinates, sharing no table with `movegen`. Pseudo-legal
//! moves use `movegen::attacks` only for piece reach (those tables are tested
//! against ray walks inside `movegen`); legality is decided by playing the move
//! and looking at the mover's king with the slow walk.

use movegen::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use movegen::{Bitboard, CastleSide, Color, Move, MoveKind, Piece, Position, Rank, Square};

fn coords(sq: Square) -> (i32, i32) {
    (sq.file().index() as i32, sq.rank().index() as i32)
}

fn square_at(file: i32, rank: i32) -> Square {
    Square::from_index((rank * 8 + file) as usize).expect("walks stay on the board")
}

/// Whether the squares strictly between `a` and `b` (on one line) are all empty in `occ`.
fn clear_between(a: Square, b: Square, occ: Bitboard) -> bool {
    let ((af, ar), (bf, br)) = (coords(a), coords(b));
    let (df, dr) = ((bf - af).signum(), (br - ar).signum());
    let (mut f, mut r) = (af + df, ar + dr);
    while (f, r) != (bf, br) {
        if occ.has(square_at(f, r)) {
            return false;
        }
        f += df;
        r += dr;
    }
    true
}

/// Whether a piece of kind `piece` and colour `color` on `from` attacks `to`.
fn piece_attacks(piece: Piece, color: Color, from: Square, to: Square, occ: Bitboard) -> bool {
    let ((ff, fr), (tf, tr)) = (coords(from), coords(to));
    let (df, dr) = (tf - ff, tr - fr);
    let straight = (df == 0) != (dr == 0);
    let diagonal = df != 0 && df.abs() == dr.abs();
    match piece {
        Piece::Pawn => df.abs() == 1 && dr == if color == Color::White { 1 } else { -1 },
        Piece::Knight => (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1),
        Piece::King => from != to && df.abs() <= 1 && dr.abs() <= 1,
        Piece::Rook => straight && clear_between(from, to, occ),
        Piece::Bishop => diagonal && clear_between(from, to, occ),
        Piece::Queen => (straight || diagonal) && clear_between(from, to, occ),
    }
}

/// The pieces of `by` attacking `sq` with `occ` as the blockers (pieces missing
/// from `occ` do not attack).
pub fn slow_attackers(pos: &Position, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
    (0..64)
        .filter_map(Square::from_index)
        .filter(|&from| occ.has(from) && pos.color_on(from) == Some(by))
        .filter(|&from| {
            let piece = pos
                .piece_on(from)
                .expect("an occupied square holds a piece");
            piece_attacks(piece, by, from, sq, occ)
        })
        .collect()
}

/// Whether `by` attacks `sq` with `occ` as the blockers.
pub fn slow_attacked(pos: &Position, sq: Square, by: Color, occ: Bitboard) -> bool {
    slow_attackers(pos, sq, by, occ).nonempty()
}

fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// Squares from `a` to `b` on one rank, both included.
fn span(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = (a.min(b).index(), a.max(b).index());
    (lo..=hi).filter_map(Square::from_index).collect()
}

/// Castling moves whose squares are vacant; attacks are left to [`slow_is_legal`].
fn pseudo_castles(pos: &Position, out: &mut Vec<Move>) {
    let us = pos.side_to_move();
    let king = pos.king(us);
    for side in CastleSide::ALL {
        let Some(rook) = pos.castle_rook(us, side) else {
            continue;
        };
        let (kf, rf) = side.destination_files();
        let king_to = Square::new(kf, back_rank(us));
        let rook_to = Square::new(rf, back_rank(us));
        let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
        let needed = (span(king, king_to) | span(rook, rook_to)) & !movers;
        if (needed & pos.occupied()).is_empty() {
            out.push(Move::new(king, rook, MoveKind::Castle));
        }
    }
}

fn push_pawn_move(from: Square, to: Square, out: &mut Vec<Move>) {
    if matches!(to.rank(), Rank::First | Rank::Eighth) {
        for p in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            out.push(Move::new(from, to, MoveKind::Promotion(p)));
        }
    } else {
        out.push(Move::new(from, to, MoveKind::Normal));
    }
}

fn pseudo_pawn_moves(pos: &Position, from: Square, out: &mut Vec<Move>) {
    let us = pos.side_to_move();
    let (dir, start) = match us {
        Color::White => (1, Rank::Second),
        Color::Black => (-1, Rank::Seventh),
    };
    let occ = pos.occupied();
    if let Some(one) = from.offset_rank(dir).filter(|s| !occ.has(*s)) {
        push_pawn_move(from, one, out);
        if from.rank() == start {
            let two = one
                .offset_rank(dir)
                .expect("a pawn on its start rank can step twice");
            if !occ.has(two) {
                out.push(Move::new(from, two, MoveKind::Normal));
            }
        }
    }
    for to in pawn_attacks(us, from) & pos.colored(!us) {
        push_pawn_move(from, to, out);
    }
    if let Some(ep) = pos.ep_square().filter(|&ep| pawn_attacks(us, from).has(ep)) {
        out.push(Move::new(from, ep, MoveKind::EnPassant));
    }
}

/// Every move the pieces can make, ignoring whether it leaves the own king attacked.
pub fn pseudo_legal_moves(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let (own, occ) = (pos.colored(us), pos.occupied());
    let mut out = Vec::new();
    for from in own {
        let piece = pos.piece_on(from).expect("an own square holds a piece");
        let reach = match piece {
            Piece::Pawn => {
                pseudo_pawn_moves(pos, from, &mut out);
                continue;
            }
            Piece::Knight => knight_attacks(from),
            Piece::Bishop => bishop_attacks(from, occ),
            Piece::Rook => rook_attacks(from, occ),
            Piece::Queen => rook_attacks(from, occ) | bishop_attacks(from, occ),
            Piece::King => king_attacks(from),
        };
        out.extend(
            (reach & !own)
                .iter()
                .map(|to| Move::new(from, to, MoveKind::Normal)),
        );
    }
    pseudo_castles(pos, &mut out);
    out
}

/// A board as 64 squares, each empty or holding a piece of a colour: the
/// model plays moves on it by hand, sharing no code with `Position::play`.
type Mailbox = [Option<(Color, Piece)>; 64];

fn mailbox(pos: &Position) -> Mailbox {
    let mut board = [None; 64];
    for sq in pos.occupied() {
        let color = pos.color_on(sq).expect("an occupied square has a colour");
        let piece = pos.piece_on(sq).expect("an occupied square holds a piece");
        board[sq.index()] = Some((color, piece));
    }
    board
}

/// `board` after the pseudo-legal `mv` of `us`, by the rules written out.
fn play_on(mut board: Mailbox, us: Color, mv: Move) -> Mailbox {
    let (from, to) = (mv.from().index(), mv.to().index());
    let mover = board[from].take();
    match mv.kind() {
        MoveKind::Castle => {
            let rook = board[to].take();
            let side = if to > from {
                CastleSide::Short
            } else {
                CastleSide::Long
            };
            let (kf, rf) = side.destination_files();
            let rank = back_rank(us);
            board[Square::new(kf, rank).index()] = mover;
            board[Square::new(rf, rank).index()] = rook;
        }
        MoveKind::EnPassant => {
            // The captured pawn stands beside the mover, on the mover's rank.
            let victim = Square::new(mv.to().file(), mv.from().rank());
            board[victim.index()] = None;
            board[to] = mover;
        }
        MoveKind::Promotion(p) => board[to] = Some((us, p)),
        MoveKind::Normal => board[to] = mover,
    }
    board
}

/// Whether `by` attacks `sq` on `board`.
fn board_attacked(board: &Mailbox, sq: Square, by: Color) -> bool {
    let occ: Bitboard = (0..64)
        .filter(|&i| board[i].is_some())
        .filter_map(Square::from_index)
        .collect();
    (0..64).filter_map(Square::from_index).any(|from| {
        matches!(board[from.index()], Some((c, p)) if c == by && piece_attacks(p, by, from, sq, occ))
    })
}

/// Whether the pseudo-legal `mv` is legal: after it, the mover's king is not
/// attacked; for castling, also no square the king stands on or crosses is.
/// The move is played on a [`Mailbox`] by hand, not by `Position::play`.
pub fn slow_is_legal(pos: &Position, mv: Move) -> bool {
    let us = pos.side_to_move();
    if mv.is_castle() {
        let king = pos.king(us);
        // Without the king and rook, which both leave their squares.
        let occ = pos.occupied() ^ Bitboard::from_square(king) ^ Bitboard::from_square(mv.to());
        let crossed = span(king, mv.king_destination());
        if crossed
            .into_iter()
            .any(|sq| slow_attacked(pos, sq, !us, occ))
        {
            return false;
        }
    }
    let after = play_on(mailbox(pos), us, mv);
    let king = (0..64)
        .filter_map(Square::from_index)
        .find(|sq| after[sq.index()] == Some((us, Piece::King)))
        .expect("the mover's king stays on the board");
    !board_attacked(&after, king, !us)
}

/// The legal moves by the slow model: pseudo-legal moves whose
/// [`slow_is_legal`] holds.
#[allow(dead_code)]
pub fn slow_legal_moves(pos: &Position) -> Vec<Move> {
    pseudo_legal_moves(pos)
        .into_iter()
        .filter(|&mv| slow_is_legal(pos, mv))
        .collect()
}
