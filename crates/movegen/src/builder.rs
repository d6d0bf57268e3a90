//! Positions put together in code, checked as a FEN would be.

use crate::castling::CastleSide;
use crate::castling_mode::CastlingMode;
use crate::fen::FenError;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::{File, Square};
use alloc::string::String;
use core::fmt::Write as _;

/// A position assembled piece by piece, checked by [`PositionBuilder::build`]
/// with every rule [`Position::from_fen`] applies (one king a side, no pawn
/// on the first or last rank, castling rooks in place, a possible
/// en-passant square, the side not to move not in check). No `Position`
/// that breaks the crate's invariants can come out of it.
///
/// ```
/// use movegen::{CastleSide, Color, Piece, Position, PositionBuilder, Square};
///
/// let pos = PositionBuilder::new()
///     .piece(Square::E1, Color::White, Piece::King)
///     .piece(Square::H1, Color::White, Piece::Rook)
///     .piece(Square::E8, Color::Black, Piece::King)
///     .castling(Color::White, CastleSide::Short)
///     .build()?;
/// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// // Without a black king the position is refused, with the FEN's error.
/// let no_king = PositionBuilder::new().piece(Square::E1, Color::White, Piece::King).build();
/// assert!(no_king.is_err());
/// # Ok::<(), movegen::FenError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionBuilder {
    board: [Option<(Color, Piece)>; 64],
    side: Color,
    /// Each right, per colour and side: `None` for none, `Some(None)` for
    /// the outermost rook on that side (as `KQkq`), `Some(Some(file))` for
    /// the rook on that file (a position's own rook, kept by
    /// [`PositionBuilder::from_position`]).
    castling: [[Option<Option<File>>; 2]; 2],
    ep: Option<Square>,
    /// The en-passant square of the position given to
    /// [`PositionBuilder::from_position`] as the Polyglot key counts it:
    /// also where a capture there is possible but illegal, which its FEN
    /// does not write. Kept until the board, the side to move or the
    /// en-passant square changes, so that an unchanged builder gives the
    /// position back exactly and a changed one is checked as the FEN it
    /// shows (`ep`).
    polyglot_ep: Option<Square>,
    halfmove: u32,
    fullmove: u32,
    castling_mode: CastlingMode,
}

impl Default for PositionBuilder {
    fn default() -> PositionBuilder {
        PositionBuilder::new()
    }
}

impl PositionBuilder {
    /// An empty board, White to move, no castling rights, clocks at 0 and 1.
    ///
    /// ```
    /// use movegen::PositionBuilder;
    ///
    /// assert!(PositionBuilder::new().build().is_err()); // no kings
    /// ```
    pub fn new() -> PositionBuilder {
        PositionBuilder {
            board: [None; 64],
            side: Color::White,
            castling: [[None; 2]; 2],
            ep: None,
            polyglot_ep: None,
            halfmove: 0,
            fullmove: 1,
            castling_mode: CastlingMode::Standard,
        }
    }

