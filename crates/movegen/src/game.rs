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
#[derive(Clone, PartialEq, Eq, Default, Debug)]
pub struct KeyHistory {
    keys: Vec<u64>,
}

impl KeyHistory {
    /// An empty history.
    pub fn new() -> KeyHistory {
        KeyHistory::default()
    }

    /// A copy with room for `extra` more keys, so that pushing them does not
    /// allocate (a search reserves its maximum depth).
    pub fn with_room(&self, extra: usize) -> KeyHistory {
        let mut keys = Vec::with_capacity(self.keys.len() + extra);
        keys.extend_from_slice(&self.keys);
        KeyHistory { keys }
    }

    /// Appends the key of the position just left.
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
    }

    /// Removes the newest key.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<u64> {
        self.keys.pop()
    }

    /// The number of keys.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys, oldest first.
    pub fn as_slice(&self) -> &[u64] {
        &self.keys
    }

    /// The indices of the earlier positions that the position after the
    /// newest key could repeat, newest first: the same side to move, no
    /// further back than `reversible` plies (its half-move clock: nothing
    /// before a capture or pawn move can recur) and not below `floor`.
    #[inline]
    pub fn candidates(&self, reversible: u32, floor: usize) -> impl Iterator<Item = usize> {
        let len = self.keys.len();
        let reach = (reversible as usize).min(len);
        let start = floor.max(len - reach);
        (start..len).rev().skip(1).step_by(2)
    }

    /// Whether `key`, the position after the newest key, occurred among the
    /// [`candidates`](KeyHistory::candidates): the search's repetition test.
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
    /// let e4 = game.position().parse_uci_move("e2e4", false)?;
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

    /// Plays the move written `text` in UCI notation (castling as
    /// king-takes-rook if `chess960`, see [`Position::parse_uci_move`]).
    ///
    /// # Errors
    /// A [`MoveError`]; the game is unchanged.
    ///
    /// ```
    /// use movegen::{Game, MoveError};
    ///
    /// let mut game = Game::default();
    /// game.play_uci("g1f3", false)?;
    /// assert_eq!(game.play_uci("e2e4", false), Err(MoveError::Illegal));
    /// assert_eq!(game.play_uci("e7e9", false), Err(MoveError::Malformed));
    /// # Ok::<(), MoveError>(())
    /// ```
    pub fn play_uci(&mut self, text: &str, chess960: bool) -> Result<Move, MoveError> {
        let mv = self.position().parse_uci_move(text, chess960)?;
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
    pub fn outcome(&self) -> Option<Outcome> {
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
        if pos.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if pos.halfmove_clock() >= 100 {
            Some(Outcome::FiftyMoves)
        } else if self.repetitions() >= 3 {
            Some(Outcome::Repetition)
        } else {
            None
        }
    }

    /// The moves in SAN with move numbers, as in PGN (`1. e4 e5 2. Nf3`;
    /// a game starting with Black to move begins `1... e5`).
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
