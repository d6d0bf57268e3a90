//! Scripted UCI conversations with the real engine binary.

#[path = "support/uci_engine.rs"]
mod uci_engine;

use movegen::Position;
use std::time::{Duration, Instant};
use uci_engine::{assert_legal_bestmove, Engine};

#[test]
fn handshake_lists_options_then_uciok() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name "));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "Hash",
        "Clear Hash",
        "Threads",
        "Move Overhead",
        "UCI_Chess960",
        "Use NNUE",
        "EvalFile",
    ] {
        let prefix = format!("option name {option} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{option} missing"
        );
    }
    assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
    assert!(lines.contains(&"option name EvalFile type string default <built-in>".to_string()));
    e.ready();
}

/// The `NNUE evaluation: ` line of `eval`.
fn nnue_line(e: &mut Engine) -> Vec<String> {
    e.send("eval");
    e.until(|l| l.starts_with("Final evaluation: "))
}

#[test]
fn eval_file_and_use_nnue_choose_the_evaluation() {
    let dir = std::env::temp_dir().join(format!("pinmask-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut e = Engine::start();
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let built_in = nnue_line(&mut e);
    let final_line = |lines: &[String]| lines.last().unwrap().clone();
    let nnue = |lines: &[String]| {
        lines
            .iter()
            .find(|l| l.starts_with("NNUE evaluation: "))
            .unwrap()
            .clone()
    };
    let hand = |lines: &[String]| {
        lines
            .iter()
            .find(|l| l.starts_with("Hand-written evaluation: "))
            .unwrap()
            .clone()
    };
    assert_eq!(
        final_line(&built_in)["Final evaluation: ".len()..],
        nnue(&built_in)["NNUE evaluation: ".len()..nnue(&built_in).find(" (768").unwrap()]
    );

    // Files that are not networks: one error each, the network unchanged.
    let short = dir.join("short.nnue");
    std::fs::write(&short, b"PMNN").unwrap();
    for path in [
        short.display().to_string(),
        dir.join("missing.nnue").display().to_string(),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let errors = e.ready();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("info string error: setoption EvalFile: "),
            "{errors:?}"
        );
        assert!(
            errors[0].ends_with("the network is unchanged"),
            "{errors:?}"
        );
    }
    assert_eq!(nnue_line(&mut e), built_in);

    // Another network: a copy of the built-in one with the output bias moved.
    let mut bytes = search::nnue::Network::built_in().to_bytes();
    let at = bytes.len() - 4;
    let bias = i32::from_le_bytes(bytes[at..].try_into().unwrap()) + 255 * 64;
    bytes[at..].copy_from_slice(&bias.to_le_bytes());
    let other = dir.join("other.nnue");
    std::fs::write(&other, &bytes).unwrap();
    e.send(&format!(
        "setoption name EvalFile value {}",
        other.display()
    ));
    assert!(e.ready().is_empty());
    let moved = nnue_line(&mut e);
    assert_ne!(nnue(&moved), nnue(&built_in));
    assert_eq!(hand(&moved), hand(&built_in));

    // The hand-written evaluation, then back to the built-in network.
    e.send("setoption name Use NNUE value false");
    let off = nnue_line(&mut e);
    assert!(nnue(&off).contains("not in use"), "{off:?}");
    assert_eq!(
        final_line(&off)["Final evaluation: ".len()..],
        hand(&off)["Hand-written evaluation: ".len()..]
    );
    e.send("go depth 3");
    let pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    assert_legal_bestmove(&e.bestmove(), &pos);
    e.send("setoption name Use NNUE value true");
    e.send("setoption name EvalFile value <built-in>");
    assert!(e.ready().is_empty());
    assert_eq!(nnue_line(&mut e), built_in);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn go_perft_matches_published_counts_and_format() {
    let mut e = Engine::start();
    e.send("position startpos");
    let (moves, total) = e.perft(3);
    assert_eq!(total, 8_902);
    assert_eq!(moves.len(), 20);
    assert_eq!(moves.iter().map(|m| m.1).sum::<u64>(), total);
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -");
    let (moves, total) = e.perft(2);
    assert_eq!((moves.len(), total), (48, 2_039));
    assert!(
        moves.iter().any(|m| m.0 == "e1g1"),
        "castling in standard notation"
    );
    // Position 3 of the standard suite, depth 4.
    e.send("position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    assert_eq!(e.perft(4).1, 43_238);
}

#[test]
fn d_shows_board_fen_key_checkers_and_pins() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 d7d5 f1b5");
    e.send("d");
    let lines = e.until(|l| l.starts_with("Legal moves:"));
    let fen = "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2";
    assert!(lines.contains(&format!("Fen: {fen}")), "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Key: ") && l.len() == 21));
    assert!(lines.contains(&"Checkers: b5".to_string()));
    assert!(lines.contains(&"Legal moves: 5".to_string()));
    assert!(
        lines.contains(&"Moves: b8c6 Nc6, b8d7 Nd7, c7c6 c6, c8d7 Bd7, d8d7 Qd7".to_string()),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l == " | r | n | b | q | k | b | n | r | 8"));
}

