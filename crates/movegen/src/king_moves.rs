//! The king's moves, castling included, and the enemy attacks they must
//! avoid.

use crate::attacks::{bishop_zone, king_attacks, knight_attacks, rook_zone, Sliders};
use crate::bitboard::Bitboard;
use crate::castling::{
    lane_index, state as castle_state, CastleSide, CastlingRights, Lane, LANES, STANDARD_LANES,
};
use crate::generate::{MoveSink, Pawns};
use crate::move_sets::PieceMoves;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::{File, Square};

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

/// The squares attacked by `color`'s pawns `pawns`.
#[inline(always)]
fn pawns_attack(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => Pawns::<true>::up_west(pawns) | Pawns::<true>::up_east(pawns),
        Color::Black => Pawns::<false>::up_west(pawns) | Pawns::<false>::up_east(pawns),
    }
}

impl Position {
    /// Hands the king's legal moves to `sink`, castling with them unless
    /// `CAPTURES` (see [`Position::generate_state`] for `CASTLE`); `leapers`
    /// is what the caller already knows of the enemy's leaper attacks.
    /// Returns whether the sink stopped generation.
    #[inline(always)]
    pub(crate) fn king_moves<L: Sliders, const CAPTURES: bool, const CASTLE: u8>(
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
            // Only sliders that could reach the king's neighbourhood (or a
            // standard castling path) on an empty board are looked up; a
            // Chess960 path may lie anywhere on the rank, so there all are.
            let zone = if CASTLE == castle_state::ANY && castling.nonempty() {
                [Bitboard::FULL; 2]
            } else {
                [bishop_zone(king), rook_zone(king)]
            };
            let danger = leapers | self.slider_attacks::<L>(them, occ, zone);
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
    #[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
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

    /// Every square the bishops, rooks and queens of `them` standing in
    /// `zone` (for bishop-like, then rook-like moves) attack through `occ`.
    #[inline(always)]
    fn slider_attacks<L: Sliders>(
        &self,
        them: Color,
        occ: Bitboard,
        zone: [Bitboard; 2],
    ) -> Bitboard {
        let enemy = self.colors[them];
        let queens = self.pieces[Piece::Queen];
        let mut attacks = Bitboard::EMPTY;
        for bishop in (self.pieces[Piece::Bishop] | queens) & enemy & zone[0] {
            attacks |= L::bishop(bishop, occ);
        }
        for rook in (self.pieces[Piece::Rook] | queens) & enemy & zone[1] {
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
}
