//! A game: the positions played from a start, and how it ends.
//!
//! Repetitions are found by zobrist key and confirmed by comparing the
//! positions themselves, so a key collision can never end a game. The search
//! keeps only keys (a collision there costs a misjudged node, not a result)
//! and shares the rule for where to look with the game: [`KeyHistory`].

use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::moves::{Move, MoveError, MoveKind};
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::san::SanError;
use crate::zobrist;
use alloc::{
    format,
    string::{String, ToString},
    vec,
    vec::Vec,
};
use core::fmt;

/// How a game ended.
///
/// # Examples
///
/// ```
/// use movegen::{Color, Game, Outcome, Position};
///
/// let mut game = Game::new(Position::startpos());
/// for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     game.play_uci(mv).unwrap();
/// }
/// assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
/// assert_eq!(game.outcome().unwrap().result(), "0-1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The side to move is mated; `winner` gave the mate.
    Checkmate {
        /// The side that mated.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has the pieces to mate (see
    /// [`Position::is_insufficient_material`]).
    InsufficientMaterial,
    /// A hundred plies without a capture or a pawn move (a claimable draw;
    /// automatic at 150 plies, the 75-move rule).
    FiftyMoves,
    /// The position has occurred three times, the same side to move each
    /// time (a claimable draw; automatic at five times).
    Repetition,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    ///
    /// ```
    /// use movegen::{Color, Outcome};
    ///
    /// assert_eq!(Outcome::Checkmate { winner: Color::Black }.winner(), Some(Color::Black));
    /// assert_eq!(Outcome::Stalemate.winner(), None);
    /// ```
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }

    /// The result as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
    ///
    /// ```
    /// use movegen::{Color, Outcome};
    ///
    /// assert_eq!(Outcome::Checkmate { winner: Color::White }.result(), "1-0");
    /// assert_eq!(Outcome::Repetition.result(), "1/2-1/2");
    /// ```
    pub fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "{winner:?} wins by checkmate"),
            Outcome::Stalemate => f.write_str("draw by stalemate"),
            Outcome::InsufficientMaterial => f.write_str("draw by insufficient material"),
            Outcome::FiftyMoves => f.write_str("draw by the fifty-move rule"),
            Outcome::Repetition => f.write_str("draw by threefold repetition"),
        }
    }
}

/// The zobrist keys of a line of play, oldest first, and the one rule for
/// which earlier positions the next one could repeat. A [`Game`] keeps one;
/// a search extends a copy with the keys along its path.
///
/// # Examples
///
/// ```
/// use movegen::{Game, Position};
///
/// let mut game = Game::new(Position::startpos());
/// for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
///     game.play_uci(mv).unwrap();
/// }
/// // The start position is back, four plies later.
/// let history = game.keys();
/// assert_eq!(history.len(), 4);
/// assert_eq!(history.as_slice()[0], game.position().key());
/// assert!(history.repeats(game.position().key(), game.position().halfmove_clock(), 0));
/// ```
#[derive(Clone, PartialEq, Eq, Default, Debug)]
pub struct KeyHistory {
    keys: Vec<u64>,
}

impl KeyHistory {
    /// An empty history.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::KeyHistory;
    ///
    /// let history = KeyHistory::new();
    /// assert!(history.is_empty());
    /// assert_eq!(history.as_slice(), &[] as &[u64]);
    /// ```
    pub fn new() -> KeyHistory {
        KeyHistory::default()
    }

    /// A copy with room for `extra` more keys, so that pushing them does not
    /// allocate (a search reserves its maximum depth).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::KeyHistory;
    ///
    /// let mut history = KeyHistory::new();
    /// history.push(7);
    /// let copy = history.with_room(64);
    /// assert_eq!(copy, history);
    /// assert!(copy.as_slice().len() == 1);
    /// ```
    pub fn with_room(&self, extra: usize) -> KeyHistory {
        let mut keys = Vec::with_capacity(self.keys.len() + extra);
        keys.extend_from_slice(&self.keys);
        KeyHistory { keys }
    }

