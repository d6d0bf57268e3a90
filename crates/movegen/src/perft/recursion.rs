//! The perft recursion: generate, play each move, count below; the last ply
//! is counted in bulk without playing its moves.

/// Defines `perft` and `perft_hashed` in a module whose functions carry the
/// given attributes (a `target_feature` list), so that the whole recursion and
/// everything inlined into it is compiled for those features, with the slider
/// lookups `$sliders`.
macro_rules! perft_module {
    ($(#[$attr:meta])* mod $name:ident; sliders = $sliders:ty;) => {
        pub(super) mod $name {
            use crate::generate::{MoveSink, LeaperCounts, SliderCounts};
            use crate::king_moves::Leapers;
            use crate::make::EnemyLines;
            use crate::bitboard::Bitboard;
            use crate::castling::{state as castle_state, CastlingRights};
            use crate::move_sets::{PawnMoves, PieceMoves};
            use crate::moves::{Move, MoveKind};
            use crate::perft::hash::PerftHash;
            use crate::piece::{Color, Piece};
            use crate::position::Position;
            use crate::square::Square;

            /// The slider lookups of this copy.
            type L = $sliders;

            /// Hashed: how many children are made, and their buckets
            /// fetched, before the first of them is counted. With one child
            /// ahead, a bucket that held the count had barely started to load
            /// when it was read (a hit costs far less than making a child).
            /// Startpos perft 8 with 256 MiB, on-CPU Mnps in interleaved
            /// runs: 8 ahead +9% over one, 16 a further +4%, 32 -3% from 16.
            const AHEAD: usize = 16;

            /// The first and last ranks, where pawns promote.
            const PROMOTION_RANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);

            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            pub(crate) unsafe fn perft(pos: &Position, depth: u32) -> u64 {
                match depth {
                    0 => 1,
                    // SAFETY: same features as this function.
                    1 => unsafe { count(pos) },
                    // SAFETY: same features as this function.
                    _ => unsafe {
                        match pos.side_to_move() {
                            Color::White => expand::<false, true>(pos, depth, None),
                            Color::Black => expand::<false, false>(pos, depth, None),
                        }
                    },
                }
            }

            /// Generates the moves of `pos` (White to move if `WHITE`) and
            /// counts the subtree `depth - 1` plies below each.
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            unsafe fn expand<const HASHED: bool, const WHITE: bool>(
                pos: &Position,
                depth: u32,
                hash: Option<&PerftHash>,
            ) -> u64 {
                if depth == 2 {
                    // The castling state of the children's side to move: a
                    // move only loses rights, and never makes a lane
                    // non-standard.
                    let them = if WHITE { Color::Black } else { Color::White };
                    // SAFETY: same features as this function.
                    return unsafe {
                        if !pos.castling_rights().intersects(CastlingRights::both(them)) {
                            expand_last::<WHITE, { castle_state::NONE }>(pos)
                        } else if pos.castles_standard(them) {
                            expand_last::<WHITE, { castle_state::STANDARD }>(pos)
                        } else {
                            expand_last::<WHITE, { castle_state::ANY }>(pos)
                        }
                    };
                }
                // Unused, and so not even written, unless `HASHED`.
                let mut ahead = Ahead { slots: [None; AHEAD], made: 0 };
                let mut sink = Expand::<HASHED, WHITE, false, { castle_state::NONE }, false> {
                    pos,
                    depth: depth - 1,
                    hash,
                    nodes: 0,
                    ahead: if HASHED { Some(&mut ahead) } else { None },
                    leapers: [Bitboard::EMPTY; 3],
                    siblings: Siblings {
                        lines: EnemyLines::UNKNOWN,
                        leaper_counts: LeaperCounts::NONE,
                        rooks_and_pawns: false,
                    },
                    shared: &SliderCounts::NONE,
                };
                pos.generate_for::<L, WHITE, false, _>(&mut sink);
                sink.flush();
                sink.nodes
            }

            /// [`expand`] one ply above the leaves: each child is made and
            /// counted by a leaf function of its own, compiled for the
            /// children's castling state `CASTLE`, so the loop over the
            /// moves tests neither the depth nor the castling state.
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            unsafe fn expand_last<const WHITE: bool, const CASTLE: u8>(pos: &Position) -> u64 {
                let them = if WHITE { Color::Black } else { Color::White };
                // SAFETY: same features as this function.
                unsafe {
                    // The table is set up only where it is filled: clearing
                    // it in every node was a 224-byte copy, 1% of position
                    // 3's instructions, where it never pays.
                    if pos.checkers().is_empty() && SliderCounts::pays(pos, them) {
                        let mut counts = SliderCounts::NONE;
                        counts.fill::<L>(pos, them);
                        expand_last_with::<WHITE, CASTLE, true>(pos, &counts)
                    } else {
                        expand_last_with::<WHITE, CASTLE, false>(pos, &SliderCounts::NONE)
                    }
                }
            }

            /// [`expand_last`] with the enemy sliders' counts `shared` if
            /// `SHARED` (otherwise `shared` is not read, and the leaves are
            /// compiled without it).
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            unsafe fn expand_last_with<const WHITE: bool, const CASTLE: u8, const SHARED: bool>(
                pos: &Position,
                shared: &SliderCounts,
            ) -> u64 {
                let us = if WHITE { Color::White } else { Color::Black };
                let lines = EnemyLines::of::<WHITE>(pos);
                let leaper_counts = if WHITE {
                    LeaperCounts::of::<false>(pos, lines.pinned)
                } else {
                    LeaperCounts::of::<true>(pos, lines.pinned)
                };
                let mut sink = Expand::<false, WHITE, true, CASTLE, SHARED> {
                    pos,
                    depth: 1,
                    hash: None,
                    nodes: 0,
                    ahead: None,
                    leapers: pos.leaper_sets(us),
                    siblings: Siblings { lines, leaper_counts, rooks_and_pawns: pos.is_rooks_and_pawns() },
                    shared,
                };
                pos.generate_for::<L, WHITE, false, _>(&mut sink);
                sink.nodes
            }

            /// The number of legal moves of `pos` (perft 1).
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            #[inline(always)]
            unsafe fn count(pos: &Position) -> u64 {
                // SAFETY: the caller vouched for the CPU features.
                unsafe {
                    match pos.side_to_move() {
                        Color::White => count_for::<true>(pos),
                        Color::Black => count_for::<false>(pos),
                    }
                }
            }

            /// The number of legal moves of `pos`, with White to move if
            /// `WHITE`: the last ply, a function of its own so that a node two
            /// plies above the leaves calls it straight, without the entry of
            /// the whole recursion (its register saves and the test of the
            /// depth).
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            #[inline(never)]
            unsafe fn count_for<const WHITE: bool>(pos: &Position) -> u64 {
                debug_assert_eq!(pos.side_to_move() == Color::White, WHITE);
                pos.count_moves_for::<L, WHITE>() as u64
            }

            /// The number of legal replies to a move of White (if `WHITE`)
            /// or Black in `pos` that is neither castling, en passant nor a
            /// promotion: piece number `PIECE` goes from `from` to `to`. The
            /// child is made and counted in one function, so it never goes
            /// through memory: only the sets the count reads are computed,
            /// in registers. `known` is what the moving side's pawns,
            /// knights and king of the other kinds attack (unchanged by the
            /// move), so only the moving kind's attacks are taken again.
            ///
            /// The `PIECE` number of a pawn's double push in [`leaf_normal`]
            /// (the others are the pieces' indices): a function of its own,
            /// so that the test for it does not mispredict.
            const DOUBLE_PUSH: usize = 6;

            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            #[inline(never)]
            unsafe fn leaf_normal<
                const WHITE: bool,
                const CASTLE: u8,
                const PIECE: usize,
                const SHARED: bool,
                const ROOKS_AND_PAWNS: bool,
            >(
                pos: &Position,
                from: Square,
                to: Square,
                known: Bitboard,
                siblings: &Siblings,
                shared: &SliderCounts,
            ) -> u64 {
                let double = PIECE == DOUBLE_PUSH;
                let piece = if double { Piece::Pawn } else { Piece::ALL[PIECE % 6] };
                let leapers = Leapers {
                    base: known,
                    pawns: piece == Piece::Pawn,
                    knights: piece == Piece::Knight,
                    king: piece == Piece::King,
                };
                let counts = Some((shared, &siblings.leaper_counts, from, to));
                leaf::<WHITE, CASTLE, SHARED, ROOKS_AND_PAWNS>(pos, leapers, counts, |next| {
                    next.play_plain_with::<false, L, WHITE>(piece, from, to, double, Some(&siblings.lines))
                })
            }

            /// [`leaf_normal`] for a promotion to piece number `PROMO`;
            /// `known` as there for a pawn move.
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            #[inline(never)]
            unsafe fn leaf_promotion<const WHITE: bool, const CASTLE: u8, const PROMO: usize, const SHARED: bool>(
                pos: &Position,
                from: Square,
                to: Square,
                known: Bitboard,
                siblings: &Siblings,
                shared: &SliderCounts,
            ) -> u64 {
                let promo = Piece::ALL[PROMO];
                let leapers = Leapers {
                    base: known,
                    pawns: true,
                    knights: promo == Piece::Knight,
                    king: false,
                };
                let counts = Some((shared, &siblings.leaper_counts, from, to));
                leaf::<WHITE, CASTLE, SHARED, false>(pos, leapers, counts, |next| {
                    next.play_promotion_with::<false, L, WHITE>(from, to, promo, Some(&siblings.lines))
                })
            }

            /// [`leaf_normal`] for any move `mv` of `piece` (castling and en
            /// passant come this way).
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            #[inline(never)]
            unsafe fn leaf_move<const WHITE: bool, const CASTLE: u8>(
                pos: &Position,
                piece: Piece,
                mv: Move,
            ) -> u64 {
                leaf::<WHITE, CASTLE, false, false>(pos, Leapers::UNKNOWN, None, |next| {
                    next.play_as::<false, L, WHITE>(piece, mv)
                })
            }

            /// Makes the child of `pos` with `play` and counts its moves,
            /// with the castling state `CASTLE` of the side to move in the
            /// child (see `castling::state`). With `counts`, the move
            /// changed only its two squares `from` and `to`, and the child
            /// takes its pawns' and knights' count from the node's where
            /// they did not change, and, if `SHARED`, the counts of the
            /// sliders it did not reach. With `ROOKS_AND_PAWNS`, the board
            /// holds no knights, bishops or queens, and the move makes none:
            /// the child says so, and the count's code for them folds away.
            #[inline(always)]
            fn leaf<const WHITE: bool, const CASTLE: u8, const SHARED: bool, const ROOKS_AND_PAWNS: bool>(
                pos: &Position,
                leapers: Leapers,
                counts: Option<(&SliderCounts, &LeaperCounts, Square, Square)>,
                play: impl FnOnce(&mut Position),
            ) -> u64 {
                let mut next = *pos;
                if ROOKS_AND_PAWNS {
                    debug_assert!(pos.is_rooks_and_pawns());
                    for kind in [Piece::Knight, Piece::Bishop, Piece::Queen] {
                        next.pieces[kind] = Bitboard::EMPTY;
                    }
                }
                play(&mut next);
                let n = match counts {
                    Some((shared, leaper_counts, from, to)) => {
                        if WHITE {
                            next.count_moves_shared::<L, false, CASTLE, SHARED>(leapers, (shared, leaper_counts), from, to)
                        } else {
                            next.count_moves_shared::<L, true, CASTLE, SHARED>(leapers, (shared, leaper_counts), from, to)
                        }
                    }
                    None if WHITE => next.count_moves_state::<L, false, CASTLE>(leapers),
                    None => next.count_moves_state::<L, true, CASTLE>(leapers),
                };
                n as u64
            }

            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            pub(crate) unsafe fn perft_hashed(pos: &Position, depth: u32, hash: &PerftHash) -> u64 {
                if depth <= 1 {
                    // SAFETY: same features as this function.
                    return unsafe { perft(pos, depth) };
                }
                if let Some(n) = hash.get(pos, depth) {
                    return n;
                }
                // SAFETY: same features as this function.
                let nodes = unsafe {
                    match pos.side_to_move() {
                        Color::White => expand::<true, true>(pos, depth, Some(hash)),
                        Color::Black => expand::<true, false>(pos, depth, Some(hash)),
                    }
                };
                hash.put(pos, depth, nodes);
                nodes
            }

            /// Plays each generated move and counts the subtree below it;
            /// `HASHED` keeps keys up to date and looks subtrees up in `hash`.
            /// White is to move in `pos` if `WHITE`.
            /// `LAST` one ply above the leaves, whose children's castling
            /// state is `CASTLE` (`castling::state`).
            struct Expand<'a, const HASHED: bool, const WHITE: bool, const LAST: bool, const CASTLE: u8, const SHARED: bool> {
                pos: &'a Position,
                depth: u32,
                hash: Option<&'a PerftHash>,
                nodes: u64,
                /// Hashed: the children made but not yet counted.
                ahead: Option<&'a mut Ahead>,
                /// One ply above the leaves: the squares the side to move's
                /// pawns, knights and king attack.
                leapers: [Bitboard; 3],
                /// One ply above the leaves: the lines between the enemy
                /// king and our sliders, and the enemy pawns' and knights'
                /// moves.
                siblings: Siblings,
                /// One ply above the leaves, if `SHARED`: the enemy sliders'
                /// moves.
                shared: &'a SliderCounts,
            }

            impl<const HASHED: bool, const WHITE: bool, const LAST: bool, const CASTLE: u8, const SHARED: bool>
                Expand<'_, HASHED, WHITE, LAST, CASTLE, SHARED>
            {
                /// Makes the child `child` and counts the subtree below it;
                /// hashed, the child is made into a slot, its bucket starts
                /// loading, and the child made `AHEAD - 1` before it is
                /// counted. Each child is copied once, from the parent into
                /// its slot.
                #[inline(always)]
                fn make(&mut self, child: Child) {
                    if let (true, Some(hash), Some(ahead)) =
                        (HASHED && self.depth >= 2, self.hash, self.ahead.as_deref_mut())
                    {
                        let slot = ahead.slots[ahead.made % AHEAD].insert(*self.pos);
                        child.play::<HASHED, WHITE>(slot);
                        hash.prefetch(slot.key());
                        ahead.made += 1;
                        // The oldest child: in the slot the next one goes to.
                        let oldest = &mut ahead.slots[ahead.made % AHEAD];
                        if let Some(next) = oldest {
                            // SAFETY: only reached from this module's functions,
                            // whose caller vouched for the CPU features.
                            self.nodes += unsafe { perft_hashed(next, self.depth, hash) };
                            *oldest = None;
                        }
                        return;
                    }
                    let mut next = *self.pos;
                    child.play::<HASHED, WHITE>(&mut next);
                    self.count_now(&next, self.hash);
                }

                /// Counts the children still in their slots, oldest first.
                #[inline(always)]
                fn flush(&mut self) {
                    if let (Some(hash), Some(ahead)) = (self.hash, self.ahead.as_deref()) {
                        for n in ahead.made..ahead.made + AHEAD {
                            if let Some(next) = &ahead.slots[n % AHEAD] {
                                // SAFETY: as in `make`.
                                self.nodes += unsafe { perft_hashed(next, self.depth, hash) };
                            }
                        }
                    }
                }

                #[inline(always)]
                fn count_now(&mut self, next: &Position, hash: Option<&PerftHash>) {
                    // SAFETY: only reached from this module's functions, whose
                    // caller vouched for the CPU features.
                    self.nodes += unsafe {
                        match hash {
                            Some(hash) if HASHED => perft_hashed(next, self.depth, hash),
                            _ => perft(next, self.depth),
                        }
                    };
                }

                // Each child is copied and changed in place (`make`):
                // returning a new position from a function cost a second copy.

                // One ply above the leaves, each child is made and counted
                // by a function of its own (`leaf_normal` and the like).


                #[inline(always)]
                fn child(&mut self, piece: Piece, mv: Move) {
                    if LAST {
                        // SAFETY: only reached from this module's functions,
                        // whose caller vouched for the CPU features.
                        self.nodes += unsafe { leaf_move::<WHITE, CASTLE>(self.pos, piece, mv) };
                        return;
                    }
                    self.make(Child::Any(piece, mv));
                }

                /// A plain move of `piece`; `double` if it is a pawn's double
                /// push.
                #[inline(always)]
                fn child_normal(&mut self, piece: Piece, from: Square, to: Square, double: bool) {
                    if LAST {
                        let [pawns, knights, king] = self.leapers;
                        let known = match piece {
                            Piece::Pawn => knights | king,
                            Piece::Knight => pawns | king,
                            Piece::King => pawns | knights,
                            _ => pawns | knights | king,
                        };
                        let (pos, shared) = (self.pos, (&self.siblings, self.shared));
                        // Rook and pawn endings get leaves of their own,
                        // compiled only where no castling and no slider
                        // table can be (a table needs three enemy rooks
                        // here). The branch is the same for every child of
                        // a node, so it predicts.
                        // SAFETY: as in `child`.
                        self.nodes += unsafe {
                            if CASTLE == castle_state::NONE && !SHARED && self.siblings.rooks_and_pawns {
                                leaf_normal_of::<WHITE, CASTLE, SHARED, true>(pos, piece, from, to, double, known, shared)
                            } else {
                                leaf_normal_of::<WHITE, CASTLE, SHARED, false>(pos, piece, from, to, double, known, shared)
                            }
                        };
                        return;
                    }
                    self.make(Child::Plain(piece, from, to, double));
                }

                #[inline(always)]
                fn child_promotion(&mut self, from: Square, to: Square, promo: Piece) {
                    if LAST {
                        let [_, knights, king] = self.leapers;
                        // The pawn's attacks go, and a knight's may come.
                        let known = if promo == Piece::Knight { king } else { knights | king };
                        // SAFETY: as in `child`.
                        self.nodes += unsafe {
                            leaf_promotion_of::<WHITE, CASTLE, SHARED>(
                                self.pos, from, to, promo, known, &self.siblings, self.shared,
                            )
                        };
                        return;
                    }
                    self.make(Child::Promotion(from, to, promo));
                }
            }

            /// What the children of a node one ply above the leaves share:
            /// the lines between their king and the node's sliders, and
            /// their pawns' and knights' moves on the node's board.
            struct Siblings {
                lines: EnemyLines,
                leaper_counts: LeaperCounts,
                /// Whether the board holds no knights, bishops or queens.
                rooks_and_pawns: bool,
            }

            /// Hashed: the last `AHEAD` children of a node, made in place
            /// (child `n` in slot `n % AHEAD`). Each is counted only once
            /// `AHEAD - 1` more have been made, so that their buckets load
            /// meanwhile.
            struct Ahead {
                slots: [Option<Position>; AHEAD],
                /// The children made so far.
                made: usize,
            }

            /// A move to make, as the generator hands it over.
            #[derive(Clone, Copy)]
            enum Child {
                /// Any move of the piece (castling and en passant come this way).
                Any(Piece, Move),
                /// A plain move of the piece from and to the squares, and
                /// whether it is a pawn's double push.
                Plain(Piece, Square, Square, bool),
                /// A promotion from and to the squares, to the piece.
                Promotion(Square, Square, Piece),
            }

            impl Child {
                /// Makes the move in `next`, a copy of the parent, with keys
                /// if `KEYS`; White moves if `WHITE`. Inlined where the
                /// variant is known, so the match folds away.
                #[inline(always)]
                fn play<const KEYS: bool, const WHITE: bool>(self, next: &mut Position) {
                    match self {
                        Child::Any(piece, mv) => next.play_as::<KEYS, L, WHITE>(piece, mv),
                        Child::Plain(piece, from, to, double) => {
                            next.play_plain::<KEYS, L, WHITE>(piece, from, to, double)
                        }
                        Child::Promotion(from, to, promo) => {
                            next.play_promotion::<KEYS, L, WHITE>(from, to, promo)
                        }
                    }
                }
            }

            /// [`leaf_promotion`] for `promo`, known at compile time where
            /// the generator is inlined.
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            #[inline(always)]
            unsafe fn leaf_promotion_of<const WHITE: bool, const CASTLE: u8, const SHARED: bool>(
                pos: &Position,
                from: Square,
                to: Square,
                promo: Piece,
                known: Bitboard,
                siblings: &Siblings,
                shared: &SliderCounts,
            ) -> u64 {
                // SAFETY: the caller vouched for the CPU features.
                unsafe {
                    match promo {
                        Piece::Queen => leaf_promotion::<WHITE, CASTLE, 4, SHARED>(pos, from, to, known, siblings, shared),
                        Piece::Rook => leaf_promotion::<WHITE, CASTLE, 3, SHARED>(pos, from, to, known, siblings, shared),
                        Piece::Bishop => leaf_promotion::<WHITE, CASTLE, 2, SHARED>(pos, from, to, known, siblings, shared),
                        _ => leaf_promotion::<WHITE, CASTLE, 1, SHARED>(pos, from, to, known, siblings, shared),
                    }
                }
            }

            /// [`leaf_normal`] for `piece`, known at compile time where the
            /// generator is inlined, with `ROOKS_AND_PAWNS` as in [`leaf`]
            /// (only pawns, rooks and kings move then).
            ///
            /// # Safety
            /// The CPU must have the features in this module's attributes.
            #[inline(always)]
            unsafe fn leaf_normal_of<const WHITE: bool, const CASTLE: u8, const SHARED: bool, const ROOKS_AND_PAWNS: bool>(
                pos: &Position,
                piece: Piece,
                from: Square,
                to: Square,
                double: bool,
                known: Bitboard,
                (siblings, shared): (&Siblings, &SliderCounts),
            ) -> u64 {
                // SAFETY: the caller vouched for the CPU features.
                unsafe {
                    if double {
                        return leaf_normal::<WHITE, CASTLE, DOUBLE_PUSH, SHARED, ROOKS_AND_PAWNS>(pos, from, to, known, siblings, shared);
                    }
                    match piece {
                        Piece::Pawn => leaf_normal::<WHITE, CASTLE, 0, SHARED, ROOKS_AND_PAWNS>(pos, from, to, known, siblings, shared),
                        Piece::Knight => leaf_normal::<WHITE, CASTLE, 1, SHARED, false>(pos, from, to, known, siblings, shared),
                        Piece::Bishop => leaf_normal::<WHITE, CASTLE, 2, SHARED, false>(pos, from, to, known, siblings, shared),
                        Piece::Rook => leaf_normal::<WHITE, CASTLE, 3, SHARED, ROOKS_AND_PAWNS>(pos, from, to, known, siblings, shared),
                        Piece::Queen => leaf_normal::<WHITE, CASTLE, 4, SHARED, false>(pos, from, to, known, siblings, shared),
                        Piece::King => leaf_normal::<WHITE, CASTLE, 5, SHARED, ROOKS_AND_PAWNS>(pos, from, to, known, siblings, shared),
                    }
                }
            }

            impl<const HASHED: bool, const WHITE: bool, const LAST: bool, const CASTLE: u8, const SHARED: bool> MoveSink
                for Expand<'_, HASHED, WHITE, LAST, CASTLE, SHARED>
            {
                // The piece and the kind of move are known here (constants
                // once the generator is inlined), so plain moves go straight
                // to `play_normal` without being encoded as `Move`s.
                #[inline(always)]
                fn piece(&mut self, moves: PieceMoves) -> bool {
                    let PieceMoves { piece, from, to, special } = moves;
                    if piece == Piece::Pawn {
                        for mv in moves {
                            self.child(piece, mv);
                        }
                        return false;
                    }
                    for to in to & !special {
                        self.child_normal(piece, from, to, false);
                    }
                    for rook in special {
                        self.child(piece, Move::new(from, rook, MoveKind::Castle));
                    }
                    false
                }

                #[inline(always)]
                fn pawns(&mut self, moves: PawnMoves) -> bool {
                    // The delta is known here (the generator's sets are
                    // unrolled), so is whether these are double pushes.
                    let double = moves.delta.unsigned_abs() == 16;
                    for to in moves.to & !PROMOTION_RANKS {
                        let from = moves.from(to);
                        self.child_normal(Piece::Pawn, from, to, double);
                    }
                    for to in moves.to & PROMOTION_RANKS {
                        let from = moves.from(to);
                        // Four calls, not a loop over an array: the piece stays
                        // a constant, so each promotion has its own leaf.
                        self.child_promotion(from, to, Piece::Queen);
                        self.child_promotion(from, to, Piece::Rook);
                        self.child_promotion(from, to, Piece::Bishop);
                        self.child_promotion(from, to, Piece::Knight);
                    }
                    false
                }
            }
        }
    };
}

perft_module! {
    mod portable;
    sliders = crate::attacks::Magics;
}

#[cfg(target_arch = "x86_64")]
perft_module! {
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    mod bmi2;
    sliders = crate::attacks::Magics;
}

// The same, with PEXT lookups: for CPUs that execute PEXT fast.
#[cfg(target_arch = "x86_64")]
perft_module! {
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    mod bmi2_pext;
    sliders = crate::attacks::Pext;
}
