//! Legal move generation with check and pin masks (no make-and-test), into
//! a [`MoveSink`].

use crate::attacks::{between, king_attacks, knight_attacks, line, pawn_attacks, Magics, Sliders};
use crate::bitboard::Bitboard;
use crate::castling::{
    lane_index, state as castle_state, CastleSide, CastlingRights, Lane, LANES, STANDARD_LANES,
};
use crate::move_list::MoveList;
use crate::move_sets::{PawnMoves, PieceMoves};
use crate::moves::Move;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::{File, Square};

/// Receives the legal moves of a position as sets, from
/// [`Position::generate`]. Each method returns `true` to stop generation.
///
/// The generator is generic over the sink and inlined into it, so a sink that
/// only counts (`len`) compiles to population counts, and one that plays each
/// move knows the moving piece without looking it up.
pub trait MoveSink {
    /// Whether the generator may hand this sink empty sets. A sink that
    /// only adds up sizes sets it, and saves a test per piece.
    const TAKES_EMPTY_SETS: bool = false;

    /// The moves of one piece (for pawns: a pinned pawn, or an en-passant capture).
    fn piece(&mut self, moves: PieceMoves) -> bool;
    /// One kind of pawn move (push, double push, capture to one side) for
    /// all unpinned pawns at once.
    fn pawns(&mut self, moves: PawnMoves) -> bool;
}

/// Counts moves without listing them.
struct Counter(usize);

impl MoveSink for Counter {
    const TAKES_EMPTY_SETS: bool = true;

    #[inline(always)]
    fn piece(&mut self, moves: PieceMoves) -> bool {
        self.0 += moves.len();
        false
    }

    #[inline(always)]
    fn pawns(&mut self, moves: PawnMoves) -> bool {
        self.0 += moves.len();
        false
    }
}

/// Hands each piece's moves to a closure; pawn sets are split per pawn.
struct PerPiece<F>(F);

impl<F: FnMut(PieceMoves) -> bool> MoveSink for PerPiece<F> {
    #[inline(always)]
    fn piece(&mut self, moves: PieceMoves) -> bool {
        (self.0)(moves)
    }

    #[inline(always)]
    fn pawns(&mut self, moves: PawnMoves) -> bool {
        moves.to.into_iter().any(|to| {
            (self.0)(PieceMoves {
                piece: Piece::Pawn,
                from: moves.from(to),
                to: Bitboard::from_square(to),
                special: Bitboard::EMPTY,
            })
        })
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece(&mut self, moves: PieceMoves) -> bool {
        for mv in moves {
            self.push(mv);
        }
        false
    }

    #[inline(always)]
    fn pawns(&mut self, moves: PawnMoves) -> bool {
        for mv in moves {
            self.push(mv);
        }
        false
    }
}

/// The squares the enemy's pawns, knights and king attack, as far as the
/// caller already knows them: `base`, plus the kinds flagged here, which the
/// generator adds from the board. Perft knows, for the child of a move, the
/// attacks of every kind that did not move (taken once in the parent).
#[derive(Clone, Copy)]
pub(crate) struct Leapers {
    /// Squares known to be attacked.
    pub(crate) base: Bitboard,
    /// Whether to add the pawns' attacks.
    pub(crate) pawns: bool,
    /// Whether to add the knights' attacks.
    pub(crate) knights: bool,
    /// Whether to add the king's attacks.
    pub(crate) king: bool,
}

impl Leapers {
    /// Nothing known: every kind is taken from the board.
    pub(crate) const UNKNOWN: Leapers = Leapers {
        base: Bitboard::EMPTY,
        pawns: true,
        knights: true,
        king: true,
    };
}

/// Files A and H, which pawn captures must not wrap around.
const NOT_FILE_A: u64 = !Bitboard::file(File::A).0;
const NOT_FILE_H: u64 = !Bitboard::file(File::H).0;

/// The squares attacked by `color`'s pawns `pawns`.
#[inline(always)]
fn pawns_attack(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => Pawns::<true>::up_west(pawns) | Pawns::<true>::up_east(pawns),
        Color::Black => Pawns::<false>::up_west(pawns) | Pawns::<false>::up_east(pawns),
    }
}

