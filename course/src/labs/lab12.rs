//! Lab 12's checker: scripted UCI conversations with the student's loop, then a short game
//! against our engine at a handicap (`UCI_Elo`), every move of which must be legal.

use std::time::{Duration, Instant};

use movegen::{Game, Position};
use search::{Limits, SearchControl, Searcher, Strength};

use super::lab09::{legal_names, uci};
use crate::checker::{fail, Diagnosis, LabFiles, LabRecord, CheckVerdict};
use crate::process::Process;
use crate::student::{unescape, Student};

static FILES: LabFiles = crate::lab_files!(
    "12-uci",
    [
        "bestmove-twice.bug",
        "no-readyok.bug",
        "startpos-ignores-moves.bug",
        "fen-first-field-only.bug",
        "never-flushes.bug",
        "plays-any-move.bug",
        "quit-ignored.bug",
        "movetime-in-seconds.bug",
        "fen-moves-ignored.bug",
        "ucinewgame-unknown.bug",
        "fen-needs-six-fields.bug",
        "promotion-matched-on-squares.bug",
        "promotion-upper-case.bug",
        "second-game-continues.bug",
        "opponents-clock.bug",
        "one-second-whatever-the-clock.bug",
        "movestogo-spends-the-clock.bug",
        "go-infinite-never-ends.bug",
    ]
);

const LAB: u8 = 12;

/// Our engine's handicap in the game: the lowest `UCI_Elo` (its smallest node budget and
/// noise among its four best lines, docs/strength-levels.md).
pub const GAME_ELO: u32 = 1350;
/// Plies of the game (short, for CI: legality over the opening and early middlegame).
pub const GAME_PLIES: usize = 30;
/// The student's search in the game.
const GAME_GO: &str = "go depth 2";

const HINT_UCIOK: &str =
    "answer `uci` with `id name <your engine>`, `id author <you>`, then `uciok` \
     on a line of its own, and flush the output.";
const HINT_READYOK: &str =
    "every `isready` gets `readyok` (a GUI waits for it before sending anything \
     else), and flush the output after it.";
const HINT_ONE_BESTMOVE: &str =
    "each `go` gets exactly one `bestmove` line, after the search ends: \
     print `info` lines during the search if you like, but the best move only once.";
const HINT_POSITION: &str =
    "`position startpos moves e2e4 e7e5` is the start position with those moves \
     played in order: find each move's text among legal_moves (compare with the move's UCI name) \
     and play it.";
const HINT_FEN: &str =
    "`position fen` is followed by the FEN's four or six words (and maybe `moves ...`): \
     join the words between `fen` and `moves` with spaces before parsing.";
const HINT_BAD_INPUT: &str =
    "a command you can't use gets `info string error: ...` and changes nothing: \
     build the new position completely first, and replace the old one only when all of it worked.";
const HINT_FLUSH: &str =
    "a GUI keeps your engine's input open and waits for each answer: write every answer \
     at once and flush it (`output.flush()` after each `writeln!`). A `BufWriter`, or output \
     collected until `quit`, reaches the GUI only when the engine exits.";
const HINT_TIME: &str =
    "`go movetime T` must answer within T milliseconds, and `go wtime/btime` within a small \
     share of the clock: search depth 1, 2, 3... (iterative deepening), keep the best move of the \
     last finished depth, and start another depth only while there is time for it.";
const HINT_ILLEGAL: &str =
    "a move in `position ... moves` counts only if it is among legal_moves of the position \
     it is played in: compare its text with each legal move's, and when none matches answer \
     `info string error: ...` and keep the previous position.";
const HINT_NEWGAME: &str = "`ucinewgame` tells the engine that the next position is from a new \
     game: answer nothing (forget what the last game left, if you keep anything), and never \
     `info string error`, which a GUI shows its user.";
const HINT_FEN_FIELDS: &str = "a FEN in `position fen` has four or six fields (the two move \
     counters may be left out, as lab 9's parse_fen allows): join every word between `fen` and \
     `moves` (or the end of the line) and let parse_fen decide.";
const HINT_MOVE_TEXT: &str = "find a move of `position ... moves` by its whole text: b7b8n is a \
     knight promotion, b7b8q a queen's; compare the word with each legal move's UCI name, all \
     five characters of a promotion.";
const HINT_LOWER_CASE: &str = "UCI writes a promotion with the piece in lower case for both \
     colours (b7b8q, b2b1n): not as FEN writes a white piece.";
const HINT_NEW_GAME: &str = "each `position` gives the whole position: the start position (or \
     FEN) and every move since. Build the board from it each time, not by playing only the moves \
     you have not seen yet on the board you kept: after `ucinewgame` the list starts again.";
