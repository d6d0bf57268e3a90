//! Copy-make: applying a move to a position.

use crate::attacks::{knight_attacks, pawn_attacks, Magics, Sliders};
use crate::bitboard::Bitboard;
use crate::castling::{CastleSide, CastlingRights};
use crate::moves::{Move, MoveError, MoveKind};
use crate::piece::{Color, Piece};
use crate::position::{square_behind, Position};
use crate::square::Square;
use crate::zobrist;

impl Position {
    /// The position after `mv`, a legal move of this position.
    ///
    /// `play` checks the move first (about as costly as listing the moves).
    /// Use [`Position::try_play`] for a move from elsewhere (a hash table, a
    /// user), and [`Position::play_unchecked`] in a search or a perft loop
    /// over this position's own generated moves.
    ///
    /// # Panics
    /// If `mv` is not legal here, with a message naming the move and the
    /// position: as with an out-of-bounds index, the caller broke the
    /// contract. Text from a user goes through [`Position::parse_uci_move`]
    /// or [`Position::parse_san`], which return errors instead.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos = Position::startpos();
    /// let e4 = pos.parse_san("e4").unwrap();
    /// let next = pos.play(e4);
    /// assert_eq!(next.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// ```
    #[inline]
    #[track_caller]
    pub fn play(&self, mv: Move) -> Position {
        match self.try_play(mv) {
            Ok(next) => next,
            Err(_) => panic!("illegal move {mv:?} ({mv}) in {}", self.fen()),
        }
    }

    /// The position after `mv`, or [`MoveError::Illegal`] if `mv` is not a
    /// legal move here. Any [`Move`] is accepted, even one built from raw
    /// bits: the position returned always keeps the crate's invariants.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] if `mv` is not among [`Position::legal_moves`].
    ///
    /// ```
    /// use movegen::{Move, MoveError, Position};
    ///
    /// let pos = Position::startpos();
    /// let nf3 = pos.parse_uci_move("g1f3").unwrap();
    /// assert!(pos.try_play(nf3).is_ok());
    /// // e1 takes h1 (castling) is not legal at the start.
    /// assert_eq!(pos.try_play(Move::from_bits(0x11c4)), Err(MoveError::Illegal));
    /// ```
    #[inline]
    pub fn try_play(&self, mv: Move) -> Result<Position, MoveError> {
        if self.is_legal(mv) {
            Ok(self.play_generated(mv))
        } else {
            Err(MoveError::Illegal)
        }
    }