#[test]
fn limited_searches_answer_a_legal_bestmove() {
    let mut e = Engine::start();
    let pos = Position::startpos();
    let after = pos.play(pos.parse_uci_move("e2e4").unwrap());
    e.send("position startpos moves e2e4");
    for go in [
        "go depth 3",
        "go movetime 200",
        "go nodes 5000",
        "go wtime 2000 btime 2000 winc 10 binc 10",
    ] {
        e.send(go);
        assert_legal_bestmove(&e.bestmove(), &after);
    }
    e.ready();
}

#[test]
fn stop_ends_infinite_search_promptly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    // No bestmove before stop; isready is answered meanwhile.
    let early = e.until_within(Duration::from_millis(300), |l| l.starts_with("bestmove"));
    assert!(early.is_err(), "bestmove before stop: {early:?}");
    let start = Instant::now();
    e.send("isready");
    e.until(|l| l == "readyok");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "isready waited on the search"
    );
    let start = Instant::now();
    e.send("stop");
    assert_legal_bestmove(&e.bestmove(), &Position::startpos());
    // 100 ms is the bar; a loaded CI machine gets twice that.
    assert!(
        start.elapsed() < Duration::from_millis(200),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn go_right_after_stop_is_not_refused() {
    // A client may send `go` as soon as it reads the stopped search's
    // bestmove, or even before; the engine must queue it, not refuse it.
    for _ in 0..5 {
        let mut e = Engine::start();
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(30));
        e.send("stop");
        e.send("go depth 2");
        let mut lines = e.until(|l| l.starts_with("bestmove "));
        lines.extend(e.until(|l| l.starts_with("bestmove ")));
        assert!(
            !lines.iter().any(|l| l.starts_with("info string error")),
            "{lines:?}"
        );
        for line in lines.iter().filter(|l| l.starts_with("bestmove ")) {
            assert_legal_bestmove(&line["bestmove ".len()..], &Position::startpos());
        }
    }
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000");
    let early = e.until_within(Duration::from_millis(400), |l| l.starts_with("bestmove"));
    assert!(early.is_err(), "bestmove while pondering: {early:?}");
    e.send("ponderhit");
    e.bestmove();
    e.ready();
}

#[test]
fn quit_during_search_answers_and_exits_quickly() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    assert!(e.wait_exit(Duration::from_millis(1000)));
    assert_legal_bestmove(&e.bestmove(), &Position::startpos());
}

#[test]
fn end_of_input_during_search_answers_and_exits() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.stdin = None;
    assert!(e.wait_exit(Duration::from_millis(1000)));
    assert_legal_bestmove(&e.bestmove(), &Position::startpos());
}

#[test]
fn no_legal_move_gives_0000() {
    let mut e = Engine::start();
    // Fool's mate: White is checkmated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 3");
    assert_eq!(e.bestmove(), "0000");
    // Stalemate.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 50");
    assert_eq!(e.bestmove(), "0000");
}

