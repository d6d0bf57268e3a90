//! The board state and attack queries.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays, Magics, Sliders,
};
use crate::bitboard::Bitboard;
use crate::castling::{CastleSide, CastlingRights};
use crate::castling_mode::CastlingMode;
use crate::piece::{Color, Piece};
use crate::square::{File, Rank, Square};
use crate::zobrist;

/// A chess position: pieces, side to move, castling, en passant, clocks, and the
/// derived zobrist key, checkers and pinned pieces.
///
/// Castling is kept as the squares of the rooks that may castle, so Chess960
/// starting files need nothing special. Moves are applied by copy-make:
/// [`Position::play`] returns the next position and leaves this one untouched.
///
/// A position also keeps its [`CastlingMode`], which says how castling is
/// written (UCI text and FEN) and nothing else. So equality (`==`), `Hash`
/// and [`Position::key`] leave it out: `Position::chess960(518)` equals
/// `Position::startpos()`, though one writes `e1h1` where the other writes
/// `e1g1`.
///
/// # Examples
///
/// ```
/// use movegen::{Color, Piece, Position, Square};
///
/// let pos = Position::startpos();
/// assert_eq!(pos.side_to_move(), Color::White);
/// assert_eq!(pos.legal_moves().len(), 20);
/// let e4 = pos.parse_uci_move("e2e4").unwrap();
/// let next = pos.play(e4);
/// assert_eq!(next.piece_on(Square::E4), Some(Piece::Pawn));
/// assert_eq!(pos.piece_on(Square::E4), None); // copy-make: `pos` is unchanged
/// ```
#[derive(Clone, Copy, Eq, Debug)]
pub struct Position {
    pub(crate) pieces: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) side: Color,
    pub(crate) rights: CastlingRights,
    pub(crate) castle_rooks: [[Square; 2]; 2],
    /// The lane of each rook in `castle_rooks` (an index into
    /// [`crate::castling::LANES`], set with the rights).
    pub(crate) castle_lanes: [[u8; 2]; 2],
    /// The squares a move from or onto costs a castling right: the rooks
    /// that may castle and their kings (kept by [`Position::reset_castling_squares`]).
    pub(crate) castling_squares: Bitboard,
    /// The en-passant square, kept only while a capture there is legal (so
    /// the FEN, `==` and the key agree however the position was reached).
    pub(crate) ep: Option<Square>,
    /// The square a pawn just skipped when a pawn of the side to move stands
    /// next to it, legal capture or not: the Polyglot key counts its file
    /// (see `polyglot.rs`), and `explain_move` says why such a capture is
    /// illegal. Not compared: by the rules of chess the capture is not there.
    pub(crate) pseudo_ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
    /// How castling is written; one byte in what was padding, so a
    /// `Position` stays 120 bytes on 64-bit targets.
    pub(crate) castling_mode: CastlingMode,
}

/// The position a FEN describes: pieces, side to move, castling rights and
/// their rooks, en passant, clocks. Not compared: the castling mode (it is
/// notation) and what is derived from the rest (key, checkers, pins) or
/// left over from rights already lost.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        // The key first: different positions nearly always differ there.
        self.key == other.key
            && self.pieces == other.pieces
            && self.colors == other.colors
            && self.side == other.side
            && self.rights == other.rights
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && Color::ALL.into_iter().all(|color| {
                CastleSide::ALL
                    .into_iter()
                    .all(|side| self.castle_rook(color, side) == other.castle_rook(color, side))
            })
    }
}