const HINT_OWN_CLOCK: &str = "spend a share of the side to move's own clock: wtime when White is \
     to move, btime when Black is (the other clock is the opponent's, not yours to spend).";
const HINT_CLOCK_SHARE: &str = "the budget of `go wtime/btime` comes from the clock: about a \
     thirtieth of the side to move's time, so 3 ms with 100 ms left. A fixed budget (a second a \
     move) loses on time as soon as the clock runs low.";
const HINT_MOVESTOGO: &str = "`movestogo N` is the number of moves until the next time control; \
     you may ignore it. If you use it, keep a share well below the whole clock for one move \
     (never more than a tenth here): with movestogo 1 the clock must still cover this move's \
     search, its overshoot and the GUI's lag.";
const HINT_INFINITE: &str = "`go infinite` ends with `stop`, and the GUI waits for the one \
     `bestmove` after it. A loop that reads one command at a time only reads `stop` after the \
     search: search `go infinite` as a bare `go` (a second, say), answer, and ignore the `stop` \
     that comes after.";
const HINT_NO_MOVE: &str = "with no legal move (mate or stalemate) answer `bestmove 0000`.";

/// Lab 12: UCI and a tournament.
pub static LAB12: LabRecord = LabRecord {
    number: LAB,
    slug: "uci",
    module: "lab12_uci",
    title: "UCI and a tournament",
    files: &FILES,
    extra_files: &[("src/bin/engine.rs", include_str!("../../student/engine.rs"))],
    query_scale: 2,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    check_handshake(s, &mut checked)?;
    check_program(s, &mut checked)?;
    check_positions(s, &mut checked)?;
    check_bad_input(s, &mut checked)?;
    check_conformance(s, &mut checked)?;
    play_game(s, &mut checked)?;
    Ok(checked)
}

