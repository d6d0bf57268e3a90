//! The reader's state machine: fed one line at a time, it builds games and
//! reports each finished game or error. The `&str` reader below and the
//! streaming [`PgnReader`](super::PgnReader) both drive it.

use super::error::{PgnError, PgnErrorKind};
use super::lex::{Lexer, Token};
use super::{GameResult, Line, Node, PgnGame};
use crate::castling_mode::CastlingMode;
use crate::position::Position;
use alloc::collections::VecDeque;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Moves (variations included) one game may hold.
pub(crate) const MAX_NODES: usize = 200_000;

/// Where the machine is in its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between games.
    Between,
    /// In a game's tag section.
    Tags,
    /// In a game's movetext.
    Moves,
    /// Skipping the rest of a game that had an error.
    Skip,
}

/// A line being read and the positions it is at.
struct Frame {
    line: Line,
    /// The position before the line's last move (where a variation starts).
    before: Position,
    /// The position after the line's last move.
    pos: Position,
}

/// What a game has so far.
struct Builder {
    game: PgnGame,
    /// The mainline first, then the open variations.
    stack: Vec<Frame>,
    nodes: usize,
}

/// Reads games from lines of PGN.
pub(crate) struct Machine {
    /// Games begun so far (the current game's number).
    games: usize,
    state: State,
    lexer: Lexer,
    builder: Option<Builder>,
    /// Finished games and errors, oldest first.
    pub(crate) out: VecDeque<Result<PgnGame, PgnError>>,
}

impl Machine {
    pub(crate) fn new() -> Machine {
        Machine {
            games: 0,
            state: State::Between,
            lexer: Lexer::default(),
            builder: None,
            out: VecDeque::new(),
        }
    }

    /// Reports an error in the current game and skips the rest of it.
    fn fail(&mut self, kind: PgnErrorKind, token: &str) {
        let ply = self.builder.as_ref().and_then(|b| {
            let pos = b.stack.last().map(|f| f.pos)?;
            (self.state == State::Moves).then(|| (pos.fullmove_number(), pos.side_to_move()))
        });
        let game = self.games.max(1);
        self.out.push_back(Err(PgnError {
            game,
            ply,
            token: token.chars().take(40).collect(),
            kind,
        }));
        self.builder = None;
        self.state = State::Skip;
    }

    /// Reports an error for a line the reader could not take (too long, not
    /// text), charged to the game it falls in.
    pub(crate) fn bad_line(&mut self, kind: PgnErrorKind) {
        self.lexer.reset();
        match self.state {
            State::Skip => {}
            State::Between => {
                self.games += 1;
                self.fail(kind, "");
            }
            _ => self.fail(kind, ""),
        }
    }

    fn begin_game(&mut self) {
        self.games += 1;
        self.builder = Some(Builder {
            game: PgnGame::new(Position::startpos()),
            stack: Vec::new(),
            nodes: 0,
        });
        self.state = State::Tags;
    }

    fn end_game(&mut self, termination: GameResult) {
        if let Some(mut b) = self.builder.take() {
            if b.stack.len() > 1 {
                self.builder = Some(b);
                self.fail(PgnErrorKind::UnclosedVariation, termination.as_str());
                self.state = State::Between;
                return;
            }
            if let Some(frame) = b.stack.pop() {
                b.game.mainline = frame.line;
            }
            b.game.termination = termination;
            self.out.push_back(Ok(b.game));
        }
        self.state = State::Between;
    }