    /// The position after `mv`, without checking that `mv` is legal: the
    /// fast path for a search or a perft that plays the moves this
    /// position generated.
    ///
    /// This is not `unsafe`: nothing here can break memory safety. But for
    /// a move that is not legal here the result is unspecified (it may
    /// panic, or be a position that breaks the crate's invariants, such as
    /// one whose own FEN does not parse). Debug builds check legality with
    /// an assertion.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos = Position::startpos();
    /// for mv in pos.legal_moves() {
    ///     let child = pos.play_unchecked(mv);
    ///     assert_eq!(child.side_to_move(), !pos.side_to_move());
    /// }
    /// ```
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        debug_assert!(self.is_legal(mv), "play_unchecked: illegal move {mv}");
        self.play_generated(mv)
    }

    /// [`Position::play_unchecked`] without its debug assertion, for the
    /// crate's own loops over generated moves (perft, SAN, games).
    #[inline]
    pub(crate) fn play_generated(&self, mv: Move) -> Position {
        let piece = self
            .piece_on(mv.from())
            .expect("a generated move starts on a square holding a piece");
        let mut next = *self;
        next.play_in_place::<true, Magics>(piece, mv);
        next
    }

    /// Applies `mv`, made by `piece`, to this position (perft copies first).
    ///
    /// With `KEYS` false the zobrist key and the clocks are left stale and an
    /// en-passant square is recorded whenever a pawn stands ready to capture,
    /// legal or not (the generator tests legality anyway): for unhashed perft,
    /// whose positions are never shown, compared or hashed.
    #[inline(always)]
    pub(crate) fn play_in_place<const KEYS: bool, L: Sliders>(&mut self, piece: Piece, mv: Move) {
        match self.side {
            Color::White => self.play_as::<KEYS, L, true>(piece, mv),
            Color::Black => self.play_as::<KEYS, L, false>(piece, mv),
        }
    }

    /// [`Position::play_in_place`] for a position whose side to move is
    /// White if `WHITE`: perft knows the side at compile time, so every
    /// board set the move touches is at a fixed place.
    #[inline(always)]
    pub(crate) fn play_as<const KEYS: bool, L: Sliders, const WHITE: bool>(
        &mut self,
        piece: Piece,
        mv: Move,
    ) {
        let (from, to) = (mv.from(), mv.to());
        let (us, them) = sides::<WHITE>();
        match mv.kind() {
            MoveKind::Normal => self.play_normal::<KEYS, L, WHITE>(piece, from, to),
            MoveKind::Promotion(p) => self.play_promotion::<KEYS, L, WHITE>(from, to, p),
            MoveKind::EnPassant => {
                self.begin_move::<KEYS, WHITE>();
                self.toggle::<KEYS>(us, Piece::Pawn, from);
                self.toggle::<KEYS>(us, Piece::Pawn, to);
                self.toggle::<KEYS>(them, Piece::Pawn, square_behind(to, us).lsb());
                self.halfmove = 0;
                self.end_move::<KEYS, L, WHITE>(piece, Piece::Pawn, from, to, None);
            }
            MoveKind::Castle => {
                self.begin_move::<KEYS, WHITE>();
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
                self.end_move::<KEYS, L, WHITE>(piece, Piece::King, from, to, None);
            }
        }
    }

    /// Applies a move that is neither castling, en passant nor a promotion:
    /// `piece` goes from `from` to `to`, taking whatever enemy stands there.
    /// Perft calls it straight from the generator's sets, where `piece` is
    /// known at compile time, so no move is encoded and decoded on the way.
    #[inline(always)]
    pub(crate) fn play_normal<const KEYS: bool, L: Sliders, const WHITE: bool>(
        &mut self,
        piece: Piece,
        from: Square,
        to: Square,
    ) {
        let double = piece == Piece::Pawn && to.index() ^ from.index() == 16;
        self.play_plain::<KEYS, L, WHITE>(piece, from, to, double);
    }

    /// [`Position::play_normal`], told whether the move is a pawn's double
    /// push: perft knows it from the set the move comes from, so the test
    /// (a branch that mispredicts) folds away.
    #[inline(always)]
    pub(crate) fn play_plain<const KEYS: bool, L: Sliders, const WHITE: bool>(
        &mut self,
        piece: Piece,
        from: Square,
        to: Square,
        double: bool,
    ) {
        self.play_plain_with::<KEYS, L, WHITE>(piece, from, to, double, None);
    }

    /// [`Position::play_plain`], with the enemy king's lines if perft knows
    /// them (one ply above the leaves): a child whose move left them as
    /// they were takes its checkers and pins from there.
    #[inline(always)]
    pub(crate) fn play_plain_with<const KEYS: bool, L: Sliders, const WHITE: bool>(
        &mut self,
        piece: Piece,
        from: Square,
        to: Square,
        double: bool,
        lines: Option<&EnemyLines>,
    ) {
        debug_assert_eq!(
            double,
            piece == Piece::Pawn && to.index() ^ from.index() == 16
        );
        self.begin_move::<KEYS, WHITE>();
        let (us, them) = sides::<WHITE>();
        if self.colors[them].has(to) {
            self.capture::<KEYS>(them, to);
            self.halfmove = 0;
        }
        self.toggle::<KEYS>(us, piece, from);
        self.toggle::<KEYS>(us, piece, to);
        let mut double_push = None;
        if piece == Piece::Pawn {
            self.halfmove = 0;
            if double {
                double_push = Some(Square::from_index_masked((from.index() + to.index()) / 2));
            }
        }
        self.end_move_with::<KEYS, L, WHITE>(piece, piece, from, to, double_push, lines);
    }

    /// Applies the promotion of the pawn on `from` to `piece` on `to`.
    #[inline(always)]
    pub(crate) fn play_promotion<const KEYS: bool, L: Sliders, const WHITE: bool>(
        &mut self,
        from: Square,
        to: Square,
        piece: Piece,
    ) {
        self.play_promotion_with::<KEYS, L, WHITE>(from, to, piece, None);
    }

    /// [`Position::play_promotion`], with the enemy king's lines as in
    /// [`Position::play_plain_with`] if perft knows them.
    #[inline(always)]
    pub(crate) fn play_promotion_with<const KEYS: bool, L: Sliders, const WHITE: bool>(
        &mut self,
        from: Square,
        to: Square,
        piece: Piece,
        lines: Option<&EnemyLines>,
    ) {
        self.begin_move::<KEYS, WHITE>();
        let (us, them) = sides::<WHITE>();
        if self.colors[them].has(to) {
            self.capture::<KEYS>(them, to);
        }
        self.toggle::<KEYS>(us, Piece::Pawn, from);
        self.toggle::<KEYS>(us, piece, to);
        self.halfmove = 0;
        self.end_move_with::<KEYS, L, WHITE>(Piece::Pawn, piece, from, to, None, lines);
    }

    /// The part of every move before the pieces move: the en-passant square
    /// goes, the clocks tick.
    #[inline(always)]
    fn begin_move<const KEYS: bool, const WHITE: bool>(&mut self) {
        debug_assert_eq!(self.side, sides::<WHITE>().0);
        let ep = self.ep.take();
        if KEYS {
            self.pseudo_ep = None;
            self.key ^= zobrist::side_key();
            if let Some(ep) = ep {
                self.key ^= zobrist::ep_key(ep);
            }
            // Saturating: a FEN may start the clocks at `u32::MAX`.
            self.halfmove = self.halfmove.saturating_add(1);
            if !WHITE {
                self.fullmove = self.fullmove.saturating_add(1);
            }
        }
    }

    /// The part of every move after the pieces moved: castling rights, the
    /// side to move, checkers and pins, and the en-passant square a double
    /// push onto `double_push` may leave. `piece` moved from `from`;
    /// `landed` is what stands on `to` now (another piece after a
    /// promotion, the king after castling).
    #[inline(always)]
    fn end_move<const KEYS: bool, L: Sliders, const WHITE: bool>(
        &mut self,
        piece: Piece,
        landed: Piece,
        from: Square,
        to: Square,
        double_push: Option<Square>,
    ) {
        self.end_move_with::<KEYS, L, WHITE>(piece, landed, from, to, double_push, None);
    }

    /// [`Position::end_move`], taking the checkers and pins from `lines`
    /// where the move left them as they were.
    #[inline(always)]
    fn end_move_with<const KEYS: bool, L: Sliders, const WHITE: bool>(
        &mut self,
        piece: Piece,
        landed: Piece,
        from: Square,
        to: Square,
        double_push: Option<Square>,
        lines: Option<&EnemyLines>,
    ) {
        let (us, them) = sides::<WHITE>();
        let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
        if (touched & self.castling_squares).nonempty() {
            self.update_rights::<KEYS>(us, piece, from, to);
        }
        self.side = them;
        let (knights, pawns) = (landed == Piece::Knight, landed == Piece::Pawn);
        match lines {
            Some(lines) if lines.unchanged(landed, touched, to) => {
                // No line between the enemy king and one of our sliders
                // changed: the pins are the parent's, and only a leaper
                // that landed can give check.
                let king = self.king(them);
                let mut checkers = Bitboard::EMPTY;
                if knights {
                    checkers |= knight_attacks(king) & self.pieces[Piece::Knight] & self.colors[us];
                }
                if pawns {
                    checkers |=
                        pawn_attacks(them, king) & self.pieces[Piece::Pawn] & self.colors[us];
                }
                self.checkers = checkers;
                self.pinned = lines.pinned;
                debug_assert!({
                    let mut full = *self;
                    full.update_check_info::<L>();
                    (full.checkers, full.pinned) == (self.checkers, self.pinned)
                });
            }
            _ => {
                if WHITE {
                    self.update_check_info_for::<L, false>(knights, pawns);
                } else {
                    self.update_check_info_for::<L, true>(knights, pawns);
                }
            }
        }
        if let Some(ep) = double_push {
            if (pawn_attacks(us, ep) & self.pieces_of(them, Piece::Pawn)).nonempty() {
                if !KEYS {
                    self.ep = Some(ep);
                } else {
                    self.pseudo_ep = Some(ep);
                    if self.any_legal_ep::<L>(ep) {
                        self.ep = Some(ep);
                        self.key ^= zobrist::ep_key(ep);
                    }
                }
            }
        }
        if KEYS {
            debug_assert_eq!(self.key, self.compute_key(), "incremental key");
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
        let kings = [self.king(Color::White), self.king(Color::Black)];
        self.castling_squares = castling_squares(self.rights, self.castle_rooks, kings);
    }

    /// Clears the castling rights a move from `from` to `to` loses (one of
    /// them is in [`Position::castling_squares`]).
    #[inline(always)]
    fn update_rights<const KEYS: bool>(
        &mut self,
        us: Color,
        piece: Piece,
        from: Square,
        to: Square,
    ) {
        let old = self.rights;
        let kings = [self.king(Color::White), self.king(Color::Black)];
        (self.rights, self.castling_squares) =
            rights_after(old, self.castle_rooks, kings, us, piece, from, to);
        if KEYS {
            self.key ^= zobrist::castling_key(old) ^ zobrist::castling_key(self.rights);
        }
    }

    /// Whether the side to move has a legal en-passant capture onto `ep`.
    pub(crate) fn any_legal_ep<L: Sliders>(&self, ep: Square) -> bool {
        let us = self.side;
        let capturers = pawn_attacks(!us, ep) & self.pieces_of(us, Piece::Pawn);
        capturers
            .into_iter()
            .any(|from| self.ep_is_legal::<L>(from, ep))
    }

    /// The position after passing the move (for null-move pruning), or
    /// `None` if the side to move is in check: passing then would leave a
    /// king in check with the other side to move.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos = Position::startpos();
    /// let passed = pos.play_null().unwrap();
    /// assert_eq!(passed.side_to_move(), !pos.side_to_move());
    /// let check: Position = "4k3/8/8/8/8/8/8/4K2r w - - 0 1".parse().unwrap();
    /// assert_eq!(check.play_null(), None);
    /// ```
    pub fn play_null(&self) -> Option<Position> {
        if self.in_check() {
            return None;
        }
        let mut next = *self;
        next.key ^= zobrist::side_key();
        next.pseudo_ep = None;
        if let Some(ep) = next.ep.take() {
            next.key ^= zobrist::ep_key(ep);
        }
        next.halfmove = next.halfmove.saturating_add(1);
        if self.side == Color::Black {
            next.fullmove = next.fullmove.saturating_add(1);
        }
        next.side = !self.side;
        next.update_check_info::<Magics>();
        Some(next)
    }
}