/// Inputs that must each give exactly one `info string error:` line and
/// leave the position as it was.
const BAD_INPUTS: &[&str] = &[
    "xboard",
    "protover 2",
    "position",
    "position startpos e2e4",
    "position startpos moves e2e5",
    "position startpos moves e2e4 e2e4",
    "position startpos moves e7e5",
    "position startpos moves e2",
    "position startpos moves e2e4e5",
    "position startpos moves e1g1",
    "position startpos moves a7a8q",
    "position fen",
    "position fen 8/8/8/8 w - - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
    "position fen 4k3/8/8/8/8/8/8/4K2P w - - 0 1",
    "position fen 4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
    "position fen \u{0}\u{1}\u{2}",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e3",
    "position fenx",
    "go perft 0",
    "go perft -3",
    "go perft many",
    "go perft",
    "go perft 65",
    "go perft depth 3",
    "setoption",
    "setoption name",
    "setoption name Hash value lots",
    "setoption name Hash",
    "setoption name NoSuchOption value 1",
    "setoption name UCI_Chess960 value maybe",
    "setoption name MultiPV value two",
    "setoption name Threads",
    "setoption Hash 16",
    "debug sometimes",
    "d now",
    "bench 0",
    "bench 1 2",
    "bench deep",
    "\u{fffd}\u{fffd}\u{fffd}",
    "moves e2e4",
    "e2e4",
];

#[test]
fn bad_input_gets_one_error_and_keeps_the_position() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5");
    let kept = e.perft(1);
    assert_eq!(kept.0.len(), 29);
    for bad in BAD_INPUTS {
        e.send(bad);
        let before = e.ready();
        let errors = before
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count();
        assert_eq!(errors, 1, "{bad:?} gave {before:?}");
        assert_eq!(before.len(), 1, "{bad:?} gave {before:?}");
        assert_eq!(e.perft(1), kept, "{bad:?} changed the position");
    }
    assert!(BAD_INPUTS.len() >= 40);
}

#[test]
fn garbage_bytes_and_blank_lines_are_survived() {
    let mut e = Engine::start();
    e.send_bytes(b"\xff\xfe\x00\x80garbage\n\n   \n\t\n");
    e.send_bytes(&[0x1b, b'[', b'A', b'\n']);
    let before = e.ready();
    assert_eq!(
        before
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        2
    );
    e.send("position startpos");
    assert_eq!(e.perft(2).1, 400);
}

#[test]
fn out_of_range_options_are_clamped_with_a_note() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 0");
    e.send("setoption name threads value 100000");
    e.send("setoption name Move Overhead value -5");
    let before = e.ready();
    assert_eq!(before.len(), 3, "{before:?}");
    assert!(before
        .iter()
        .all(|l| l.starts_with("info string ") && !l.contains("error")));
    e.send("setoption name Clear Hash");
    e.send("ucinewgame");
    assert!(e.ready().is_empty());
}

#[test]
fn absurd_go_numbers_do_not_crash() {
    let mut e = Engine::start();
    e.send("position startpos");
    let bounded = [
        "go mate 300 movetime 100",
        "go movestogo 300 wtime 100 btime 100",
        "go nodes 99999999999999999999999 movetime 50",
        "go wtime -100 btime -100",
    ];
    for go in bounded {
        e.send(go);
        assert_legal_bestmove(&e.bestmove(), &Position::startpos());
    }
    // Depth 256 is clamped, not refused; it would run for ages, so stop it.
    e.send("go depth 256");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    assert_legal_bestmove(&e.bestmove(), &Position::startpos());
}

