//! Reads a PGN file with `movegen::pgn` and prints what it found, for
//! `scripts/pgn-check` to compare with python-chess.
//!
//! `pgn_dump FILE` prints one JSON object a line per game: `{"game": N,
//! "tags": {...}, "line": LINE}` where a line is `{"comment": TEXT,
//! "moves": [{"san", "nags", "comment", "variations": [LINE...]}]}` (comments
//! of one place joined by a space, NAGs sorted without repeats) and
//! `"result"` (the game's result), or
//! `{"game": N, "error": TEXT}`. `pgn_dump --write FILE` prints the games
//! again in the export format instead (errors go to stderr).

use movegen::pgn::{Line, PgnReader};
use movegen::Position;
use serde_json::{json, Value};
use std::io::{BufReader, BufWriter, Write};
use std::process::ExitCode;

fn line(line: &Line, start: Position) -> Value {
    let mut pos = start;
    let moves: Vec<Value> = line
        .moves
        .iter()
        .map(|node| {
            let mut nags = node.nags.clone();
            nags.sort_unstable();
            nags.dedup();
            let variations: Vec<Value> = node.variations.iter().map(|v| self::line(v, pos)).collect();
            let san = pos.san(node.mv).expect("the reader keeps legal moves only").to_string();
            pos = pos.play_unchecked(node.mv);
            json!({"san": san, "nags": nags, "comment": node.comments.join(" "), "variations": variations})
        })
        .collect();
    json!({"comment": line.comments.join(" "), "moves": moves})
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (write, path) = match args.as_slice() {
        [flag, path] if flag == "--write" => (true, path),
        [path] => (false, path),
        _ => {
            eprintln!("usage: pgn_dump [--write] FILE");
            return ExitCode::FAILURE;
        }
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, game) in PgnReader::new(BufReader::new(file)).enumerate() {
        let text = match (game, write) {
            (Ok(game), true) => movegen::pgn::write_game(&game),
            (Err(e), true) => {
                eprintln!("{e}");
                continue;
            }
            (Ok(game), false) => {
                let tags: serde_json::Map<String, Value> = game
                    .tags
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
                    .collect();
                let value = json!({"game": i + 1, "tags": tags, "result": game.result().as_str(), "line": line(&game.mainline, game.start)});
                format!("{value}\n")
            }
            (Err(e), false) => format!("{}\n", json!({"game": e.game, "error": e.to_string()})),
        };
        if out.write_all(text.as_bytes()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
