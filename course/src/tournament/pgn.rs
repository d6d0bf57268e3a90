//! A tournament game as PGN: the referee crate's (issue 64), written by movegen's writer.

pub use ::referee::pgn::{today, write, Header};