    /// A builder holding `pos`, to change and build again. Built unchanged
    /// it gives `pos` back: each castling right with its own rook, the
    /// en-passant square, the clocks and the castling mode. Changed, it is
    /// checked as `pos`'s FEN with the same changes would be.
    ///
    /// ```
    /// use movegen::{Position, PositionBuilder, Square};
    ///
    /// let pos = Position::startpos();
    /// let odds = PositionBuilder::from_position(&pos).remove(Square::B1).build().unwrap();
    /// assert_eq!(odds.piece_on(Square::B1), None);
    /// // The right is the f1 rook's, not the outermost rook's.
    /// let inner = Position::from_fen("4k3/8/8/8/8/8/8/4KR1R w F - 0 1").unwrap();
    /// let back = PositionBuilder::from_position(&inner).build().unwrap();
    /// assert_eq!((back, back.fen()), (inner, inner.fen()));
    /// ```
    pub fn from_position(pos: &Position) -> PositionBuilder {
        let mut builder = PositionBuilder::new();
        for sq in pos.occupied() {
            let color = pos.color_on(sq).expect("an occupied square has a colour");
            let piece = pos.piece_on(sq).expect("an occupied square holds a piece");
            builder.board[sq.index()] = Some((color, piece));
        }
        builder.side = pos.side_to_move();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                builder.castling[color.index()][side.index()] =
                    pos.castle_rook(color, side).map(|rook| Some(rook.file()));
            }
        }
        builder.ep = pos.ep_square();
        builder.polyglot_ep = pos.pseudo_ep;
        builder.halfmove = pos.halfmove_clock();
        builder.fullmove = pos.fullmove_number();
        builder.castling_mode = pos.castling_mode();
        builder
    }

    /// Puts a piece of `color` on `sq`, replacing what stood there.
    ///
    /// ```
    /// use movegen::{Color, Piece, PositionBuilder, Square};
    ///
    /// let builder = PositionBuilder::new().piece(Square::D4, Color::Black, Piece::Queen);
    /// assert_eq!(builder.piece_at(Square::D4), Some((Color::Black, Piece::Queen)));
    /// ```
    pub fn piece(mut self, sq: Square, color: Color, piece: Piece) -> PositionBuilder {
        self.board[sq.index()] = Some((color, piece));
        self.polyglot_ep = None;
        self
    }

    /// Empties `sq`.
    ///
    /// ```
    /// use movegen::{Color, Piece, PositionBuilder, Square};
    ///
    /// let builder = PositionBuilder::new()
    ///     .piece(Square::D4, Color::Black, Piece::Queen)
    ///     .remove(Square::D4);
    /// assert_eq!(builder.piece_at(Square::D4), None);
    /// ```
    pub fn remove(mut self, sq: Square) -> PositionBuilder {
        self.board[sq.index()] = None;
        self.polyglot_ep = None;
        self
    }

    /// What stands on `sq` so far.
    ///
    /// ```
    /// use movegen::{PositionBuilder, Square};
    ///
    /// assert_eq!(PositionBuilder::new().piece_at(Square::A1), None);
    /// ```
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Piece)> {
        self.board[sq.index()]
    }

    /// Sets the side to move.
    ///
    /// ```
    /// use movegen::{Color, Piece, PositionBuilder, Square};
    ///
    /// let pos = PositionBuilder::new()
    ///     .piece(Square::E1, Color::White, Piece::King)
    ///     .piece(Square::E8, Color::Black, Piece::King)
    ///     .side_to_move(Color::Black)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// ```
    pub fn side_to_move(mut self, color: Color) -> PositionBuilder {
        self.side = color;
        self.polyglot_ep = None;
        self
    }

    /// Gives `color` the right to castle on `side`, with the outermost rook
    /// on that side of its king (as X-FEN's `KQkq`).
    ///
    /// ```
    /// use movegen::{CastleSide, Color, Piece, PositionBuilder, Square};
    ///
    /// // No rook on a1: the right is refused when built.
    /// let bad = PositionBuilder::new()
    ///     .piece(Square::E1, Color::White, Piece::King)
    ///     .piece(Square::E8, Color::Black, Piece::King)
    ///     .castling(Color::White, CastleSide::Long)
    ///     .build();
    /// assert!(bad.is_err());
    /// ```
    pub fn castling(mut self, color: Color, side: CastleSide) -> PositionBuilder {
        self.castling[color.index()][side.index()] = Some(None);
        self
    }

    /// Sets the en-passant square (the square a pawn just skipped).
    ///
    /// ```
    /// use movegen::{Color, Piece, PositionBuilder, Square};
    ///
    /// let pos = PositionBuilder::new()
    ///     .piece(Square::E1, Color::White, Piece::King)
    ///     .piece(Square::E8, Color::Black, Piece::King)
    ///     .piece(Square::E4, Color::White, Piece::Pawn)
    ///     .piece(Square::D4, Color::Black, Piece::Pawn)
    ///     .side_to_move(Color::Black)
    ///     .en_passant(Square::E3)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(pos.ep_square(), Some(Square::E3));
    /// ```
    pub fn en_passant(mut self, sq: Square) -> PositionBuilder {
        self.ep = Some(sq);
        self.polyglot_ep = None;
        self
    }

    /// Sets the half-move clock and the full-move number.
    ///
    /// ```
    /// use movegen::{Color, Piece, PositionBuilder, Square};
    ///
    /// let pos = PositionBuilder::new()
    ///     .piece(Square::E1, Color::White, Piece::King)
    ///     .piece(Square::E8, Color::Black, Piece::King)
    ///     .clocks(12, 40)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (12, 40));
    /// ```
    pub fn clocks(mut self, halfmove: u32, fullmove: u32) -> PositionBuilder {
        self.halfmove = halfmove;
        self.fullmove = fullmove;
        self
    }

    /// Writes castling in `mode` ([`Position::castling_mode`]): `Chess960`
    /// always; `Standard`, the default, where the castling rights allow it
    /// (a king or rook off the standard squares makes the position Chess960,
    /// as its FEN would).
    ///
    /// ```
    /// use movegen::{CastleSide, CastlingMode, Color, Piece, PositionBuilder, Square};
    ///
    /// let builder = PositionBuilder::new()
    ///     .piece(Square::E1, Color::White, Piece::King)
    ///     .piece(Square::H1, Color::White, Piece::Rook)
    ///     .piece(Square::E8, Color::Black, Piece::King)
    ///     .castling(Color::White, CastleSide::Short);
    /// assert_eq!(builder.build()?.castling_mode(), CastlingMode::Standard);
    /// let pos = builder.castling_mode(CastlingMode::Chess960).build()?;
    /// assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
    /// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w H - 0 1");
    /// # Ok::<(), movegen::FenError>(())
    /// ```
    pub fn castling_mode(mut self, mode: CastlingMode) -> PositionBuilder {
        self.castling_mode = mode;
        self
    }

    /// The position, checked by the rules of [`Position::from_fen`].
    ///
    /// # Errors
    /// The [`FenError`] the same position written as a FEN would give.
    ///
    /// ```
    /// use movegen::{Color, FenError, Piece, PositionBuilder, Square};
    ///
    /// let pawn_on_rank_1 = PositionBuilder::new()
    ///     .piece(Square::E1, Color::White, Piece::King)
    ///     .piece(Square::E8, Color::Black, Piece::King)
    ///     .piece(Square::A1, Color::White, Piece::Pawn)
    ///     .build();
    /// assert_eq!(pawn_on_rank_1, Err(FenError::PawnOnBackRank(Square::A1)));
    /// ```
    pub fn build(&self) -> Result<Position, FenError> {
        let pos = Position::from_fen(&self.fen())?;
        Ok(pos.with_castling_mode(self.castling_mode).unwrap_or(pos))
    }

    /// The builder's contents as a FEN.
    fn fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank * 8 + file] {
                    None => empty += 1,
                    Some((color, piece)) => {
                        if empty > 0 {
                            write!(fen, "{empty}").expect("writing to a String");
                            empty = 0;
                        }
                        fen.push(piece.to_fen_char(color));
                    }
                }
            }
            if empty > 0 {
                write!(fen, "{empty}").expect("writing to a String");
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(match self.side {
            Color::White => " w ",
            Color::Black => " b ",
        });
        // `KQkq` for the outermost rooks, the rook's file (Shredder-FEN) for
        // a given rook; `build` then sets the mode asked for.
        let letters = [['K', 'Q'], ['k', 'q']];
        let before = fen.len();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let letter = match self.castling[color.index()][side.index()] {
                    None => continue,
                    Some(None) => letters[color.index()][side.index()],
                    Some(Some(file)) => match color {
                        Color::White => file.to_char().to_ascii_uppercase(),
                        Color::Black => file.to_char(),
                    },
                };
                fen.push(letter);
            }
        }
        if fen.len() == before {
            fen.push('-');
        }
        // The Polyglot-only square, while it stands, reads back as it was
        // (from_fen keeps it for the key alone, as `play` does).
        match self.polyglot_ep.or(self.ep) {
            Some(sq) => write!(fen, " {sq}"),
            None => write!(fen, " -"),
        }
        .expect("writing to a String");
        write!(fen, " {} {}", self.halfmove, self.fullmove).expect("writing to a String");
        fen
    }
}