/// Sends `lines` to the student's `run` as one conversation; returns the lines it wrote.
fn converse(s: &mut Student, lines: &[&str]) -> Result<Vec<String>, CheckVerdict> {
    let script = lines
        .iter()
        .map(|l| l.replace(' ', "_"))
        .collect::<Vec<_>>()
        .join("|");
    let answer = s
        .ask(LAB, "conversation", &[&script])
        .map_err(|v| match v {
            CheckVerdict::Fail(mut d) => {
                // A `go depth N` that never ends is most often lab 11's search doing far more
                // work than it needs, not a loop in lab 12.
                let searching = lines.iter().any(|l| l.starts_with("go depth"));
                if searching && d.summary.contains("did not answer within") {
                    d.hint = Some(HINT_SLOW_SEARCH);
                }
                d.summary = format!("run() on the conversation {}: {}", shown(lines), d.summary);
                d.fen = None;
                CheckVerdict::Fail(d)
            }
            other => other,
        })?;
    Ok(unescape(&answer)
        .lines()
        .map(|l| l.trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect())
}

/// A conversation as the student would type it.
fn shown(lines: &[&str]) -> String {
    format!("`{}`", lines.join(" / "))
}

fn transcript(lines: &[&str], output: &[String]) -> String {
    let mut out = String::from("sent:\n");
    for l in lines {
        out.push_str(&format!("  > {l}\n"));
    }
    out.push_str("your engine answered:\n");
    if output.is_empty() {
        out.push_str("  (nothing)\n");
    }
    for l in output {
        out.push_str(&format!("  < {l}\n"));
    }
    out
}

fn check_handshake(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let lines = ["uci", "quit"];
    let out = converse(s, &lines)?;
    if !out.iter().any(|l| l.starts_with("id name "))
        || out.last().map(String::as_str) != Some("uciok")
    {
        return Err(fail(
            Diagnosis::new(format!(
                "{}: expected `id name ...` lines ending with `uciok`",
                shown(&lines)
            ))
            .with_body(transcript(&lines, &out))
            .with_hint(HINT_UCIOK),
        ));
    }
    let lines = ["isready", "isready", "quit"];
    let out = converse(s, &lines)?;
    if out != ["readyok", "readyok"] {
        return Err(fail(
            Diagnosis::new(format!(
                "{}: expected `readyok` twice, one for each `isready`",
                shown(&lines)
            ))
            .with_body(transcript(&lines, &out))
            .with_hint(HINT_READYOK),
        ));
    }
    *checked += 2;
    Ok(())
}

/// Checks that a conversation ending in `go` answered exactly one legal `bestmove` for the
/// position `fen` (the one the `position` command set).
fn expect_bestmove(
    lines: &[&str],
    out: &[String],
    fen: &str,
    hint: &'static str,
) -> Result<(), CheckVerdict> {
    let bests: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    if bests.len() != 1 {
        return Err(fail(
            Diagnosis::new(format!(
                "{}: expected exactly one `bestmove` line, got {}",
                shown(lines),
                bests.len()
            ))
            .with_fen(fen)
            .with_body(transcript(lines, out))
            .with_hint(HINT_ONE_BESTMOVE),
        ));
    }
    let pos = Position::from_fen(fen).expect("the checker's positions are valid");
    let legal = legal_names(&pos);
    let mv = bests[0].split_whitespace().nth(1).unwrap_or("");
    let ok = if legal.is_empty() {
        mv == "0000"
    } else {
        legal.iter().any(|m| m == mv)
    };
    if !ok {
        let hint = if legal.is_empty() { HINT_NO_MOVE } else { hint };
        return Err(fail(
            Diagnosis::new(format!(
                "{}: `{}` is not a legal move in the position the commands set",
                shown(lines),
                bests[0]
            ))
            .with_fen(fen)
            .with_body(format!(
                "{}legal moves here: {}\n",
                transcript(lines, out),
                if legal.is_empty() {
                    "none (answer bestmove 0000)".to_string()
                } else {
                    legal.join(" ")
                }
            ))
            .with_hint(hint),
        ));
    }
    Ok(())
}

/// The position after `moves` from `fen`.
fn after(fen: &str, moves: &[&str]) -> String {
    let mut pos = Position::from_fen(fen).expect("valid");
    for m in moves {
        let mv = pos.parse_uci_move(m).expect("the scripts' moves are legal");
        pos = pos.play(mv);
    }
    pos.fen()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn check_positions(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let cases: Vec<(Vec<String>, String, &'static str)> = vec![
        (
            vec!["position startpos".into(), "go depth 1".into()],
            START.into(),
            HINT_POSITION,
        ),
        (
            vec![
                "ucinewgame".into(),
                "isready".into(),
                "position startpos moves e2e4".into(),
                "go depth 2".into(),
            ],
            after(START, &["e2e4"]),
            HINT_POSITION,
        ),
        (
            vec![
                "position startpos moves e2e4 d7d5 e4e5 f7f5".into(),
                "go depth 1".into(),
            ],
            after(START, &["e2e4", "d7d5", "e4e5", "f7f5"]),
            HINT_POSITION,
        ),
        (
            vec![format!("position fen {KIWIPETE}"), "go depth 1".into()],
            KIWIPETE.into(),
            HINT_FEN,
        ),
        (
            vec![
                format!("position fen {KIWIPETE} moves e1g1 h3g2"),
                "go depth 2".into(),
            ],
            after(KIWIPETE, &["e1g1", "h3g2"]),
            HINT_FEN,
        ),
        // One move after the FEN: Black to move, so moves left out show at once.
        (
            vec![
                format!("position fen {KIWIPETE} moves e1g1"),
                "go depth 1".into(),
            ],
            after(KIWIPETE, &["e1g1"]),
            HINT_FEN,
        ),
        (
            vec![
                "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".into(),
                "go depth 1".into(),
            ],
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".into(),
            HINT_NO_MOVE,
        ),
        (
            vec![
                "position startpos moves g1f3".into(),
                "go movetime 200".into(),
            ],
            after(START, &["g1f3"]),
            HINT_POSITION,
        ),
        (
            vec![
                "position startpos moves e2e4".into(),
                "go wtime 3000 btime 3000 winc 0 binc 0".into(),
            ],
            after(START, &["e2e4"]),
            HINT_POSITION,
        ),
    ];
    for (lines, fen, hint) in cases {
        let mut lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        lines.push("quit");
        let out = converse(s, &lines)?;
        let expect_ready = lines.contains(&"isready");
        if expect_ready && !out.iter().any(|l| l == "readyok") {
            return Err(fail(
                Diagnosis::new(format!("{}: no `readyok`", shown(&lines)))
                    .with_body(transcript(&lines, &out))
                    .with_hint(HINT_READYOK),
            ));
        }
        expect_bestmove(&lines, &out, &fen, hint)?;
        *checked += 1;
    }
    Ok(())
}

fn check_bad_input(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let after_e4 = after(START, &["e2e4"]);
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "position startpos moves e2e4",
                "position fen this is not a fen at all",
                "isready",
                "go depth 1",
                "quit",
            ],
            &after_e4,
        ),
        // A well-formed but illegal move: played anyway, it would hand the move to Black.
        (
            &[
                "position startpos",
                "position startpos moves e2e5",
                "isready",
                "go depth 1",
                "quit",
            ],
            START,
        ),
        (
            &[
                "position startpos moves e2e4",
                "position startpos moves e2e4 e7e5 e1e3",
                "isready",
                "go depth 1",
                "quit",
            ],
            &after_e4,
        ),
        (&["flip the board", "isready", "go depth 1", "quit"], START),
    ];
    for (lines, fen) in cases {
        let out = converse(s, lines)?;
        if !out.iter().any(|l| l == "readyok") {
            return Err(fail(
                Diagnosis::new(format!(
                    "{}: no `readyok` after a bad command",
                    shown(lines)
                ))
                .with_body(transcript(lines, &out))
                .with_hint(HINT_READYOK),
            ));
        }
        let illegal = lines
            .iter()
            .filter_map(|l| l.strip_prefix("position startpos moves "))
            .filter_map(|moves| illegal_move(START, moves))
            .next();
        expect_bestmove(lines, &out, fen, HINT_BAD_INPUT).map_err(|v| match (v, &illegal) {
            (CheckVerdict::Fail(mut d), Some(mv)) => {
                d.summary = format!(
                    "{}: your engine played the illegal move {mv} instead of refusing it \
                     (the position must stay as it was)",
                    shown(lines)
                );
                CheckVerdict::Fail(d.with_hint(HINT_ILLEGAL))
            }
            (v, _) => v,
        })?;
        *checked += 1;
    }
    Ok(())
}

