//! Colours and piece kinds.

use core::ops::{Index, IndexMut, Not};

/// A side: White or Black.
///
/// # Examples
///
/// ```
/// use movegen::{Color, Position};
///
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Position::startpos().side_to_move(), Color::White);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[allow(missing_docs)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// Both colours, White first.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Color;
    ///
    /// assert_eq!(Color::ALL, [Color::White, Color::Black]);
    /// assert_eq!(Color::NUM, Color::ALL.len());
    /// ```
    pub const ALL: [Color; 2] = [Color::White, Color::Black];
    /// Number of colours.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Color;
    ///
    /// let mut per_color = [0u32; Color::NUM];
    /// per_color[Color::Black.index()] += 1;
    /// assert_eq!(per_color, [0, 1]);
    /// ```
    pub const NUM: usize = 2;

    /// The colour's index: 0 for White, 1 for Black.
    ///
    /// ```
    /// use movegen::Color;
    ///
    /// assert_eq!(Color::Black.index(), 1);
    /// assert_eq!(!Color::Black, Color::White);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A kind of piece, without colour.
///
/// # Examples
///
/// ```
/// use movegen::{Piece, Position, Square};
///
/// let pos = Position::startpos();
/// assert_eq!(pos.piece_on(Square::G1), Some(Piece::Knight));
/// assert_eq!(Piece::Queen.to_char(), 'q');
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[allow(missing_docs)]
pub enum Piece {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Piece {
    /// All kinds, pawn first.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Piece;
    ///
    /// assert_eq!(Piece::ALL.len(), Piece::NUM);
    /// assert_eq!(Piece::ALL[0], Piece::Pawn);
    /// assert_eq!(Piece::ALL[5], Piece::King);
    /// ```
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];
    /// Number of kinds.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Piece, Position};
    ///
    /// let pos = Position::startpos();
    /// let mut counts = [0u32; Piece::NUM];
    /// for piece in Piece::ALL {
    ///     counts[piece.index()] = pos.pieces(piece).len();
    /// }
    /// assert_eq!(counts, [16, 4, 4, 4, 2, 2]);
    /// ```
    pub const NUM: usize = 6;

    /// The kind's index, 0 for a pawn.
    ///
    /// ```
    /// use movegen::Piece;
    ///
    /// assert_eq!(Piece::King.index(), 5);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter of the kind (`p n b r q k`).
    ///
    /// ```
    /// use movegen::Piece;
    ///
    /// assert_eq!(Piece::Knight.to_char(), 'n');
    /// ```
    pub const fn to_char(self) -> char {
        [b'p', b'n', b'b', b'r', b'q', b'k'][self as usize] as char
    }

    /// The kind for a letter (either case).
    ///
    /// ```
    /// use movegen::Piece;
    ///
    /// assert_eq!(Piece::from_char('Q'), Some(Piece::Queen));
    /// assert_eq!(Piece::from_char('x'), None);
    /// ```
    pub fn from_char(c: char) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|p| p.to_char() == c.to_ascii_lowercase())
    }

    /// The FEN letter of this kind in `color`: upper case for White.
    ///
    /// ```
    /// use movegen::{Color, Piece};
    ///
    /// assert_eq!(Piece::Rook.to_fen_char(Color::White), 'R');
    /// ```
    pub fn to_fen_char(self, color: Color) -> char {
        match color {
            Color::White => self.to_char().to_ascii_uppercase(),
            Color::Black => self.to_char(),
        }
    }
}

impl<T> Index<Color> for [T; 2] {
    type Output = T;

    fn index(&self, c: Color) -> &T {
        &self[c.index()]
    }
}

impl<T> IndexMut<Color> for [T; 2] {
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self[c.index()]
    }
}

impl<T> Index<Piece> for [T; 6] {
    type Output = T;

    fn index(&self, p: Piece) -> &T {
        &self[p.index()]
    }
}

impl<T> IndexMut<Piece> for [T; 6] {
    fn index_mut(&mut self, p: Piece) -> &mut T {
        &mut self[p.index()]
    }
}