    /// Feeds one line (without its line break).
    pub(crate) fn line(&mut self, line: &str) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if !self.lexer.in_comment() {
            if line.starts_with('%') {
                return;
            }
            let trimmed = line.trim_start();
            if trimmed.starts_with('[') {
                self.tag_line(trimmed);
                return;
            }
            if trimmed.is_empty() {
                return;
            }
        } else if self.lexer.open_len() > MAX_COMMENT {
            self.bad_line(PgnErrorKind::LineTooLong);
            return;
        }
        self.movetext(line);
    }

    fn tag_line(&mut self, line: &str) {
        match self.state {
            State::Moves => self.end_game(GameResult::Unknown),
            State::Skip => self.state = State::Between,
            _ => {}
        }
        if self.state == State::Between {
            self.begin_game();
        }
        let mut rest = line;
        while let Some(after) = rest.strip_prefix('[') {
            match parse_tag(after) {
                Some((name, value, tail)) => {
                    if let Some(b) = &mut self.builder {
                        b.game.tags.push((name.to_string(), value));
                    }
                    rest = tail.trim_start();
                }
                None => return self.fail(PgnErrorKind::Tag, line),
            }
        }
        if !rest.is_empty() {
            self.fail(PgnErrorKind::Tag, line);
        }
    }

    /// Sets up the start position from the tags; false after an error.
    fn start_moves(&mut self) -> bool {
        if self.state == State::Between {
            self.begin_game();
        }
        let b = self
            .builder
            .as_mut()
            .expect("a game in its tags has a builder");
        let mut chess960 = false;
        if let Some(variant) = b.game.tag("Variant") {
            let v = variant.to_ascii_lowercase();
            chess960 = ["chess960", "chess 960", "fischerandom"].contains(&v.as_str());
            let known = [
                "",
                "standard",
                "chess",
                "normal",
                "from position",
                "chess960",
            ];
            if !known.contains(&v.as_str()) && !["chess 960", "fischerandom"].contains(&v.as_str())
            {
                let v = variant.to_string();
                self.fail(PgnErrorKind::Variant(v.clone()), &v);
                return false;
            }
        }
        if let Some(fen) = b.game.tag("FEN") {
            match Position::from_fen(fen) {
                // A Chess960 game writes castling king-takes-rook even
                // when its castling squares are the standard ones.
                Ok(pos) if chess960 => {
                    b.game.start = pos
                        .with_castling_mode(CastlingMode::Chess960)
                        .expect("Chess960 can write any castling")
                }
                Ok(pos) => b.game.start = pos,
                Err(e) => {
                    let fen = fen.to_string();
                    self.fail(PgnErrorKind::Fen(e), &fen);
                    return false;
                }
            }
        }
        let start = b.game.start;
        b.stack.push(Frame {
            line: Line::default(),
            before: start,
            pos: start,
        });
        self.state = State::Moves;
        true
    }

    fn movetext(&mut self, line: &str) {
        let mut rest = line;
        while let Some(token) = self.lexer.next(&mut rest) {
            match self.state {
                State::Skip => {
                    if let Token::Symbol(s) = token {
                        if GameResult::from_token(s).is_some() {
                            self.state = State::Between;
                        }
                    }
                }
                State::Between | State::Tags => {
                    // Text between games other than comments starts a game.
                    if matches!(token, Token::Comment(_)) && self.state == State::Between {
                        continue;
                    }
                    if self.start_moves() {
                        self.token(token);
                    }
                }
                State::Moves => self.token(token),
            }
        }
    }

    fn token(&mut self, token: Token<'_>) {
        let b = self
            .builder
            .as_mut()
            .expect("a game in its movetext has a builder");
        let frame = b
            .stack
            .last_mut()
            .expect("a game in its movetext has a line");
        match token {
            Token::Symbol(s) => {
                if let Some(result) = GameResult::from_token(s) {
                    return self.end_game(result);
                }
                let san = s.trim_start_matches(|c: char| c.is_ascii_digit());
                let san = if san.len() < s.len() && (san.is_empty() || san.starts_with('.')) {
                    san.trim_start_matches('.')
                } else if s.bytes().all(|c| c == b'.') {
                    ""
                } else {
                    s
                };
                if san.is_empty() {
                    return;
                }
                if b.nodes >= MAX_NODES {
                    return self.fail(PgnErrorKind::GameTooLong, s);
                }
                match frame.pos.parse_san(san) {
                    Ok(mv) => {
                        frame.before = frame.pos;
                        // parse_san answers only legal moves.
                        frame.pos = frame.pos.play_unchecked(mv);
                        frame.line.moves.push(Node::new(mv));
                        b.nodes += 1;
                    }
                    Err(e) => self.fail(PgnErrorKind::San(e), s),
                }
            }
            Token::Glyph(g) => {
                let nag = match g {
                    "!" => 1,
                    "?" => 2,
                    "!!" => 3,
                    "??" => 4,
                    "!?" => 5,
                    "?!" => 6,
                    _ => return self.fail(PgnErrorKind::Character(g.as_bytes()[0] as char), g),
                };
                if let Some(node) = frame.line.moves.last_mut() {
                    node.nags.push(nag);
                }
            }
            Token::Nag(digits) => match digits.parse::<u8>() {
                Ok(nag) => {
                    if let Some(node) = frame.line.moves.last_mut() {
                        node.nags.push(nag);
                    }
                }
                Err(_) => {
                    let text = alloc::format!("${digits}");
                    self.fail(PgnErrorKind::Nag, &text)
                }
            },
            // An empty comment says nothing (python-chess drops it too).
            Token::Comment(text) if text.is_empty() => {}
            Token::Comment(text) => match frame.line.moves.last_mut() {
                Some(node) => node.comments.push(text),
                None => frame.line.comments.push(text),
            },
            Token::Open => {
                if frame.line.moves.is_empty() {
                    return self.fail(PgnErrorKind::VariationBeforeMove, "(");
                }
                let start = frame.before;
                b.stack.push(Frame {
                    line: Line::default(),
                    before: start,
                    pos: start,
                });
            }
            Token::Close => {
                if b.stack.len() < 2 {
                    return self.fail(PgnErrorKind::UnmatchedClose, ")");
                }
                let done = b.stack.pop().expect("two lines are open");
                let parent = b.stack.last_mut().expect("two lines are open");
                parent
                    .line
                    .moves
                    .last_mut()
                    .expect("a variation opens after a move")
                    .variations
                    .push(done.line);
            }
            Token::Bad(c) => self.fail(PgnErrorKind::Character(c), &String::from(c)),
        }
    }

    /// Ends the input: a game in progress is finished (an open comment
    /// closes, the result is `*`).
    pub(crate) fn finish(&mut self) {
        if let Some(comment) = self.lexer.close() {
            if self.state == State::Moves {
                self.token(Token::Comment(comment));
            }
        }
        // Tags without movetext are a game without moves (when its start
        // position is valid).
        let unfinished = match self.state {
            State::Tags => self.start_moves(),
            State::Moves => true,
            _ => false,
        };
        if unfinished {
            self.end_game(GameResult::Unknown);
        }
        self.state = State::Between;
    }
}