/// The first move of `moves` (UCI texts) that is not legal where it is played from `fen`.
fn illegal_move(fen: &str, moves: &str) -> Option<String> {
    let mut pos = Position::from_fen(fen).ok()?;
    for m in moves.split_whitespace() {
        match pos.parse_uci_move(m) {
            Ok(mv) => pos = pos.play(mv),
            Err(_) => return Some(m.to_string()),
        }
    }
    None
}

const HINT_SLOW_SEARCH: &str = "`go depth N` runs your lab 11 search, and a search that \
     orders no moves (captures first, at every node) or whose quiescence also tries quiet moves \
     can take minutes at depth 1 or 2 on a position with many captures, such as Kiwipete, \
     where a right one takes milliseconds: `course check 11` says whether your search visits more \
     nodes than it should. A loop in lab 12 that never reads the next command looks the same.";

/// How long the engine program may take to answer `uci`, `isready` or `quit`.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);
/// The slack over a search's time budget (process start-up, a loaded machine).
const TIME_SLACK: Duration = Duration::from_millis(1500);

/// The student's engine as a real program: its input held open, as a GUI holds it.
struct Program {
    process: Process,
    sent: Vec<String>,
    got: Vec<String>,
}

impl Program {
    fn send(&mut self, line: &str) -> bool {
        self.sent.push(line.to_string());
        self.process.send(line).is_ok()
    }

    /// Lines up to the first for which `done` holds, within `within` of the engine's CPU time
    /// (the driver's fair deadline: fair on a busy grader); `None` past it or at its end.
    fn until(&mut self, within: Duration, done: impl Fn(&str) -> bool) -> Option<String> {
        let mut deadline = self.process.fair_deadline(within);
        let got = &mut self.got;
        let answer = |line: &str| {
            got.push(line.to_string());
            done(line).then(|| line.to_string())
        };
        self.process.read_until(&mut deadline, answer, drop).ok()
    }

    fn transcript(&self) -> String {
        let sent: Vec<&str> = self.sent.iter().map(String::as_str).collect();
        transcript(&sent, &self.got)
    }
}

/// What the engine program answered to one `go`: its move (the word after `bestmove`, `None`
/// if no bestmove came in time), how long it took, and the `info string error` lines it wrote
/// since the commands were sent.
struct Answer {
    best: Option<String>,
    took: Duration,
    errors: Vec<String>,
}

impl Program {
    /// Sends `commands` (a `position`, a `go`), then waits up to `within` for `bestmove`.
    fn ask_move(&mut self, commands: &[&str], within: Duration) -> Answer {
        let from = self.got.len();
        for c in commands {
            self.send(c);
        }
        let started = Instant::now();
        let best = self.until(within, |l| l.starts_with("bestmove"));
        let took = started.elapsed();
        Answer {
            best: best.map(|b| b.split_whitespace().nth(1).unwrap_or("").to_string()),
            took,
            errors: self.got[from..]
                .iter()
                .filter(|l| l.starts_with("info string error"))
                .cloned()
                .collect(),
        }
    }

    /// A failure with this conversation's transcript.
    fn fail(&self, summary: String, fen: Option<&str>, hint: &'static str) -> CheckVerdict {
        let mut d = Diagnosis::new(summary)
            .with_body(self.transcript())
            .with_hint(hint);
        if let Some(fen) = fen {
            d = d.with_fen(fen);
        }
        fail(d)
    }
}