/// The side to move and the other side, White first if `WHITE`.
#[inline(always)]
pub(crate) const fn sides<const WHITE: bool>() -> (Color, Color) {
    if WHITE {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    }
}

/// The castling rights left after `piece` of `us` moved from `from` to `to`,
/// and the squares a later move from or onto costs a right; `kings` are the
/// kings' squares after the move. Over plain values (a position perft keeps
/// in registers stays there) and without branches: which rook a move
/// touches is no pattern a predictor learns, and a call cost more than the
/// work. Index loops: iterators zipped over the arrays measured +1%
/// instructions in perft.
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn rights_after(
    rights: CastlingRights,
    castle_rooks: [[Square; 2]; 2],
    kings: [Square; 2],
    us: Color,
    piece: Piece,
    from: Square,
    to: Square,
) -> (CastlingRights, Bitboard) {
    let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
    let mut lost = if piece == Piece::King {
        CastlingRights::both(us)
    } else {
        CastlingRights::NONE
    };
    for color in 0..2 {
        for side in 0..2 {
            let rook = Bitboard::from_square(castle_rooks[color][side]);
            let hit = (rook & touched).nonempty();
            lost = lost.with(CastlingRights::single_if(
                Color::ALL[color],
                CastleSide::ALL[side],
                hit,
            ));
        }
    }
    let rights = rights.without(lost);
    (rights, castling_squares(rights, castle_rooks, kings))
}

