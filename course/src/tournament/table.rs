//! The results table: the referee crate's (issue 64), read by the tournament.

pub use ::referee::{elo, Elo, Table};
