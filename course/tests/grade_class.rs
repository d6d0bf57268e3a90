//! `course grade` on a class with hostile students: the sandbox holds, honest students get
//! what their code deserves, the CSV is the grader's, and no process outlives the run.
//!
//! Every payload aims only at files in this test's own temp folder (the submissions, a
//! "secret" beside them, the CSV, the run's scratch copies, which go there through TMPDIR),
//! so a sandbox that fails harms nothing else. A payload that gets through makes its lab
//! fail with a message naming what got through.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::time::Duration;

#[path = "support/cli.rs"]
#[allow(dead_code)]
mod cli;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/scratch.rs"]
mod scratch;
use cli::text;
use hostile::call_first;
use scratch::Scratch;

/// Marks the processes the hostile students leave behind (an argument of `sleep`).
const MARK: &str = "7117.25";

/// `course-instructor ARGS`, the grader, with the test's temp folder and a secret to steal.
fn course(args: &[&str], dir: &Path, tmp: &Path) -> Output {
    cli::instructor_command(args, dir)
        .env("TMPDIR", tmp)
        .env("PINMASK_INSTRUCTOR_SECRET", "hunter2")
        .output()
        .expect("course runs")
}

/// Every file and folder under `dir` with its contents, mode and change time (which a
/// `chmod`, `utimes`, `setxattr`, a new hard link or a write all move), but those under
/// `skip`.
fn snapshot(dir: &Path, skip: &[PathBuf], into: &mut BTreeMap<PathBuf, Vec<u8>>) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        if skip.iter().any(|s| path.starts_with(s)) {
            continue;
        }
        let meta = fs::symlink_metadata(&path).expect("listed");
        let mut state = format!(
            "mode {:o}, changed {}.{:09}, {} links\n",
            meta.mode(),
            meta.ctime(),
            meta.ctime_nsec(),
            meta.nlink()
        )
        .into_bytes();
        if meta.is_dir() {
            snapshot(&path, skip, into);
        } else {
            state.extend(fs::read(&path).unwrap_or_default());
        }
        into.insert(path, state);
    }
}

/// The processes whose command line holds `mark`.
fn processes_with(mark: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").expect("/proc").filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.parse::<u32>().is_err() {
            continue;
        }
        let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(mark) {
            found.push(format!("{name}: {cmdline}"));
        }
    }
    found
}

/// The run-time attacks, each failing the lab (a panic naming it) if it gets through.
fn runtime_payload(root: &Path) -> String {
    let r = root.display();
    format!(
        r#"
static ONCE: std::sync::Once = std::sync::Once::new();
fn escaped(what: &str) -> ! {{ panic!("ESCAPED: {{what}}") }}
fn payload() {{
    ONCE.call_once(|| {{
        use std::process::Command;
        if std::fs::read_to_string("{r}/secret.txt").is_ok() {{ escaped("read a file beside the class"); }}
        if std::fs::read_dir("{r}/subs").is_ok() {{ escaped("listed the submissions"); }}
        if std::fs::write("{r}/planted.txt", "x").is_ok() {{ escaped("wrote outside its copy"); }}
        if std::fs::write("{r}/subs/alice/src/lab01_bitboards.rs", "compile_error!(\"x\");").is_ok() {{
            escaped("changed a classmate's workspace");
        }}
        // Classmates' scratch copies, in the run's folder.
        if let Ok(runs) = std::fs::read_dir("{r}/tmp") {{
            for run in runs.flatten() {{
                for copy in std::fs::read_dir(run.path()).into_iter().flatten().flatten() {{
                    let file = copy.path().join("src/lab01_bitboards.rs");
                    if std::fs::OpenOptions::new().append(true).open(&file).is_ok()
                        && !file.starts_with(std::env::current_dir().unwrap_or_default()) {{
                        escaped("could write a classmate's scratch copy");
                    }}
                }}
            }}
        }}
        if std::env::vars().any(|(k, _)| k == "PINMASK_INSTRUCTOR_SECRET") {{ escaped("saw the grader's environment"); }}
        if std::net::TcpStream::connect_timeout(&"127.0.0.1:1".parse().unwrap(), std::time::Duration::from_millis(200))
            .map_err(|e| e.kind() == std::io::ErrorKind::ConnectionRefused).err() == Some(true) {{
            escaped("reached the network (a TCP port answered refused)");
        }}
        // Processes meant to outlive the grading: plain, in a session of their own, double-forked.
        let _ = Command::new("sleep").arg("{MARK}").spawn();
        let _ = Command::new("setsid").args(["sleep", "{MARK}"]).spawn();
        let _ = Command::new("sh").args(["-c", "(sleep {MARK} &) ; (setsid sh -c 'sleep 3; echo forged > {r}/grades.csv; sleep {MARK}' &)"]).status();
    }});
}}
"#
    )
}

