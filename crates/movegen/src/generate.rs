//! Legal move generation with check and pin masks (no make-and-test), into
//! a [`MoveSink`].

use crate::attacks::{
    between, bishop_magic, knight_attacks, line, pawn_attacks, rook_magic, Magic, Magics, Reach,
    Sliders, PLACEHOLDER_MAGIC,
};
use crate::bitboard::Bitboard;
use crate::castling::state as castle_state;
use crate::king_moves::Leapers;
use crate::masks::piece_attacks;
use crate::move_list::MoveList;
use crate::move_sets::{PawnMoves, PieceMoves};
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::{File, Square};

/// Receives the legal moves of a position as sets, from
/// [`Position::generate`]. Each method returns `true` to stop generation.
///
/// The generator is generic over the sink and inlined into it, so a sink that
/// only counts (`len`) compiles to population counts, and one that plays each
/// move knows the moving piece without looking it up.
///
/// # Examples
///
/// ```
/// use movegen::{MoveSink, PawnMoves, PieceMoves, Position};
///
/// /// Counts captures by population counts, never listing a move.
/// struct Captures<'a>(&'a Position, usize);
/// impl MoveSink for Captures<'_> {
///     fn piece(&mut self, moves: PieceMoves) -> bool {
///         self.1 += (moves.to & self.0.colored(!self.0.side_to_move())).len() as usize;
///         false
///     }
///     fn pawns(&mut self, moves: PawnMoves) -> bool {
///         self.1 += (moves.to & self.0.colored(!self.0.side_to_move())).len() as usize;
///         false
///     }
/// }
/// // After 1. e4 d5 White has one capture, exd5.
/// let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")
///     .unwrap();
/// let mut sink = Captures(&pos, 0);
/// pos.generate(&mut sink);
/// assert_eq!(sink.1, 1);
/// ```
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

/// Files A and H, which pawn captures must not wrap around.
const NOT_FILE_A: u64 = !Bitboard::file(File::A).0;
const NOT_FILE_H: u64 = !Bitboard::file(File::H).0;

/// Pawn geometry for one side, fixed at compile time (`WHITE` true or false).
pub(crate) struct Pawns<const WHITE: bool>;

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
    pub(crate) fn up_west(bb: u64) -> u64 {
        Self::shift(bb & NOT_FILE_A, Self::UP_WEST)
    }

    #[inline(always)]
    pub(crate) fn up_east(bb: u64) -> u64 {
        Self::shift(bb & NOT_FILE_H, Self::UP_EAST)
    }
}

