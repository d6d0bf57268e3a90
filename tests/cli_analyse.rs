//! `engine analyse` on the command line: annotated PGN that our own reader
//! takes back, verdicts where a move throws the game away, and clean errors
//! for bad input with the good games still written.

use movegen::pgn::{read_games, PgnGame};
use std::io::Write;
use std::process::{Command, Output};

fn analyse(pgn: &[u8], args: &[&str]) -> Output {
    // Tests run at once: each call has a file of its own.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut file = std::env::temp_dir();
    file.push(format!("pinmask-analyse-{}-{call}.pgn", std::process::id()));
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

/// A fresh directory of its own for a test that writes files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pinmask-analyse-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch directory is made");
    dir
}

const SHORT: &[u8] = b"1. e4 e5 2. Nf3 Nc6 *\n";

#[test]
fn an_output_that_is_the_input_is_refused_and_the_input_kept() {
    let dir = scratch("same");
    let input = dir.join("games.pgn");
    std::fs::write(&input, SHORT).unwrap();
    std::os::unix::fs::symlink(&input, dir.join("link.pgn")).unwrap();
    std::fs::hard_link(&input, dir.join("hard.pgn")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    for out in [
        "games.pgn",
        "./games.pgn",
        "sub/../games.pgn",
        "link.pgn",
        "hard.pgn",
    ] {
        let run = Command::new(env!("CARGO_BIN_EXE_engine"))
            .current_dir(&dir)
            .args(["analyse", "games.pgn", "--depth", "1", "-o", out])
            .output()
            .expect("the engine binary runs");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "-o {out} was accepted");
        assert!(
            stderr.contains("this is the input file"),
            "-o {out}: {stderr}"
        );
        assert_eq!(
            std::fs::read(&input).unwrap(),
            SHORT,
            "-o {out} changed the input"
        );
    }
    // The input named through the link is refused too.
    let run = Command::new(env!("CARGO_BIN_EXE_engine"))
        .current_dir(&dir)
        .args(["analyse", "link.pgn", "--depth", "1", "-o", "games.pgn"])
        .output()
        .expect("the engine binary runs");
    assert!(!run.status.success());
    assert_eq!(std::fs::read(&input).unwrap(), SHORT);
    // An output where no file can be made is named in the error.
    let run = Command::new(env!("CARGO_BIN_EXE_engine"))
        .current_dir(&dir)
        .args([
            "analyse",
            "games.pgn",
            "--depth",
            "1",
            "-o",
            "nowhere/out.pgn",
        ])
        .output()
        .expect("the engine binary runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.starts_with("error: nowhere/out.pgn: "), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_output_is_replaced_whole_and_only_at_the_end() {
    let dir = scratch("replace");
    let input = dir.join("games.pgn");
    let out = dir.join("out.pgn");
    let old = b"an earlier review, to keep until the new one is whole\n";
    // The first game is written at once; the others take long enough to
    // stop the run in the middle.
    let opera = "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 \
                 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 \
                 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n\n";
    let mut pgn = String::from("1. e4 e5 *\n\n");
    for _ in 0..4 {
        pgn.push_str(opera);
    }
    std::fs::write(&input, &pgn).unwrap();
    std::fs::write(&out, old).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["analyse"])
        .arg(&input)
        .args(["--depth", "12", "-o"])
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the engine binary runs");
    // Wait until the first game is written (to a temporary file, or, were
    // the output written in place, to the output), then kill the run.
    let started = std::time::Instant::now();
    let temp_with_a_game = || {
        std::fs::read_dir(&dir).unwrap().flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(".out.pgn.") && e.metadata().is_ok_and(|m| m.len() > 0)
        })
    };
    while !temp_with_a_game() && std::fs::read(&out).unwrap() == old {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
        assert!(
            started.elapsed().as_secs() < 120,
            "no game written within 2 minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        old,
        "a killed run changed the output"
    );

    // A run that ends puts the whole review in place and no file beside it.
    let first = "1. e4 e5 *\n";
    std::fs::write(&input, first).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("analyse")
        .arg(&input)
        .args(["--depth", "2", "-o"])
        .arg(&out)
        .output()
        .expect("the engine binary runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(read_games(&text).count(), 1, "{text}");
    assert!(text.contains("[Annotator \"Pinmask\"]"));
    // A run with no game leaves the output as it was.
    std::fs::write(&input, "").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("analyse")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("the engine binary runs");
    assert!(!run.status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let mut left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    // The killed run's temporary file is all that may be left.
    left.retain(|n| !n.starts_with(&format!(".out.pgn.{}", child.id())));
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_through_a_link_replaces_the_file_it_points_to() {
    let dir = scratch("link");
    let input = dir.join("games.pgn");
    std::fs::write(&input, SHORT).unwrap();
    std::fs::write(dir.join("real.pgn"), "old\n").unwrap();
    std::os::unix::fs::symlink("real.pgn", dir.join("out.pgn")).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_engine"))
        .current_dir(&dir)
        .args(["analyse", "games.pgn", "--depth", "1", "-o", "out.pgn"])
        .output()
        .expect("the engine binary runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(std::fs::symlink_metadata(dir.join("out.pgn"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(dir.join("real.pgn"))
        .unwrap()
        .contains("Pinmask review"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Opera Game (Morphy against the Duke of Brunswick and Count Isouard,
/// Paris 1858).
const OPERA: &str =
    "[Event \"Paris\"]\n[White \"Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n\
    [Result \"1-0\"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 \
    7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 \
    13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n";

#[test]
fn the_opera_games_sound_moves_are_not_marked_at_the_default_depth() {
    // 9. Bg5 and 10. Nxb5 are Stockfish's own choices; one search a
    // position at depth 10 marked both ?!, the check of the mark clears them.
    let out = analyse(OPERA.as_bytes(), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game = &games(&out)[0];
    assert!(game.mainline.comments[0].starts_with("Pinmask review, depth 10."));
    let moves = &game.mainline.moves;
    for (ply, san) in [(16, "9. Bg5"), (18, "10. Nxb5")] {
        let node = &moves[ply];
        assert!(
            !node.nags.iter().any(|n| [2, 4, 6].contains(n)),
            "{san} marked: {:?} {:?}",
            node.nags,
            node.comments
        );
        assert!(node.variations.is_empty(), "{san}: a better line is shown");
    }
    // 17. Rd8# is a mate in one: no find.
    assert!(!moves[32].nags.contains(&1), "{:?}", moves[32]);
}

#[test]
fn no_only_move_mark_on_a_mate_in_one_or_a_forced_recapture() {
    // Rd8# is the one move that does not lose (Black threatens Qxg2#
    // with a queen and a bishop against the rook); 1... Rxd5 is the one
    // recapture of the queen.
    let pgn = "[SetUp \"1\"]\n[FEN \"6k1/1b3ppp/8/8/8/8/1q4PP/3R3K w - - 0 1\"]\n\n1. Rd8# 1-0\n\n\
               [SetUp \"1\"]\n[FEN \"3r2k1/5ppp/8/3q4/8/8/5PPP/3Q2K1 w - - 0 1\"]\n\n1. Qxd5 Rxd5 *\n";
    let out = analyse(pgn.as_bytes(), &["--depth", "6"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games(&out);
    let mate = &games[0].mainline.moves[0];
    assert!(!mate.nags.contains(&1), "the mate in one: {mate:?}");
    let recapture = &games[1].mainline.moves[1];
    assert!(!recapture.nags.contains(&1), "the recapture: {recapture:?}");
}
