//! Every lab in the registry, checked as a class would use it: the reference solution passes,
//! the untouched skeleton is "not started" with no panic trace, and each planted bug fails
//! with a diagnosis that contains its `//! expect:` line.
//!
//! One student workspace is built once (all solutions); each skeleton or bug then replaces
//! one file and rebuilds (a small crate with no dependencies: a second or two).

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use course::checker::{CheckVerdict, LabRecord};
use course::student::Student;
use course::{labs, runner, workspace};

#[path = "support/scratch.rs"]
mod scratch;
use scratch::Scratch;

fn show(v: &CheckVerdict) -> String {
    match v {
        CheckVerdict::Fail(d) => format!("FAIL\n{d}"),
        other => other.word().to_string(),
    }
}

/// The `//! bug:` and `//! expect:` header of a planted bug.
fn header(text: &str) -> Option<(&str, &str)> {
    let mut lines = text.lines();
    let bug = lines.next()?.strip_prefix("//! bug: ")?;
    let expect = lines.next()?.strip_prefix("//! expect: ")?;
    Some((bug.trim(), expect.trim()))
}

/// The lab's part of the answer key.
fn key(lab: &LabRecord) -> &'static course_key::LabKey {
    course_key::lab(lab.number()).expect("the key has every lab")
}

fn check_one(dir: &Path, lab: &'static LabRecord) -> CheckVerdict {
    runner::check_built(dir, &[lab]).remove(0).1
}

/// Replaces the lab's file with `text` and checks the lab; `Err` if it does not compile.
fn with_file(dir: &Path, lab: &'static LabRecord, text: &str) -> Result<CheckVerdict, String> {
    let path = workspace::lab_file(dir, lab.number()).expect("every lab has a module");
    fs::write(&path, text).expect("workspace is writable");
    workspace::build(dir)?;
    Ok(check_one(dir, lab))
}

#[test]
fn every_lab_passes_its_solution_starts_not_started_and_catches_its_bugs() {
    let scratch = Scratch::new("labs");
    let all = labs::all();
    // Two workspaces checked side by side: one student build is mostly one core's work.
    let workers = 2;
    let problems: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let dir = scratch.0.join(format!("ws{w}"));
                let mine: Vec<&'static LabRecord> =
                    all.iter().copied().skip(w).step_by(workers).collect();
                let all = &all;
                scope.spawn(move || check_labs(&dir, all, &mine))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker panicked"))
            .collect()
    });
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// In a workspace of every lab's solution: the solutions of `mine` pass, their skeletons
/// are "not started" without a trace, and their bugs are caught. Returns what went wrong.
fn check_labs(dir: &Path, all: &[&'static LabRecord], mine: &[&'static LabRecord]) -> Vec<String> {
    workspace::init(dir, all, Some(course_key::solution)).expect("init writes the workspace");
    if let Err(e) = workspace::build(dir) {
        return vec![format!("the solutions do not build:\n{e}")];
    }
    let mut problems = Vec::new();
    for (n, verdict) in runner::check_built(dir, mine) {
        if !verdict.passed() {
            problems.push(format!(
                "lab {n}: the solution does not pass: {}",
                show(&verdict)
            ));
        }
    }
    for &lab in mine {
        problems.extend(check_skeleton_and_bugs(dir, lab));
    }
    problems
}