/// Whether `mv` is a legal move of `fen` (`0000` when it has none).
fn legal_in(fen: &str, mv: &str) -> bool {
    let pos = Position::from_fen(fen).expect("the checker's positions are valid");
    let legal = legal_names(&pos);
    if legal.is_empty() {
        mv == "0000"
    } else {
        legal.iter().any(|m| m == mv)
    }
}

/// The after-`go` part of a summary: what came.
fn answered(a: &Answer) -> String {
    match &a.best {
        Some(mv) => format!("`bestmove {mv}`"),
        None => format!("no bestmove within {} ms", a.took.as_millis()),
    }
}

/// A position where White's underpromotion f7f8n mates (the knight checks h7; g8 is the b3
/// bishop's, g6 the knight's), and f7f8q does not.
const KNIGHT_MATE: &str = "7b/5Ppk/7p/8/8/1B6/8/K7 w - - 0 1";
/// A pawn to promote, and nothing else to do: the best move at depth 2 is b7b8q.
const PROMOTE: &str = "8/1P4k1/8/8/8/8/8/4K3 w - - 0 1";
/// A four-field FEN (no move counters).
const FOUR_FIELDS: &str = "4k3/8/8/8/8/8/8/4K2R w K -";
/// The first game of the two-game session.
const FIRST_GAME: [&str; 4] = ["e2e4", "e7e5", "g1f3", "b8c6"];

