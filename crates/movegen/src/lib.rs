//! Bitboard legal move generation for chess.
//!
//! The generator never plays a move to see whether it leaves the king in
//! check. Instead every [`Position`] carries the pieces giving check and the
//! pieces pinned to the king, computed once when the position is made, and each
//! piece's targets are masked by them: with two checkers only the king moves;
//! with one, the others may only capture the checker or block its line; a
//! pinned piece stays on the line through its king. En passant, the one move
//! that removes two pieces from a rank, re-tests the king directly.
//!
//! Moves come out as sets into a [`MoveSink`]: per piece as a source square
//! and a target set ([`PieceMoves`]), and for unpinned pawns one set per kind
//! of move with the index step back to the source ([`PawnMoves`]), so the
//! last ply of [`perft`] is a handful of population counts. Positions are
//! small and `Copy`; [`Position::play`] is copy-make.
//!
//! ```
//! use movegen::{perft, Position};
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(perft(&pos, 3), 8_902);
//! let mv = pos.parse_uci_move("e2e4", false).unwrap();
//! let next = pos.play(mv);
//! assert_eq!(next.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! ```
#![deny(missing_docs)]

pub mod attacks;
mod bitboard;
mod castling;
mod explain;
mod fen;
mod generate;
mod make;
mod masks;
mod move_list;
mod move_sets;
mod moves;
mod perft;
mod piece;
mod position;
#[cfg(test)]
mod slow;
mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::{CastleSide, CastlingRights};
pub use explain::{explain_move, Illegal, Reason};
pub use fen::FenError;
pub use generate::MoveSink;
pub use masks::{attacked_by, check_mask, piece_attacks, pin_rays, pins, Pin};
pub use move_list::{MoveList, MAX_MOVES};
pub use move_sets::{PawnMoves, PawnMovesIter, PieceMoves, PieceMovesIter};
pub use moves::{Move, MoveError, MoveKind, UciMove};
pub use perft::{
    count_units, divide, divide_parallel, divide_streamed, divide_until, divide_with, merge, perft,
    perft_hashed, perft_parallel, perft_with, read_units, result_line, split, write_units,
    MergeError, PerftHash, Unit, UnitsError, UnitsFile, UnitsHeader,
};
pub use piece::{Color, Piece};
pub use position::{Position, STARTPOS_FEN};
pub use square::{File, Rank, Square};
