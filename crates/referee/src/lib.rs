//! What a game between engines or people needs beyond the board rules, shared by the board
//! page (`engine gui`) and the course's referee and tournament.
//!
//! Issue 64 asks for one owner for each of these jobs. This crate is that owner, and its place
//! in the dependency order is beside `search`: it needs movegen only, so the engine binary and
//! the course can both depend on it. It holds:
//! - the clock: [`TimeControl`] (cutechess-cli's `40/10+0.1`) and [`Clock`], one type for both
//!   sides' time, running at a board or charged by a referee;
//! - how an engine game went: [`Rules`], [`Ending`], [`Fault`], [`Played`];
//! - the tournament's results [`Table`] (crosstable, standings, Elo) and its [`pgn`] (built on
//!   `movegen::pgn`, the workspace's one PGN writer).
//!
//! The course's engine driver (UCI engines as child processes in its sandbox) and its game
//! loop still live in the course; they are to follow, with the sandbox handed in as a confine
//! step, after the process driver the issue asks for.
//!
//! Every clock method that reads the time takes the current [`Instant`](std::time::Instant), so
//! the rules are tested without waiting.
#![deny(missing_docs)]

mod clock;
mod game;
pub mod pgn;
mod table;

pub use clock::{decimal_seconds, Clock, TimeControl, TimeControlError};
pub use game::{Ending, Fault, Played, Rules};
pub use table::{elo, Elo, Table};