/// The conformance part: what a GUI or tournament manager sends beyond the basics, to the
/// engine program over pipes, one session: `ucinewgame`, a four-field FEN, an underpromotion
/// in `moves`, a promotion in `bestmove`, two games in one session, the clocks (the side to
/// move's own, a low one, `movestogo 1`) and `go infinite` then `stop`.
fn check_conformance(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let mut p = start_program(s)?;
    p.send("uci");
    if p.until(ANSWER_WITHIN, |l| l == "uciok").is_none() {
        return Err(p.fail("your engine program gave no answer to `uci`".into(), None, HINT_FLUSH));
    }
    // ucinewgame: no answer, no error.
    let from = p.got.len();
    p.send("ucinewgame");
    p.send("isready");
    if p.until(ANSWER_WITHIN, |l| l == "readyok").is_none() {
        return Err(p.fail(
            "`ucinewgame` then `isready`: no `readyok`".into(),
            None,
            HINT_READYOK,
        ));
    }
    if let Some(error) = p.got[from..].iter().find(|l| l.starts_with("info string error")) {
        return Err(p.fail(
            format!(
                "`ucinewgame` is a UCI command (a new game begins), but your engine answered \
                 `{error}`"
            ),
            None,
            HINT_NEWGAME,
        ));
    }
    *checked += 1;
    // A FEN of four fields.
    let four = format!("{FOUR_FIELDS} 0 1");
    let a = p.ask_move(&[&format!("position fen {FOUR_FIELDS}"), "go depth 1"], ANSWER_WITHIN);
    if !a.errors.is_empty() || !a.best.as_deref().is_some_and(|m| legal_in(&four, m)) {
        let refused = a.errors.first().map_or(String::new(), |e| format!(", after `{e}`"));
        return Err(p.fail(
            format!(
                "`position fen {FOUR_FIELDS}` (a FEN of four fields, without the move counters) \
                 then `go depth 1`: {}{refused}, not a move of that position",
                answered(&a)
            ),
            Some(&four),
            HINT_FEN_FIELDS,
        ));
    }
    *checked += 1;
    // An underpromotion in `moves`: after f7f8n Black is mated.
    let after_knight = after(KNIGHT_MATE, &["f7f8n"]);
    let after_queen = after(KNIGHT_MATE, &["f7f8q"]);
    let position = format!("position fen {KNIGHT_MATE} moves f7f8n");
    let a = p.ask_move(&[&position, "go depth 1"], ANSWER_WITHIN);
    if !a.best.as_deref().is_some_and(|m| legal_in(&after_knight, m)) {
        let as_queen = a.best.as_deref().is_some_and(|m| legal_in(&after_queen, m));
        return Err(p.fail(
            format!(
                "`{position}` then `go depth 1`: {}; after the knight promotion f7f8n Black is \
                 mated (`bestmove 0000`){}: a move's text counts with all five characters",
                answered(&a),
                if as_queen {
                    ", but your engine answered for the position after f7f8q, a queen"
                } else {
                    ""
                }
            ),
            Some(&after_knight),
            HINT_MOVE_TEXT,
        ));
    }
    *checked += 1;
    // A promotion in bestmove, in lower case.
    let a = p.ask_move(&[&format!("position fen {PROMOTE}"), "go depth 2"], ANSWER_WITHIN);
    if let Some(mv) = a.best.as_deref().filter(|m| !legal_in(PROMOTE, m)) {
        let upper = legal_in(PROMOTE, &mv.to_lowercase());
        return Err(p.fail(
            format!(
                "`position fen {PROMOTE}` then `go depth 2`: `bestmove {mv}` is not a legal \
                 move here{}",
                if upper {
                    format!(": UCI writes the promotion piece in lower case, {}", mv.to_lowercase())
                } else {
                    String::new()
                }
            ),
            Some(PROMOTE),
            if upper { HINT_LOWER_CASE } else { HINT_POSITION },
        ));
    }
    *checked += 1;
    // Two games in one session.
    let first = after(START, &FIRST_GAME);
    let second = after(START, &["d2d4"]);
    let a = p.ask_move(
        &[
            "ucinewgame",
            &format!("position startpos moves {}", FIRST_GAME.join(" ")),
            "go depth 1",
        ],
        ANSWER_WITHIN,
    );
    if !a.best.as_deref().is_some_and(|m| legal_in(&first, m)) {
        return Err(p.fail(
            format!(
                "`position startpos moves {}` then `go depth 1`: {}, not a move of that position",
                FIRST_GAME.join(" "),
                answered(&a)
            ),
            Some(&first),
            HINT_POSITION,
        ));
    }
    let a = p.ask_move(
        &["ucinewgame", "position startpos moves d2d4", "go depth 1"],
        ANSWER_WITHIN,
    );
    if !a.best.as_deref().is_some_and(|m| legal_in(&second, m)) {
        let continued = a.best.as_deref().is_some_and(|m| legal_in(&first, m));
        return Err(p.fail(
            format!(
                "a second game in the same session, `ucinewgame` then `position startpos moves \
                 d2d4` and `go depth 1`: {}, not a move for Black after 1. d4{}",
                answered(&a),
                if continued {
                    "; it is a move of the first game's position: your engine continues the \
                     first game"
                } else {
                    ""
                }
            ),
            Some(&second),
            HINT_NEW_GAME,
        ));
    }
    *checked += 1;
    // The side to move's own clock: White has 300 ms, Black an hour.
    let go = "go wtime 300 btime 3600000 winc 0 binc 0";
    let within = Duration::from_millis(300) + TIME_SLACK;
    let a = p.ask_move(&["position startpos", go], within);
    if a.best.is_none() {
        return Err(p.fail(
            format!(
                "`position startpos` then `{go}`: no bestmove within {} ms (White, to move, has \
                 300 ms left; the hour is Black's): spend a share of the side to move's own clock",
                within.as_millis()
            ),
            Some(START),
            HINT_OWN_CLOCK,
        ));
    }
    *checked += 1;
    // A low clock: with 100 ms left, a move must come well within them. The best of three tries,
    // so that one slow moment of a loaded machine does not count.
    let go = "go wtime 100 btime 100 winc 0 binc 0";
    let mut fastest = Duration::MAX;
    for _ in 0..3 {
        let a = p.ask_move(&["position startpos", go], Duration::from_millis(100) + TIME_SLACK);
        if a.best.is_none() {
            fastest = a.took;
            break;
        }
        fastest = fastest.min(a.took);
    }
    if fastest > Duration::from_millis(100) {
        return Err(p.fail(
            format!(
                "`position startpos` then `{go}`: the bestmove took {} ms (the fastest of three \
                 tries), with 100 ms on the clock: a lost game. The budget must come from the \
                 clock, not be the same whatever the clock says",
                fastest.as_millis()
            ),
            Some(START),
            HINT_CLOCK_SHARE,
        ));
    }
    *checked += 1;
    // movestogo 1: one move before the time control, still not the whole clock.
    let go = "go wtime 30000 btime 30000 movestogo 1";
    let within = Duration::from_millis(3000);
    let a = p.ask_move(&["position startpos", go], within);
    if a.best.is_none() {
        return Err(p.fail(
            format!(
                "`position startpos` then `{go}`: no bestmove within {} ms, a tenth of the \
                 clock: with movestogo 1 your engine spends most of its clock on one move",
                within.as_millis()
            ),
            Some(START),
            HINT_MOVESTOGO,
        ));
    }
    *checked += 1;
    // go infinite, then stop: exactly one bestmove.
    let from = p.got.len();
    p.send("position startpos");
    p.send("go infinite");
    let early = p.until(Duration::from_millis(200), |l| l.starts_with("bestmove"));
    p.send("stop");
    let late = match early {
        Some(_) => None,
        None => p.until(ANSWER_WITHIN, |l| l.starts_with("bestmove")),
    };
    if early.is_none() && late.is_none() {
        return Err(p.fail(
            format!(
                "`go infinite` then `stop`: no bestmove within {} s of the `stop`",
                ANSWER_WITHIN.as_secs()
            ),
            Some(START),
            HINT_INFINITE,
        ));
    }
    p.send("isready");
    if p.until(ANSWER_WITHIN, |l| l == "readyok").is_none() {
        return Err(p.fail(
            "`go infinite`, `stop`, then `isready`: no `readyok`".into(),
            Some(START),
            HINT_READYOK,
        ));
    }
    let bests = p.got[from..].iter().filter(|l| l.starts_with("bestmove")).count();
    let mv = early.or(late).unwrap_or_default();
    let mv = mv.split_whitespace().nth(1).unwrap_or("");
    if bests != 1 || !legal_in(START, mv) {
        return Err(p.fail(
            format!(
                "`go infinite` then `stop`: {bests} bestmove lines, expected one, legal in the \
                 start position"
            ),
            Some(START),
            HINT_INFINITE,
        ));
    }
    *checked += 1;
    p.send("quit");
    Ok(())
}