/// The two gradings here run one after the other: lab 12's deadlines are
/// wall-clock ones, and a second class graded beside the hostile one on two
/// cores would take the time they measure.
static ONE_GRADING_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn a_hostile_class_is_graded_fairly_and_leaves_nothing_behind() {
    let _one = ONE_GRADING_AT_A_TIME
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let scratch = Scratch::new("grade-class");
    let root = scratch.0.clone();
    let subs = root.join("subs");
    let tmp = root.join("tmp");
    fs::create_dir_all(&subs).expect("writable");
    fs::create_dir_all(&tmp).expect("writable");
    fs::write(root.join("secret.txt"), "the answer key").expect("writable");
    let students = [
        ("alice", true),
        ("bob", false),
        ("carol", true),
        ("dave", true),
        ("eve", true),
        ("frank", true),
        ("grace", true),
        ("heidi", true),
        ("ivan", true),
        ("judy", true),
    ];
    for (name, solutions) in students {
        let mut args = vec!["init", name];
        if solutions {
            args.push("--solutions");
        }
        assert!(course(&args, &subs, &tmp).status.success());
    }
    let edit = |file: &str, change: &dyn Fn(String) -> String| {
        let path = subs.join(file);
        let source = fs::read_to_string(&path).expect("readable");
        fs::write(&path, change(source)).expect("writable");
    };
    // carol: a type error in lab 2 only.
    edit("carol/src/lab02_pawns.rs", &|s| {
        s + "\npub fn typo() -> u64 {\n    \"not a number\"\n}\n"
    });
    // dave: an endless loop in lab 1.
    edit("dave/src/lab01_bitboards.rs", &|s| {
        call_first(&s, "popcount", "loop { std::hint::black_box(0); }")
    });
    // eve: every run-time attack, from lab 1's popcount.
    edit("eve/src/lab01_bitboards.rs", &|s| {
        call_first(&s, "popcount", "payload()") + &runtime_payload(&root)
    });
    // frank: reads the secret at compile time, in lab 3.
    edit("frank/src/lab03_leapers.rs", &|s| {
        format!(
            "{s}\npub const KEY: &str = include_str!(\"{}\");\n",
            root.join("secret.txt").display()
        )
    });
    // grace: allocates without end in lab 1.
    edit("grace/src/lab01_bitboards.rs", &|s| {
        call_first(
            &s,
            "popcount",
            "let mut hoard: Vec<Vec<u8>> = Vec::new(); loop { hoard.push(vec![1u8; 64 << 20]); std::hint::black_box(&hoard); }",
        )
    });

    // ivan: every attack on processes, metadata, sockets and other programs, from lab 1.
    let bait = hostile::Bait::lay(&root, "grade-class");
    let payload = bait.payload(&root);
    edit("ivan/src/lab01_bitboards.rs", &|s| {
        call_first(&s, "popcount", "payload()") + &payload
    });
    // judy: a byte that is not UTF-8 in a comment of lab 2.
    let mut bytes = fs::read(subs.join("judy/src/lab02_pawns.rs")).expect("readable");
    bytes.extend(b"\n// caf\xe9 au lait\n");
    fs::write(subs.join("judy/src/lab02_pawns.rs"), bytes).expect("writable");

    // heidi: one of lab 4's planted bugs, an honest mistake.
    let first = course::labs::get(4).expect("lab 4").files().bugs[0];
    let rays = course_key::lab(4).expect("lab 4's key");
    let (_, planted) = rays
        .bugs
        .iter()
        .find(|(n, _)| *n == first)
        .expect("in the key");
    let bug = rays.bug_source(planted).expect("the bug applies");
    fs::write(subs.join("heidi/src/lab04_rays.rs"), bug).expect("writable");

    let hostile = [
        subs.join("eve"),
        subs.join("frank"),
        subs.join("grace"),
        subs.join("ivan"),
    ];
    let mut skip = hostile.to_vec();
    skip.extend([
        tmp.clone(),
        root.join("grades.csv"),
        root.join("grades-reports"),
    ]);
    let mut before = BTreeMap::new();
    snapshot(&root, &skip, &mut before);

    let out = course(
        &[
            "grade",
            "subs",
            "-o",
            "grades.csv",
            "-j",
            "2",
            "--query-timeout",
            "3",
            "--time-limit",
            "120",
            "--memory-mib",
            "512",
        ],
        &root,
        &tmp,
    );
    assert!(out.status.success(), "{}", text(&out));
    let csv = fs::read_to_string(root.join("grades.csv")).expect("the CSV");

    // No process of the run survives it.
    let left = processes_with(MARK);
    assert!(
        left.is_empty(),
        "processes outlived grading: {left:?}\n{csv}"
    );
    // A forger had 3 s after its start: wait past that, then read the CSV again.
    std::thread::sleep(Duration::from_secs(4));
    assert_eq!(
        fs::read_to_string(root.join("grades.csv")).expect("the CSV"),
        csv,
        "the CSV changed after grading"
    );
    // No file outside the hostile students' copies changed or appeared.
    let mut after = BTreeMap::new();
    snapshot(&root, &skip, &mut after);
    let changed: Vec<&PathBuf> = after
        .iter()
        .filter(|(p, c)| before.get(*p) != Some(*c))
        .map(|(p, _)| p)
        .chain(before.keys().filter(|p| !after.contains_key(*p)))
        .collect();
    assert!(changed.is_empty(), "files changed: {changed:?}");
    assert_eq!(
        fs::read_dir(&tmp).expect("tmp").count(),
        0,
        "the run left its scratch copies"
    );

    let rows: BTreeMap<&str, Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let fields: Vec<&str> = l.splitn(16, ',').collect();
            (fields[0], fields)
        })
        .collect();
    assert!(!csv.starts_with('#'), "{csv}");
    let labs = |name: &str| rows[name][1..13].to_vec();
    let pass_all = vec!["PASS"; 12];
    assert_eq!(labs("alice"), pass_all, "{csv}");
    assert_eq!(labs("bob"), vec!["NOT STARTED"; 12], "{csv}");
    // carol: lab 2 BUILD FAILED with its file and line; the others graded on her own code.
    let mut carol = pass_all.clone();
    carol[1] = "BUILD FAILED";
    assert_eq!(labs("carol"), carol, "{csv}");
    assert_eq!(rows["carol"][14], "02", "{csv}");
    assert!(
        rows["carol"][15].starts_with("lab 02: src/lab02_pawns.rs:")
            && rows["carol"][15].contains("mismatched types"),
        "{csv}"
    );
    // dave: his loop costs lab 1 (and labs that call popcount), nothing else.
    assert_eq!(labs("dave")[0], "FAIL", "{csv}");
    assert!(rows["dave"][15].contains("popcount"), "{csv}");
    // eve: every attack failed, so her (correct) labs pass.
    assert_eq!(labs("eve"), pass_all, "{csv}");
    // frank: the compile-time read is refused: lab 3 does not build, the rest pass.
    let mut frank = pass_all.clone();
    frank[2] = "BUILD FAILED";
    assert_eq!(labs("frank"), frank, "{csv}");
    assert!(rows["frank"][15].contains("lab03_leapers.rs"), "{csv}");
    // ivan: no attack got through, so his (correct) labs pass; nobody connected.
    assert_eq!(labs("ivan"), pass_all, "{csv}");
    assert!(!bait.taken(), "a student connected to the grader's socket");
    // judy: her lab 2 is not UTF-8, which costs lab 2 only, and says so.
    let mut judy = pass_all.clone();
    judy[1] = "BUILD FAILED";
    assert_eq!(labs("judy"), judy, "{csv}");
    assert!(
        rows["judy"][15].contains("lab 02: src/lab02_pawns.rs: not UTF-8 text"),
        "{csv}"
    );
    // grace: a clear verdict for the memory bomb.
    assert_eq!(labs("grace")[0], "FAIL", "{csv}");
    assert!(
        rows["grace"][15].contains("used more than 512 MiB"),
        "{csv}"
    );

    // The CSV is the grader's own results: each row agrees with the student's JSON report,
    // and the text report is what `course check` prints for the same workspace.
    for (name, row) in &rows {
        let json = fs::read_to_string(root.join(format!("grades-reports/{name}.json")))
            .expect("a JSON report per student");
        let report: course::report::StudentReport =
            serde_json::from_str(&json).expect("the report parses");
        let words: Vec<&str> = report.labs.iter().map(|l| l.verdict.as_str()).collect();
        assert_eq!(words, row[1..13].to_vec(), "{name}");
        assert_eq!(report.passed.to_string(), row[13], "{name}");
        assert!(report.sandbox.contains("Landlock"), "{}", report.sandbox);
    }
    // heidi's report, FAIL and all, is what `course check` says, as text and as JSON.
    assert_eq!(labs("heidi")[3], "FAIL", "{csv}");
    let check = |json: bool| {
        let mut args = vec!["check", "--dir", "subs/heidi"];
        if json {
            args.push("--json");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_course"))
            .args(&args)
            .current_dir(&root)
            .output()
            .expect("course check runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text_report = fs::read_to_string(root.join("grades-reports/heidi.txt")).expect("report");
    let printed = check(false);
    assert!(
        printed.ends_with(&text_report),
        "check:\n{printed}\nreport:\n{text_report}"
    );
    let graded: course::report::StudentReport = serde_json::from_str(
        &fs::read_to_string(root.join("grades-reports/heidi.json")).expect("report"),
    )
    .expect("parses");
    let checked: course::report::StudentReport =
        serde_json::from_str(&check(true)).expect("check --json parses");
    assert_eq!(checked.labs, graded.labs);
    assert_eq!(checked.passed, graded.passed);

    // The payloads do run: without the sandbox the first attack gets through (inside this
    // test's folder), the CSV says how it was graded, and the processes still end.
    let open = root.join("unsandboxed");
    fs::create_dir_all(&open).expect("writable");
    fs::rename(subs.join("eve"), open.join("eve")).expect("movable");
    fs::rename(subs.join("ivan"), open.join("ivan")).expect("movable");
    let out = course(
        &[
            "grade",
            "unsandboxed",
            "-o",
            "open.csv",
            "--labs",
            "1",
            "--no-sandbox",
        ],
        &root,
        &tmp,
    );
    assert!(out.status.success(), "{}", text(&out));
    let csv = fs::read_to_string(root.join("open.csv")).expect("the CSV");
    assert!(csv.starts_with("# graded with --no-sandbox"), "{csv}");
    for name in ["eve", "ivan"] {
        let row = csv
            .lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap_or_else(|| panic!("{name} graded: {csv}"));
        assert!(
            row.starts_with(&format!("{name},FAIL,0,,")) && row.contains("ESCAPED"),
            "{csv}"
        );
    }
    let left = processes_with(MARK);
    assert!(left.is_empty(), "processes outlived grading: {left:?}");
}

/// The characters a student's output must not bring raw into what the instructor reads.
const HIDDEN: [char; 4] = ['\u{1b}', '\u{7}', '\r', '\u{202e}'];

#[test]
fn odd_students_get_reports_of_their_own_that_a_person_can_trust() {
    let _one = ONE_GRADING_AT_A_TIME
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let scratch = Scratch::new("grade-odd");
    let root = scratch.0.clone();
    let subs = root.join("subs");
    let tmp = root.join("tmp");
    fs::create_dir_all(&subs).expect("writable");
    fs::create_dir_all(&tmp).expect("writable");
    // Two names that differ only by a space and an underscore: one solved, one not started.
    for (name, solutions) in [
        ("with space", false),
        ("with_space", true),
        ("mallory", true),
        ("linus", true),
        ("hardy", true),
    ] {
        let mut args = vec!["init", name];
        if solutions {
            args.push("--solutions");
        }
        assert!(course(&args, &subs, &tmp).status.success());
    }
    let lab01 = |name: &str| subs.join(name).join("src/lab01_bitboards.rs");
    // mallory: a panic message that would clear a terminal, ring it, overwrite the line and
    // reverse what follows.
    let source = fs::read_to_string(lab01("mallory")).expect("readable");
    fs::write(
        lab01("mallory"),
        call_first(
            &source,
            "popcount",
            r#"panic!("\u{1b}[2J\u{7}all good\rPASS \u{202e}SSAP")"#,
        ),
    )
    .expect("writable");
    // linus: lab 1 is a symbolic link to a correct file elsewhere in this test's folder.
    let elsewhere = root.join("elsewhere.rs");
    fs::rename(lab01("linus"), &elsewhere).expect("movable");
    std::os::unix::fs::symlink(&elsewhere, lab01("linus")).expect("a symlink");
    // hardy: lab 1 has a second name elsewhere in this test's folder.
    fs::hard_link(lab01("hardy"), root.join("hardy-lab01.rs")).expect("a hard link");

    let out = course(
        &[
            "grade",
            "subs",
            "-o",
            "grades.csv",
            "--labs",
            "1",
            "-j",
            "2",
        ],
        &root,
        &tmp,
    );
    assert!(out.status.success(), "{}", text(&out));
    let printed = text(&out);
    let csv = fs::read_to_string(root.join("grades.csv")).expect("the CSV");
    let report = |name: &str, ext: &str| {
        fs::read_to_string(root.join(format!("grades-reports/{name}.{ext}")))
            .unwrap_or_else(|e| panic!("{name}.{ext}: {e}"))
    };

    // Nothing raw anywhere the instructor reads; the escapes show what was there.
    let shown = r"\x1b[2J\x07all good\x0dPASS \u{202e}SSAP";
    let raw_json = report("mallory", "json");
    let json: course::report::StudentReport =
        serde_json::from_str(&raw_json).expect("the report parses");
    assert_eq!(json.labs[0].verdict, "FAIL");
    for (what, text) in [
        ("text report", report("mallory", "txt")),
        ("CSV", csv.clone()),
        ("terminal", printed.clone()),
        ("JSON summary", json.labs[0].summary.clone()),
        ("JSON diagnosis", json.labs[0].diagnosis.clone()),
    ] {
        assert!(!text.contains(HIDDEN), "{what} has a raw control: {text:?}");
        assert!(text.contains(shown), "{what}: {text}");
    }
    // Nor as JSON's own escapes (`\u001b`), which a reader would turn back into controls.
    assert!(
        !raw_json.contains(HIDDEN) && !raw_json.contains(r"\u00") && !raw_json.contains(r"\r"),
        "{raw_json}"
    );
    // The sandbox line is words, not a Rust debug string.
    assert!(json.sandbox.contains("Landlock"), "{}", json.sandbox);
    assert!(
        !json.sandbox.contains(['{', '}']) && !json.sandbox.contains("Available"),
        "{}",
        json.sandbox
    );

    // Each of the two near-twins has a report of their own, with their own grade.
    let near: Vec<course::report::StudentReport> = ["with%20space", "with_space"]
        .iter()
        .map(|name| serde_json::from_str(&report(name, "json")).expect("parses"))
        .collect();
    assert_eq!(near[0].student, "with space");
    assert_eq!(near[0].labs[0].verdict, "NOT STARTED");
    assert_eq!(near[1].student, "with_space");
    assert_eq!(near[1].labs[0].verdict, "PASS");
    assert!(report("with%20space", "txt").starts_with("NOT STARTED"));
    assert!(report("with_space", "txt").starts_with("PASS"));
    assert!(csv.contains("\nwith space,NOT STARTED,0,,"), "{csv}");
    assert!(csv.contains("\nwith_space,PASS,1,,"), "{csv}");

    // A linked lab file is refused, and the reports say why.
    for (name, why) in [
        ("linus", "is a symbolic link"),
        ("hardy", "has 2 hard links"),
    ] {
        let json: course::report::StudentReport =
            serde_json::from_str(&report(name, "json")).expect("parses");
        assert_eq!(json.labs[0].verdict, "REFUSED", "{name}");
        assert!(
            json.labs[0].summary.starts_with("src/lab01_bitboards.rs ")
                && json.labs[0].summary.contains(why)
                && json.labs[0].summary.contains("refused"),
            "{name}: {}",
            json.labs[0].summary
        );
        assert!(report(name, "txt").contains(why), "{name}");
        assert!(csv.contains(&format!("\n{name},REFUSED,0,,")), "{csv}");
    }
}
