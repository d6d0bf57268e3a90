//! What a game between engines or people needs beyond the board rules, shared by the board
//! page (`engine gui`) and the course's referee and tournament.
//!
//! Issue 64 asks for one owner for each of these jobs. This crate is that owner, and its place
//! in the dependency order is beside `search`: it needs movegen only, so the engine binary and
//! the course can both depend on it. It starts with the clock: [`TimeControl`] (cutechess-cli's
//! `40/10+0.1`) and [`Clock`], one type for both sides' time. The course's referee (UCI engines
//! as child processes), its tournament table and schedule are to move here next; the PGN of a
//! game is written by `movegen::pgn`, which both callers use directly.
//!
//! Every clock method that reads the time takes the current [`Instant`](std::time::Instant), so
//! the rules are tested without waiting.
#![deny(missing_docs)]

mod clock;

pub use clock::{decimal_seconds, Clock, TimeControl, TimeControlError};
