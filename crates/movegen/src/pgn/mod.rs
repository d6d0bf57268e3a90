//! Portable Game Notation: reading games (tag pairs, SAN movetext, comments,
//! NAGs, nested variations, `%` escape lines, several games a file, `SetUp`
//! and `FEN`, Chess960) and writing them in the export format, with the
//! `Date` tag's day worked out by [`PgnDate`].
//!
//! A game is a tree: the [`PgnGame::mainline`] is a [`Line`] of [`Node`]s,
//! and each node's `variations` are the alternatives to its move, each a
//! `Line` from the same position. Moves are kept as legal [`Move`]s, so a
//! game that was read is a game that can be replayed; SAN is worked out
//! again on writing.
//!
//! ```
//! use movegen::pgn::{read_games, PgnGame};
//!
//! let text = "[White \"Morphy\"]\n\n1. e4 e5 (1... c5 $1 { Sicilian }) 2. Nf3 1-0\n";
//! let games: Vec<PgnGame> = read_games(text).collect::<Result<_, _>>().unwrap();
//! assert_eq!(games[0].tag("White"), Some("Morphy"));
//! assert_eq!(games[0].mainline.moves.len(), 3);
//! let written = games[0].to_string();
//! assert!(written.contains("1. e4 e5 ( 1... c5 $1 { Sicilian } ) 2. Nf3 1-0"));
//! ```
//!
//! Reading is a line-by-line state machine, so [`PgnReader`] (with the `std`
//! feature) streams a file of any size in memory bounded by its longest
//! game. A game with an error is reported once, as a [`PgnError`] naming the
//! game number, the move number and the token; the reader then skips to the
//! end of that game and goes on with the next.
//!
//! Decisions where the standard is silent or readers differ (python-chess
//! is the reference the tests compare with):
//! - a game ends at its result token, or where a tag line begins a new game;
//!   a game cut off by the end of the input is kept, its result `*`;
//! - brace comments are trimmed; several comments at one place are kept
//!   apart and written one after the other; a `;` rest-of-line comment is
//!   read past, not kept (as python-chess does);
//! - a comment before a line's first move belongs to the line
//!   ([`Line::comments`]); any other comment follows the move before it;
//! - `!`, `?`, `!!`, `??`, `!?` and `?!` become NAGs 1 to 6 (`$1`..`$6`);
//! - `Variant` may be absent, `Standard`, `Chess960` (or `chess 960`,
//!   `Fischerandom`) or `From Position`; castling in the `FEN` tag may be
//!   X-FEN (`KQkq`) or Shredder-FEN (`HAha`); other variants are an error.
//!   Null moves (`--`) are not read.

mod date;
mod error;
mod lex;
mod machine;
#[cfg(feature = "std")]
mod reader;
mod write;

#[cfg(test)]
mod tests;

pub use date::PgnDate;
pub use error::{PgnError, PgnErrorKind};
pub use machine::{read_games, ReadGames};
#[cfg(feature = "std")]
pub use reader::PgnReader;
pub use write::write_game;

use crate::game::Game;
use crate::moves::{Move, MoveError};
use crate::position::Position;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The Seven Tag Roster, in the order the export format writes it.
///
/// # Examples
///
/// ```
/// use movegen::pgn::{PgnGame, SEVEN_TAG_ROSTER};
/// use movegen::Position;
///
/// assert_eq!(SEVEN_TAG_ROSTER[0], "Event");
/// // Written games always carry the roster, in this order.
/// let text = PgnGame::new(Position::startpos()).to_string();
/// let names: Vec<&str> =
///     text.lines().take(7).map(|l| l[1..].split(' ').next().unwrap()).collect();
/// assert_eq!(names, SEVEN_TAG_ROSTER);
/// ```
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// How a game ended, as a PGN result token.
///
/// # Examples
///
/// ```
/// use movegen::pgn::{read_games, GameResult};
///
/// let game = read_games("1. e4 e5 1/2-1/2").next().unwrap().unwrap();
/// assert_eq!(game.result(), GameResult::Draw);
/// assert_eq!(GameResult::from_token(game.result().as_str()), Some(GameResult::Draw));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, or the game goes on.
    Unknown,
}