fn check_skeleton_and_bugs(dir: &Path, lab: &'static LabRecord) -> Vec<String> {
    let mut problems = Vec::new();
    let n = lab.number();
    match with_file(dir, lab, lab.files().skeleton) {
        Ok(CheckVerdict::NotStarted) => {}
        Ok(other) => problems.push(format!("lab {n}: the skeleton gives {}", show(&other))),
        Err(e) => problems.push(format!("lab {n}: the skeleton does not compile:\n{e}")),
    }
    // What the student sees for an untouched lab: one line, no panic trace.
    let out = Command::new(env!("CARGO_BIN_EXE_course"))
        .args(["check", &n.to_string(), "--dir"])
        .arg(dir)
        .output()
        .expect("the course binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !text.contains("NOT STARTED") || text.contains("panicked") || text.contains("RUST_BACKTRACE")
    {
        problems.push(format!(
            "lab {n}: `course check {n}` on the skeleton printed:\n{text}"
        ));
    }
    if out.status.success() {
        problems.push(format!(
            "lab {n}: `course check {n}` on the skeleton exited 0"
        ));
    }
    if key(lab).bugs.len() < 3 {
        problems.push(format!(
            "lab {n}: {} planted bugs, want at least 3",
            key(lab).bugs.len()
        ));
    }
    for (name, text) in key(lab).bugs {
        let Some((_, expect)) = header(text) else {
            problems.push(format!(
                "lab {n} bug {name}: no `//! bug:` and `//! expect:` lines"
            ));
            continue;
        };
        let source = match key(lab).bug_source(text) {
            Ok(source) => source,
            Err(e) => {
                problems.push(format!("lab {n} bug {name}: {e}"));
                continue;
            }
        };
        match with_file(dir, lab, &source) {
            Ok(CheckVerdict::Fail(d)) if d.to_string().contains(expect) => {}
            Ok(CheckVerdict::Fail(d)) => problems.push(format!(
                "lab {n} bug {name}: the diagnosis lacks `{expect}`:\n{d}"
            )),
            Ok(other) => problems.push(format!("lab {n} bug {name}: not caught, {}", show(&other))),
            Err(e) => problems.push(format!("lab {n} bug {name}: does not compile:\n{e}")),
        }
    }
    let path = workspace::lab_file(dir, n).expect("every lab has a module");
    fs::write(path, key(lab).solution).expect("workspace is writable");
    problems
}

#[test]
fn every_file_in_a_bugs_folder_is_registered() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("labs");
    for lab in labs::all() {
        let folder = root.join(format!("{:02}-{}", lab.number(), lab.slug()));
        assert!(
            folder.join("README.md").is_file(),
            "{} has no README.md",
            folder.display()
        );
        let mut on_disk: Vec<String> = fs::read_dir(folder.join("bugs"))
            .map(|rd| {
                rd.filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
                    .collect()
            })
            .unwrap_or_default();
        on_disk.sort();
        let mut listed: Vec<String> = lab.files().bugs.iter().map(|n| n.to_string()).collect();
        listed.sort();
        assert_eq!(
            on_disk,
            listed,
            "lab {}: bugs/ and the registered bugs differ",
            lab.number()
        );
        let in_key: Vec<String> = key(lab).bugs.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(in_key, listed, "lab {}: the key's bugs", lab.number());
    }
    let numbers: Vec<u8> = labs::all().iter().map(|l| l.number()).collect();
    assert!(
        numbers.windows(2).all(|w| w[0] < w[1]),
        "the registry is in order: {numbers:?}"
    );
}

/// Lab 1's file with one function replaced by `body`.
fn lab1_with(popcount_body: &str) -> String {
    let lab = labs::get(1).expect("lab 1 exists");
    let solution = key(lab).solution;
    let start = solution
        .find("pub fn popcount")
        .expect("lab 1 has popcount");
    let end = start + solution[start..].find("\n}\n").expect("popcount ends") + 3;
    format!(
        "{}pub fn popcount(bb: Bitboard) -> u32 {{\n{popcount_body}\n}}\n{}",
        &solution[..start],
        &solution[end..]
    )
}