/// Pawn geometry for one side, fixed at compile time (`WHITE` true or false).
struct Pawns<const WHITE: bool>;

impl<const WHITE: bool> Pawns<WHITE> {
    /// Square index steps of a push and of captures towards the a- and h-file.
    const UP: i8 = if WHITE { 8 } else { -8 };
    const UP_WEST: i8 = if WHITE { 7 } else { -9 };
    const UP_EAST: i8 = if WHITE { 9 } else { -7 };
    /// The rank a single push from the starting rank lands on.
    const THIRD_RANK: u64 = if WHITE { 0xFF << 16 } else { 0xFF << 40 };
    /// The rank pawns promote on.
    const LAST_RANK: u64 = if WHITE { 0xFF << 56 } else { 0xFF };
    /// The rank pawns promote from.
    const SEVENTH_RANK: u64 = if WHITE { 0xFF << 48 } else { 0xFF << 8 };
    /// The ranks a pawn can stand on and not promote with its next move.
    const NO_PROMOTION: u64 = if WHITE {
        0x0000_FFFF_FFFF_FF00
    } else {
        0x00FF_FFFF_FFFF_0000
    };

    #[inline(always)]
    fn shift(bb: u64, delta: i8) -> u64 {
        if delta > 0 {
            bb << delta
        } else {
            bb >> -delta
        }
    }

    #[inline(always)]
    fn up(bb: u64) -> u64 {
        Self::shift(bb, Self::UP)
    }

    #[inline(always)]
    fn up_west(bb: u64) -> u64 {
        Self::shift(bb & NOT_FILE_A, Self::UP_WEST)
    }

    #[inline(always)]
    fn up_east(bb: u64) -> u64 {
        Self::shift(bb & NOT_FILE_H, Self::UP_EAST)
    }
}

impl Position {
    /// Generates the legal moves into `sink`, king first, then knights,
    /// bishops, rooks, queens and pawns. Returns whether the sink stopped it.
    #[inline(always)]
    pub fn generate<S: MoveSink>(&self, sink: &mut S) -> bool {
        self.generate_with::<Magics, S>(sink)
    }

    /// [`Position::generate`] with the slider lookups `L`.
    #[inline(always)]
    pub(crate) fn generate_with<L: Sliders, S: MoveSink>(&self, sink: &mut S) -> bool {
        match self.side {
            Color::White => self.generate_for::<L, true, false, S>(sink),
            Color::Black => self.generate_for::<L, false, false, S>(sink),
        }
    }

    /// Generates the legal captures (en passant included) and every
    /// promotion, quiet ones too, into `sink`, in the order of
    /// [`Position::generate`]. Returns whether the sink stopped it.
    #[inline(always)]
    pub fn generate_captures<S: MoveSink>(&self, sink: &mut S) -> bool {
        match self.side {
            Color::White => self.generate_for::<Magics, true, true, S>(sink),
            Color::Black => self.generate_for::<Magics, false, true, S>(sink),
        }
    }

    /// Calls `listener` with the legal moves of each piece of the side to move,
    /// as a source square and a target set (pawns one at a time); stops early
    /// when it returns `true`. Returns whether it was stopped.
    #[inline]
    pub fn generate_moves(&self, listener: impl FnMut(PieceMoves) -> bool) -> bool {
        self.generate(&mut PerPiece(listener))
    }

    /// The generator for one side; with `CAPTURES` only captures and promotions.
    #[inline(always)]
    pub(crate) fn generate_for<L: Sliders, const WHITE: bool, const CAPTURES: bool, S: MoveSink>(
        &self,
        sink: &mut S,
    ) -> bool {
        self.generate_state::<L, WHITE, CAPTURES, { castle_state::ANY }, S>(sink, Leapers::UNKNOWN)
    }

