//! The `course` commands as a student and an instructor run them.

use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/cli.rs"]
#[allow(dead_code)]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::{course, instructor, text};
use scratch::Scratch;

#[test]
fn init_keeps_student_work_and_list_hint_and_errors_answer_plainly() {
    let scratch = Scratch::new("cli");
    let root = &scratch.0;
    let out = course(&["init", "ws"], root);
    assert!(out.status.success(), "{}", text(&out));
    // The workspace is all a student needs: every lab text, lab 10's sample export, and the
    // skeletons point there.
    for lab in course::labs::all() {
        let path = root.join("ws").join(course::workspace::text_path(lab));
        let written = fs::read_to_string(&path).expect("init wrote the lab text");
        assert_eq!(written, lab.files().readme);
        let printed = course(&["text", &lab.number().to_string()], root);
        assert_eq!(String::from_utf8_lossy(&printed.stdout), written);
        assert!(
            lab.files()
                .skeleton
                .contains(&course::workspace::text_path(lab)),
            "lab {}'s skeleton does not point at its text",
            lab.number()
        );
    }
    assert!(root.join("ws/labs/crowd_export.epd").is_file());
    let lab1 = root.join("ws/src/lab01_bitboards.rs");
    let mine = fs::read_to_string(&lab1).expect("init wrote lab 1") + "// my work\n";
    fs::write(&lab1, &mine).expect("writable");
    let out = course(&["init", "ws"], root);
    assert!(
        out.status.success() && text(&out).contains("0 lab files new"),
        "{}",
        text(&out)
    );
    assert_eq!(
        fs::read_to_string(&lab1).expect("readable"),
        mine,
        "init overwrote a student's file"
    );

    // A workspace written before a lab existed gets that lab's skeleton at the next check.
    let lab2 = root.join("ws/src/lab02_pawns.rs");
    fs::remove_file(&lab2).expect("lab 2's file is there");
    let out = course(&["check", "2", "--dir", "ws"], root);
    let t = text(&out);
    assert!(
        t.contains("new lab: wrote") && t.contains("NOT STARTED  02"),
        "{t}"
    );
    assert!(lab2.is_file());
    assert_eq!(
        fs::read_to_string(&lab1).expect("readable"),
        mine,
        "check overwrote a student's file"
    );

    let out = course(&["hint", "1"], root);
    assert!(
        out.status.success() && text(&out).contains("popcount"),
        "{}",
        text(&out)
    );
    let out = course(&["list", "--dir", "ws"], root);
    assert!(
        out.status.success()
            && text(&out).contains("01 bitboards")
            && text(&out).contains("not checked yet"),
        "{}",
        text(&out)
    );

    // No such lab; not a workspace: one line on stderr, exit 2, no panic.
    for (args, expect) in [
        (vec!["check", "99", "--dir", "ws"], "there is no lab 99"),
        (vec!["hint", "0"], "there is no lab 0"),
        (
            vec!["check", "1", "--dir", "."],
            "is not a course workspace",
        ),
        (
            vec!["watch", "--dir", "nowhere"],
            "is not a course workspace",
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
fn check_passes_a_solved_lab_in_seconds_and_records_progress() {
    let scratch = Scratch::new("check");
    let root = &scratch.0;
    assert!(instructor(&["init", "ws", "--solutions"], root)
        .status
        .success());
    let first = course(&["check", "1", "--dir", "ws"], root);
    assert!(first.status.success(), "{}", text(&first));
    let started = Instant::now();
    let out = course(&["check", "1", "--dir", "ws"], root);
    let took = started.elapsed();
    let t = text(&out);
    assert!(
        out.status.success() && t.contains("PASS") && t.ends_with("1 passed, 0 failed\n"),
        "{t}"
    );
    // The bound for a solved lab after the first build: a few seconds.
    assert!(
        took < Duration::from_secs(5),
        "course check 1 took {took:?}"
    );
    let out = course(&["list", "--dir", "ws"], root);
    assert!(
        text(&out).contains("01 bitboards") && text(&out).contains("PASS"),
        "{}",
        text(&out)
    );
    // `course check | head -1`: a closed stdout ends the output, without a panic.
    let mut child = Command::new(env!("CARGO_BIN_EXE_course"))
        .args(["check", "--dir", "ws"])
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("course runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("course ends");
    assert!(!text(&out).contains("panicked"), "{}", text(&out));
}

#[test]
fn grade_survives_broken_and_hanging_students_and_writes_csv() {
    let scratch = Scratch::new("grade");
    let subs = scratch.0.join("subs");
    fs::create_dir_all(&subs).expect("writable");
    for (name, solutions) in [
        ("alice", true),
        ("bob", false),
        ("carol", true),
        ("dave", false),
    ] {
        let mut args = vec!["init", name];
        if solutions {
            args.push("--solutions");
        }
        assert!(instructor(&args, &subs).status.success());
    }
    // bob's code does not compile; carol's popcount never returns; dave hasn't started.
    let bob = subs.join("bob/src/lab01_bitboards.rs");
    fs::write(
        &bob,
        fs::read_to_string(&bob).expect("readable") + "\npub fn broken( {\n",
    )
    .expect("writable");
    let carol = subs.join("carol/src/lab01_bitboards.rs");
    let source = fs::read_to_string(&carol).expect("readable");
    let start = source.find("pub fn popcount").expect("popcount is there");
    let end = start + source[start..].find("\n}\n").expect("popcount ends") + 3;
    let hang = "pub fn popcount(bb: Bitboard) -> u32 {\n    let mut b = bb;\n    loop {\n        std::hint::black_box(&mut b);\n    }\n}\n";
    fs::write(
        &carol,
        format!("{}{hang}{}", &source[..start], &source[end..]),
    )
    .expect("writable");
    // Harness tampering doesn't help: grading uses the course's own harness.
    fs::write(
        subs.join("dave/src/harness/lab01.rs"),
        "pub fn call(_: &str, _: &[&str]) -> Result<String, String> { Ok(String::new()) }\n",
    )
    .expect("writable");

    let started = Instant::now();
    // The run's scratch copies go to the test's own temp folder.
    let tmp = scratch.0.join("tmp");
    fs::create_dir_all(&tmp).expect("writable");
    let out = Command::new(env!("CARGO_BIN_EXE_course-instructor"))
        .args([
            "grade",
            "subs",
            "-o",
            "grades.csv",
            "--labs",
            "1",
            "--time-limit",
            "20",
            "--query-timeout",
            "600",
        ])
        .current_dir(&scratch.0)
        .env("TMPDIR", &tmp)
        .output()
        .expect("course runs");
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "grading took {:?}",
        started.elapsed()
    );
    let csv = fs::read_to_string(scratch.0.join("grades.csv")).expect("grade wrote the CSV");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "student,lab01,passed,substituted,note");
    assert_eq!(rows[1], "alice,PASS,1,,");
    assert!(
        rows[2].starts_with("bob,BUILD FAILED,0,01,lab 01: src/lab01_bitboards.rs:"),
        "{csv}"
    );
    assert_eq!(
        rows[3], "carol,TIME LIMIT,0,,lab 01: not finished within 20 s",
        "{csv}"
    );
    assert_eq!(rows[4], "dave,NOT STARTED,0,,", "{csv}");
    let left: Vec<_> = fs::read_dir(&tmp)
        .expect("temp dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "grading left its copies behind: {left:?}");
}