/// The squares of the rooks that may still castle under `rights` and of
/// their kings.
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn castling_squares(
    rights: CastlingRights,
    castle_rooks: [[Square; 2]; 2],
    kings: [Square; 2],
) -> Bitboard {
    let mut squares = 0;
    for color in 0..2 {
        for side in 0..2 {
            let pair = Bitboard::from_square(kings[color])
                | Bitboard::from_square(castle_rooks[color][side]);
            let held = rights.has(Color::ALL[color], CastleSide::ALL[side]);
            squares |= pair.0 & (held as u64).wrapping_neg();
        }
    }
    Bitboard(squares)
}

/// What a position knows, before the side to move moves, of the lines
/// between the enemy king and its own sliders: perft takes it once per node
/// one ply above the leaves, and each child whose move touches none of
/// those lines takes its checkers and pins from here instead of looking
/// along the king's rays again.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
pub(crate) struct EnemyLines {
    /// Our sliders on an empty-board line with the enemy king, and every
    /// square between it and them.
    pub(crate) squares: Bitboard,
    /// The enemy pieces pinned to their king.
    pub(crate) pinned: Bitboard,
    /// The enemy king's rook-like and bishop-like rays.
    pub(crate) rook_rays: Bitboard,
    pub(crate) bishop_rays: Bitboard,
}