    /// Appends the key of the position just left.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{KeyHistory, Position};
    ///
    /// let pos = Position::startpos();
    /// let mut history = KeyHistory::new();
    /// history.push(pos.key());
    /// let next = pos.play(pos.parse_uci_move("e2e4").unwrap());
    /// history.push(next.key());
    /// assert_eq!(history.as_slice(), &[pos.key(), next.key()]);
    /// ```
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
    }

    /// Removes the newest key.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::KeyHistory;
    ///
    /// let mut history = KeyHistory::new();
    /// history.push(1);
    /// history.push(2);
    /// assert_eq!(history.pop(), Some(2));
    /// assert_eq!(history.pop(), Some(1));
    /// assert_eq!(history.pop(), None);
    /// ```
    #[inline(always)]
    pub fn pop(&mut self) -> Option<u64> {
        self.keys.pop()
    }

    /// The number of keys.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::KeyHistory;
    ///
    /// let mut history = KeyHistory::new();
    /// assert_eq!(history.len(), 0);
    /// history.push(42);
    /// assert_eq!(history.len(), 1);
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are no keys.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::KeyHistory;
    ///
    /// let mut history = KeyHistory::new();
    /// assert!(history.is_empty());
    /// history.push(42);
    /// assert!(!history.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys, oldest first.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::KeyHistory;
    ///
    /// let mut history = KeyHistory::new();
    /// for key in [3, 1, 2] {
    ///     history.push(key);
    /// }
    /// assert_eq!(history.as_slice(), &[3, 1, 2]);
    /// ```
    pub fn as_slice(&self) -> &[u64] {
        &self.keys
    }

    /// The indices of the earlier positions that the position after the
    /// newest key could repeat, newest first: the same side to move, no
    /// further back than `reversible` plies (its half-move clock: nothing
    /// before a capture or pawn move can recur) and not below `floor`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::KeyHistory;
    ///
    /// let mut history = KeyHistory::new();
    /// for key in 0..6 {
    ///     history.push(key);
    /// }
    /// // Same side to move: every second key back from the newest but one.
    /// assert_eq!(history.candidates(100, 0).collect::<Vec<_>>(), [4, 2, 0]);
    /// // A capture two plies ago: nothing before it can recur.
    /// assert_eq!(history.candidates(2, 0).collect::<Vec<_>>(), [4]);
    /// // And nothing below the floor.
    /// assert_eq!(history.candidates(100, 3).collect::<Vec<_>>(), [4]);
    /// ```
    #[inline]
    pub fn candidates(&self, reversible: u32, floor: usize) -> impl Iterator<Item = usize> {
        let len = self.keys.len();
        let reach = (reversible as usize).min(len);
        let start = floor.max(len - reach);
        (start..len).rev().skip(1).step_by(2)
    }

    /// Whether `key`, the position after the newest key, occurred among the
    /// [`candidates`](KeyHistory::candidates): the search's repetition test.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{KeyHistory, Position};
    ///
    /// let start = Position::startpos();
    /// let mut history = KeyHistory::new();
    /// let mut pos = start;
    /// for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     history.push(pos.key());
    ///     pos = pos.play(pos.parse_uci_move(mv).unwrap());
    /// }
    /// assert_eq!(pos.key(), start.key()); // the clocks differ
    /// assert!(history.repeats(pos.key(), pos.halfmove_clock(), 0));
    /// assert!(!history.repeats(pos.key(), pos.halfmove_clock(), 1));
    /// ```
    #[inline]
    pub fn repeats(&self, key: u64, reversible: u32, floor: usize) -> bool {
        self.candidates(reversible, floor)
            .any(|i| self.keys[i] == key)
    }
}

/// A game: a start position, the moves played and every position reached.
///
/// ```
/// use movegen::{Game, Outcome, Position};
///
/// let mut game = Game::new(Position::startpos());
/// for san in ["f3", "e5", "g4", "Qh4"] {
///     game.play_san(san).unwrap();
/// }
/// assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: movegen::Color::Black }));
/// assert_eq!(game.movetext(), "1. f3 e5 2. g4 Qh4#");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Repetition keys of every position but the last.
    keys: KeyHistory,
}