#[test]
fn panics_hangs_crashes_and_prints_in_student_code_are_reported_with_their_input() {
    let scratch = Scratch::new("faults");
    let dir = scratch.0.join("ws");
    let lab1 = labs::get(1).expect("lab 1 exists");
    workspace::init(&dir, &[lab1], Some(course_key::solution)).expect("init writes the workspace");
    let path = workspace::lab_file(&dir, 1).expect("lab 1 has a module");
    let check = |text: &str, timeout: Duration| {
        fs::write(&path, text).expect("workspace is writable");
        workspace::build(&dir).unwrap_or_else(|e| panic!("does not build:\n{e}"));
        let mut student = Student::in_workspace(&dir);
        student.set_query_timeout(timeout);
        lab1.check(&mut student)
    };
    let long = Duration::from_secs(10);
    // A student's own debugging output does not confuse the checker.
    let verdict = check(
        &lab1_with("    println!(\"counting {bb:x}\");\n    bb.count_ones()"),
        long,
    );
    assert!(verdict.passed(), "{}", show(&verdict));
    // A hang is reported with the query that hung, and the next lab still gets a fresh harness.
    let verdict = check(
        &lab1_with("    let mut b = bb;\n    loop {\n        std::hint::black_box(&mut b);\n    }"),
        Duration::from_millis(500),
    );
    let text = show(&verdict);
    assert!(
        text.contains(
            "popcount(0x0000000000000000) did not answer within 0.5 s: it was computing all along"
        ),
        "{text}"
    );
    // A function that reads stdin waits for the checker's next question: said so.
    let verdict = check(
        &lab1_with("    let mut line = String::new();\n    let _ = std::io::stdin().read_line(&mut line);\n    bb.count_ones()"),
        Duration::from_millis(500),
    );
    let text = show(&verdict);
    assert!(
        text.contains("waiting to read its standard input"),
        "{text}"
    );
    // One that ends the program is told so, with the query.
    let verdict = check(&lab1_with("    std::process::exit(3)"), long);
    let text = show(&verdict);
    assert!(
        text.contains("popcount(0x0000000000000000) crashed")
            && text.contains("exit status: 3")
            && text.contains("std::process::exit"),
        "{text}"
    );
    // Slow but correct: a verdict once the lab's budget is spent, not silence.
    fs::write(
        &path,
        lab1_with("    std::thread::sleep(Duration::from_millis(20));\n    bb.count_ones()")
            .replace(
                "pub fn popcount",
                "use std::time::Duration;\npub fn popcount",
            ),
    )
    .expect("workspace is writable");
    workspace::build(&dir).unwrap_or_else(|e| panic!("does not build:\n{e}"));
    let mut student = Student::in_workspace(&dir);
    student.set_lab_budget(Duration::from_secs(1));
    let text = show(&course::runner::check_lab(&mut student, lab1));
    assert!(
        text.contains("correct so far") && text.contains("more than the 1 s a lab may take"),
        "{text}"
    );
    // A stack overflow aborts the harness process: reported, with the query.
    let verdict = check(
        &lab1_with("    let frame = std::hint::black_box([bb; 32]);\n    if frame[0] == 0 { 0 } else { popcount(frame[31]) + 1 }"),
        long,
    );
    let text = show(&verdict);
    assert!(
        text.contains("popcount(0x0000000000000001)") && text.contains("stopped"),
        "{text}"
    );
    assert!(text.contains("endless recursion"), "{text}");
    // A panic names its message and the student's line; the harness prints no trace.
    let source =
        lab1_with("    if bb == 1 << 63 {\n        panic!(\"boom\")\n    }\n    bb.count_ones()");
    let line = source
        .lines()
        .position(|l| l.contains("boom"))
        .expect("the panic is in")
        + 1;
    let place = format!("boom (at src/lab01_bitboards.rs:{line})");
    let text = show(&check(&source, long));
    assert!(
        text.contains(&format!("popcount(0x8000000000000000) panicked: {place}")),
        "{text}"
    );
    let mut harness = Command::new(workspace::harness_exe(&dir))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("harness starts");
    harness
        .stdin
        .take()
        .expect("piped")
        .write_all(b"01 popcount 0x8000000000000000\n")
        .expect("write");
    let out = harness
        .wait_with_output()
        .expect("harness ends at end of input");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .trim_start_matches('\u{1e}')
            .trim_end(),
        format!("panic {place}")
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "the panic hook prints nothing"
    );
}

