//! `course tournament` as an instructor runs it: student engines built from the course's own
//! lab 12 solution, a named reference engine with options, games refereed by the course.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use movegen::pgn::read_games;

#[path = "support/cli.rs"]
#[allow(dead_code)]
mod cli;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/scratch.rs"]
mod scratch;
use cli::{course, instructor, text};
use scratch::Scratch;

/// Builds the lab 12 solution's engine in `root/ws`, as `course check` builds a workspace,
/// and returns the binary.
fn build_student_engine(root: &Path) -> PathBuf {
    let out = instructor(&["init", "ws", "--solutions"], root);
    assert!(out.status.success(), "{}", text(&out));
    let ws = root.join("ws");
    course::workspace::build(&ws).unwrap_or_else(|e| panic!("the solution does not build:\n{e}"));
    ws.join("target/debug/engine")
}

/// Stockfish, where it is installed (CI installs it).
fn stockfish() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("stockfish"))
        .chain([PathBuf::from("/usr/games/stockfish")])
        .find(|p| p.is_file())
}

fn write_script(path: &Path, body: &str) {
    fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("writable");
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn three_students_and_a_reference_play_every_pairing_into_a_crosstable_and_pgn() {
    let scratch = Scratch::new("tournament-play");
    let root = &scratch.0;
    let built = build_student_engine(root);
    // One build serves three students, each in a workspace folder of their own name.
    let mut args: Vec<String> = vec!["tournament".into()];
    for name in ["alice", "bob", "carol"] {
        let dir = root.join(name).join("target/release");
        fs::create_dir_all(&dir).expect("writable");
        fs::copy(&built, dir.join("engine")).expect("copied");
        args.push(format!("{name}/target/release/engine"));
    }
    // The reference: Stockfish at its weakest (an option name with a space), or, where it is
    // not installed, the student engine once more under a name of its own.
    let reference = match stockfish() {
        Some(sf) => format!(
            "reference={} option.Skill Level=0 option.Hash=16",
            sf.display()
        ),
        None => format!("reference={}", built.display()),
    };
    args.extend(["--engine".into(), reference]);
    for a in [
        "--tc",
        "0.5+0.01",
        "--max-moves",
        "60",
        // Time management is the engines' business, not this test's: a margin wide enough for
        // a loaded CI machine.
        "--margin",
        "2000",
        "--games",
        "2",
        "--pgn",
        "games.pgn",
    ] {
        args.push(a.into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let started = Instant::now();
    let out = course(&args, root);
    let t = text(&out);
    eprintln!("{t}\nthe tournament took {:?}", started.elapsed());
    assert!(out.status.success(), "{t}");

    let names = ["alice", "bob", "carol", "reference"];
    let cross: Vec<&str> = t
        .lines()
        .skip_while(|l| !l.starts_with("Crosstable"))
        .skip(2)
        .take(4)
        .collect();
    assert_eq!(cross.len(), 4, "{t}");
    for row in &cross {
        let words: Vec<&str> = row.split_whitespace().collect();
        assert!(names.contains(&words[1]), "{row}");
        let cells = &words[2..];
        assert_eq!(cells.iter().filter(|&&c| c == "x").count(), 1, "{row}");
        // Every pairing played both its games.
        for cell in cells.iter().filter(|&&c| c != "x") {
            let wdl: u32 = cell
                .split('-')
                .map(|n| n.parse::<u32>().expect("a count"))
                .sum();
            assert_eq!(wdl, 2, "{row}");
        }
    }
    let standings: Vec<&str> = t
        .lines()
        .skip_while(|l| !l.starts_with("Standings"))
        .skip(2)
        .take(4)
        .collect();
    for row in &standings {
        let words: Vec<&str> = row.split_whitespace().collect();
        // games, W-D-L, then no time losses, illegal moves or crashes.
        assert_eq!(words[6], "6", "{row}");
        assert_eq!(&words[8..], ["0", "0", "0"], "{row}");
    }

    let pgn = fs::read_to_string(root.join("games.pgn")).expect("the PGN was written");
    let games: Vec<_> = read_games(&pgn)
        .collect::<Result<_, _>>()
        .expect("the PGN reads back");
    assert_eq!(games.len(), 12);
    // Six openings, one per pairing, each played twice with colours swapped (two copies of
    // one program may well play the same game twice: that is the test's doing).
    let players = |g: &movegen::pgn::PgnGame| {
        (
            g.tag("White").unwrap_or("").to_string(),
            g.tag("Black").unwrap_or("").to_string(),
        )
    };
    let mut fens: Vec<&str> = games.iter().filter_map(|g| g.tag("FEN")).collect();
    assert_eq!(fens.len(), 12, "every game starts from an opening");
    fens.sort_unstable();
    fens.dedup();
    assert_eq!(fens.len(), 6, "each opening serves one pairing's two games");
    for fen in fens {
        let pair: Vec<_> = games.iter().filter(|g| g.tag("FEN") == Some(fen)).collect();
        assert_eq!(pair.len(), 2, "{fen}");
        let (w, b) = players(pair[0]);
        assert_eq!(players(pair[1]), (b, w), "{fen}: colours swapped");
    }
    for g in &games {
        assert!(names.contains(&g.tag("White").unwrap_or("")));
        assert_ne!(g.tag("White"), g.tag("Black"));
        assert_eq!(g.tag("Result"), Some(g.result().as_str()));
        let termination = g.tag("Termination").unwrap_or("");
        assert!(
            ["normal", "adjudication"].contains(&termination),
            "{termination}"
        );
        g.game().expect("the moves are legal");
    }
}

#[test]
fn programs_that_are_not_engines_and_bad_arguments_fail_before_any_game() {
    let scratch = Scratch::new("tournament-refuse");
    let root = &scratch.0;
    write_script(
        &root.join("fine"),
        "while read l; do case $l in uci) echo uciok;; isready) echo readyok;; quit) exit;; esac; done",
    );
    write_script(&root.join("silent"), "exit 0");
    fs::write(root.join("notes.txt"), "not a program").expect("writable");
    let out = course(
        &[
            "tournament",
            "./fine",
            "./silent",
            "./notes.txt",
            "/no/such/engine",
            "--engine",
            "cat=cat",
            "--pgn",
            "games.pgn",
        ],
        root,
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    for named in [
        "silent (./silent): stopped before answering `uci`",
        "notes (./notes.txt): cannot be started",
        "engine (/no/such/engine): no such file",
        "cat (cat): did not answer `uci` with `uciok` within 5 s (it printed `uci`)",
    ] {
        assert!(t.contains(named), "{named}\n{t}");
    }
    assert!(!t.contains("fine (") && !t.contains("panicked"), "{t}");
    assert!(!root.join("games.pgn").exists(), "no game, no PGN");

    for (args, expect) in [
        (vec!["tournament", "./fine"], "at least two engines"),
        (
            vec!["tournament", "./fine", "./fine", "--tc", "40/abc"],
            "--tc: `40/abc` is not a time control",
        ),
        (
            vec!["tournament", "./fine", "./fine", "--openings", "notes.txt"],
            "notes.txt is not an openings file (EPD or FEN lines): line 1",
        ),
        (
            vec!["tournament", "./fine", "--engine", "x=./fine option.Hash"],
            "x (./fine): has no option `Hash` (it offers none)",
        ),
        (
            vec!["tournament", "./fine", "--pinmask", "./fine", "--elo", "99"],
            "--elo must be within",
        ),
        (
            vec!["tournament", "./fine", "./fine", "--margin", "99999999999"],
            "--margin must be within 0..=60000",
        ),
        (
            vec!["tournament", "./fine", "./fine", "--games", "0"],
            "--games must be within 1..=1000",
        ),
    ] {
        let out = course(&args, root);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {t}");
        assert!(
            t.contains(expect) && !t.contains("panicked"),
            "{args:?}: {t}"
        );
    }
}

#[test]
fn engines_play_in_the_sandbox_unless_told_not_to() {
    let scratch = Scratch::new("tournament-sandbox");
    let root = &scratch.0;
    // It answers the handshake, and on `uci` tries to write beside itself.
    let escaped = root.join("escaped");
    write_script(
        &root.join("sneaky"),
        &format!(
            "while read l; do case $l in uci) echo x > {}; echo uciok;; isready) echo readyok;; quit) exit;; esac; done",
            escaped.display()
        ),
    );
    let args = [
        "tournament",
        "./sneaky",
        "./sneaky",
        "--games",
        "1",
        "--tc",
        "0.2+0",
        "--margin",
        "0",
        "--pgn",
        "games.pgn",
    ];
    let out = course(&args, root);
    // The handshake went through (a game was played), yet nothing was written.
    assert!(
        text(&out).contains("game 1/1: sneaky - sneaky-2"),
        "{}",
        text(&out)
    );
    assert!(
        !escaped.exists(),
        "a sandboxed engine wrote outside its folder\n{}",
        text(&out)
    );
    let mut open = args.to_vec();
    open.push("--no-sandbox");
    let out = course(&open, root);
    assert!(
        escaped.exists(),
        "the engine never ran its write\n{}",
        text(&out)
    );
}

/// A file's contents, mode, change time and link count: what an attack on it would move.
fn state(path: &Path) -> String {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::symlink_metadata(path).expect("there");
    format!(
        "{:o} {}.{} {} {:?}",
        meta.mode(),
        meta.ctime(),
        meta.ctime_nsec(),
        meta.nlink(),
        fs::read(path).ok()
    )
}

#[test]
fn workspaces_are_built_in_the_sandbox_and_a_hostile_engine_reaches_nothing() {
    let scratch = Scratch::new("tournament-hostile");
    let root = &scratch.0;
    let subs = root.join("subs");
    fs::create_dir_all(&subs).expect("writable");
    for name in ["alice", "ivan"] {
        let out = instructor(&["init", name, "--solutions"], &subs);
        assert!(out.status.success(), "{}", text(&out));
    }
    // ivan's engine tries every attack on processes, metadata, sockets and other programs
    // as it starts, and dies naming the first that gets through.
    let bait = hostile::Bait::lay(root, "tournament");
    let payload = bait.payload(root);
    let lab12 = subs.join("ivan/src/lab12_uci.rs");
    let source = fs::read_to_string(&lab12).expect("readable");
    fs::write(
        &lab12,
        hostile::call_first(&source, "run", "payload()") + &payload,
    )
    .expect("writable");
    fs::write(root.join("secret.txt"), "the answer key").expect("writable");
    let targets = [
        root.join("secret.txt"),
        root.join("tool"),
        subs.join("alice/src/lab01_bitboards.rs"),
    ];
    let before: Vec<String> = targets.iter().map(|p| state(p)).collect();

    let args = [
        "tournament",
        "subs/alice",
        "subs/ivan",
        "--games",
        "2",
        "--tc",
        "2+0.05",
        "--max-moves",
        "40",
        "--pgn",
        "games.pgn",
    ];
    let out = cli::command(&args, root)
        .env("PINMASK_INSTRUCTOR_SECRET", "hunter2")
        .output()
        .expect("course runs");
    let printed = text(&out);
    // Both engines were built by the course, in the sandbox, and both games were played on
    // the board: ivan's attacks all failed, so his engine played.
    for name in ["alice", "ivan"] {
        assert!(
            printed.contains(&format!("building {name}'s engine in the sandbox")),
            "{printed}"
        );
    }
    assert!(out.status.success(), "{printed}");
    assert!(!printed.contains("ESCAPED"), "{printed}");
    assert!(printed.contains("game 2/2: "), "{printed}");
    let after: Vec<String> = targets.iter().map(|p| state(p)).collect();
    assert_eq!(before, after, "a file outside the engines' folders changed");
    assert!(
        !bait.taken(),
        "an engine connected to the instructor's socket"
    ); // Nothing of the student's build is left in their workspace: it was built in a copy.
    assert!(!subs.join("ivan/target").exists());

    // The payload does run: without the sandbox its first attack gets through (the panic's
    // message, not a backtrace, is the last of the engine's lines the referee keeps).
    let mut open = args.to_vec();
    open.push("--no-sandbox");
    let out = cli::command(&open, root)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("course runs");
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("ESCAPED"), "{}", text(&out));
}