/// Starts the workspace's `engine` program with its input and output piped.
fn start_program(s: &Student) -> Result<Program, CheckVerdict> {
    let process = s
        .start_program("engine")
        .map_err(|e| fail(Diagnosis::new(format!("your engine program: {e}"))))?;
    Ok(Program {
        process,
        sent: Vec::new(),
        got: Vec::new(),
    })
}

/// Lab 12 as a GUI sees it: the workspace's `engine` program over pipes, input kept open.
/// Answers must come while the input is open, `go movetime` within its time, `go wtime` within
/// a small share of the clock, and an illegal move in `position` must be refused.
fn check_program(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let mut p = start_program(s)?;
    let silent = |p: &Program, what: &str| {
        fail(
            Diagnosis::new(format!(
                "your engine program gave no answer to `{what}` within {} s while its input \
                 was open (run as a GUI runs it: `cargo run --bin engine`)",
                ANSWER_WITHIN.as_secs()
            ))
            .with_body(p.transcript())
            .with_hint(HINT_FLUSH),
        )
    };
    p.send("uci");
    if p.until(ANSWER_WITHIN, |l| l == "uciok").is_none() {
        return Err(silent(&p, "uci"));
    }
    p.send("isready");
    if p.until(ANSWER_WITHIN, |l| l == "readyok").is_none() {
        return Err(silent(&p, "isready"));
    }
    *checked += 2;
    // One search first, untimed: what the program sets up on its first search (lab 5's
    // tables, built on first use) is start-up, not the time of a move.
    p.send("position startpos");
    p.send("go depth 1");
    if p.until(ANSWER_WITHIN, |l| l.starts_with("bestmove")).is_none() {
        // Its answers to `uci` and `isready` came, so its output reaches a GUI: it is the
        // search that did not end.
        return Err(fail(
            Diagnosis::new(format!(
                "your engine program answered `uci` and `isready`, but gave no bestmove to \
                 `go depth 1` within {} s: its search did not end",
                ANSWER_WITHIN.as_secs()
            ))
            .with_body(p.transcript())
            .with_hint(HINT_SLOW_SEARCH),
        ));
    }
    // Whatever else that search printed comes before the `readyok`.
    p.send("isready");
    if p.until(ANSWER_WITHIN, |l| l == "readyok").is_none() {
        return Err(silent(&p, "isready"));
    }
    // Timed searches: (position, go, the budget).
    let after_e4 = after(START, &["e2e4"]);
    let searches = [
        (
            "position startpos moves e2e4",
            "go movetime 300",
            300,
            after_e4,
        ),
        (
            "position startpos",
            "go wtime 4000 btime 4000 winc 0 binc 0",
            // A twentieth of the clock is already generous for one move.
            200,
            START.to_string(),
        ),
    ];
    for (position, go, budget, fen) in searches {
        p.send(position);
        p.send(go);
        let started = Instant::now();
        let budget = Duration::from_millis(budget);
        let Some(_) = p.until(budget + TIME_SLACK, |l| l.starts_with("bestmove")) else {
            let said = p
                .got
                .iter()
                .any(|l| l.starts_with("info") || l == "readyok");
            return Err(fail(
                Diagnosis::new(format!(
                    "`{go}`: no bestmove within {} ms{}",
                    (budget + TIME_SLACK).as_millis(),
                    if said {
                        ""
                    } else {
                        " (and no other output either)"
                    }
                ))
                .with_fen(fen)
                .with_body(p.transcript())
                .with_hint(if said { HINT_TIME } else { HINT_FLUSH }),
            ));
        };
        let took = started.elapsed();
        // Whatever else the search printed arrives before the answer to `isready`.
        let from = p.got.len() - 1;
        p.send("isready");
        if p.until(ANSWER_WITHIN, |l| l == "readyok").is_none() {
            return Err(silent(&p, "isready"));
        }
        let answered: Vec<String> = p.got[from..]
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .cloned()
            .collect();
        let sent: Vec<&str> = p.sent.iter().map(String::as_str).collect();
        expect_bestmove(&sent, &answered, &fen, HINT_POSITION)?;
        if took > budget + TIME_SLACK {
            return Err(fail(
                Diagnosis::new(format!(
                    "`{go}`: bestmove after {} ms, over the {} ms allowed",
                    took.as_millis(),
                    (budget + TIME_SLACK).as_millis()
                ))
                .with_fen(fen)
                .with_body(p.transcript())
                .with_hint(HINT_TIME),
            ));
        }
        *checked += 1;
    }
    // An illegal move over the pipe: refused, the position kept.
    p.send("position startpos");
    p.send("position startpos moves e2e5");
    p.send("go depth 1");
    let best = p.until(ANSWER_WITHIN, |l| l.starts_with("bestmove"));
    let legal = legal_names(&Position::startpos());
    let mv = best
        .as_deref()
        .and_then(|b| b.split_whitespace().nth(1))
        .unwrap_or("");
    if !legal.iter().any(|m| m == mv) {
        return Err(fail(
            Diagnosis::new(
                "your engine program played the illegal move e2e5 from `position startpos moves \
                 e2e5` (answered with a move that is not legal in the start position, which must \
                 stay set)",
            )
            .with_fen(START)
            .with_body(p.transcript())
            .with_hint(HINT_ILLEGAL),
        ));
    }
    p.sent.push("quit".to_string());
    if p.process.close("quit", ANSWER_WITHIN).is_none() {
        return Err(fail(
            Diagnosis::new(format!(
                "your engine program did not exit within {} s of `quit`",
                ANSWER_WITHIN.as_secs()
            ))
            .with_body(p.transcript()),
        ));
    }
    *checked += 2;
    Ok(())
}