#[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
impl EnemyLines {
    /// Lines that let no move through: every child looks again.
    pub(crate) const UNKNOWN: EnemyLines = EnemyLines {
        squares: Bitboard::FULL,
        pinned: Bitboard::EMPTY,
        rook_rays: Bitboard::EMPTY,
        bishop_rays: Bitboard::EMPTY,
    };

    /// The lines of `pos`, whose side to move is White if `WHITE` (the
    /// enemy is the other side).
    #[inline(always)]
    pub(crate) fn of<const WHITE: bool>(pos: &Position) -> EnemyLines {
        let (us, them) = sides::<WHITE>();
        let king = pos.king(them);
        let own = pos.colors[us];
        let queens = pos.pieces[Piece::Queen];
        let rook_rays = crate::attacks::rook_rays(king);
        let bishop_rays = crate::attacks::bishop_rays(king);
        let aligned = (rook_rays & (pos.pieces[Piece::Rook] | queens) & own)
            | (bishop_rays & (pos.pieces[Piece::Bishop] | queens) & own);
        let occ = pos.occupied();
        let mut squares = aligned;
        let mut pinned = Bitboard::EMPTY;
        for slider in aligned {
            let between = crate::attacks::between(king, slider);
            squares |= between;
            let blockers = between & occ;
            if !blockers.has_many() {
                pinned |= blockers & pos.colors[them];
            }
        }
        EnemyLines {
            squares,
            pinned,
            rook_rays,
            bishop_rays,
        }
    }

    /// Whether a move of a piece that became `landed`, touching the squares
    /// `touched` and landing on `to`, leaves every line as it was: it
    /// touches none of them, and a slider does not land on a ray of the
    /// enemy king that it moves along.
    #[inline(always)]
    fn unchanged(&self, landed: Piece, touched: Bitboard, to: Square) -> bool {
        let rays = match landed {
            Piece::Bishop => self.bishop_rays,
            Piece::Rook => self.rook_rays,
            Piece::Queen => self.rook_rays | self.bishop_rays,
            _ => Bitboard::EMPTY,
        };
        (touched & self.squares).is_empty() && !rays.has(to)
    }
}
