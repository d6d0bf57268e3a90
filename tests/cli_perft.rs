//! `engine perft` on the command line: stdout carries the results only, and
//! nothing goes to stderr when it is not a terminal (no progress bar).

use std::process::Command;

fn engine_perft(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("perft")
        .args(args)
        .output()
        .expect("the engine binary runs");
    assert!(out.status.success(), "engine perft {args:?} failed");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("output is UTF-8");
    (text(out.stdout), text(out.stderr))
}

#[test]
fn divide_prints_every_root_move_in_order_and_nothing_on_stderr() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let one = engine_perft(&["4", "--fen", kiwipete, "--divide"]);
    let two = engine_perft(&["4", "--fen", kiwipete, "--divide", "--threads", "2"]);
    for (stdout, stderr) in [&one, &two] {
        assert_eq!(stderr, "");
        let lines: Vec<&str> = stdout.lines().collect();
        // 48 root moves, an empty line, then nodes, time and speed.
        assert_eq!(lines.len(), 48 + 4, "{stdout}");
        assert_eq!(lines[48], "");
        assert_eq!(lines[49], "nodes 4085603");
    }
    let moves = |out: &str| out.lines().take(48).map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(moves(&one.0), moves(&two.0));
}

#[test]
fn plain_perft_prints_nodes_time_speed() {
    let (stdout, stderr) = engine_perft(&["5"]);
    assert_eq!(stderr, "");
    assert_eq!(stdout.lines().next(), Some("nodes 4865609"));
    assert_eq!(stdout.lines().count(), 3);
}

fn engine_moves(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("moves")
        .args(args)
        .output()
        .expect("the engine binary runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("output is UTF-8");
    (out.status.success(), text(out.stdout), text(out.stderr))
}

#[test]
fn moves_in_uci_and_san_line_up() {
    // Castling both ways, a promotion with check, and en passant.
    let fen = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1";
    let (ok, uci, _) = engine_moves(&["--fen", fen]);
    assert!(ok);
    let (ok, san, stderr) = engine_moves(&["--fen", fen, "--san"]);
    assert!(ok && stderr.is_empty(), "{stderr}");
    let pairs: Vec<(&str, &str)> = uci.lines().zip(san.lines()).collect();
    assert_eq!(uci.lines().count(), san.lines().count());
    for want in [
        ("e1g1", "O-O"),
        ("e1c1", "O-O-O"),
        ("b7a8q", "bxa8=Q+"),
        ("b7b8n", "b8=N"),
        ("e5d6", "exd6"),
        ("a1a8", "Rxa8+"),
    ] {
        assert!(pairs.contains(&want), "{want:?} in {pairs:?}");
    }
    // Chess960 castling input is king-takes-rook; SAN is the same.
    let (_, uci960, _) = engine_moves(&["--fen", fen, "--chess960"]);
    assert!(uci960.lines().any(|l| l == "e1h1"));
    let (ok, _, stderr) = engine_moves(&["--fen", "not a fen", "--san"]);
    assert!(!ok && stderr.starts_with("error: invalid FEN"), "{stderr}");
}