#[test]
fn a_later_lab_that_reaches_an_earlier_labs_todo_is_told_apart_from_not_started() {
    let scratch = Scratch::new("cross");
    let dir = scratch.0.join("ws");
    let (lab1, lab2) = (labs::get(1).expect("lab 1"), labs::get(2).expect("lab 2"));
    workspace::init(&dir, &[lab1, lab2], None).expect("init writes the workspace");
    // Lab 2 written with lab 1's popcount, which is still todo!().
    let solution = key(lab2).solution;
    let at = solution
        .find("pub fn single_pushes")
        .expect("lab 2 has single_pushes");
    let body = solution[at..].find("{\n").expect("a body") + at + 2;
    let text = format!(
        "{}    let _ = crate::lab01_bitboards::popcount(pawns);\n{}",
        &solution[..body],
        &solution[body..]
    );
    fs::write(
        workspace::lab_file(&dir, 2).expect("lab 2 has a module"),
        text,
    )
    .expect("writable");
    workspace::build(&dir).unwrap_or_else(|e| panic!("does not build:\n{e}"));
    let verdicts = runner::check_built(&dir, &[lab1, lab2]);
    assert_eq!(verdicts[0].1, CheckVerdict::NotStarted);
    let text = show(&verdicts[1].1);
    assert!(
        text.contains(
            "it calls a function that is not written yet, the todo!() at src/lab01_bitboards.rs:"
        ),
        "{text}"
    );
}

#[test]
fn perft_names_the_earlier_lab_and_function_whose_answer_is_wrong() {
    let scratch = Scratch::new("perft-blame");
    let dir = scratch.0.join("ws");
    let all = labs::all();
    workspace::init(&dir, &all, Some(course_key::solution)).expect("init writes the workspace");
    let lab10 = labs::get(10).expect("lab 10");
    for (lab, bug, expect) in [
        (
            7,
            "king-xray.bug",
            "perft found a mistake of lab 7: lab 7's targets(board, ",
        ),
        (
            8,
            "ep-checker-stays.bug",
            "perft found a mistake of lab 8: lab 8's en_passant_moves(board) is wrong",
        ),
    ] {
        let earlier = labs::get(lab).expect("the lab");
        let (_, text) = key(earlier)
            .bugs
            .iter()
            .find(|(name, _)| *name == bug)
            .expect("the bug is planted");
        let source = key(earlier).bug_source(text).expect("the bug applies");
        let path = workspace::lab_file(&dir, lab).expect("a module");
        fs::write(&path, source).expect("writable");
        workspace::build(&dir).unwrap_or_else(|e| panic!("does not build:\n{e}"));
        let verdicts = runner::check_built(&dir, &[lab10]);
        let text = show(&verdicts[0].1);
        assert!(text.contains(expect), "{text}");
        fs::write(&path, key(earlier).solution).expect("writable");
    }
}

#[test]
fn the_instructors_query_timeout_reaches_every_lab() {
    let scratch = Scratch::new("query-timeout");
    let dir = scratch.0.join("ws");
    let all = labs::all();
    workspace::init(&dir, &all, Some(course_key::solution)).expect("init writes the workspace");
    workspace::build(&dir).unwrap_or_else(|e| panic!("the solutions do not build:\n{e}"));
    // What `course grade --query-timeout 6` gives each student (grade.rs's `grade_one`): one
    // harness for every lab in turn. 6 s is no multiple of the 5 s default or of any time-out
    // a lab once set for itself, so a lab that replaced the instructor's value shows.
    let base = Duration::from_secs(6);
    let mut student = Student::in_workspace(&dir);
    student.set_query_timeout(base);
    for &lab in &all {
        let verdict = runner::check_lab(&mut student, lab);
        assert!(verdict.passed(), "lab {}: {}", lab.number(), show(&verdict));
    }
    let used = student.timeouts_used();
    for &lab in &all {
        let n = lab.number();
        let mine: Vec<Duration> = used
            .iter()
            .filter(|(m, _)| *m == n)
            .map(|(_, t)| *t)
            .collect();
        assert!(!mine.is_empty(), "lab {n} asked no query");
        // A lab may allow more than the base (a whole multiple of it), never discard it.
        for t in &mine {
            assert!(
                t.as_nanos() % base.as_nanos() == 0 && *t >= base,
                "lab {n} asked a query within {t:?}, not a multiple of the instructor's {base:?}: {used:?}"
            );
        }
        assert_eq!(
            mine.iter().min(),
            Some(&(base * lab.query_scale())),
            "lab {n}'s queries: {used:?}"
        );
    }
}