impl GameResult {
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    ///
    /// ```
    /// assert_eq!(movegen::pgn::GameResult::Draw.as_str(), "1/2-1/2");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result a token stands for, or `None` for any other text.
    ///
    /// ```
    /// use movegen::pgn::GameResult;
    /// assert_eq!(GameResult::from_token("0-1"), Some(GameResult::BlackWins));
    /// assert_eq!(GameResult::from_token("0-0"), None);
    /// ```
    pub fn from_token(text: &str) -> Option<GameResult> {
        Some(match text {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// One move of a line with what is written about it.
///
/// # Examples
///
/// ```
/// use movegen::pgn::read_games;
///
/// let game = read_games("1. e4!? { king's pawn } (1. d4) e5 *").next().unwrap().unwrap();
/// let first = &game.mainline.moves[0];
/// assert_eq!(first.mv.to_string(), "e2e4");
/// assert_eq!(first.nags, [5]); // `!?`
/// assert_eq!(first.comments, ["king's pawn"]);
/// assert_eq!(first.variations[0].moves[0].mv.to_string(), "d2d4");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move, legal in the position where it is played.
    pub mv: Move,
    /// Numeric annotation glyphs (`$1` is `!`, `$2` is `?`, ...), in the
    /// order read.
    pub nags: Vec<u8>,
    /// Comments after the move, trimmed.
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line from the same position.
    pub variations: Vec<Line>,
}

impl Node {
    /// A node for `mv` with no annotations.
    ///
    /// ```
    /// use movegen::{pgn::Node, Position};
    /// let pos = Position::startpos();
    /// let node = Node::new(pos.parse_san("e4").unwrap());
    /// assert!(node.nags.is_empty() && node.variations.is_empty());
    /// ```
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves from one position: the mainline, or a variation.
///
/// # Examples
///
/// ```
/// use movegen::pgn::{read_games, Line};
///
/// // A comment before the first move (after the tags) is the game comment.
/// let text = "[Event \"?\"]\n\n{ A short game. } 1. e4 (1. d4 d5) e5 *";
/// let game = read_games(text).next().unwrap().unwrap();
/// let main: &Line = &game.mainline;
/// assert_eq!(main.comments, ["A short game."]);
/// assert_eq!(main.moves.len(), 2);
/// assert_eq!(main.moves[0].variations[0].moves.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move (for the mainline: the game comment).
    pub comments: Vec<String>,
    /// The moves, in order.
    pub moves: Vec<Node>,
}

/// A game: its tags, start position and move tree.
///
/// # Examples
///
/// ```
/// use movegen::pgn::{read_games, GameResult, PgnGame};
/// use movegen::{CastlingMode, Position};
///
/// let text = "[Event \"Casual\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. O-O-O Kf7 *\n";
/// let game: PgnGame = read_games(text).next().unwrap().unwrap();
/// assert_eq!(game.start, Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap());
/// assert_eq!(game.tag("Event"), Some("Casual"));
/// assert_eq!(game.termination, GameResult::Unknown);
/// assert_eq!(game.mainline.moves[0].mv.to_uci(CastlingMode::Standard).to_string(), "e1c1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in the order read (names are case-sensitive).
    pub tags: Vec<(String, String)>,
    /// The position the game starts from (the `FEN` tag, or the standard
    /// start).
    pub start: Position,
    /// The moves played, with comments and variations.
    pub mainline: Line,
    /// The result token that ended the movetext (`*` if there was none).
    pub termination: GameResult,
}

impl PgnGame {
    /// A game from `start` with no tags and no moves.
    ///
    /// ```
    /// use movegen::{pgn::PgnGame, Position};
    /// let game = PgnGame::new(Position::startpos());
    /// assert!(game.to_string().starts_with("[Event \"?\"]\n"));
    /// ```
    pub fn new(start: Position) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start,
            mainline: Line::default(),
            termination: GameResult::Unknown,
        }
    }

    /// The value of tag `name`, if present.
    ///
    /// ```
    /// use movegen::{pgn::PgnGame, Position};
    /// let mut game = PgnGame::new(Position::startpos());
    /// game.set_tag("White", "Anderssen");
    /// assert_eq!(game.tag("White"), Some("Anderssen"));
    /// assert_eq!(game.tag("Black"), None);
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing its value, or adding it at the end).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::pgn::PgnGame;
    /// use movegen::Position;
    ///
    /// let mut game = PgnGame::new(Position::startpos());
    /// game.set_tag("White", "Anderssen");
    /// game.set_tag("White", "Morphy"); // replaces
    /// game.set_tag("Annotator", "Steinitz"); // adds
    /// assert_eq!(game.tag("White"), Some("Morphy"));
    /// assert_eq!(game.tags.len(), 2);
    /// ```
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The result: the `Result` tag if it holds a result token other than
    /// `*`, else the token that ended the movetext.
    ///
    /// ```
    /// use movegen::pgn::{read_games, GameResult};
    /// let game = read_games("1. f3 e5 2. g4 Qh4# 0-1").next().unwrap().unwrap();
    /// assert_eq!(game.result(), GameResult::BlackWins);
    /// ```
    pub fn result(&self) -> GameResult {
        match self.tag("Result").and_then(GameResult::from_token) {
            Some(result) if result != GameResult::Unknown => result,
            _ => self.termination,
        }
    }

    /// The mainline as a [`Game`] (positions, repetitions, outcome).
    ///
    /// ```
    /// use movegen::pgn::read_games;
    /// let game = read_games("1. f3 e5 2. g4 Qh4# 0-1").next().unwrap().unwrap();
    /// assert!(game.game().unwrap().outcome().is_some());
    /// ```
    ///
    /// # Errors
    /// [`MoveError::Illegal`] if a mainline move is not legal where it is
    /// played (only possible in a game built by hand).
    pub fn game(&self) -> Result<Game, MoveError> {
        let mut game = Game::new(self.start);
        for node in &self.mainline.moves {
            game.play(node.mv)?;
        }
        Ok(game)
    }
}

impl core::fmt::Display for PgnGame {
    /// The game in the export format (see [`write_game`]).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&write_game(self))
    }
}