    /// [`Position::generate_for`] compiled for the castling state `CASTLE`
    /// (see [`castle_state`]): `NONE` promises that the side to move has no
    /// castling right and leaves the castling code out, `STANDARD` that
    /// every right it holds has standard chess's lanes. Perft chooses once
    /// per position.
    #[inline(always)]
    pub(crate) fn generate_state<
        L: Sliders,
        const WHITE: bool,
        const CAPTURES: bool,
        const CASTLE: u8,
        S: MoveSink,
    >(
        &self,
        sink: &mut S,
        leapers: Leapers,
    ) -> bool {
        let us = if WHITE { Color::White } else { Color::Black };
        let own = self.colors[us];
        let king = self.king(us);
        if self.king_moves::<L, CAPTURES, CASTLE>(us, king, own, leapers, sink) {
            return true;
        }
        let target = match self.checkers.first() {
            None => !own,
            Some(_) if self.checkers.has_many() => return false,
            Some(checker) => between(king, checker) | self.checkers,
        };
        let piece_target = if CAPTURES {
            target & self.colors[!us]
        } else {
            target
        };
        self.piece_moves::<L, S>(king, own, piece_target, sink)
            || self.pawn_moves::<L, WHITE, CAPTURES, S>(king, own, target, sink)
    }

    #[inline(always)]
    fn king_moves<L: Sliders, const CAPTURES: bool, const CASTLE: u8>(
        &self,
        us: Color,
        king: Square,
        own: Bitboard,
        leapers: Leapers,
        sink: &mut impl MoveSink,
    ) -> bool {
        let them = !us;
        let target = if CAPTURES { self.colors[them] } else { !own };
        let steps = king_attacks(king) & target;
        // The rooks the king still has the right to castle with and nothing
        // in their lanes; whether its path is attacked is settled below.
        debug_assert!(
            CASTLE != castle_state::NONE || !self.rights.intersects(CastlingRights::both(us))
        );
        debug_assert!(CASTLE != castle_state::STANDARD || self.castles_standard(us));
        let castling = if CASTLE != castle_state::NONE
            && !CAPTURES
            && self.rights.intersects(CastlingRights::both(us))
            && self.checkers.is_empty()
        {
            if CASTLE == castle_state::STANDARD {
                self.standard_castle_candidates(us)
            } else {
                self.castle_candidates(us)
            }
        } else {
            Bitboard::EMPTY
        };
        // No early return for a walled-in king: that branch mispredicted
        // more than the few set operations below cost. Leapers are ruled
        // out setwise. The king is lifted off the board so it cannot hide
        // behind itself from a slider it steps away from.
        let leapers = self.leaper_attacks(them, leapers);
        let occ = self.occupied() ^ Bitboard::from_square(king);
        let steps = steps & !leapers;
        let (to, castles) = if castling.is_empty() && !steps.has_many() {
            // At most one square to test, where the empty-board rays mostly
            // rule the sliders out without a lookup.
            let to = match steps.first() {
                Some(sq) if !self.is_attacked_by_slider::<L>(sq, them, occ) => steps,
                _ => Bitboard::EMPTY,
            };
            (to, Bitboard::EMPTY)
        } else {
            // Otherwise everything the enemy sliders attack, piece by piece:
            // the loops run once per slider and branch predictably.
            let danger = leapers | self.slider_attacks::<L>(them, occ);
            let mut castles = Bitboard::EMPTY;
            if CASTLE == castle_state::STANDARD {
                // The rooks stand in the corners: no enemy piece can stand
                // beyond one, so `danger` needs no second look.
                for lane in STANDARD_LANES[us.index()] {
                    if (castling & lane.rook).nonempty() && (lane.path & danger).is_empty() {
                        castles |= lane.rook;
                    }
                }
            } else {
                for rook in castling {
                    castles |= self.castle_path_is_clear::<L>(us, king, rook, danger);
                }
            }
            (steps & !danger, castles)
        };
        let to = to | castles;
        to.nonempty()
            && sink.piece(PieceMoves {
                piece: Piece::King,
                from: king,
                to,
                special: castles,
            })
    }

    /// Every square the pawns, knights and king of `them` attack: `known`
    /// completed from the board.
    #[inline(always)]
    pub(crate) fn leaper_attacks(&self, them: Color, known: Leapers) -> Bitboard {
        let enemy = self.colors[them];
        let mut leapers = known.base.0;
        if known.pawns {
            leapers |= pawns_attack(them, (self.pieces[Piece::Pawn] & enemy).0);
        }
        if known.king {
            leapers |= king_attacks(self.king(them)).0;
        }
        if known.knights {
            for knight in self.pieces[Piece::Knight] & enemy {
                leapers |= knight_attacks(knight).0;
            }
        }
        Bitboard(leapers)
    }