impl Position {
    /// Generates the legal moves into `sink`, king first, then knights,
    /// bishops, rooks, queens and pawns. Returns whether the sink stopped it.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{MoveSink, PawnMoves, PieceMoves, Position};
    ///
    /// /// Stops at the first queen move.
    /// struct FirstQueenMove(bool);
    /// impl MoveSink for FirstQueenMove {
    ///     fn piece(&mut self, moves: PieceMoves) -> bool {
    ///         self.0 = moves.piece == movegen::Piece::Queen;
    ///         self.0
    ///     }
    ///     fn pawns(&mut self, _: PawnMoves) -> bool {
    ///         false
    ///     }
    /// }
    /// let mut sink = FirstQueenMove(false);
    /// assert!(!Position::startpos().generate(&mut sink)); // the queen is shut in
    /// let open = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
    ///     .unwrap();
    /// assert!(open.generate(&mut sink)); // Qe2, Qf3, ... stop it
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{MoveSink, PawnMoves, PieceMoves, Position};
    ///
    /// struct Count(usize);
    /// impl MoveSink for Count {
    ///     fn piece(&mut self, moves: PieceMoves) -> bool {
    ///         self.0 += moves.len();
    ///         false
    ///     }
    ///     fn pawns(&mut self, moves: PawnMoves) -> bool {
    ///         self.0 += moves.len();
    ///         false
    ///     }
    /// }
    /// let mut count = Count(0);
    /// Position::startpos().generate_captures(&mut count);
    /// assert_eq!(count.0, 0);
    /// // After 1. e4 d5: exd5 is the only capture.
    /// let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")
    ///     .unwrap();
    /// pos.generate_captures(&mut count);
    /// assert_eq!(count.0, 1);
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Piece, Position};
    ///
    /// let mut knight_moves = 0;
    /// let stopped = Position::startpos().generate_moves(|moves| {
    ///     if moves.piece == Piece::Knight {
    ///         knight_moves += moves.len();
    ///     }
    ///     false
    /// });
    /// assert!(!stopped);
    /// assert_eq!(knight_moves, 4);
    /// ```
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
        self.generate_state::<L, WHITE, CAPTURES, { castle_state::ANY }, false, S>(
            sink,
            Leapers::UNKNOWN,
        )
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
        const PARTS: bool,
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
        self.piece_moves::<L, PARTS, S>(king, own, piece_target, sink)
            || self.pawn_moves::<L, WHITE, CAPTURES, S>(king, own, target, sink)
    }

    /// The moves of the knights, bishops, rooks and queens of the side to
    /// move onto `target`.
    ///
    /// With `PARTS` (a sink that only adds up sizes) the sliders go by the
    /// kind of move instead: bishops and queens along diagonals, then rooks
    /// and queens along ranks and files, so that a queen's moves come in
    /// two parts labelled bishop and rook. Four loops instead of six: in
    /// position 3, one rook a side, each empty kind cost a test per count.
    #[inline(always)]
    fn piece_moves<L: Sliders, const PARTS: bool, S: MoveSink>(
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
        if PARTS {
            let [diagonal, straight] = self.slider_kinds(self.side);
            return self.slider_moves(Piece::Bishop, L::bishop, king, diagonal, target, sink)
                || self.slider_moves(Piece::Rook, L::rook, king, straight, target, sink);
        }
        // Three explicit calls: iterating an array of pieces by value costs a
        // loop the compiler does not unroll.
        let mine = |piece: Piece| self.pieces[piece] & own;
        self.slider_moves(
            Piece::Bishop,
            L::bishop,
            king,
            mine(Piece::Bishop),
            target,
            sink,
        ) || self.slider_moves(Piece::Rook, L::rook, king, mine(Piece::Rook), target, sink)
            || self.slider_moves(
                Piece::Queen,
                L::queen,
                king,
                mine(Piece::Queen),
                target,
                sink,
            )
    }

    /// The moves of the sliders `sliders`, labelled `piece`, with the
    /// lookup `attacks`: unpinned pieces first, then pinned ones, which
    /// stay on the line through their king.
    #[inline(always)]
    fn slider_moves<S: MoveSink>(
        &self,
        piece: Piece,
        attacks: impl Fn(Square, Bitboard) -> Bitboard,
        king: Square,
        sliders: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) -> bool {
        let occ = self.occupied();
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
        self.free_pawn_moves::<WHITE, CAPTURES, S>(own, target, sink)
            || self.other_pawn_moves::<L, WHITE, CAPTURES, S>(king, own, target, sink)
    }

    /// The moves of the unpinned pawns of the side to move (whose pieces
    /// are `own`), setwise.
    #[inline(always)]
    fn free_pawn_moves<const WHITE: bool, const CAPTURES: bool, S: MoveSink>(
        &self,
        own: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) -> bool {
        let [empty, enemies, pawns, pushes] = self.pawn_board::<WHITE, CAPTURES>(own);
        let free = pawns & !self.pinned.0;
        // Most positions have no pawn about to promote. Their sets are then
        // built from pawns masked to the ranks that cannot promote, so the
        // compiler knows no target lies on the last rank and a counting
        // sink's promotion term (a second population count per set) folds
        // away. The order of the moves is the same either way.
        if free & Pawns::<WHITE>::SEVENTH_RANK == 0 {
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
        }
    }

    /// What the pawn moves of the side to move (whose pieces are `own`)
    /// read: the empty squares, the enemy's pieces, its pawns, and where a
    /// push may land (with `CAPTURES`, only on the last rank).
    #[inline(always)]
    fn pawn_board<const WHITE: bool, const CAPTURES: bool>(&self, own: Bitboard) -> [u64; 4] {
        let us = if WHITE { Color::White } else { Color::Black };
        let pushes = if CAPTURES {
            Pawns::<WHITE>::LAST_RANK
        } else {
            !0
        };
        [
            !self.occupied().0,
            self.colors[!us].0,
            (self.pieces[Piece::Pawn] & own).0,
            pushes,
        ]
    }

    /// The pawn moves [`Position::pawn_moves`] does not take setwise: those
    /// of pinned pawns, one by one, then en passant.
    #[inline(always)]
    fn other_pawn_moves<L: Sliders, const WHITE: bool, const CAPTURES: bool, S: MoveSink>(
        &self,
        king: Square,
        own: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) -> bool {
        let us = if WHITE { Color::White } else { Color::Black };
        let [empty, enemies, pawns, pushes] = self.pawn_board::<WHITE, CAPTURES>(own);
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
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// assert_eq!(Position::startpos().legal_moves().len(), 20);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The legal captures and promotions, as from [`Position::generate_captures`].
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let kiwipete: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
    /// assert_eq!(kiwipete.legal_captures().len(), 8);
    /// ```
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_captures(&mut list);
        list
    }

    /// The number of legal moves, without listing them (promotions count four).
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let kiwipete: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
    /// assert_eq!(kiwipete.count_moves(), 48);
    /// ```
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
    #[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
    pub(crate) fn count_moves_for<L: Sliders, const WHITE: bool>(&self) -> usize {
        self.count_moves_state::<L, WHITE, { castle_state::ANY }>(Leapers::UNKNOWN)
    }

    /// [`Position::count_moves_for`], with `CASTLE` as in
    /// [`Position::generate_state`].
    #[inline(always)]
    #[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
    pub(crate) fn count_moves_state<L: Sliders, const WHITE: bool, const CASTLE: u8>(
        &self,
        leapers: Leapers,
    ) -> usize {
        let mut counter = Counter(0);
        self.generate_state::<L, WHITE, false, CASTLE, true, _>(&mut counter, leapers);
        counter.0
    }

    /// Whether the side to move has any legal move.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let mate: Position = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
    /// assert!(!mate.has_legal_move());
    /// assert!(Position::startpos().has_legal_move());
    /// ```
    pub fn has_legal_move(&self) -> bool {
        self.generate_moves(|_| true)
    }

    /// Whether `mv` is legal here. Any [`Move`] may be asked about, even
    /// one built from raw bits.
    ///
    /// ```
    /// use movegen::{Move, Position};
    ///
    /// let pos = Position::startpos();
    /// let e4 = pos.parse_uci_move("e2e4").unwrap();
    /// assert!(pos.is_legal(e4));
    /// assert!(!pos.is_legal(Move::NULL));
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        // Most wrong moves start off our pieces: no generation for those.
        if !self.colors[self.side].has(mv.from()) {
            return false;
        }
        let piece = self.piece_on(mv.from());
        let plain = Move::new(mv.from(), mv.to(), MoveKind::Normal);
        if mv == plain
            && matches!(
                piece,
                Some(Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen)
            )
        {
            // The masks decide these without generating (`san` checks
            // every move it writes); pawns and kings take the full path.
            return self.piece_move_is_legal(mv.from(), mv.to());
        }
        self.generate_moves(|pm| pm.from == mv.from() && pm.into_iter().any(|m| m == mv))
    }

    /// Whether the knight, bishop, rook or queen of the side to move on
    /// `from` may go to `to`: it reaches `to`, which holds no piece of ours,
    /// lies on the check mask, and, if the piece is pinned, on its line
    /// through the king.
    fn piece_move_is_legal(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let piece = self
            .piece_on(from)
            .expect("the caller found a piece on `from`");
        let reach = piece_attacks(piece, us, from, self.occupied()) & !self.colors[us];
        let king = self.king(us);
        let mask = match self.checkers.first() {
            None => Bitboard::FULL,
            Some(_) if self.checkers.has_many() => Bitboard::EMPTY,
            Some(checker) => between(king, checker) | Bitboard::from_square(checker),
        };
        let pin_ok = !self.pinned.has(from) || line(king, from).has(to);
        (reach & mask).has(to) && pin_ok
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

/// What the children of one perft node share when each counts its moves:
/// the moves of every slider of the side to move in them (the node's
/// enemy) as the node's board has them, and, for each square, the sliders
/// whose attacks or own square contain it. A child whose move changed
/// neither of a slider's squares, and which is not in check, has that
/// slider's moves unchanged, so it looks up only the sliders its move
/// reached and those pinned, and takes the rest from here.
///
/// A slider is kept as one unit per kind of move: a bishop or a rook is
/// one, a queen two (its diagonal and its straight moves, disjoint sets
/// whose counts add up). Each unit has one lookup, so a child recounting
/// units of both kinds never branches on the kind (that branch missed on
/// about a quarter of the recounts in position 4). There are at most eight
/// units, so that the table from squares to units is 64 bytes, cleared by
/// a few stores, not 64 bitboards.
#[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
pub(crate) struct SliderCounts {
    /// The node's enemy sliders.
    sliders: Bitboard,
    /// Their moves in the node, pins not minded, in all.
    total: u32,
    /// Unit `i`'s square.
    square: [Square; 8],
    /// Unit `i`'s lookup.
    magic: [&'static Magic; 8],
    /// Unit `i`'s moves.
    count: [u8; 8],
    /// For each square, the units (bit `i` for unit `i`) whose attacks or
    /// own square contain it.
    reach: Reach,
    /// For each slider's square, its units' bits (other squares unused).
    bit: [u8; 64],
}

#[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
impl SliderCounts {
    /// No counts: what a node starts with, and what nodes without a table
    /// pass on (never read).
    pub(crate) const NONE: SliderCounts = SliderCounts {
        sliders: Bitboard::EMPTY,
        total: 0,
        square: [Square::A1; 8],
        magic: [PLACEHOLDER_MAGIC; 8],
        count: [0; 8],
        reach: Reach([0; 64]),
        bit: [0; 64],
    };

    /// Whether the table pays for the children of `pos` whose side to move
    /// is `them`: with fewer than three units it costs the node more than
    /// its children save (position 3, one rook a side, took 6% more
    /// instructions with it), and it has room for eight.
    #[inline(always)]
    pub(crate) fn pays(pos: &Position, them: Color) -> bool {
        let [diagonal, straight] = pos.slider_kinds(them);
        (3..=8).contains(&(diagonal.len() + straight.len()))
    }

    /// Fills in the counts of the sliders of `them` in `pos`, with the
    /// lookups `L`, into a table that is [`SliderCounts::NONE`], where
    /// [`SliderCounts::pays`].
    #[inline(always)]
    pub(crate) fn fill<L: Sliders>(&mut self, pos: &Position, them: Color) {
        debug_assert!(Self::pays(pos, them));
        let own = pos.colors[them];
        let [diagonal, straight] = pos.slider_kinds(them);
        let occ = pos.occupied();
        self.sliders = diagonal | straight;
        let mut unit = 0;
        for from in diagonal {
            self.add::<L>(unit, from, bishop_magic(from), occ, own);
            unit += 1;
        }
        for from in straight {
            self.add::<L>(unit, from, rook_magic(from), occ, own);
            unit += 1;
        }
    }

    /// Sets unit number `unit`: the slider on `from` whose lookup is
    /// `magic`, on the board `occ` where its side has the pieces `own`.
    /// (A method, not a closure in [`SliderCounts::fill`]: a closure does
    /// not take on perft's target features, and PDEP became a call.)
    #[inline(always)]
    fn add<L: Sliders>(
        &mut self,
        unit: usize,
        from: Square,
        magic: &'static Magic,
        occ: Bitboard,
        own: Bitboard,
    ) {
        let attacks = L::lookup(magic, occ);
        let n = (attacks & !own).len();
        self.square[unit] = from;
        self.magic[unit] = magic;
        self.count[unit] = n as u8;
        self.total += n;
        self.bit[from.index()] |= 1 << unit;
        L::mark(&mut self.reach, attacks | Bitboard::from_square(from), unit);
    }
}

/// What the children of one perft node share of their pawns' and knights'
/// moves: the moves of the unpinned pawns and knights of the side to move
/// in them (the node's enemy) as the node's board has them, and the squares
/// those moves depend on. A child that is not in check, whose unpinned
/// pawns and knights are the same, and whose move changed neither of its
/// two squares among those, has the same count; the others count them
/// again.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
pub(crate) struct LeaperCounts {
    /// The pawns and knights counted: those of the children's side not
    /// pinned in the node.
    free: Bitboard,
    /// The squares their count depends on: their own; for the pawns, those
    /// they push to (one and two steps) and those they attack; for the
    /// knights, the pieces of their side they guard.
    squares: Bitboard,
    /// Their moves, a promotion counting four.
    count: usize,
}

#[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
impl LeaperCounts {
    /// Counts that no child takes (they match no pawns).
    pub(crate) const NONE: LeaperCounts = LeaperCounts {
        free: Bitboard::EMPTY,
        squares: Bitboard::FULL,
        count: 0,
    };

    /// The counts of the pawns and knights of the side that is White if `WHITE` in
    /// `pos`, where the other side is to move and `pinned` are the pieces
    /// it pins.
    #[inline(always)]
    pub(crate) fn of<const WHITE: bool>(pos: &Position, pinned: Bitboard) -> LeaperCounts {
        let us = if WHITE { Color::White } else { Color::Black };
        let own = pos.colors[us];
        let free = (pos.pieces[Piece::Pawn] & own & !pinned).0;
        let knights = pos.pieces[Piece::Knight] & own & !pinned;
        let mut counter = Counter(0);
        // A knight's count changes only if it is taken, or if a piece of
        // its own side that it guards is (the square becomes a target).
        let mut guarded = Bitboard::EMPTY;
        for from in knights {
            let attacks = knight_attacks(from);
            counter.0 += (attacks & !own).len() as usize;
            guarded |= attacks & own;
        }
        pos.free_pawn_sets::<WHITE, _>(
            free,
            !pos.occupied().0,
            pos.colors[!us].0,
            !0,
            !own.0,
            &mut counter,
        );
        let single = Pawns::<WHITE>::up(free);
        let double = Pawns::<WHITE>::up(single & Pawns::<WHITE>::THIRD_RANK);
        let attacks = Pawns::<WHITE>::up_west(free) | Pawns::<WHITE>::up_east(free);
        LeaperCounts {
            free: Bitboard(free) | knights,
            squares: Bitboard(free | single | double | attacks) | knights | guarded,
            count: counter.0,
        }
    }
}

impl Position {
    /// The sliders of `color` that move diagonally and those that move
    /// along ranks and files (queens in both).
    #[inline(always)]
    fn slider_kinds(&self, color: Color) -> [Bitboard; 2] {
        let queens = self.pieces[Piece::Queen];
        let own = self.colors[color];
        [
            (self.pieces[Piece::Bishop] | queens) & own,
            (self.pieces[Piece::Rook] | queens) & own,
        ]
    }

    /// [`Position::count_moves_state`] for a child of the perft node whose
    /// enemy pawns and knights `leaper_counts` counted, and, if `SLIDERS`,
    /// whose enemy sliders `shared` counted, made by a move that changed
    /// only the squares `from` and `to` (no castling, no en passant).
    #[inline(always)]
    #[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
    pub(crate) fn count_moves_shared<
        L: Sliders,
        const WHITE: bool,
        const CASTLE: u8,
        const SLIDERS: bool,
    >(
        &self,
        leapers: Leapers,
        (shared, leaper_counts): (&SliderCounts, &LeaperCounts),
        from: Square,
        to: Square,
    ) -> usize {
        if self.checkers.nonempty() {
            return self.count_moves_state::<L, WHITE, CASTLE>(leapers);
        }
        let us = if WHITE { Color::White } else { Color::Black };
        let own = self.colors[us];
        let king = self.king(us);
        let pinned = self.pinned;
        let mut counter = Counter(0);
        self.king_moves::<L, false, CASTLE>(us, king, own, leapers, &mut counter);
        if SLIDERS {
            counter.0 += self.count_sliders_shared::<L>(own, king, shared, from, to);
        } else {
            let [diagonal, straight] = self.slider_kinds(us);
            self.slider_moves(Piece::Bishop, L::bishop, king, diagonal, !own, &mut counter);
            self.slider_moves(Piece::Rook, L::rook, king, straight, !own, &mut counter);
        }
        let knights = self.pieces[Piece::Knight] & own & !pinned;
        let mine = ((self.pieces[Piece::Pawn] & own & !pinned) | knights).0;
        let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
        if (mine ^ leaper_counts.free.0) | (touched & leaper_counts.squares).0 == 0 {
            counter.0 += leaper_counts.count;
        } else {
            for from in knights {
                counter.0 += (knight_attacks(from) & !own).len() as usize;
            }
            self.free_pawn_moves::<WHITE, false, _>(own, !own, &mut counter);
        }
        self.other_pawn_moves::<L, WHITE, false, _>(king, own, !own, &mut counter);
        // Checked against a count that takes nothing from the node, not
        // even its leapers' attacks.
        debug_assert_eq!(
            counter.0,
            self.count_moves_state::<L, WHITE, CASTLE>(Leapers::UNKNOWN)
        );
        counter.0
    }

    /// The moves of the sliders of the side to move (`own`, whose king is
    /// on `king`) in a child of the node whose sliders `shared` counted.
    #[inline(always)]
    fn count_sliders_shared<L: Sliders>(
        &self,
        own: Bitboard,
        king: Square,
        shared: &SliderCounts,
        from: Square,
        to: Square,
    ) -> usize {
        let pinned = self.pinned;
        // The units the move reached, and the pinned ones, are counted
        // again (a captured one drops out); the others as in the node.
        let mut again = shared.reach.0[from.index()] | shared.reach.0[to.index()];
        for sq in pinned & shared.sliders {
            again |= shared.bit[sq.index()];
        }
        let occ = self.occupied();
        let mut sliders = shared.total as usize;
        while again != 0 {
            let i = again.trailing_zeros() as usize;
            again &= again - 1;
            let sq = shared.square[i];
            sliders -= shared.count[i] as usize;
            // A captured slider's square holds an enemy: nothing to count.
            let alive = 0u64.wrapping_sub((own.0 >> sq.index()) & 1);
            let mut attacks = L::lookup(shared.magic[i], occ) & !own & Bitboard(alive);
            if pinned.has(sq) {
                attacks &= line(king, sq);
            }
            sliders += attacks.len() as usize;
        }
        sliders
    }
}
