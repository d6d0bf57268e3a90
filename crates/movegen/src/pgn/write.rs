//! The export format: the Seven Tag Roster first, then the other tags,
//! a blank line, and movetext in lines of at most 80 columns.

use super::{Line, PgnGame, SEVEN_TAG_ROSTER};
use crate::piece::Color;
use crate::position::{Position, STARTPOS_FEN};
use alloc::format;
use alloc::string::String;

/// Columns a movetext line may fill (a longer single token, such as a long
/// comment, gets a line of its own).
const COLUMNS: usize = 80;

/// The game in the PGN export format, ending with a blank line.
///
/// The roster tags missing from the game are written with their standard
/// unknown values (`?`, `????.??.??`); `Result` is [`PgnGame::result`]. A
/// game from a position other than the standard start without a `FEN` tag
/// gets `SetUp` and `FEN` tags. NAGs are written as `$n`; Black's move gets
/// its number (`5...`) at the start of a line of play and after a comment
/// or variation. Writing a line stops at a move that is not legal where it
/// stands (only possible in a game built by hand).
///
/// ```
/// use movegen::pgn::{read_games, write_game};
/// let game = read_games("1. d4 {Queen's pawn} d5 *").next().unwrap().unwrap();
/// let text = write_game(&game);
/// assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
/// assert!(text.ends_with("\n\n1. d4 { Queen's pawn } 1... d5 *\n\n"));
/// ```
pub fn write_game(game: &PgnGame) -> String {
    let mut out = String::new();
    let result = game.result().as_str();
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => result,
            "Date" => game.tag(name).unwrap_or("????.??.??"),
            _ => game.tag(name).unwrap_or("?"),
        };
        write_tag(&mut out, name, value);
    }
    for (name, value) in &game.tags {
        if !SEVEN_TAG_ROSTER.contains(&name.as_str()) {
            write_tag(&mut out, name, value);
        }
    }
    if game.tag("FEN").is_none() && game.start.fen() != STARTPOS_FEN {
        write_tag(&mut out, "SetUp", "1");
        write_tag(&mut out, "FEN", &game.start.fen());
    }
    out.push('\n');
    let mut movetext = Movetext { out, column: 0 };
    movetext.line(&game.mainline, game.start);
    movetext.token(result);
    let mut out = movetext.out;
    out.push_str("\n\n");
    out
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{value}\"]\n"));
}

/// Movetext being laid out in lines.
struct Movetext {
    out: String,
    /// Characters on the current line.
    column: usize,
}

impl Movetext {
    fn token(&mut self, token: &str) {
        let len = token.chars().count();
        if self.column > 0 && self.column + 1 + len > COLUMNS {
            self.out.push('\n');
            self.column = 0;
        } else if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(token);
        self.column = match token.rfind('\n') {
            Some(i) => token[i + 1..].chars().count(),
            None => self.column + len,
        };
    }

    fn comment(&mut self, text: &str) {
        self.token(&format!("{{ {} }}", text.replace('}', "")));
    }

    fn line(&mut self, line: &Line, start: Position) {
        for c in &line.comments {
            self.comment(c);
        }
        let mut pos = start;
        let mut number = true;
        for node in &line.moves {
            // A move that is not legal where it stands (only in a game
            // built by hand) ends the line: writing never panics.
            let Ok(san) = pos.san(node.mv) else {
                break;
            };
            match pos.side_to_move() {
                Color::White => self.token(&format!("{}.", pos.fullmove_number())),
                Color::Black if number => self.token(&format!("{}...", pos.fullmove_number())),
                Color::Black => {}
            }
            self.token(&san.to_string());
            for nag in &node.nags {
                self.token(&format!("${nag}"));
            }
            for c in &node.comments {
                self.comment(c);
            }
            for variation in &node.variations {
                self.token("(");
                self.line(variation, pos);
                self.token(")");
            }
            number = !node.comments.is_empty() || !node.variations.is_empty();
            pos = pos.play_unchecked(node.mv);
        }
    }
}

use alloc::string::ToString;