    /// The squares `color`'s pawns, knights and king attack, each kind apart.
    #[inline(always)]
    pub(crate) fn leaper_sets(&self, color: Color) -> [Bitboard; 3] {
        let own = self.colors[color];
        let mut knights = Bitboard::EMPTY;
        for knight in self.pieces[Piece::Knight] & own {
            knights |= knight_attacks(knight);
        }
        [
            Bitboard(pawns_attack(color, (self.pieces[Piece::Pawn] & own).0)),
            knights,
            king_attacks(self.king(color)),
        ]
    }

    /// Every square the bishops, rooks and queens of `them` attack through `occ`.
    #[inline(always)]
    fn slider_attacks<L: Sliders>(&self, them: Color, occ: Bitboard) -> Bitboard {
        let enemy = self.colors[them];
        let queens = self.pieces[Piece::Queen];
        let mut attacks = Bitboard::EMPTY;
        for bishop in (self.pieces[Piece::Bishop] | queens) & enemy {
            attacks |= L::bishop(bishop, occ);
        }
        for rook in (self.pieces[Piece::Rook] | queens) & enemy {
            attacks |= L::rook(rook, occ);
        }
        attacks
    }

    /// The rooks the side to move still has the right to castle with and
    /// every square their lanes need empty.
    #[inline(always)]
    fn castle_candidates(&self, us: Color) -> Bitboard {
        let occ = self.occupied();
        let candidate = |side: CastleSide| {
            let lane = self.lane(us, side);
            if self.rights.has(us, side) && (lane.empty & occ).is_empty() {
                lane.rook
            } else {
                Bitboard::EMPTY
            }
        };
        candidate(CastleSide::Short) | candidate(CastleSide::Long)
    }