/// A short game: the student's engine (White, `go depth 2`) against ours at `UCI_Elo`
/// `GAME_ELO`. Every answer must be one legal bestmove; the result is reported, not judged.
fn play_game(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let mut game = Game::new(Position::startpos());
    let mut moves: Vec<String> = Vec::new();
    let mut searcher = Searcher::new(1);
    let control = SearchControl::default();
    for ply in 0..GAME_PLIES {
        if game.outcome().is_some() {
            break;
        }
        let pos = *game.position();
        let name = if ply % 2 == 0 {
            let position = if moves.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            let lines = ["ucinewgame", position.as_str(), GAME_GO, "quit"];
            let out = converse(s, &lines)?;
            expect_bestmove(&lines, &out, &pos.fen(), HINT_POSITION).map_err(|v| match v {
                CheckVerdict::Fail(mut d) => {
                    d.summary = format!(
                        "in the game against our engine, move {}: {}",
                        ply / 2 + 1,
                        d.summary
                    );
                    CheckVerdict::Fail(d)
                }
                other => other,
            })?;
            let best = out
                .iter()
                .find(|l| l.starts_with("bestmove"))
                .expect("checked above");
            best.split_whitespace()
                .nth(1)
                .unwrap_or_default()
                .to_string()
        } else {
            let limits = Limits {
                strength: Some(Strength::new(GAME_ELO, 12)),
                ..Limits::default()
            };
            let result = searcher.search(&game, &limits, &control, &mut |_| {});
            match result.best {
                Some(m) => uci(m),
                None => break,
            }
        };
        game.play_uci(&name).map_err(|e| {
            fail(
                Diagnosis::new(format!("the game's move {name} was not accepted: {e}"))
                    .with_fen(pos.fen()),
            )
        })?;
        moves.push(name);
        *checked += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_conformance_positions_say_what_the_checks_claim() {
        // f7f8n mates, f7f8q does not: an engine that plays the queen answers a move.
        assert!(legal_in(&after(KNIGHT_MATE, &["f7f8n"]), "0000"));
        assert!(!legal_in(&after(KNIGHT_MATE, &["f7f8q"]), "0000"));
        // The promotion is legal, in lower case only.
        assert!(legal_in(PROMOTE, "b7b8q") && !legal_in(PROMOTE, "b7b8Q"));
        // The four-field FEN is a position (movegen reads four fields).
        assert!(Position::from_fen(FOUR_FIELDS).is_ok());
        // After the first game White is to move, after 1. d4 Black: no move fits both.
        let first = after(START, &FIRST_GAME);
        let second = after(START, &["d2d4"]);
        let first_moves = legal_names(&Position::from_fen(&first).expect("valid"));
        assert!(first_moves.iter().all(|m| !legal_in(&second, m)));
    }
}