impl Game {
    /// A game starting at `start`.
    ///
    /// ```
    /// use movegen::{Game, Position};
    ///
    /// let game = Game::new(Position::chess960(0).unwrap());
    /// assert!(game.moves().is_empty());
    /// ```
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            keys: KeyHistory::new(),
        }
    }

    /// The current position.
    ///
    /// ```
    /// use movegen::Game;
    ///
    /// let mut game = Game::default();
    /// game.play_san("e4")?;
    /// assert_eq!(game.position().fullmove_number(), 1);
    /// # Ok::<(), movegen::SanError>(())
    /// ```
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game holds its start position")
    }

    /// The start position.
    ///
    /// ```
    /// use movegen::{Game, Position};
    ///
    /// let mut game = Game::default();
    /// game.play_san("d4")?;
    /// assert_eq!(*game.start(), Position::startpos());
    /// # Ok::<(), movegen::SanError>(())
    /// ```
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played, in order.
    ///
    /// ```
    /// use movegen::Game;
    ///
    /// let mut game = Game::default();
    /// let e4 = game.play_san("e4")?;
    /// assert_eq!(game.moves(), [e4]);
    /// # Ok::<(), movegen::SanError>(())
    /// ```
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current last.
    ///
    /// ```
    /// use movegen::Game;
    ///
    /// let mut game = Game::default();
    /// game.play_san("e4")?;
    /// assert_eq!(game.positions().len(), 2);
    /// # Ok::<(), movegen::SanError>(())
    /// ```
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The keys of the positions before the current one, oldest first, for
    /// a search's repetition detection.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Game, Position};
    ///
    /// let mut game = Game::new(Position::startpos());
    /// game.play_uci("e2e4").unwrap();
    /// assert_eq!(game.keys().as_slice(), &[Position::startpos().key()]);
    /// ```
    pub fn keys(&self) -> &KeyHistory {
        &self.keys
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] if `mv` is not legal in the current position;
    /// the game is unchanged.
    ///
    /// ```
    /// use movegen::{Game, Move, MoveError};
    ///
    /// let mut game = Game::default();
    /// let e4 = game.position().parse_uci_move("e2e4")?;
    /// game.play(e4)?;
    /// assert_eq!(game.play(e4), Err(MoveError::Illegal)); // Black to move now
    /// assert_eq!(game.play(Move::NULL), Err(MoveError::Illegal));
    /// # Ok::<(), MoveError>(())
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        let pos = *self.position();
        if !pos.is_legal(mv) {
            return Err(MoveError::Illegal);
        }
        self.keys.push(repetition_key(&pos));
        self.positions.push(pos.play_generated(mv));
        self.moves.push(mv);
        Ok(())
    }

    /// Plays the move written `text` in UCI notation, castling read in the
    /// current position's [`CastlingMode`](crate::CastlingMode) (see
    /// [`Position::parse_uci_move`]).
    ///
    /// # Errors
    /// A [`MoveError`]; the game is unchanged.
    ///
    /// ```
    /// use movegen::{Game, MoveError};
    ///
    /// let mut game = Game::default();
    /// game.play_uci("g1f3")?;
    /// assert_eq!(game.play_uci("e2e4"), Err(MoveError::Illegal));
    /// assert_eq!(game.play_uci("e7e9"), Err(MoveError::Malformed));
    /// # Ok::<(), MoveError>(())
    /// ```
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.position().parse_uci_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays the move written `text` in SAN (see [`Position::parse_san`]).
    ///
    /// # Errors
    /// A [`SanError`]; the game is unchanged.
    ///
    /// ```
    /// use movegen::{Game, SanError};
    ///
    /// let mut game = Game::default();
    /// game.play_san("Nf3")?;
    /// assert_eq!(game.play_san("Nf3"), Err(SanError::Illegal));
    /// # Ok::<(), SanError>(())
    /// ```
    pub fn play_san(&mut self, text: &str) -> Result<Move, SanError> {
        let mv = self.position().parse_san(text)?;
        self.play(mv).map_err(|_| SanError::Illegal)?;
        Ok(mv)
    }

    /// Takes back the last move and returns it, or `None` at the start.
    ///
    /// ```
    /// use movegen::{Game, Position};
    ///
    /// let mut game = Game::default();
    /// let e4 = game.play_san("e4")?;
    /// assert_eq!(game.undo(), Some(e4));
    /// assert_eq!(*game.position(), Position::startpos());
    /// assert_eq!(game.undo(), None);
    /// # Ok::<(), movegen::SanError>(())
    /// ```
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        Some(mv)
    }

    /// How many times the current position has occurred, this time included:
    /// same pieces, side to move, castling rights and en-passant capture.
    ///
    /// ```
    /// use movegen::Game;
    ///
    /// let mut game = Game::default();
    /// for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     game.play_san(san)?;
    /// }
    /// assert_eq!(game.repetitions(), 2);
    /// # Ok::<(), movegen::SanError>(())
    /// ```
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        let key = repetition_key(now);
        let earlier = self
            .keys
            .candidates(now.halfmove_clock(), 0)
            .filter(|&i| self.keys.as_slice()[i] == key && same_position(&self.positions[i], now))
            .count();
        1 + earlier
    }

    /// The outcome that ends the game without anyone claiming it (FIDE's
    /// rules): mate, stalemate, insufficient material, 75 moves
    /// ([`Outcome::FiftyMoves`] at 150 plies) or fivefold repetition
    /// ([`Outcome::Repetition`] at five occurrences). `None` while play
    /// must go on, even if a draw may be claimed ([`Game::claimable_draw`]).
    ///
    /// ```
    /// use movegen::{Game, Outcome};
    ///
    /// let mut game = Game::default();
    /// for _ in 0..2 {
    ///     for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
    ///         game.play_san(san)?;
    ///     }
    /// }
    /// // Three times: a player may claim the draw, but play goes on.
    /// assert_eq!(game.claimable_draw(), Some(Outcome::Repetition));
    /// assert_eq!(game.automatic_outcome(), None);
    /// for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     game.play_san(san)?;
    /// }
    /// assert_eq!(game.automatic_outcome(), Some(Outcome::Repetition));
    /// # Ok::<(), movegen::SanError>(())
    /// ```
    pub fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if let Some(end) = self.board_end() {
            return Some(end);
        }
        if pos.halfmove_clock() >= 150 {
            Some(Outcome::FiftyMoves)
        } else if self.repetitions() >= 5 {
            Some(Outcome::Repetition)
        } else {
            None
        }
    }

    /// A draw the side to move may claim: [`Outcome::FiftyMoves`] after 100
    /// plies without a capture or pawn move, or [`Outcome::Repetition`] when
    /// the position has occurred three times. `None` if there is none, or
    /// if the game is already over on the board (mate, stalemate,
    /// insufficient material).
    ///
    /// ```
    /// use movegen::{Game, Outcome, Position};
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w - - 100 80".parse().unwrap();
    /// let game = Game::new(pos);
    /// assert_eq!(game.claimable_draw(), Some(Outcome::FiftyMoves));
    /// assert_eq!(game.automatic_outcome(), None);
    /// ```
    pub fn claimable_draw(&self) -> Option<Outcome> {
        if self.board_end().is_some() {
            return None;
        }
        if self.position().halfmove_clock() >= 100 {
            Some(Outcome::FiftyMoves)
        } else if self.repetitions() >= 3 {
            Some(Outcome::Repetition)
        } else {
            None
        }
    }

    /// Mate, stalemate or insufficient material: the endings the board
    /// alone decides.
    fn board_end(&self) -> Option<Outcome> {
        let pos = self.position();
        if !pos.has_legal_move() {
            return Some(if pos.in_check() {
                Outcome::Checkmate {
                    winner: !pos.side_to_move(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        pos.is_insufficient_material()
            .then_some(Outcome::InsufficientMaterial)
    }

    /// How the game has ended, or `None` while it goes on. Draws by the
    /// fifty-move rule and by threefold repetition count as soon as a player
    /// could claim them (as chess GUIs adjudicate them); a mate on the move
    /// that reaches fifty moves still wins. [`Game::automatic_outcome`] and
    /// [`Game::claimable_draw`] tell the two kinds of draw apart.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Game, Outcome, Position};
    ///
    /// let mut game = Game::new(Position::startpos());
    /// assert_eq!(game.outcome(), None);
    /// for mv in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     game.play_uci(mv).unwrap();
    /// }
    /// assert_eq!(game.repetitions(), 3);
    /// assert_eq!(game.outcome(), Some(Outcome::Repetition));
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(end) = self.board_end() {
            Some(end)
        } else if self.position().halfmove_clock() >= 100 {
            Some(Outcome::FiftyMoves)
        } else if self.repetitions() >= 3 {
            Some(Outcome::Repetition)
        } else {
            None
        }
    }

    /// The moves in SAN with move numbers, as in PGN (`1. e4 e5 2. Nf3`;
    /// a game starting with Black to move begins `1... e5`).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Game, Position};
    ///
    /// let mut game = Game::new(Position::startpos());
    /// for san in ["e4", "e5", "Nf3"] {
    ///     game.play_san(san).unwrap();
    /// }
    /// assert_eq!(game.movetext(), "1. e4 e5 2. Nf3");
    /// ```
    pub fn movetext(&self) -> String {
        let mut out = String::new();
        for (pos, &mv) in self.positions.iter().zip(&self.moves) {
            let white = pos.side_to_move() == Color::White;
            if !out.is_empty() {
                out.push(' ');
            }
            if white {
                out.push_str(&format!("{}. ", pos.fullmove_number()));
            } else if out.is_empty() {
                out.push_str(&format!("{}... ", pos.fullmove_number()));
            }
            out.push_str(&pos.san_unchecked(mv).to_string());
        }
        out
    }
}

impl Default for Game {
    /// A game from the standard start position.
    fn default() -> Game {
        Game::new(Position::startpos())
    }
}

/// The en-passant square if a capture onto it is legal: only then does it
/// make the position different (a FEN may name one that no pawn can take).
fn live_ep(pos: &Position) -> Option<crate::Square> {
    pos.ep_square().filter(|_| {
        pos.legal_moves()
            .iter()
            .any(|m| m.kind() == MoveKind::EnPassant)
    })
}

/// The key with a dead en-passant square taken out.
fn repetition_key(pos: &Position) -> u64 {
    match (pos.ep_square(), live_ep(pos)) {
        (Some(ep), None) => pos.key() ^ zobrist::ep_key(ep),
        _ => pos.key(),
    }
}

/// Whether two positions are the same for the repetition rule (clocks aside).
fn same_position(a: &Position, b: &Position) -> bool {
    let rooks = |p: &Position| {
        [Color::White, Color::Black].map(|c| CastleSide::ALL.map(|s| p.castle_rook(c, s)))
    };
    Piece::ALL.iter().all(|&p| a.pieces(p) == b.pieces(p))
        && Color::ALL.iter().all(|&c| a.colored(c) == b.colored(c))
        && a.side_to_move() == b.side_to_move()
        && rooks(a) == rooks(b)
        && live_ep(a) == live_ep(b)
}

impl Position {
    /// Whether neither side can ever mate: no pawns, rooks or queens, and
    /// either at most one knight or bishop in all, or only bishops, all on
    /// squares of one colour. (King and knight against king and knight is
    /// not included: a mate exists, if only with help.)
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let kbk = Position::from_fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").unwrap();
    /// assert!(kbk.is_insufficient_material());
    /// let krk = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    /// assert!(!krk.is_insufficient_material());
    /// assert!(!Position::startpos().is_insufficient_material());
    /// ```
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.pieces(Piece::Pawn) | self.pieces(Piece::Rook) | self.pieces(Piece::Queen);
        if heavy.nonempty() {
            return false;
        }
        let knights = self.pieces(Piece::Knight);
        let bishops = self.pieces(Piece::Bishop);
        const DARK: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
        (knights | bishops).len() <= 1
            || (knights.is_empty() && ((bishops & DARK).is_empty() || (bishops & !DARK).is_empty()))
    }
}

#[cfg(test)]
mod tests;
