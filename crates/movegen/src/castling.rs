//! Castling sides and the set of castling rights.

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::square::File;
use core::fmt;

/// Which way a side castles: towards the h-file (`Short`) or the a-file (`Long`).
///
/// # Examples
///
/// ```
/// use movegen::{CastleSide, Color, Position};
///
/// let pos = Position::startpos();
/// assert!(pos.castling_rights().has(Color::White, CastleSide::Short));
/// assert_ne!(CastleSide::Short, CastleSide::Long);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CastleSide {
    /// Towards the h-file: the king ends on g, the rook on f ("O-O").
    Short,
    /// Towards the a-file: the king ends on c, the rook on d ("O-O-O").
    Long,
}

impl CastleSide {
    /// Both sides, short first.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::CastleSide;
    ///
    /// assert_eq!(CastleSide::ALL.len(), 2);
    /// assert_eq!(CastleSide::ALL[0], CastleSide::Short);
    /// ```
    pub const ALL: [CastleSide; 2] = [CastleSide::Short, CastleSide::Long];

    /// The side's index: 0 for short, 1 for long.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::CastleSide;
    ///
    /// assert_eq!(CastleSide::Short.index(), 0);
    /// assert_eq!(CastleSide::Long.index(), 1);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The files the king and the rook end on.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastleSide, File};
    ///
    /// assert_eq!(CastleSide::Short.destination_files(), (File::G, File::F));
    /// assert_eq!(CastleSide::Long.destination_files(), (File::C, File::D));
    /// ```
    pub const fn destination_files(self) -> (File, File) {
        match self {
            CastleSide::Short => (File::G, File::F),
            CastleSide::Long => (File::C, File::D),
        }
    }
}

