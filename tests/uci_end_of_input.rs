//! The end of the input and `quit`, through the real binary: a script piped
//! in (stdin closed at once) gets every answer of the jobs that end by
//! themselves, in order; endless searches are stopped at the end of the
//! input with their `bestmove`; `quit` stops everything, and each stopped
//! job still answers before the process exits.

#[path = "support/uci_engine.rs"]
mod uci_engine;

use movegen::Position;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};
use uci_engine::{assert_legal_bestmove, Engine};

/// Runs the engine on `script` with stdin closed right after it, as
/// `printf ... | engine` does. Returns its output lines and how long the
/// process took to exit; panics if it is still running after `limit`.
fn piped(script: &str, limit: Duration) -> (Vec<String>, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        let _ = tx.send(text);
    });
    let Ok(text) = rx.recv_timeout(limit) else {
        let _ = child.kill();
        panic!("{script:?}: no exit within {limit:?}");
    };
    let status = child.wait().unwrap();
    let elapsed = start.elapsed();
    assert!(status.success(), "{script:?}: {status}");
    (text.lines().map(str::to_string).collect(), elapsed)
}

/// The lines that are not per-depth search reports or per-move perft counts.
fn answers(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("info depth "))
        .filter(|l| l.split_once(": ").is_none_or(|(mv, _)| mv.len() > 5))
        .collect()
}

const LONG: Duration = Duration::from_secs(60);

#[test]
fn a_piped_perft_prints_its_count() {
    // Stockfish 15.1 prints the same total (and the published count).
    let (lines, _) = piped("position startpos\ngo perft 5\n", LONG);
    assert_eq!(lines.len(), 20 + 3, "{lines:?}");
    assert_eq!(answers(&lines), ["", "Nodes searched: 4865609", ""]);
}

#[test]
fn a_piped_search_prints_its_infos_and_bestmove() {
    let (lines, _) = piped("position startpos\ngo depth 12\n", LONG);
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert!(
        depths.iter().any(|l| l.starts_with("info depth 12 ")),
        "{lines:?}"
    );
    let best = answers(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert_legal_bestmove(&best[0]["bestmove ".len()..], &Position::startpos());
}

/// The bench signature README.md states (`signature, **N**`), read as
/// crates/search/tests/bench_signature.rs reads it.
#[test]
fn a_piped_bench_prints_its_summary() {
    let (lines, _) = piped("bench\n", LONG);
    let last = lines.last().expect("bench printed something");
    let words: Vec<&str> = last.split(' ').collect();
    // The library's own count; crates/search/tests/bench_signature.rs ties
    // it to the README.
    let signature = search::bench(search::BENCH_DEPTH).0.to_string();
    assert_eq!(words[..2], [signature.as_str(), "nodes"], "{lines:?}");
    assert_eq!(words[3], "nps");
}

#[test]
fn queued_finite_jobs_all_answer_in_order() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let script = format!(
        "position startpos\ngo depth 6\nposition fen {kiwipete}\ngo nodes 20000\ngo perft 3\nisready\n"
    );
    let (lines, _) = piped(&script, LONG);
    let got = answers(&lines);
    assert_eq!(got.len(), 6, "{lines:?}");
    // `isready` is answered at once, before the jobs end.
    assert_eq!(got[0], "readyok", "{lines:?}");
    assert_legal_bestmove(&got[1]["bestmove ".len()..], &Position::startpos());
    let kiwi = Position::from_fen(kiwipete).unwrap();
    assert_legal_bestmove(&got[2]["bestmove ".len()..], &kiwi);
    assert_eq!(got[3..], ["", "Nodes searched: 97862", ""]);
    // The first search reached its depth: it was not cut short.
    let first_end = lines.iter().position(|l| l == got[1]).unwrap();
    assert!(lines[..first_end]
        .iter()
        .any(|l| l.starts_with("info depth 6 ")));
}

#[test]
fn endless_searches_are_stopped_at_the_end_of_the_input() {
    for go in ["go infinite", "go", "go ponder wtime 60000 btime 60000"] {
        let (lines, elapsed) = piped(&format!("position startpos\n{go}\n"), LONG);
        eprintln!("{go} then the end of the input: exit after {elapsed:?}");
        assert!(elapsed < Duration::from_secs(2), "{go}: {elapsed:?}");
        let best = answers(&lines);
        assert_eq!(best.len(), 1, "{go}: {lines:?}");
        assert_legal_bestmove(&best[0]["bestmove ".len()..], &Position::startpos());
    }
    // A finite job queued behind an endless one still runs to its end.
    let (lines, _) = piped("go infinite\ngo perft 2\n", LONG);
    let got = answers(&lines);
    assert!(got[0].starts_with("bestmove "), "{lines:?}");
    assert_eq!(got[1..], ["", "Nodes searched: 400", ""]);
}

#[test]
fn idle_end_of_input_exits_at_once() {
    for script in ["", "uci\n", "position startpos moves e2e4\nisready\n"] {
        let (lines, elapsed) = piped(script, LONG);
        eprintln!("{script:?}: exit after {elapsed:?}");
        assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
        assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
    }
}

#[test]
fn quit_stops_a_search_which_still_answers() {
    for go in ["go infinite", "go depth 60", "go wtime 600000 btime 600000"] {
        let mut e = Engine::start();
        e.send("position startpos moves e2e4");
        e.send(go);
        e.send("go perft 9");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        e.send("quit");
        assert!(e.wait_exit(Duration::from_secs(1)), "{go}: still running");
        eprintln!("{go}, quit: exit after {:?}", start.elapsed());
        let mut lines = Vec::new();
        while let Ok(line) = e.lines.recv_timeout(Duration::from_secs(1)) {
            lines.push(line);
        }
        let got = answers(&lines);
        let start = Position::startpos();
        let pos = start.play(start.parse_uci_move("e2e4").unwrap());
        assert_eq!(got.len(), 3, "{go}: {lines:?}");
        assert_legal_bestmove(&got[0]["bestmove ".len()..], &pos);
        assert_eq!(got[1], "info string perft stopped", "{lines:?}");
        assert_legal_bestmove(&got[2]["bestmove ".len()..], &pos);
    }
}
