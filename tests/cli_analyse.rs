//! `engine analyse` on the command line: annotated PGN that our own reader
//! takes back, verdicts where a move throws the game away, and clean errors
//! for bad input with the good games still written.

use movegen::pgn::{read_games, PgnGame};
use std::io::Write;
use std::process::{Command, Output};

fn analyse(pgn: &[u8], args: &[&str]) -> Output {
    let mut file = std::env::temp_dir();
    file.push(format!(
        "pinmask-analyse-{}-{}.pgn",
        std::process::id(),
        args.join("_")
    ));
    std::fs::File::create(&file)
        .and_then(|mut f| f.write_all(pgn))
        .expect("the temporary file is written");
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("analyse")
        .arg(&file)
        .args(args)
        .output()
        .expect("the engine binary runs");
    let _ = std::fs::remove_file(&file);
    out
}

fn games(out: &Output) -> Vec<PgnGame> {
    let text = String::from_utf8(out.stdout.clone()).expect("output is UTF-8");
    read_games(&text)
        .map(|g| g.expect("our reader takes the analysed games back"))
        .collect()
}

#[test]
fn a_blunder_is_marked_with_the_better_move_and_every_move_has_an_eval() {
    // White's 2. g4?? allows mate in one; 4... Nf6?? allows Qxf7#.
    let pgn = b"1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let out = analyse(pgn, &["--depth", "6"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games(&out);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.tag("Annotator"), Some("Pinmask"));
        let head = &game.mainline.comments[0];
        assert!(
            head.starts_with("Pinmask review, depth 6.") && head.contains("Black:"),
            "{head}"
        );
        let last = game.mainline.moves.len() - 1;
        for (i, node) in game.mainline.moves.iter().enumerate() {
            // After a checkmate there is nothing to evaluate.
            if i < last {
                assert!(
                    node.comments[0].starts_with("[%eval "),
                    "{:?}",
                    node.comments
                );
            }
        }
    }
    let g4 = &games[0].mainline.moves[2];
    assert_eq!(g4.nags, [4], "2. g4 is a blunder");
    assert!(g4.comments[0].contains("Blunder."));
    assert!(!g4.variations.is_empty() && g4.variations[0].moves[0].mv != g4.mv);
    assert_eq!(
        games[1].mainline.moves[5].nags,
        [4],
        "3... Nf6 is a blunder"
    );
}

#[test]
fn bad_games_are_named_and_the_good_ones_still_written() {
    let pgn = b"1. e4 e5 *\n\n1. e4 e5 2. Ke3 *\n\n1. d4 \x00\x01 *\n\n1. c4 c5 *\n";
    let out = analyse(pgn, &["--depth", "2"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("game 2, move 2., at \"Ke3\""), "{stderr}");
    assert!(stderr.contains("game 3, move 1..."), "{stderr}");
    assert!(
        stderr.contains("2 of 4 games could not be read"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
    assert_eq!(games(&out).len(), 2);
}

#[test]
fn empty_and_missing_files_fail_with_a_message() {
    let out = analyse(b"", &["--depth", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no games found"));
    let missing = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["analyse", "/nonexistent/games.pgn"])
        .output()
        .expect("the engine binary runs");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/games.pgn"));
}

#[test]
fn movetime_and_threads_analyse_too() {
    let out = analyse(
        b"1. e4 e5 2. Nf3 *\n",
        &["--movetime", "50", "--threads", "2"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games(&out);
    assert!(games[0].mainline.comments[0].starts_with("Pinmask review, 50 ms a position."));
    assert_eq!(games[0].mainline.moves.len(), 3);
}

#[test]
fn either_of_two_mates_is_no_mistake() {
    let fen = "6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1";
    let pgn = format!(
        "[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. Ra8# 1-0\n\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. Re8# 1-0\n"
    );
    let out = analyse(pgn.as_bytes(), &["--depth", "4"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for game in games(&out) {
        let mate = &game.mainline.moves[0];
        assert!(mate.nags.is_empty(), "{:?}", mate);
        assert!(mate.variations.is_empty());
    }
}
