//! Lab 12: the UCI loop, so that a GUI or a tournament manager can play
//! your engine.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::lab08_special::legal_moves;
use crate::lab09_position::{parse_fen, play};
use crate::lab11_search::search;
use crate::types::{Board, Color};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Reads UCI commands from `input` line by line and answers on `output`
/// until `quit` or the end of the input. Answers `uci` with `id` lines and
/// `uciok`, `isready` with `readyok`, sets the position on `position`, and
/// answers each `go` with exactly one `bestmove`. A command it cannot use
/// gets one `info string error: ...` line and changes nothing.
pub fn run(input: impl BufRead, mut output: impl Write) {
    let mut board = parse_fen(STARTPOS).expect("the start position is a valid FEN");
    for line in input.lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            None => continue,
            Some("uci") => "id name Student Engine\nid author A Student\nuciok".to_string(),
            Some("isready") => "readyok".to_string(),
            Some("ucinewgame") => continue,
            // Each search here ends on its own (`go infinite` after a second), before the
            // loop reads the `stop` a GUI sends: nothing is left to stop.
            Some("stop") => continue,
            Some("position") => match parse_position(&words[1..]) {
                Ok(next) => {
                    board = next;
                    continue;
                }
                Err(e) => format!("info string error: {e}"),
            },
            Some("go") => go(&board, &words[1..]),
            Some("quit") => break,
            Some(other) => format!("info string error: unknown command '{other}'"),
        };
        if writeln!(output, "{reply}").and_then(|()| output.flush()).is_err() {
            break;
        }
    }
}

/// `startpos [moves ...]` or `fen <six fields> [moves ...]`.
fn parse_position(words: &[&str]) -> Result<Board, String> {
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let mut board = match words.first().copied() {
        Some("startpos") if moves_at == 1 => parse_fen(STARTPOS)?,
        Some("fen") => parse_fen(&words[1..moves_at].join(" "))?,
        _ => return Err("expected 'position startpos' or 'position fen <fen>'".to_string()),
    };
    for &text in words.iter().skip(moves_at + 1) {
        let mv = legal_moves(&board)
            .into_iter()
            .find(|&mv| mv.to_string() == text)
            .ok_or_else(|| format!("'{text}' is not a legal move here"))?;
        board = play(&board, mv);
    }
    Ok(board)
}

/// Answers `go`: `depth N`, `movetime MS`, or a clock (`wtime`/`btime`).
fn go(board: &Board, words: &[&str]) -> String {
    let value = |key: &str| {
        words
            .iter()
            .position(|&w| w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let clock = if board.side == Color::White { "wtime" } else { "btime" };
    let budget = value("movetime").or_else(|| value(clock).map(|t| t / 30));
    let best = if let Some(depth) = value("depth") {
        search(board, depth.clamp(1, 64) as u32).best
    } else {
        // Iterative deepening: start another depth only while it is
        // likely to finish (each depth costs several times the last).
        let budget = Duration::from_millis(budget.unwrap_or(1000));
        let start = Instant::now();
        let mut best = None;
        for depth in 1..=64 {
            let started = Instant::now();
            let result = search(board, depth);
            best = result.best;
            if best.is_none() || start.elapsed() + started.elapsed() * 6 > budget {
                break;
            }
        }
        best
    };
    match best {
        Some(mv) => format!("bestmove {}", mv.to_string()),
        None => "bestmove 0000".to_string(),
    }
}
