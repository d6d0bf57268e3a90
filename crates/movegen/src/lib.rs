#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
// The core is `no_std` with `alloc`; threads, I/O and CPU feature detection
// come with the default `std` feature. Tests always have std.
#![cfg_attr(not(any(feature = "std", test)), no_std)]

extern crate alloc;

pub mod attacks;
mod bitboard;
mod builder;
mod castling;
mod castling_mode;
mod chess960;
mod explain;
mod fen;
mod game;
mod generate;
mod king_moves;
#[cfg(test)]
mod magic_numbers;
mod make;
mod masks;
mod move_info;
mod move_list;
mod move_sets;
mod moves;
mod names;
pub mod perft;
pub mod pgn;
mod piece;
mod polyglot;
mod polyglot_keys;
mod position;
// The workspace's one seeded generator (the zobrist keys, and the search's
// datagen, the trainer, the course and the tests): public for them, outside
// the documented API.
#[doc(hidden)]
pub mod rng;
mod san;
#[cfg(feature = "serde")]
mod serde_impls;
#[cfg(test)]
mod slow;
mod square;
pub mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use builder::PositionBuilder;
pub use castling::{CastleSide, CastlingRights};
pub use castling_mode::CastlingMode;
pub use explain::{explain_move, Illegal, Reason};
pub use fen::FenError;
pub use game::{Game, KeyHistory, Outcome};
pub use generate::MoveSink;
pub use masks::{attacked_by, check_mask, piece_attacks, pin_rays, pins, Pin};
pub use move_list::{MoveList, MoveListIter, MAX_MOVES};
pub use move_sets::{PawnMoves, PawnMovesIter, PieceMoves, PieceMovesIter};
pub use moves::{Move, MoveError, MoveKind, UciMove};
pub use names::ParseNameError;
pub use piece::{Color, Piece};
pub use position::{Position, STARTPOS_FEN};
pub use san::{San, SanError, Suffix};
pub use square::{File, ParseSquareError, Rank, Square};
