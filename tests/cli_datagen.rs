//! `engine datagen` on the command line: two runs of a small job give the
//! same bytes whatever the thread scheduling; every record, decoded here
//! from the layout in docs/datagen.md (not with the crate's decoder), is a
//! legal position not in check; each game's records share one result; bad
//! arguments get a message and a non-zero exit, and leave no file.

use movegen::Position;
use std::path::PathBuf;
use std::process::{Command, Output};

const RECORD: usize = 32;

fn temp(name: &str) -> PathBuf {
    let mut path = std::env::temp_dir();
    path.push(format!("pinmask-datagen-{}-{name}", std::process::id()));
    path
}

fn datagen(out: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("datagen")
        .arg("-o")
        .arg(out)
        .args(args)
        .output()
        .expect("the engine binary runs")
}

/// One record as the spec lays it out: (FEN, score, result, first of game).
fn decode(rec: &[u8]) -> (String, i16, u8, bool) {
    let occupied = u64::from_le_bytes(rec[0..8].try_into().unwrap());
    let mut board = [' '; 64];
    let mut i = 0;
    for (sq, square) in board.iter_mut().enumerate() {
        if occupied >> sq & 1 == 1 {
            let code = (rec[8 + i / 2] >> (4 * (i % 2))) & 0xF;
            assert!(code & 7 <= 5, "piece code {code}");
            let letter = b"pnbrqk"[usize::from(code & 7)] as char;
            *square = if code & 8 != 0 {
                letter
            } else {
                letter.to_ascii_uppercase()
            };
            i += 1;
        }
    }
    assert!(i <= 32);
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    ' ' => empty += 1,
                    c => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c);
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    let flags = rec[27];
    assert_eq!(flags & 0b1100, 0, "reserved flag bits");
    let castling: String = "KQkq"
        .chars()
        .enumerate()
        .filter(|&(k, _)| flags >> (4 + k) & 1 == 1)
        .map(|(_, c)| c)
        .collect();
    let ep = match rec[31] {
        255 => "-".to_string(),
        sq => format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1),
    };
    let fen = format!(
        "{} {} {} {ep} {} {}",
        ranks.join("/"),
        if flags & 1 == 1 { 'b' } else { 'w' },
        if castling.is_empty() { "-" } else { &castling },
        rec[30],
        u16::from_le_bytes([rec[28], rec[29]]),
    );
    let score = i16::from_le_bytes([rec[24], rec[25]]);
    (fen, score, rec[26], flags & 2 != 0)
}

#[test]
fn two_runs_on_two_threads_write_the_same_valid_records() {
    let args = [
        "--games",
        "6",
        "--nodes",
        "400",
        "--threads",
        "2",
        "--seed",
        "11",
    ];
    let (a, b) = (temp("a.bin"), temp("b.bin"));
    let first = datagen(&a, &args);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let second = datagen(&b, &args);
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let (bytes_a, bytes_b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert!(
        !temp("a.bin.part").exists(),
        "the part file is renamed at the end"
    );
    let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
    assert_eq!(bytes_a, bytes_b, "the same arguments give the same bytes");
    assert_eq!(bytes_a.len() % RECORD, 0);
    let summary = String::from_utf8_lossy(&first.stdout);
    let records = bytes_a.len() / RECORD;
    assert!(records >= 60, "{records} records\n{summary}");
    assert!(
        summary.contains(&format!("games 6 positions {records}")),
        "{summary}"
    );

    let mut game_result = None;
    let mut games = 0;
    let mut seen = std::collections::HashSet::new();
    for rec in bytes_a.chunks(RECORD) {
        let (fen, score, result, first) = decode(rec);
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.to_string(), fen, "the record holds the whole FEN");
        assert!(!pos.in_check(), "{fen} is in check");
        assert!(pos.has_legal_move(), "{fen} is over");
        assert!(result <= 2, "{fen}: result {result}");
        assert!(
            score.abs() < 20_000,
            "{fen}: {score} looks like a mate score"
        );
        if first {
            games += 1;
            game_result = Some(result);
        } else {
            assert_eq!(Some(result), game_result, "{fen}: one result per game");
        }
        seen.insert(fen);
    }
    assert!((1..=6).contains(&games), "{games} games with records");
    assert!(seen.len() * 10 >= records * 9, "games repeat each other");
}

#[test]
fn a_different_seed_gives_different_games() {
    let (a, b) = (temp("s1.bin"), temp("s2.bin"));
    for (path, seed) in [(&a, "1"), (&b, "2")] {
        let out = datagen(
            path,
            &["--positions", "40", "--nodes", "300", "--seed", seed],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (bytes_a, bytes_b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
    assert_eq!(bytes_a.len(), 40 * RECORD, "--positions is met exactly");
    assert_eq!(bytes_b.len(), 40 * RECORD);
    assert_ne!(bytes_a, bytes_b);
}

#[test]
fn bad_arguments_get_a_message_a_failure_and_no_file() {
    let bad_epd = temp("bad.epd");
    std::fs::write(
        &bad_epd,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n",
    )
    .unwrap();
    let bad_epd_arg = bad_epd.to_string_lossy().into_owned();
    let out = temp("never.bin");
    let cases: [(&[&str], &str); 8] = [
        (&["--games", "0"], "--games"),
        (&["--nodes", "0", "--games", "1"], "--nodes"),
        (&["--games", "1", "--positions", "5"], "cannot be used with"),
        (&["--threads", "x", "--games", "1"], "--threads"),
        (
            &["--games", "1", "--openings", "/nonexistent/openings.epd"],
            "cannot read openings",
        ),
        (&["--games", "1", "--openings", &bad_epd_arg], "line 2:"),
        (
            &["--games", "1", "--eval", "/nonexistent/net.nnue"],
            "cannot read network",
        ),
        (
            &["--games", "1", "--eval", &bad_epd_arg],
            "a network file is",
        ),
    ];
    for (args, message) in cases {
        let result = datagen(&out, args);
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(!result.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    let missing = datagen(&temp("x.bin"), &[]);
    assert!(!missing.status.success());
    let nowhere = datagen(
        &PathBuf::from("/nonexistent/dir/out.bin"),
        &["--games", "1"],
    );
    assert!(!nowhere.status.success());
    assert!(String::from_utf8_lossy(&nowhere.stderr).contains("cannot create"));
    let _ = std::fs::remove_file(&bad_epd);
}
