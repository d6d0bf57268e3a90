//! Lab 12's checker: scripted UCI conversations with the student's loop, then a short game
//! against our engine at a handicap (`UCI_Elo`), every move of which must be legal.

use movegen::{Game, Position};
use search::{Limits, SearchControl, Searcher, Strength};

use super::lab09::{legal_names, uci};
use crate::checker::{Diagnosis, Lab, LabFiles, Verdict};
use crate::student::{unescape, Student};

/// Lab 12: UCI and a tournament.
pub struct Lab12;

static FILES: LabFiles = crate::lab_files!(
    "12-uci",
    [
        "bestmove-twice.bug",
        "no-readyok.bug",
        "startpos-ignores-moves.bug",
        "fen-first-field-only.bug",
    ]
);

const LAB: u8 = 12;

/// Our engine's handicap in the game: the lowest `UCI_Elo` (a node budget of 800 and noise
/// among its four best lines, docs/strength-levels.md).
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
    "`position fen` is followed by the FEN's six words (and maybe `moves ...`): \
     join the words between `fen` and `moves` with spaces before parsing.";
const HINT_BAD_INPUT: &str =
    "a command you can't use gets `info string error: ...` and changes nothing: \
     build the new position completely first, and replace the old one only when all of it worked.";
const HINT_NO_MOVE: &str = "with no legal move (mate or stalemate) answer `bestmove 0000`.";

impl Lab for Lab12 {
    fn number(&self) -> u8 {
        LAB
    }
    fn slug(&self) -> &'static str {
        "uci"
    }
    fn title(&self) -> &'static str {
        "UCI and a tournament"
    }
    fn files(&self) -> &'static LabFiles {
        &FILES
    }
    fn check(&self, student: &mut Student) -> Verdict {
        student.set_query_timeout(std::time::Duration::from_secs(10));
        Verdict::from_result(run(student))
    }
}

fn run(s: &mut Student) -> Result<usize, Verdict> {
    let mut checked = 0;
    check_handshake(s, &mut checked)?;
    check_positions(s, &mut checked)?;
    check_bad_input(s, &mut checked)?;
    play_game(s, &mut checked)?;
    Ok(checked)
}

fn fail(d: Diagnosis) -> Verdict {
    Verdict::Fail(d)
}

/// Sends `lines` to the student's `run` as one conversation; returns the lines it wrote.
fn converse(s: &mut Student, lines: &[&str]) -> Result<Vec<String>, Verdict> {
    let script = lines
        .iter()
        .map(|l| l.replace(' ', "_"))
        .collect::<Vec<_>>()
        .join("|");
    let answer = s
        .ask(LAB, "conversation", &[&script])
        .map_err(|v| match v {
            Verdict::Fail(mut d) => {
                d.summary = format!("run() on the conversation {}: {}", shown(lines), d.summary);
                d.fen = None;
                Verdict::Fail(d)
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

fn check_handshake(s: &mut Student, checked: &mut usize) -> Result<(), Verdict> {
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
) -> Result<(), Verdict> {
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

fn check_positions(s: &mut Student, checked: &mut usize) -> Result<(), Verdict> {
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

fn check_bad_input(s: &mut Student, checked: &mut usize) -> Result<(), Verdict> {
    let after_e4 = after(START, &["e2e4"]);
    let cases: [(&[&str], &str); 3] = [
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
        expect_bestmove(lines, &out, fen, HINT_BAD_INPUT)?;
        *checked += 1;
    }
    Ok(())
}

/// A short game: the student's engine (White, `go depth 2`) against ours at `UCI_Elo`
/// `GAME_ELO`. Every answer must be one legal bestmove; the result is reported, not judged.
fn play_game(s: &mut Student, checked: &mut usize) -> Result<(), Verdict> {
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
                Verdict::Fail(mut d) => {
                    d.summary = format!(
                        "in the game against our engine, move {}: {}",
                        ply / 2 + 1,
                        d.summary
                    );
                    Verdict::Fail(d)
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