/// Lab 11's solution with its ordering replaced by `order_moves` (which may use the helpers
/// `victim_value`, `attacker_value` and `promotion_value`, defined here as the hint says).
fn lab11_ordering(order_moves_body: &str) -> String {
    let lab = labs::get(11).expect("lab 11 exists");
    let solution = key(lab).solution;
    let start = solution
        .find("/// The ordering key")
        .expect("lab 11's solution has its ordering key");
    let end = solution
        .find("/// Quiescence search")
        .expect("quiesce follows the ordering");
    format!(
        "{}{}
/// The value of the piece `mv` takes (en passant takes a pawn).
fn victim_value(board: &Board, mv: Move) -> Option<i32> {{
    let us = board.side as usize;
    let pawn_takes_en_passant =
        Some(mv.to) == board.en_passant && piece_index(board, us, mv.from) == Some(0);
    let victim = piece_index(board, 1 - us, mv.to).or(pawn_takes_en_passant.then_some(0));
    victim.map(|v| VALUES[v])
}}

fn attacker_value(board: &Board, mv: Move) -> i32 {{
    VALUES[piece_index(board, board.side as usize, mv.from).unwrap_or(0)]
}}

fn promotion_value(mv: Move) -> i32 {{
    mv.promotion.map_or(0, |p| VALUES[p as usize])
}}

pub fn order_moves(board: &Board, moves: &mut [Move]) {{
{order_moves_body}
}}

{}",
        &solution[..start],
        "",
        &solution[end..]
    )
}

#[test]
fn lab_11_passes_the_ordering_its_text_teaches_and_rejects_one_score_of_victim_and_attacker() {
    let scratch = Scratch::new("lab11-order");
    let dir = scratch.0.join("ws");
    let all = labs::all();
    workspace::init(&dir, &all, Some(course_key::solution)).expect("init writes the workspace");
    let lab11 = labs::get(11).expect("lab 11 exists");
    // The code the hint shows, word for word.
    let hints = lab11.files().hints;
    let taught = hints
        .split("```rust\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("lab 11's hint shows its ordering as a rust block");
    assert!(
        taught.contains("sort_by_key")
            && lab11
                .files()
                .readme
                .contains("(value(victim), -value(attacker))"),
        "the text and the hint teach the same pair:\n{taught}"
    );
    let verdict = with_file(&dir, lab11, &lab11_ordering(taught))
        .unwrap_or_else(|e| panic!("the hint's ordering does not compile:\n{e}"));
    assert!(verdict.passed(), "the taught ordering: {}", show(&verdict));
    // The single score the hint once taught puts a smaller victim before a bigger one (king
    // takes knight, 3200, before bishop takes bishop, 2970): the check still says so.
    let one_score = "    moves.sort_by_key(|&mv| std::cmp::Reverse(match victim_value(board, mv) {
        Some(victim) => (2, 10 * victim - attacker_value(board, mv)),
        None if mv.promotion.is_some() => (1, promotion_value(mv)),
        None => (0, 0),
    }));";
    let verdict = with_file(&dir, lab11, &lab11_ordering(one_score))
        .unwrap_or_else(|e| panic!("the single score does not compile:\n{e}"));
    let text = show(&verdict);
    assert!(
        text.contains("comes after a capture of a smaller piece"),
        "{text}"
    );
}