impl Position {
    /// The same position with the colours swapped: each piece moves to its
    /// square on the mirrored rank and changes colour, the other side is to
    /// move, and the castling rights (each with its rook's file) and the
    /// en-passant square change sides with them. The clocks stay. Evaluation
    /// tests use it: a symmetric evaluation scores the two alike for the side
    /// to move.
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/R3K3 w Q d6 0 2").unwrap();
    /// assert_eq!(pos.mirrored().fen(), "r3k3/8/8/8/3Pp3/8/8/4K3 b q d3 0 2");
    /// assert_eq!(pos.mirrored().mirrored(), pos);
    /// ```
    pub fn mirrored(&self) -> Position {
        let from = PositionBuilder::from_position(self);
        let mut builder = PositionBuilder {
            side: !from.side,
            ep: from.ep.map(Square::flip_rank),
            polyglot_ep: from.polyglot_ep.map(Square::flip_rank),
            ..from.clone()
        };
        for (i, square) in from.board.iter().enumerate() {
            // Index `i ^ 56` is square `i` on the mirrored rank.
            builder.board[i ^ 56] = square.map(|(color, piece)| (!color, piece));
        }
        for color in Color::ALL {
            builder.castling[(!color).index()] = from.castling[color.index()];
        }
        builder
            .build()
            .expect("the rules of chess are the same for both colours")
    }
}
