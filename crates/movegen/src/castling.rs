//! Castling sides and the set of castling rights.

use crate::piece::Color;
use crate::square::File;
use std::fmt;

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

/// The castling rights still held: up to four, one per colour and side.
///
/// Which rook each right belongs to is kept by the [`Position`](crate::Position)
/// (see [`Position::castle_rook`](crate::Position::castle_rook)), so Chess960
/// needs nothing special here.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The single right of `color` on `side`.
    #[inline(always)]
    pub const fn single(color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(1 << (color as u8 * 2 + side as u8))
    }

    /// Both rights of `color`.
    #[inline(always)]
    pub const fn both(color: Color) -> CastlingRights {
        CastlingRights(3 << (color as u8 * 2))
    }

    /// Whether `color` may still castle on `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & CastlingRights::single(color, side).0 != 0
    }

    /// Whether any right of `other` is also in this set.
    #[inline(always)]
    pub const fn intersects(self, other: CastlingRights) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether no right is left.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// This set with the rights of `other` added.
    #[inline(always)]
    pub const fn with(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// This set without the rights of `other`.
    #[inline(always)]
    pub const fn without(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// A number from 0 to 15 naming this set (White short is bit 0, White
    /// long bit 1, Black short bit 2, Black long bit 3), for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
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
}
