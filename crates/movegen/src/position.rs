//! The board state, attack queries and copy-make.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece};
use crate::square::{File, Rank, Square};
use crate::zobrist;

/// Which way a side castles: towards the h-file (`Short`) or the a-file (`Long`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CastleSide {
    /// Towards the h-file: the king ends on g, the rook on f ("O-O").
    Short,
    /// Towards the a-file: the king ends on c, the rook on d ("O-O-O").
    Long,
}

impl CastleSide {
    /// Both sides, short first.
    pub const ALL: [CastleSide; 2] = [CastleSide::Short, CastleSide::Long];

    /// The side's index: 0 for short, 1 for long.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The files the king and the rook end on.
    pub const fn destination_files(self) -> (File, File) {
        match self {
            CastleSide::Short => (File::G, File::F),
            CastleSide::Long => (File::C, File::D),
        }
    }
}

/// The bit of one castling right in the 4-bit rights mask.
pub(crate) const fn right_bit(color: Color, side: CastleSide) -> u8 {
    1 << (color as u8 * 2 + side as u8)
}

/// A chess position: pieces, side to move, castling, en passant, clocks, and the
/// derived zobrist key, checkers and pinned pieces.
///
/// Castling is kept as the squares of the rooks that may castle, so Chess960
/// starting files need nothing special. Moves are applied by copy-make:
/// [`Position::play`] returns the next position and leaves this one untouched.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub(crate) pieces: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) side: Color,
    pub(crate) rights: u8,
    pub(crate) castle_rooks: [[Square; 2]; 2],
    /// The squares a move from or onto costs a castling right: the rooks
    /// that may castle and their kings (kept by [`Position::reset_castling_squares`]).
    pub(crate) castling_squares: Bitboard,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

