//! Types every lab uses. Provided by the course: read them, don't edit them.
//!
//! Squares are numbered 0..64: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
//! A bitboard is a `u64` whose bit `n` says whether square `n` is in the set.

use std::fmt;

/// A set of squares: bit n is square n, a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
pub type Bitboard = u64;

/// A square index 0..64 in the same order.
pub type Square = u8;

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    /// The side that moves first; its pawns move up the board (towards rank 8).
    White,
    /// Its pawns move down the board (towards rank 1).
    Black,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A kind of piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Piece {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Piece {
    /// All six kinds, in the order of `Board::pieces`.
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];
}

/// A move; castling is the king moving two squares (e1g1), en passant is the pawn moving to the
/// en-passant square, promotion names the new piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it lands on.
    pub to: Square,
    /// The piece a pawn becomes on the last rank.
    pub promotion: Option<Piece>,
}

impl Move {
    /// A move that is not a promotion.
    pub fn new(from: Square, to: Square) -> Move {
        Move { from, to, promotion: None }
    }
}

/// UCI notation: `e2e4`, `e7e8q`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", square_name(self.from), square_name(self.to))?;
        if let Some(piece) = self.promotion {
            let letter = match piece {
                Piece::Knight => "n",
                Piece::Bishop => "b",
                Piece::Rook => "r",
                Piece::Queen => "q",
                Piece::Pawn => "p",
                Piece::King => "k",
            };
            f.write_str(letter)?;
        }
        Ok(())
    }
}

/// The name of a square: 0 is "a1", 63 is "h8".
pub fn square_name(sq: Square) -> String {
    let file = (b'a' + sq % 8) as char;
    let rank = (b'1' + sq / 8) as char;
    format!("{file}{rank}")
}

/// A position (standard chess only).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Board {
    /// `pieces[color as usize][piece as usize]`: where each side's pieces of each kind stand.
    pub pieces: [[Bitboard; 6]; 2],
    /// The side to move.
    pub side: Color,
    /// Castling rights: 1 = white king side, 2 = white queen side, 4 = black K, 8 = black Q.
    pub castling: u8,
    /// The square a pawn just skipped with a double push (as FEN names it).
    pub en_passant: Option<Square>,
    /// Half moves since the last capture or pawn move (the fifty-move rule).
    pub halfmove: u32,
    /// The move number, starting at 1 and counted up after Black moves.
    pub fullmove: u32,
}

impl Board {
    /// A board with no pieces, White to move.
    pub fn empty() -> Board {
        Board {
            pieces: [[0; 6]; 2],
            side: Color::White,
            castling: 0,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The squares of one side's pieces of one kind.
    pub fn piece_set(&self, color: Color, piece: Piece) -> Bitboard {
        self.pieces[color as usize][piece as usize]
    }

    /// Every square with a piece of `color` on it.
    pub fn color_set(&self, color: Color) -> Bitboard {
        self.pieces[color as usize].iter().fold(0, |all, &bb| all | bb)
    }

    /// Every occupied square.
    pub fn occupied(&self) -> Bitboard {
        self.color_set(Color::White) | self.color_set(Color::Black)
    }

    /// The side to move's pieces.
    pub fn us(&self) -> Bitboard {
        self.color_set(self.side)
    }

    /// The other side's pieces.
    pub fn them(&self) -> Bitboard {
        self.color_set(self.side.other())
    }

    /// The square of `color`'s king (a1 if it has none).
    pub fn king_square(&self, color: Color) -> Square {
        self.piece_set(color, Piece::King).trailing_zeros() as Square % 64
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Piece)> {
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                if self.piece_set(color, piece) >> sq & 1 == 1 {
                    return Some((color, piece));
                }
            }
        }
        None
    }
}