#[test]
fn chess960_castling_in_king_takes_rook_notation() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    // White king b1, rooks a1 and h1: castling long is b1a1, short b1h1.
    let fen = "1r2kr2/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAfb - 0 1";
    e.send(&format!("position fen {fen}"));
    let (moves, _) = e.perft(1);
    assert!(moves.iter().any(|m| m.0 == "b1h1"), "{moves:?}");
    e.send(&format!("position fen {fen} moves b1h1"));
    e.send("d");
    let lines = e.until(|l| l.starts_with("Legal moves:"));
    assert!(
        lines.contains(&"Fen: 1r2kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b fb - 1 1".to_string()),
        "{lines:?}"
    );
    // Black's castling in king-takes-rook UCI beside its SAN.
    let moves = lines.iter().find(|l| l.starts_with("Moves: ")).unwrap();
    assert!(moves.contains("e8b8 O-O-O, e8d8 Kd8, e8f8 O-O,"), "{moves}");
    // The king's two-square step is no move in Chess960 mode.
    e.send(&format!("position fen {fen} moves b1g1"));
    let errors = e.ready();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("info string error: "));
}

#[test]
fn eval_prints_the_breakdown_and_changes_nothing() {
    let mut e = Engine::start();
    // White is a queen up; Black to move.
    e.send("position fen 4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("Final evaluation: "));
    for row in ["Material", "Mobility", "Passed pawns", "King attack"] {
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with(row)),
            "{lines:?}"
        );
    }
    assert!(
        lines.iter().any(|l| l.starts_with("Phase: 4 of 24")),
        "{lines:?}"
    );
    let last = lines.last().unwrap();
    assert!(last.starts_with("Final evaluation: +"), "{last}");
    assert!(last.ends_with("for Black to move)"), "{last}");
    e.send("eval now");
    let lines = e.ready();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error: eval"), "{lines:?}");
    // The position is unchanged: the black king has e7, f7 and f8.
    assert_eq!(e.perft(1).1, 3);
}

#[test]
fn show_wdl_puts_per_mille_rates_beside_the_score() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove "));
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
    e.send("setoption name UCI_ShowWDL value true");
    // White a rook up: a win is likely, a loss rare.
    e.send("position fen 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w Q - 0 1");
    e.send("go depth 4");
    let lines = e.until(|l| l.starts_with("bestmove "));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for info in infos {
        let words: Vec<&str> = info.split(' ').collect();
        let at = words.iter().position(|&w| w == "wdl").expect("a wdl field");
        assert_eq!(words[at - 3], "score", "{info}");
        let rates: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(rates.iter().sum::<u32>(), 1000, "{info}");
        assert!(rates[0] > 600 && rates[2] < 50, "{info}");
    }
}

#[test]
fn limited_strength_searches_little_and_never_drops_a_queen() {
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1350");
    // Rd1xd4 wins Black's queen; nothing else comes close.
    let fen = "6k1/5ppp/8/8/3q4/8/5PPP/3R2K1 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    let budget = search::Strength::new(1350, 0).nodes();
    for _ in 0..20 {
        e.send("go depth 30");
        let lines = e.until(|l| l.starts_with("bestmove "));
        assert!(
            lines.last().unwrap().starts_with("bestmove d1d4"),
            "{lines:?}"
        );
        // Up to four lines to choose from, and Elo 1350's node budget (the
        // limit is polled every 128 nodes).
        assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
        for info in lines.iter().filter(|l| l.starts_with("info depth")) {
            let nodes: u64 = info
                .split(' ')
                .skip_while(|&w| w != "nodes")
                .nth(1)
                .unwrap()
                .parse()
                .unwrap();
            assert!(nodes < budget + 128, "{info}");
        }
    }
    // From the start, the weakened choices vary; at full strength they do not.
    e.send("position startpos");
    let mut weak = std::collections::BTreeSet::new();
    for _ in 0..20 {
        e.send("go depth 30");
        weak.insert(e.bestmove().split(' ').next().unwrap().to_string());
    }
    assert!(weak.len() > 1, "{weak:?}");
    e.send("setoption name UCI_LimitStrength value false");
    let mut full = std::collections::BTreeSet::new();
    for _ in 0..3 {
        // A fresh table each time, so full strength is one fixed search.
        e.send("ucinewgame");
        e.send("go depth 5");
        full.insert(e.bestmove().split(' ').next().unwrap().to_string());
    }
    assert_eq!(full.len(), 1, "{full:?}");
}