/// Bytes an open brace comment may grow to.
pub(crate) const MAX_COMMENT: usize = 1 << 20;

/// Parses `Name "value"]` (after the `[`): the name, the unescaped value
/// and the text after the `]`.
fn parse_tag(text: &str) -> Option<(&str, String, &str)> {
    let text = text.trim_start();
    let name_len = text
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b))
        .count();
    if name_len == 0 {
        return None;
    }
    let (name, rest) = text.split_at(name_len);
    let mut chars = rest.trim_start().strip_prefix('"')?.char_indices();
    let mut value = String::new();
    let body = rest.trim_start().strip_prefix('"')?;
    loop {
        let (i, c) = chars.next()?;
        match c {
            '"' => {
                let tail = body[i + 1..].trim_start().strip_prefix(']')?;
                return Some((name, value, tail));
            }
            '\\' => match chars.next()? {
                (_, c @ ('\\' | '"')) => value.push(c),
                (_, c) => {
                    value.push('\\');
                    value.push(c);
                }
            },
            c => value.push(c),
        }
    }
}

/// The games of a PGN text, in order: each a [`PgnGame`] or the
/// [`PgnError`] that stopped it (the reader then goes on with the next).
///
/// ```
/// use movegen::pgn::read_games;
///
/// let text = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. e4 e5 2. Kf9 *\n\n1. d4 *";
/// let games: Vec<_> = read_games(text).collect();
/// assert_eq!(games.len(), 3);
/// assert!(games[0].is_ok() && games[2].is_ok());
/// let err = games[1].as_ref().unwrap_err();
/// assert_eq!(err.to_string(), "game 2, move 2., at \"Kf9\": not a move in SAN");
/// ```
pub fn read_games(text: &str) -> ReadGames<'_> {
    ReadGames {
        lines: text.split('\n'),
        machine: Machine::new(),
        done: false,
    }
}

/// The iterator of [`read_games`].
///
/// # Examples
///
/// ```
/// use movegen::pgn::{read_games, ReadGames};
///
/// let mut games: ReadGames = read_games("1. e4 1-0\n\n1. d4 0-1\n");
/// assert_eq!(games.next().unwrap().unwrap().mainline.moves.len(), 1);
/// assert!(games.next().unwrap().is_ok());
/// assert!(games.next().is_none());
/// ```
pub struct ReadGames<'a> {
    lines: core::str::Split<'a, char>,
    machine: Machine,
    done: bool,
}

impl Iterator for ReadGames<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.machine.out.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            match self.lines.next() {
                Some(line) => self.machine.line(line),
                None => {
                    self.machine.finish();
                    self.done = true;
                }
            }
        }
    }
}