/// The FEN of the standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS_FEN).expect("the start position FEN is valid")
    }

    /// An empty board with White to move, for the FEN parser to fill in.
    pub(crate) fn empty() -> Position {
        let a1 = Square::new(File::A, Rank::First);
        Position {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            side: Color::White,
            rights: 0,
            castle_rooks: [[a1; 2]; 2],
            castling_squares: Bitboard::EMPTY,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of one kind, both colours.
    #[inline(always)]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece]
    }

    /// All pieces of one colour.
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.colors[color]
    }

    /// The pieces of one kind and colour.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, piece: Piece) -> Bitboard {
        self.pieces[piece] & self.colors[color]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The kind of piece on `sq`, if any.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        if !self.occupied().has(sq) {
            return None;
        }
        // An index loop: `Piece::ALL.into_iter()` copies the array and is
        // not unrolled.
        (0..Piece::ALL.len())
            .map(|i| Piece::ALL[i])
            .find(|&p| self.pieces[p].has(sq))
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_on(&self, sq: Square) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.colors[c].has(sq))
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces_of(color, Piece::King).lsb()
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Pieces of the side to move pinned to their own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.nonempty()
    }

    /// The en-passant target square, if the last move was a double pawn push
    /// (set after a move only when an en-passant capture is legal).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move (the fifty-move rule counter).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The full-move number, starting at 1 and incremented after Black's move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The zobrist key of the position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The square of the rook `color` may castle with on `side`, if it still may.
    pub fn castle_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        (self.rights & right_bit(color, side) != 0)
            .then(|| self.castle_rooks[color.index()][side.index()])
    }

    /// The castling rights as a 4-bit mask (White short, White long, Black short, Black long).
    pub fn castling_rights(&self) -> u8 {
        self.rights
    }

    /// Pieces of either colour that attack `sq`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.pieces[Piece::Rook] | self.pieces[Piece::Queen];
        let bishops = self.pieces[Piece::Bishop] | self.pieces[Piece::Queen];
        (knight_attacks(sq) & self.pieces[Piece::Knight])
            | (king_attacks(sq) & self.pieces[Piece::King])
            | (pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, Piece::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, Piece::Pawn))
            | (rook_attacks(sq, occupied) & rooks)
            | (bishop_attacks(sq, occupied) & bishops)
    }

    /// Whether a piece of `by` attacks `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.colors[by];
        ((knight_attacks(sq) & self.pieces[Piece::Knight] & them)
            | (king_attacks(sq) & self.pieces[Piece::King] & them)
            | (pawn_attacks(!by, sq) & self.pieces[Piece::Pawn] & them))
            .nonempty()
            || self.is_attacked_by_slider(sq, by, occupied)
    }

    /// Whether a bishop, rook or queen of `by` attacks `sq`, with `occupied`
    /// as the blockers.
    #[inline(always)]
    pub(crate) fn is_attacked_by_slider(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.colors[by];
        let rooks = (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]) & them;
        let bishops = (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]) & them;
        // The empty-board rays rule out most sliders without a magic lookup.
        ((rook_rays(sq) & rooks).nonempty() && (rook_attacks(sq, occupied) & rooks).nonempty())
            || ((bishop_rays(sq) & bishops).nonempty()
                && (bishop_attacks(sq, occupied) & bishops).nonempty())
    }

    /// Puts a piece on an empty square or takes it off, updating the key if `KEYS`.
    #[inline(always)]
    pub(crate) fn toggle<const KEYS: bool>(&mut self, color: Color, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece] ^= bb;
        self.colors[color] ^= bb;
        if KEYS {
            self.key ^= zobrist::piece_key(color, piece, sq);
        }
    }

    /// Recomputes checkers and pinned pieces for the side to move.
    #[inline]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = self.colors[!us];
        let king = self.king(us);
        let occ = self.occupied();
        let rooks = (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]) & them;
        let bishops = (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]) & them;
        self.checkers = ((knight_attacks(king) & self.pieces[Piece::Knight])
            | (pawn_attacks(us, king) & self.pieces[Piece::Pawn]))
            & them;
        self.pinned = Bitboard::EMPTY;
        // Sliders that would see the king if our own pieces were transparent.
        let mut snipers = Bitboard::EMPTY;
        if (rook_rays(king) & rooks).nonempty() {
            snipers |= rook_attacks(king, them) & rooks;
        }
        if (bishop_rays(king) & bishops).nonempty() {
            snipers |= bishop_attacks(king, them) & bishops;
        }
        for sniper in snipers {
            let blockers = between(king, sniper) & occ;
            if blockers.is_empty() {
                self.checkers |= Bitboard::from_square(sniper);
            } else if !blockers.has_many() {
                self.pinned |= blockers & self.colors[us];
            }
        }
    }

    /// Whether the side to move may capture en passant from `from` onto `ep`
    /// without leaving its king attacked. Needs up-to-date checkers.
    #[inline]
    pub(crate) fn ep_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side;
        let victim = square_behind(ep, us);
        let king = self.king(us);
        // A knight or another pawn giving check is not resolved by this capture.
        let leaper_checks =
            self.checkers & (self.pieces[Piece::Knight] | self.pieces[Piece::Pawn]) & !victim;
        if leaper_checks.nonempty() {
            return false;
        }
        let occ =
            (self.occupied() ^ Bitboard::from_square(from) ^ victim) | Bitboard::from_square(ep);
        let them = self.colors[!us];
        let rooks = (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]) & them;
        let bishops = (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]) & them;
        (rook_attacks(king, occ) & rooks).is_empty()
            && (bishop_attacks(king, occ) & bishops).is_empty()
    }

    /// The position after `mv`, which must be legal here (as from [`Position::legal_moves`]).
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let piece = self
            .piece_on(mv.from())
            .expect("a legal move starts on a square holding a piece");
        let mut next = *self;
        next.play_in_place::<true>(piece, mv);
        next
    }

    /// Applies `mv`, made by `piece`, to this position (perft copies first).
    ///
    /// With `KEYS` false the zobrist key is left stale and an en-passant
    /// square is recorded whenever a pawn stands ready to capture, legal or
    /// not (the generator tests legality anyway): for unhashed perft, whose
    /// positions are never shown, compared or hashed.
    #[inline(always)]
    pub(crate) fn play_in_place<const KEYS: bool>(&mut self, piece: Piece, mv: Move) {
        let us = self.side;
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        let ep = self.ep.take();
        if KEYS {
            self.key ^= zobrist::side_key();
            if let Some(ep) = ep {
                self.key ^= zobrist::ep_key(ep);
            }
        }
        self.halfmove += 1;
        if us == Color::Black {
            self.fullmove += 1;
        }
        let mut double_push = None;
        match mv.kind() {
            MoveKind::Castle => {
                let side = if to > from {
                    CastleSide::Short
                } else {
                    CastleSide::Long
                };
                let (kf, rf) = side.destination_files();
                let rank = from.rank();
                self.toggle::<KEYS>(us, Piece::King, from);
                self.toggle::<KEYS>(us, Piece::Rook, to);
                self.toggle::<KEYS>(us, Piece::King, Square::new(kf, rank));
                self.toggle::<KEYS>(us, Piece::Rook, Square::new(rf, rank));
            }
            kind => {
                if self.colors[them].has(to) {
                    self.capture::<KEYS>(them, to);
                    self.halfmove = 0;
                }
                self.toggle::<KEYS>(us, piece, from);
                match kind {
                    MoveKind::Promotion(p) => self.toggle::<KEYS>(us, p, to),
                    _ => self.toggle::<KEYS>(us, piece, to),
                }
                if piece == Piece::Pawn {
                    self.halfmove = 0;
                    if kind == MoveKind::EnPassant {
                        self.toggle::<KEYS>(them, Piece::Pawn, square_behind(to, us).lsb());
                    } else if to.index() ^ from.index() == 16 {
                        double_push =
                            Some(Square::from_index_masked((from.index() + to.index()) / 2));
                    }
                }
            }
        }
        let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
        if (touched & self.castling_squares).nonempty() {
            self.update_rights::<KEYS>(us, piece, from, to);
        }
        self.side = them;
        self.update_check_info();
        if let Some(ep) = double_push {
            if KEYS {
                if self.any_legal_ep(ep) {
                    self.ep = Some(ep);
                    self.key ^= zobrist::ep_key(ep);
                }
            } else if (pawn_attacks(us, ep) & self.pieces_of(them, Piece::Pawn)).nonempty() {
                self.ep = Some(ep);
            }
        }
        if KEYS {
            debug_assert_eq!(self.key, self.compute_key(), "incremental key after {mv}");
        }
    }

    /// Removes the piece of `color` on `sq`.
    #[inline(always)]
    fn capture<const KEYS: bool>(&mut self, color: Color, sq: Square) {
        if KEYS {
            let captured = self
                .piece_on(sq)
                .expect("a capture's target square holds a piece");
            self.toggle::<true>(color, captured, sq);
        } else {
            // Which kind it was only matters to the key: clear every kind.
            let keep = !Bitboard::from_square(sq);
            for bb in &mut self.pieces[..Piece::King.index()] {
                *bb &= keep;
            }
            self.colors[color] &= keep;
        }
    }

    /// Recomputes [`Position::castling_squares`] from the rights.
    pub(crate) fn reset_castling_squares(&mut self) {
        self.castling_squares = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if self.rights & right_bit(color, side) != 0 {
                    self.castling_squares |= Bitboard::from_square(self.king(color))
                        | Bitboard::from_square(self.castle_rooks[color.index()][side.index()]);
                }
            }
        }
    }

    /// Clears the castling rights a move from `from` to `to` loses (one of
    /// them is in [`Position::castling_squares`]).
    #[inline(never)]
    fn update_rights<const KEYS: bool>(
        &mut self,
        us: Color,
        piece: Piece,
        from: Square,
        to: Square,
    ) {
        let old = self.rights;
        let mut lost = 0;
        if piece == Piece::King {
            lost |= right_bit(us, CastleSide::Short) | right_bit(us, CastleSide::Long);
        }
        let [[white_short, white_long], [black_short, black_long]] = self.castle_rooks;
        let touched = |rook: Square| rook == from || rook == to;
        lost |= touched(white_short) as u8
            | (touched(white_long) as u8) << 1
            | (touched(black_short) as u8) << 2
            | (touched(black_long) as u8) << 3;
        self.rights &= !lost;
        self.reset_castling_squares();
        if KEYS {
            self.key ^= zobrist::castling_key(old) ^ zobrist::castling_key(self.rights);
        }
    }

    /// Whether the side to move has a legal en-passant capture onto `ep`.
    pub(crate) fn any_legal_ep(&self, ep: Square) -> bool {
        let us = self.side;
        let capturers = pawn_attacks(!us, ep) & self.pieces_of(us, Piece::Pawn);
        capturers.into_iter().any(|from| self.ep_is_legal(from, ep))
    }

    /// The position after passing the move (for null-move pruning). The side to
    /// move must not be in check.
    pub fn play_null(&self) -> Position {
        let mut next = *self;
        next.key ^= zobrist::side_key();
        if let Some(ep) = next.ep.take() {
            next.key ^= zobrist::ep_key(ep);
        }
        next.halfmove += 1;
        if self.side == Color::Black {
            next.fullmove += 1;
        }
        next.side = !self.side;
        next.update_check_info();
        next
    }

    /// The zobrist key computed from scratch (the incremental key must equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::castling_key(self.rights);
        for color in Color::ALL {
            for piece in Piece::ALL {
                for sq in self.pieces_of(color, piece) {
                    key ^= zobrist::piece_key(color, piece, sq);
                }
            }
        }
        if let Some(ep) = self.ep {
            key ^= zobrist::ep_key(ep);
        }
        if self.side == Color::Black {
            key ^= zobrist::side_key();
        }
        key
    }
}

/// The square one rank behind `sq` from `color`'s point of view (where the
/// double-pushed pawn stands when `sq` is the en-passant square).
#[inline(always)]
fn square_behind(sq: Square, color: Color) -> Bitboard {
    let bb = Bitboard::from_square(sq);
    match color {
        Color::White => bb.down(),
        Color::Black => bb.up(),
    }
}
