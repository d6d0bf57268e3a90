//! How a game between engines went: the rules it was played under, how it ended (by the
//! board, by the move limit, or by a forfeit) and the moves with their times. The course's
//! referee plays the games; the table and the PGN read these.

use std::fmt;
use std::time::Duration;

use movegen::{Color, Game, Outcome, Position};

use crate::clock::{decimal_seconds, TimeControl};

/// The settings a game is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// The time control.
    pub tc: TimeControl,
    /// Time an engine may take beyond its clock before it loses on time (for the pipes and
    /// the scheduler, which the clock charges to the engine).
    pub margin: Duration,
    /// A game still going after this many moves of each side is adjudicated a draw.
    pub max_moves: Option<u32>,
    /// How long an engine has to answer `isready` before a game.
    pub ready_timeout: Duration,
}

/// Why an engine lost a game without the board deciding it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// No `bestmove` within the time it had (clock and margin).
    Time(Duration),
    /// A `bestmove` that is not a legal move: the words after `bestmove`.
    Illegal(String),
    /// The engine stopped (how), could not be restarted, or did not get ready for the game.
    Crash(String),
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// By the rules: mate, stalemate, insufficient material, fifty moves, threefold repetition.
    Rules(Outcome),
    /// A draw after the move limit.
    MoveLimit,
    /// The loser's fault.
    Forfeit {
        /// The side that lost.
        loser: Color,
        /// What it did.
        fault: Fault,
    },
}

impl Ending {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Rules(outcome) => outcome.winner(),
            Ending::MoveLimit => None,
            Ending::Forfeit { loser, .. } => Some(!*loser),
        }
    }

    /// The result as PGN writes it.
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// PGN's `Termination` tag.
    pub fn termination(&self) -> &'static str {
        match self {
            Ending::Rules(_) => "normal",
            Ending::MoveLimit => "adjudication",
            Ending::Forfeit { fault, .. } => match fault {
                Fault::Time(_) => "time forfeit",
                Fault::Illegal(_) => "illegal move",
                Fault::Crash(_) => "abandoned",
            },
        }
    }
}

impl fmt::Display for Ending {
    /// A sentence for the PGN comment and the progress line: `Black loses on time (...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(outcome) => write!(f, "{outcome}"),
            Ending::MoveLimit => f.write_str("draw by the move limit"),
            Ending::Forfeit { loser, fault } => match fault {
                Fault::Time(allowed) => write!(
                    f,
                    "{loser:?} loses on time (no bestmove within {} s)",
                    decimal_seconds(*allowed)
                ),
                Fault::Illegal(words) if words.is_empty() => {
                    write!(
                        f,
                        "{loser:?} loses by an illegal move (`bestmove` without a move)"
                    )
                }
                Fault::Illegal(words) => {
                    write!(f, "{loser:?} loses by an illegal move (`bestmove {words}`)")
                }
                Fault::Crash(how) => write!(f, "{loser:?} forfeits: its engine {how}"),
            },
        }
    }
}

/// A game as it was played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// The start position and the moves.
    pub game: Game,
    /// How it ended.
    pub ending: Ending,
    /// The time each move took, from `go` to `bestmove`.
    pub times: Vec<Duration>,
    /// Whether both engines were ready for it (a game forfeited before that was not played).
    pub started: bool,
}

impl Played {
    /// A game `loser` forfeited before it started.
    pub fn unstarted(start: Position, loser: Color, fault: Fault) -> Played {
        Played {
            game: Game::new(start),
            ending: Ending::Forfeit { loser, fault },
            times: Vec::new(),
            started: false,
        }
    }
}