/// The FEN of the standard starting position.
///
/// # Examples
///
/// ```
/// use movegen::{Position, STARTPOS_FEN};
///
/// assert_eq!(Position::from_fen(STARTPOS_FEN).unwrap(), Position::startpos());
/// assert_eq!(Position::startpos().fen(), STARTPOS_FEN);
/// ```
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    ///
    /// ```
    /// use movegen::{Position, STARTPOS_FEN};
    ///
    /// assert_eq!(Position::startpos().fen(), STARTPOS_FEN);
    /// ```
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
            rights: CastlingRights::NONE,
            castle_rooks: [[a1; 2]; 2],
            castle_lanes: [[0; 2]; 2],
            castling_squares: Bitboard::EMPTY,
            ep: None,
            pseudo_ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            castling_mode: CastlingMode::Standard,
        }
    }

    /// An otherwise empty position with this one's pieces, for attack
    /// queries off the hot path.
    #[inline(always)]
    pub(crate) fn pieces_only(&self) -> Position {
        Position {
            pieces: self.pieces,
            colors: self.colors,
            ..Position::empty()
        }
    }

    /// The side to move.
    ///
    /// ```
    /// use movegen::{Color, Position};
    ///
    /// assert_eq!(Position::startpos().side_to_move(), Color::White);
    /// ```
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of one kind, both colours.
    ///
    /// ```
    /// use movegen::{Piece, Position};
    ///
    /// assert_eq!(Position::startpos().pieces(Piece::Pawn).len(), 16);
    /// ```
    #[inline(always)]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece]
    }

    /// All pieces of one colour.
    ///
    /// ```
    /// use movegen::{Color, Position};
    ///
    /// assert_eq!(Position::startpos().colored(Color::Black).len(), 16);
    /// ```
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.colors[color]
    }

    /// The pieces of one kind and colour.
    ///
    /// ```
    /// use movegen::{Color, Piece, Position, Square};
    ///
    /// let rooks = Position::startpos().pieces_of(Color::White, Piece::Rook);
    /// assert!(rooks.has(Square::A1) && rooks.has(Square::H1) && rooks.len() == 2);
    /// ```
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, piece: Piece) -> Bitboard {
        self.pieces[piece] & self.colors[color]
    }

    /// Every occupied square.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// assert_eq!(Position::startpos().occupied().len(), 32);
    /// ```
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// Whether the board holds only kings, rooks and pawns (perft compiles
    /// the last ply of such positions without the other kinds).
    #[inline(always)]
    #[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
    pub(crate) fn is_rooks_and_pawns(&self) -> bool {
        (self.pieces[Piece::Knight] | self.pieces[Piece::Bishop] | self.pieces[Piece::Queen])
            .is_empty()
    }

    /// The kind of piece on `sq`, if any.
    ///
    /// ```
    /// use movegen::{Piece, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.piece_on(Square::D8), Some(Piece::Queen));
    /// assert_eq!(pos.piece_on(Square::E4), None);
    /// ```
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
    ///
    /// ```
    /// use movegen::{Color, Position, Square};
    ///
    /// assert_eq!(Position::startpos().color_on(Square::D8), Some(Color::Black));
    /// ```
    #[inline]
    pub fn color_on(&self, sq: Square) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.colors[c].has(sq))
    }

    /// The square of `color`'s king.
    ///
    /// ```
    /// use movegen::{Color, Position, Square};
    ///
    /// assert_eq!(Position::startpos().king(Color::Black), Square::E8);
    /// ```
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces_of(color, Piece::King).lsb()
    }

    /// Pieces giving check to the side to move.
    ///
    /// ```
    /// use movegen::{Position, Square};
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2r w - - 0 1".parse().unwrap();
    /// assert!(pos.checkers().has(Square::H1));
    /// ```
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Pieces of the side to move pinned to their own king.
    ///
    /// ```
    /// use movegen::{Position, Square};
    ///
    /// assert!(Position::startpos().pinned().is_empty());
    /// let pinned: Position = "4r3/8/8/8/8/8/4R3/4K2k w - - 0 1".parse().unwrap();
    /// assert!(pinned.pinned().has(Square::E2));
    /// ```
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Whether the side to move is in check.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2r w - - 0 1".parse().unwrap();
    /// assert!(pos.in_check());
    /// ```
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.nonempty()
    }

    /// Whether the side to move is in check (the same as [`Position::in_check`]).
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// assert!(!Position::startpos().is_check());
    /// ```
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.in_check()
    }

    /// The en-passant target square, if the last move was a double pawn push
    /// (set after a move only when an en-passant capture is legal).
    ///
    /// ```
    /// use movegen::{Position, Square};
    ///
    /// let pos: Position = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(pos.ep_square(), Some(Square::F6));
    /// ```
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move (the fifty-move rule counter).
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 37 60".parse().unwrap();
    /// assert_eq!(pos.halfmove_clock(), 37);
    /// ```
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The full-move number, starting at 1 and incremented after Black's move.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 37 60".parse().unwrap();
    /// assert_eq!(pos.fullmove_number(), 60);
    /// ```
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The zobrist key of the position.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos = Position::startpos();
    /// let back = pos.play(pos.parse_san("Nf3").unwrap());
    /// let back = back.play(back.parse_san("Nf6").unwrap());
    /// let back = back.play(back.parse_san("Ng1").unwrap());
    /// let back = back.play(back.parse_san("Ng8").unwrap());
    /// assert_eq!(back.key(), pos.key()); // the clocks are not in the key
    /// ```
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The square of the rook `color` may castle with on `side`, if it still may.
    ///
    /// ```
    /// use movegen::{CastleSide, Color, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.castle_rook(Color::White, CastleSide::Long), Some(Square::A1));
    /// ```
    pub fn castle_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.rights
            .has(color, side)
            .then(|| self.castle_rooks[color.index()][side.index()])
    }

    /// The castling rights still held.
    ///
    /// ```
    /// use movegen::{CastlingRights, Position};
    ///
    /// assert_eq!(Position::startpos().castling_rights(), CastlingRights::ALL);
    /// ```
    pub fn castling_rights(&self) -> CastlingRights {
        self.rights
    }

    /// Pieces of either colour that attack `sq`, with `occupied` as the blockers.
    ///
    /// ```
    /// use movegen::{Position, Square};
    ///
    /// let pos = Position::startpos();
    /// let f3 = pos.attackers_to(Square::F3, pos.occupied());
    /// assert!(f3.has(Square::G1) && f3.has(Square::E2) && f3.has(Square::G2));
    /// ```
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
    ///
    /// ```
    /// use movegen::{Color, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert!(pos.is_attacked(Square::F6, Color::Black, pos.occupied()));
    /// assert!(!pos.is_attacked(Square::E4, Color::Black, pos.occupied()));
    /// ```
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        self.is_attacked_with::<Magics>(sq, by, occupied)
    }

    /// [`Position::is_attacked`] with the slider lookups `L`.
    #[inline(always)]
    pub(crate) fn is_attacked_with<L: Sliders>(
        &self,
        sq: Square,
        by: Color,
        occupied: Bitboard,
    ) -> bool {
        let them = self.colors[by];
        ((knight_attacks(sq) & self.pieces[Piece::Knight] & them)
            | (king_attacks(sq) & self.pieces[Piece::King] & them)
            | (pawn_attacks(!by, sq) & self.pieces[Piece::Pawn] & them))
            .nonempty()
            || self.is_attacked_by_slider::<L>(sq, by, occupied)
    }

    /// Whether a bishop, rook or queen of `by` attacks `sq`, with `occupied`
    /// as the blockers.
    #[inline(always)]
    pub(crate) fn is_attacked_by_slider<L: Sliders>(
        &self,
        sq: Square,
        by: Color,
        occupied: Bitboard,
    ) -> bool {
        let them = self.colors[by];
        let rooks = (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]) & them;
        let bishops = (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]) & them;
        // The empty-board rays rule out most sliders without a magic lookup.
        ((rook_rays(sq) & rooks).nonempty() && (L::rook(sq, occupied) & rooks).nonempty())
            || ((bishop_rays(sq) & bishops).nonempty()
                && (L::bishop(sq, occupied) & bishops).nonempty())
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
    #[inline(always)]
    pub(crate) fn update_check_info<L: Sliders>(&mut self) {
        match self.side {
            Color::White => self.update_check_info_for::<L, true>(true, true),
            Color::Black => self.update_check_info_for::<L, false>(true, true),
        }
    }

    /// [`Position::update_check_info`] with White to move if `WHITE`.
    /// Checks by knights and by pawns are looked for only if `knights` and
    /// `pawns`: after a move, only the piece that moved (or a promoted one)
    /// can give such a check, since no blocker stops a leaper and the side
    /// that moved was not giving check before. Perft knows the moving piece
    /// at compile time, so the tests that cannot hit drop out.
    #[inline(always)]
    pub(crate) fn update_check_info_for<L: Sliders, const WHITE: bool>(
        &mut self,
        knights: bool,
        pawns: bool,
    ) {
        let us = if WHITE { Color::White } else { Color::Black };
        debug_assert_eq!(self.side, us);
        let them = self.colors[!us];
        let king = self.king(us);
        let occ = self.occupied();
        let rooks = (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]) & them;
        let bishops = (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]) & them;
        let mut checkers = Bitboard::EMPTY;
        if knights {
            checkers |= knight_attacks(king) & self.pieces[Piece::Knight] & them;
        }
        if pawns {
            checkers |= pawn_attacks(us, king) & self.pieces[Piece::Pawn] & them;
        }
        let mut pinned = Bitboard::EMPTY;
        // Sliders that would see the king if our own pieces were transparent.
        let mut snipers = Bitboard::EMPTY;
        if (rook_rays(king) & rooks).nonempty() {
            snipers |= L::rook(king, them) & rooks;
        }
        if (bishop_rays(king) & bishops).nonempty() {
            snipers |= L::bishop(king, them) & bishops;
        }
        for sniper in snipers {
            let blockers = between(king, sniper) & occ;
            if blockers.is_empty() {
                checkers |= Bitboard::from_square(sniper);
            } else if !blockers.has_many() {
                pinned |= blockers & self.colors[us];
            }
        }
        self.checkers = checkers;
        self.pinned = pinned;
        debug_assert!(
            (knights && pawns) || {
                let mut full = *self;
                full.update_check_info_for::<L, WHITE>(true, true);
                (full.checkers, full.pinned) == (checkers, pinned)
            }
        );
    }

    /// Whether the side to move may capture en passant from `from` onto `ep`
    /// without leaving its king attacked. Needs up-to-date checkers.
    /// Inlined, so that perft's positions held in registers stay there.
    #[inline(always)]
    pub(crate) fn ep_is_legal<L: Sliders>(&self, from: Square, ep: Square) -> bool {
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
        // The empty-board rays rule most sliders out without a lookup.
        ((rook_rays(king) & rooks).is_empty() || (L::rook(king, occ) & rooks).is_empty())
            && ((bishop_rays(king) & bishops).is_empty()
                || (L::bishop(king, occ) & bishops).is_empty())
    }

    /// The zobrist key computed from scratch (the incremental key must equal it).
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos = Position::startpos();
    /// let next = pos.play(pos.parse_san("e4").unwrap());
    /// assert_eq!(next.compute_key(), next.key());
    /// ```
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
pub(crate) fn square_behind(sq: Square, color: Color) -> Bitboard {
    let bb = Bitboard::from_square(sq);
    match color {
        Color::White => bb.down(),
        Color::Black => bb.up(),
    }
}
