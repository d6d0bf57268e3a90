//! The job model, through the real binary: the protocol thread answers at
//! once whatever runs, jobs run in the order sent, `stop` ends the jobs sent
//! before it and each still answers, and what cannot run is refused at once.

#[path = "support/uci_engine.rs"]
mod uci_engine;

use movegen::Position;
use std::time::{Duration, Instant};
use uci_engine::{assert_legal_bestmove, Engine};

/// The lines that start with `prefix`.
fn starting<'a>(lines: &'a [String], prefix: &str) -> Vec<&'a String> {
    lines.iter().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn go_during_a_search_is_queued_and_isready_answers_at_once() {
    let mut e = Engine::start();
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    e.send("position startpos");
    e.send("go depth 40");
    // `position` during a job applies to the next job, not the running one.
    e.send(&format!("position fen {kiwipete}"));
    e.send("go depth 1");
    e.send("stop");
    let start = Instant::now();
    e.send("isready");
    let mut lines = e.until(|l| l == "readyok");
    let readyok = start.elapsed();
    eprintln!("isready during a search (and a queued one): readyok after {readyok:?}");
    assert!(readyok < Duration::from_secs(1), "{readyok:?}");
    // A job sent after the stop is untouched: it reaches its depth.
    e.send("go depth 3");
    while starting(&lines, "bestmove ").len() < 3 {
        lines.extend(e.until(|l| l.starts_with("bestmove ")));
    }
    let best = starting(&lines, "bestmove ");
    assert_eq!(best.len(), 3, "{lines:?}");
    assert_legal_bestmove(&best[0]["bestmove ".len()..], &Position::startpos());
    let kiwi = Position::from_fen(kiwipete).unwrap();
    assert_legal_bestmove(&best[1]["bestmove ".len()..], &kiwi);
    assert_legal_bestmove(&best[2]["bestmove ".len()..], &kiwi);
    let last_job = lines.iter().rposition(|l| l == best[1]).unwrap();
    assert!(
        lines[last_job..]
            .iter()
            .any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    assert!(starting(&lines, "info string").is_empty(), "{lines:?}");
    assert!(e.ready().is_empty());
}

#[test]
fn go_with_words_we_do_not_know_warns_and_searches() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 2 foo bar");
    let lines = e.until(|l| l.starts_with("bestmove "));
    let warnings = starting(&lines, "info string warning: ");
    assert_eq!(warnings.len(), 1, "{lines:?}");
    assert!(warnings[0].contains("'foo'") && warnings[0].contains("'bar'"));
    assert!(starting(&lines, "info string error").is_empty());
    assert!(starting(&lines, "info depth 2 ").len() == 1, "{lines:?}");
    assert_legal_bestmove(
        &lines.last().unwrap()["bestmove ".len()..],
        &Position::startpos(),
    );
    // Each of these warns once and searches (stopped, since some are unlimited).
    for go in [
        "go sideways",
        "go depth",
        "go depth x",
        "go wtime abc btime 100",
        "go searchmoves e2e5",
        "go searchmoves e2e5 d2d4 movetime 10",
        "go nodes -x depth 1",
    ] {
        e.send(go);
        e.send("stop");
        let lines = e.until(|l| l.starts_with("bestmove "));
        assert_eq!(starting(&lines, "info string").len(), 1, "{go}: {lines:?}");
        assert_eq!(starting(&lines, "info string warning: ").len(), 1);
        assert_legal_bestmove(
            &lines.last().unwrap()["bestmove ".len()..],
            &Position::startpos(),
        );
        assert!(e.ready().is_empty(), "{go}: one bestmove only");
    }
}

#[test]
fn huge_hash_is_capped_and_ready_at_once() {
    let mut e = Engine::start();
    for (option, value) in [
        ("Hash", "999999999"),
        ("Hash", "65536"),
        ("Perft Hash", "999999999"),
    ] {
        let start = Instant::now();
        e.send(&format!("setoption name {option} value {value}"));
        e.send("isready");
        let lines = e.until(|l| l == "readyok");
        eprintln!(
            "setoption name {option} value {value}: readyok after {:?}",
            start.elapsed()
        );
        assert!(start.elapsed() < Duration::from_secs(1), "{lines:?}");
        assert!(lines.len() <= 2, "{lines:?}");
        if value == "999999999" {
            assert_eq!(lines.len(), 2, "{lines:?}");
            assert!(
                lines[0].starts_with(&format!("info string {option} 999999999 is out of range"))
            );
            assert!(!lines[0].contains("error"));
        }
        // The next job runs on the new table without a long fill first.
        let start = Instant::now();
        e.send("position startpos");
        if option == "Hash" {
            e.send("go depth 4");
            assert_legal_bestmove(&e.bestmove(), &Position::startpos());
        } else {
            assert_eq!(e.perft(4).1, 197_281);
        }
        eprintln!("  first job after it done in {:?}", start.elapsed());
    }
}

#[test]
fn bench_runs_on_the_worker_and_stops() {
    let mut e = Engine::start();
    e.send("bench 6");
    let start = Instant::now();
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(start.elapsed() < Duration::from_secs(1));
    assert!(lines.len() == 1, "readyok came after the bench: {lines:?}");
    let summary = e.until(|l| l.ends_with(" nps"));
    assert!(summary.last().unwrap().contains(" nodes "), "{summary:?}");
    // A long bench is stopped like any job, and the next job runs.
    e.send("bench 25");
    e.send("stop");
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.until(|l| l.starts_with("bestmove "));
    assert_eq!(
        starting(&lines, "info string bench stopped").len(),
        1,
        "{lines:?}"
    );
}

#[test]
fn stop_during_perft_says_so_and_gives_no_count() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("position startpos");
    e.send("go perft 9");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    e.send("isready");
    e.until(|l| l == "readyok");
    eprintln!("isready during perft: readyok after {:?}", start.elapsed());
    assert!(start.elapsed() < Duration::from_secs(1));
    let start = Instant::now();
    e.send("stop");
    let lines = e.until(|l| l.starts_with("info string"));
    eprintln!("stop during perft: answer after {:?}", start.elapsed());
    assert_eq!(lines, ["info string perft stopped"]);
    assert!(start.elapsed() < Duration::from_secs(1));
    // The next perft is untouched and right.
    assert_eq!(e.perft(3).1, 8_902);
}

#[test]
fn quit_during_perft_says_so_and_exits_quickly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 9");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    e.send("quit");
    assert!(e.wait_exit(Duration::from_millis(1000)));
    eprintln!("exit after quit during perft: {:?}", start.elapsed());
    let lines = e.until(|l| l.starts_with("info string"));
    assert_eq!(lines, ["info string perft stopped"]);
}

#[test]
fn an_overlong_line_is_dropped_whole() {
    let mut e = Engine::start();
    // 1.5 MiB of padding, then a word that must not be read as a command.
    let mut line = vec![b' '; 3 << 19];
    line.extend_from_slice(b"uci\n");
    e.send_bytes(&line);
    let before = e.ready();
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(before[0].starts_with("info string error: line longer than"));
    e.send("position startpos moves e2e4");
    assert_eq!(e.perft(1).1, 20);
}

#[test]
fn search_info_lines_carry_multipv() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 1");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove "));
    let infos = starting(&lines, "info depth ");
    assert_eq!(infos.len(), 3, "{lines:?}");
    assert!(
        infos.iter().all(|l| l.contains(" multipv 1 score ")),
        "{infos:?}"
    );
}
