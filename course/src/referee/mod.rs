//! The referee: UCI engines as child processes, spoken to over pipes as a GUI would, and games
//! between them judged by movegen.
//!
//! The engines are never trusted: every answer is awaited with a deadline, every move is
//! matched against the legal moves of the position (a move that is not one loses the game), and
//! the clocks are kept here, not by the engines. A game ends by the rules (movegen's
//! [`Game::outcome`](movegen::Game::outcome): mate, stalemate, insufficient material, and the
//! fifty-move and threefold-repetition draws as soon as they could be claimed), by the move
//! limit, or by a forfeit: no `bestmove` in time, an illegal or malformed one, or an engine
//! that stopped.

mod engine;
mod game;

// The clock and time controls (shared with the board page) and the game's result types are
// the referee crate's.
pub use ::referee::{decimal_seconds, Clock, TimeControl, TimeControlError};
pub use ::referee::{Ending, Fault, Played, Rules};
pub use engine::{resolve, Engine, EngineSpec, NoAnswer, StartError, ANSWER_TIMEOUT};
pub use game::{play, position_command};
