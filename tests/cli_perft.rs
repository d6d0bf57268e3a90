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