/// The castling rights still held: up to four, one per colour and side.
///
/// Which rook each right belongs to is kept by the [`Position`](crate::Position)
/// (see [`Position::castle_rook`](crate::Position::castle_rook)), so Chess960
/// needs nothing special here.
///
/// # Examples
///
/// ```
/// use movegen::{CastleSide, CastlingRights, Color, Position};
///
/// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1").unwrap();
/// let rights = pos.castling_rights();
/// assert!(rights.has(Color::White, CastleSide::Short));
/// assert!(!rights.has(Color::White, CastleSide::Long));
/// assert_eq!(
///     rights,
///     CastlingRights::single(Color::White, CastleSide::Short)
///         .with(CastlingRights::single(Color::Black, CastleSide::Long))
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastlingRights, Position};
    ///
    /// assert!(CastlingRights::NONE.is_empty());
    /// assert_eq!(Position::startpos().castling_rights(), CastlingRights::ALL);
    /// ```
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastlingRights, Color};
    ///
    /// assert_eq!(CastlingRights::ALL, CastlingRights::both(Color::White).with(CastlingRights::both(Color::Black)));
    /// ```
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The single right of `color` on `side`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastleSide, CastlingRights, Color};
    ///
    /// let wk = CastlingRights::single(Color::White, CastleSide::Short);
    /// assert!(wk.has(Color::White, CastleSide::Short));
    /// assert!(!wk.has(Color::Black, CastleSide::Short));
    /// ```
    #[inline(always)]
    pub const fn single(color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(1 << (color as u8 * 2 + side as u8))
    }

    /// The single right of `color` on `side` if `on`, else none (no branch).
    #[inline(always)]
    pub(crate) const fn single_if(color: Color, side: CastleSide, on: bool) -> CastlingRights {
        CastlingRights((on as u8) << (color as u8 * 2 + side as u8))
    }

    /// Both rights of `color`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastleSide, CastlingRights, Color};
    ///
    /// let black = CastlingRights::both(Color::Black);
    /// assert!(black.has(Color::Black, CastleSide::Short) && black.has(Color::Black, CastleSide::Long));
    /// assert!(!black.intersects(CastlingRights::both(Color::White)));
    /// ```
    #[inline(always)]
    pub const fn both(color: Color) -> CastlingRights {
        CastlingRights(3 << (color as u8 * 2))
    }

    /// Whether `color` may still castle on `side`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastleSide, Color, Position};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
    /// assert!(pos.castling_rights().has(Color::White, CastleSide::Long));
    /// assert!(!pos.castling_rights().has(Color::White, CastleSide::Short));
    /// ```
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & CastlingRights::single(color, side).0 != 0
    }

    /// Whether any right of `other` is also in this set.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastleSide, CastlingRights, Color};
    ///
    /// let wq = CastlingRights::single(Color::White, CastleSide::Long);
    /// assert!(CastlingRights::ALL.intersects(wq));
    /// assert!(!CastlingRights::both(Color::Black).intersects(wq));
    /// ```
    #[inline(always)]
    pub const fn intersects(self, other: CastlingRights) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether no right is left.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastlingRights, Position};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    /// assert!(pos.castling_rights().is_empty());
    /// assert!(!CastlingRights::ALL.is_empty());
    /// ```
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// This set with the rights of `other` added.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastlingRights, Color};
    ///
    /// let all = CastlingRights::both(Color::White).with(CastlingRights::both(Color::Black));
    /// assert_eq!(all, CastlingRights::ALL);
    /// ```
    #[inline(always)]
    pub const fn with(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// This set without the rights of `other`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastlingRights, Color};
    ///
    /// let black = CastlingRights::ALL.without(CastlingRights::both(Color::White));
    /// assert_eq!(black, CastlingRights::both(Color::Black));
    /// ```
    #[inline(always)]
    pub const fn without(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// A number from 0 to 15 naming this set (White short is bit 0, White
    /// long bit 1, Black short bit 2, Black long bit 3), for indexing tables.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{CastleSide, CastlingRights, Color};
    ///
    /// assert_eq!(CastlingRights::NONE.index(), 0);
    /// assert_eq!(CastlingRights::ALL.index(), 15);
    /// assert_eq!(CastlingRights::single(Color::White, CastleSide::Long).index(), 2);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What castling asks of the board for one placement of king and rook,
/// fixed for the whole game: the squares that must be empty and those the
/// king must not be attacked on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Lane {
    /// The squares the king and the rook cross or land on, but their own.
    pub(crate) empty: Bitboard,
    /// The squares the king crosses and lands on.
    pub(crate) path: Bitboard,
    /// The rook's square.
    pub(crate) rook: Bitboard,
}

impl Lane {
    /// No lane: no rook to castle with.
    pub(crate) const NONE: Lane = Lane {
        empty: Bitboard::EMPTY,
        path: Bitboard::EMPTY,
        rook: Bitboard::EMPTY,
    };
}

/// The lane of `color`'s king on file `king` castling with the rook on file
/// `rook`, as an index into [`LANES`], stored by the position so that the
/// generator finds a lane with one load.
pub(crate) const fn lane_index(color: Color, king: File, rook: File) -> u8 {
    (color as u8) << 6 | (king as u8) << 3 | rook as u8
}

/// Every lane, by [`lane_index`] (the entries with king and rook on one file
/// are unused).
pub(crate) static LANES: [Lane; 128] = LANE_TABLE;

const LANE_TABLE: [Lane; 128] = lane_table();

/// The lanes of standard chess (king on the e-file, rooks in the corners),
/// by colour, short first: constants where the generator is compiled for
/// standard castling.
pub(crate) const STANDARD_LANES: [[Lane; 2]; 2] = [
    [
        LANE_TABLE[lane_index(Color::White, File::E, File::H) as usize],
        LANE_TABLE[lane_index(Color::White, File::E, File::A) as usize],
    ],
    [
        LANE_TABLE[lane_index(Color::Black, File::E, File::H) as usize],
        LANE_TABLE[lane_index(Color::Black, File::E, File::A) as usize],
    ],
];

/// Which castling code the generator is compiled with: none (the side to
/// move has no right), standard chess's lanes as constants, or any lanes
/// from the table (Chess960). Perft chooses once per position.
pub(crate) mod state {
    /// No castling right: no castling code.
    pub(crate) const NONE: u8 = 0;
    /// Every right held is standard chess's: constant lanes.
    pub(crate) const STANDARD: u8 = 1;
    /// Any lanes.
    pub(crate) const ANY: u8 = 2;
}

/// The squares of the files strictly between `from` and `to`, and `to`'s, on
/// `rank` (0 to 7).
const fn span(from: usize, to: usize, rank: usize) -> u64 {
    let mut set = 0;
    let mut f = 0;
    while f < 8 {
        let inside = (from < f && f < to) || (to < f && f < from) || f == to;
        if inside {
            set |= 1 << (rank * 8 + f);
        }
        f += 1;
    }
    set
}

const fn lane_table() -> [Lane; 128] {
    let mut table = [Lane::NONE; 128];
    let mut i = 0;
    while i < 128 {
        let (color, king, rook) = (i >> 6, (i >> 3) & 7, i & 7);
        let rank = if color == 0 { 0 } else { 7 };
        if king != rook {
            let side = if rook > king {
                CastleSide::Short
            } else {
                CastleSide::Long
            };
            let (kf, rf) = side.destination_files();
            let path = span(king, kf as usize, rank);
            let movers = 1 << (rank * 8 + king) | 1 << (rank * 8 + rook);
            let empty = (path | span(rook, rf as usize, rank)) & !movers;
            table[i] = Lane {
                empty: Bitboard(empty),
                path: Bitboard(path),
                rook: Bitboard(1 << (rank * 8 + rook)),
            };
        }
        i += 1;
    }
    table
}

/// The rights in FEN letters (`KQkq`, `-` for none), whatever the rooks' files.
impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, c) in "KQkq".chars().enumerate() {
            if self.0 & 1 << i != 0 {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CastlingRights({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_combine_and_name_themselves() {
        let white = CastlingRights::both(Color::White);
        assert!(white.has(Color::White, CastleSide::Short));
        assert!(white.has(Color::White, CastleSide::Long));
        assert!(!white.has(Color::Black, CastleSide::Short));
        let black_long = CastlingRights::single(Color::Black, CastleSide::Long);
        let some = white.with(black_long);
        assert_eq!(some.to_string(), "KQq");
        assert_eq!(some.without(white), black_long);
        assert!(some.intersects(black_long) && !white.intersects(black_long));
        assert_eq!(CastlingRights::ALL.to_string(), "KQkq");
        assert_eq!(CastlingRights::NONE.to_string(), "-");
        let indices: Vec<usize> = Color::ALL
            .into_iter()
            .flat_map(|c| CastleSide::ALL.map(|s| CastlingRights::single(c, s).index()))
            .collect();
        assert_eq!(indices, [1, 2, 4, 8]);
    }

    #[test]
    fn standard_lanes_are_the_squares_of_ordinary_castling() {
        let set = |names: &[&str]| {
            names
                .iter()
                .map(|n| crate::square::Square::parse(n).unwrap())
                .collect::<Bitboard>()
        };
        let [short, long] = STANDARD_LANES[Color::White.index()];
        assert_eq!(short.empty, set(&["f1", "g1"]));
        assert_eq!(short.path, set(&["f1", "g1"]));
        assert_eq!(short.rook, set(&["h1"]));
        assert_eq!(long.empty, set(&["b1", "c1", "d1"]));
        assert_eq!(long.path, set(&["c1", "d1"]));
        assert_eq!(long.rook, set(&["a1"]));
        let [short, long] = STANDARD_LANES[Color::Black.index()];
        assert_eq!(
            (short.empty, short.rook),
            (set(&["f8", "g8"]), set(&["h8"]))
        );
        assert_eq!((long.path, long.rook), (set(&["c8", "d8"]), set(&["a8"])));
    }

    #[test]
    fn standard_castling_is_told_from_chess960() {
        use crate::Position;
        let standard =
            |fen: &str, color: Color| Position::from_fen(fen).unwrap().castles_standard(color);
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(standard(start, Color::White) && standard(start, Color::Black));
        // One right left, and none at all, are standard too.
        assert!(standard("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", Color::White));
        assert!(standard("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Color::Black));
        // King on g1 with rooks on f1 and h1 (Chess960).
        let c960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert!(!standard(c960, Color::White) && !standard(c960, Color::Black));
        // King on e1 but the long rook on b1.
        assert!(!standard("4k3/8/8/8/8/8/8/1R2K3 w B - 0 1", Color::White));
    }

    #[test]
    fn lanes_match_the_between_sets() {
        use crate::attacks::between;
        use crate::square::{Rank, Square};
        for color in Color::ALL {
            let rank = if color == Color::White {
                Rank::First
            } else {
                Rank::Eighth
            };
            for king in File::ALL {
                for rook in File::ALL.into_iter().filter(|&f| f != king) {
                    let side = if rook > king {
                        CastleSide::Short
                    } else {
                        CastleSide::Long
                    };
                    let (kf, rf) = side.destination_files();
                    let (k, r) = (Square::new(king, rank), Square::new(rook, rank));
                    let (k_to, r_to) = (Square::new(kf, rank), Square::new(rf, rank));
                    let path = between(k, k_to) | Bitboard::from_square(k_to);
                    let movers = Bitboard::from_square(k) | Bitboard::from_square(r);
                    let empty = (path | between(r, r_to) | Bitboard::from_square(r_to)) & !movers;
                    let lane = LANES[lane_index(color, king, rook) as usize];
                    let rook = Bitboard::from_square(r);
                    let expected = Lane { empty, path, rook };
                    assert_eq!(lane, expected, "{color:?} king {king:?} rook {rook:?}");
                }
            }
        }
    }
}