    /// The rest of the castling test for a candidate `rook`: the squares the
    /// king crosses unattacked (`danger`: the squares the enemy attacks with
    /// the king lifted). Returns the rook's square if the king may castle.
    #[inline(always)]
    fn castle_path_is_clear<L: Sliders>(
        &self,
        us: Color,
        king: Square,
        rook: Square,
        danger: Bitboard,
    ) -> Bitboard {
        let side = if rook > king {
            CastleSide::Short
        } else {
            CastleSide::Long
        };
        let lane = self.lane(us, side);
        if (lane.path & danger).nonempty() {
            return Bitboard::EMPTY;
        }
        // `danger` was taken with the rook on the board. Lifting it off can
        // only open the back rank (Chess960: a rook shielding the king's
        // destination), so an enemy rook or queen there needs the exact test.
        let straight = (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]) & self.colors[!us];
        if (straight & Bitboard::rank(king.rank())).nonempty() {
            let occ = self.occupied() ^ Bitboard::from_square(king) ^ lane.rook;
            // Only the pieces go to the out-of-line test: perft keeps `self`
            // in registers, and handing over all of it would keep every
            // field alive (and spilled) to the end of the count.
            return self
                .pieces_only()
                .castle_path_is_clear_exact::<L>(us, occ, lane);
        }
        lane.rook
    }

    /// [`Position::castle_candidates`] where every right held has standard
    /// chess's lanes, known at compile time.
    #[inline(always)]
    fn standard_castle_candidates(&self, us: Color) -> Bitboard {
        let occ = self.occupied();
        let [short, long] = STANDARD_LANES[us.index()];
        let mut rooks = Bitboard::EMPTY;
        if self.rights.has(us, CastleSide::Short) && (short.empty & occ).is_empty() {
            rooks |= short.rook;
        }
        if self.rights.has(us, CastleSide::Long) && (long.empty & occ).is_empty() {
            rooks |= long.rook;
        }
        rooks
    }

    /// Whether every castling right `color` holds has standard chess's lane.
    pub(crate) fn castles_standard(&self, color: Color) -> bool {
        CastleSide::ALL.into_iter().all(|side| {
            let rook = match side {
                CastleSide::Short => File::H,
                CastleSide::Long => File::A,
            };
            !self.rights.has(color, side)
                || self.castle_lanes[color.index()][side.index()]
                    == lane_index(color, File::E, rook)
        })
    }

    /// The castling lane of `us` on `side` (meaningful while the right is held).
    #[inline(always)]
    fn lane(&self, us: Color, side: CastleSide) -> Lane {
        // Masked to the table's size, which also spares a bounds check.
        LANES[self.castle_lanes[us.index()][side.index()] as usize & (LANES.len() - 1)]
    }

    /// The castling test square by square, without the king and rook on the
    /// board; out of line, as it is rarely reached.
    #[inline(never)]
    fn castle_path_is_clear_exact<L: Sliders>(
        self,
        us: Color,
        occ: Bitboard,
        lane: Lane,
    ) -> Bitboard {
        if lane
            .path
            .into_iter()
            .all(|sq| !self.is_attacked_with::<L>(sq, !us, occ))
        {
            lane.rook
        } else {
            Bitboard::EMPTY
        }
    }

    #[inline(always)]
    fn piece_moves<L: Sliders, S: MoveSink>(
        &self,
        king: Square,
        own: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) -> bool {
        let pinned = self.pinned;
        // A pinned knight can never move.
        for from in self.pieces[Piece::Knight] & own & !pinned {
            let to = knight_attacks(from) & target;
            if (S::TAKES_EMPTY_SETS || to.nonempty()) && sink.piece(simple(Piece::Knight, from, to))
            {
                return true;
            }
        }
        // Three explicit calls: iterating an array of pieces by value costs a
        // loop the compiler does not unroll.
        self.slider_moves(Piece::Bishop, L::bishop, king, own, target, sink)
            || self.slider_moves(Piece::Rook, L::rook, king, own, target, sink)
            || self.slider_moves(Piece::Queen, L::queen, king, own, target, sink)
    }

    /// The moves of one kind of slider: unpinned pieces first, then pinned
    /// ones, which stay on the line through their king.
    #[inline(always)]
    fn slider_moves<S: MoveSink>(
        &self,
        piece: Piece,
        attacks: impl Fn(Square, Bitboard) -> Bitboard,
        king: Square,
        own: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) -> bool {
        let occ = self.occupied();
        let sliders = self.pieces[piece] & own;
        for from in sliders & !self.pinned {
            let to = attacks(from, occ) & target;
            if (S::TAKES_EMPTY_SETS || to.nonempty()) && sink.piece(simple(piece, from, to)) {
                return true;
            }
        }
        for from in sliders & self.pinned {
            let to = attacks(from, occ) & target & line(king, from);
            if (S::TAKES_EMPTY_SETS || to.nonempty()) && sink.piece(simple(piece, from, to)) {
                return true;
            }
        }
        false
    }

    /// Unpinned pawns setwise, then pinned pawns one by one, then en passant.
    /// With `CAPTURES`, pushes only onto the last rank.
    #[inline(always)]
    fn pawn_moves<L: Sliders, const WHITE: bool, const CAPTURES: bool, S: MoveSink>(
        &self,
        king: Square,
        own: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) -> bool {
        let us = if WHITE { Color::White } else { Color::Black };
        let empty = !self.occupied().0;
        let enemies = self.colors[!us].0;
        let pawns = (self.pieces[Piece::Pawn] & own).0;
        let free = pawns & !self.pinned.0;
        let pushes = if CAPTURES {
            Pawns::<WHITE>::LAST_RANK
        } else {
            !0
        };
        // Most positions have no pawn about to promote. Their sets are then
        // built from pawns masked to the ranks that cannot promote, so the
        // compiler knows no target lies on the last rank and a counting
        // sink's promotion term (a second population count per set) folds
        // away. The order of the moves is the same either way.
        let stopped = if free & Pawns::<WHITE>::SEVENTH_RANK == 0 {
            self.free_pawn_sets::<WHITE, S>(
                free & Pawns::<WHITE>::NO_PROMOTION,
                empty,
                enemies,
                pushes,
                target.0,
                sink,
            )
        } else {
            self.free_pawn_sets::<WHITE, S>(free, empty, enemies, pushes, target.0, sink)
        };
        if stopped {
            return true;
        }
        let target = target.0;
        for from in Bitboard(pawns & self.pinned.0) {
            let bb = Bitboard::from_square(from).0;
            let single = Pawns::<WHITE>::up(bb) & empty;
            let double = Pawns::<WHITE>::up(single & Pawns::<WHITE>::THIRD_RANK) & empty & pushes;
            let single = single & pushes;
            let attacks = pawn_attacks(us, from).0 & enemies;
            let to = Bitboard(single | double | attacks) & Bitboard(target) & line(king, from);
            if (S::TAKES_EMPTY_SETS || to.nonempty()) && sink.piece(simple(Piece::Pawn, from, to)) {
                return true;
            }
        }
        if let Some(ep) = self.ep {
            // Pins and checks are settled by re-testing the king directly.
            for from in pawn_attacks(!us, ep) & Bitboard(pawns) {
                if self.ep_is_legal::<L>(from, ep) {
                    let to = Bitboard::from_square(ep);
                    let pm = PieceMoves {
                        piece: Piece::Pawn,
                        from,
                        to,
                        special: to,
                    };
                    if sink.piece(pm) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The four sets of the unpinned pawns `free`: captures towards the a-
    /// and the h-file, single and double pushes.
    #[inline(always)]
    fn free_pawn_sets<const WHITE: bool, S: MoveSink>(
        &self,
        free: u64,
        empty: u64,
        enemies: u64,
        pushes: u64,
        target: u64,
        sink: &mut S,
    ) -> bool {
        let single = Pawns::<WHITE>::up(free) & empty;
        let double = Pawns::<WHITE>::up(single & Pawns::<WHITE>::THIRD_RANK) & empty & pushes;
        let single = single & pushes;
        // Four calls rather than a loop over an array of sets: the loop is
        // not unrolled, so each set's step would be a run-time value and its
        // moves would share one loop, whose branches mispredict more.
        let mut set = |to: u64, delta: i8| {
            let to = Bitboard(to & target);
            (S::TAKES_EMPTY_SETS || to.nonempty()) && sink.pawns(PawnMoves { to, delta })
        };
        if set(
            Pawns::<WHITE>::up_west(free) & enemies,
            Pawns::<WHITE>::UP_WEST,
        ) || set(
            Pawns::<WHITE>::up_east(free) & enemies,
            Pawns::<WHITE>::UP_EAST,
        ) || set(single, Pawns::<WHITE>::UP)
            || set(double, 2 * Pawns::<WHITE>::UP)
        {
            return true;
        }
        false
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The legal captures and promotions, as from [`Position::generate_captures`].
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_captures(&mut list);
        list
    }

    /// The number of legal moves, without listing them (promotions count four).
    #[inline(always)]
    pub fn count_moves(&self) -> usize {
        self.count_moves_with::<Magics>()
    }

    /// [`Position::count_moves`] with the slider lookups `L`.
    #[inline(always)]
    pub(crate) fn count_moves_with<L: Sliders>(&self) -> usize {
        let mut counter = Counter(0);
        self.generate_with::<L, _>(&mut counter);
        counter.0
    }

    /// [`Position::count_moves`] with the slider lookups `L`, for a
    /// position whose side to move is White if `WHITE`.
    #[inline(always)]
    pub(crate) fn count_moves_for<L: Sliders, const WHITE: bool>(&self) -> usize {
        self.count_moves_state::<L, WHITE, { castle_state::ANY }>(Leapers::UNKNOWN)
    }

    /// [`Position::count_moves_for`], with `CASTLE` as in
    /// [`Position::generate_state`].
    #[inline(always)]
    pub(crate) fn count_moves_state<L: Sliders, const WHITE: bool, const CASTLE: u8>(
        &self,
        leapers: Leapers,
    ) -> usize {
        let mut counter = Counter(0);
        self.generate_state::<L, WHITE, false, CASTLE, _>(&mut counter, leapers);
        counter.0
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        self.generate_moves(|_| true)
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.generate_moves(|pm| pm.from == mv.from() && pm.into_iter().any(|m| m == mv))
    }
}

#[inline(always)]
fn simple(piece: Piece, from: Square, to: Bitboard) -> PieceMoves {
    PieceMoves {
        piece,
        from,
        to,
        special: Bitboard::EMPTY,
    }
}
