//! The student's `course` holds no reference solution and refuses what only the instructor's
//! `course-instructor` does.
//!
//! The binary searched is the `course` that `cargo test` built, with the package's
//! `instructor` feature on (the tests' dev-dependency turns it on) and so with the answer key
//! crate built beside it: the case most likely to leak. A student's `cargo install --path
//! course` does not even compile the key. The ignored test below searches that install itself
//! (`cargo test -p pinmask-course --test student_build -- --ignored`; it builds the course
//! again without the feature).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/cli.rs"]
#[allow(dead_code)]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::{course, instructor, text};
use scratch::Scratch;

fn course_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every lab folder's reference solution, read now from `course/labs/NN-slug/solution.rs`.
fn solutions() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(course_dir().join("labs")).expect("course/labs/ is there") {
        let folder = entry.expect("a readable folder").path();
        if let Ok(text) = fs::read_to_string(folder.join("solution.rs")) {
            let name = folder.file_name().expect("a name").to_string_lossy();
            out.insert(name.into_owned(), text);
        }
    }
    assert_eq!(out.len(), 12, "twelve labs: {:?}", out.keys());
    out
}

/// What a student's build does hold: every lab's text, skeleton, harness and hints, and the
/// workspace files the course provides.
fn provided_text() -> String {
    let mut all = String::new();
    for entry in fs::read_dir(course_dir().join("labs")).expect("course/labs/ is there") {
        let folder = entry.expect("a readable folder").path();
        for file in ["README.md", "skeleton.rs", "harness.rs", "hints.md"] {
            all += &fs::read_to_string(folder.join(file)).unwrap_or_default();
        }
    }
    for entry in fs::read_dir(course_dir().join("student")).expect("course/student/ is there") {
        all += &fs::read_to_string(entry.expect("a file").path()).unwrap_or_default();
    }
    all
}

/// The solution's longest line that no provided file has: text only a solution holds.
fn distinctive_line(solution: &str, provided: &str) -> String {
    solution
        .lines()
        .map(str::trim)
        .filter(|line| line.len() >= 24 && !provided.contains(line))
        .max_by_key(|line| line.len())
        .expect("a solution has lines of its own")
        .to_string()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

/// The labs whose distinctive line `binary` holds.
fn leaked(binary: &Path) -> (Vec<String>, BTreeMap<String, String>) {
    let bytes = fs::read(binary).unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
    let provided = provided_text();
    let lines: BTreeMap<String, String> = solutions()
        .into_iter()
        .map(|(lab, solution)| (lab, distinctive_line(&solution, &provided)))
        .collect();
    let found = lines
        .iter()
        .filter(|(_, line)| contains(&bytes, line))
        .map(|(lab, _)| lab.clone())
        .collect();
    (found, lines)
}

#[test]
fn the_students_course_has_no_solution_and_the_instructors_has_all() {
    let (found, lines) = leaked(Path::new(env!("CARGO_BIN_EXE_course")));
    assert!(
        found.is_empty(),
        "course holds solution lines of {found:?}: {lines:#?}"
    );
    // The search does find a solution where there is one.
    let (found, _) = leaked(Path::new(env!("CARGO_BIN_EXE_course-instructor")));
    assert_eq!(
        found.len(),
        12,
        "course-instructor holds the solutions of {found:?}"
    );
}

#[test]
fn the_students_course_refuses_solutions_grade_and_merge_in_one_line() {
    let scratch = Scratch::new("student-build");
    let root = &scratch.0;
    for args in [
        vec!["init", "ws", "--solutions"],
        vec!["grade", "subs"],
        vec!["merge", "a.csv", "b.csv"],
    ] {
        let out = course(&args, root);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert_eq!(said.lines().count(), 1, "{args:?}: {said}");
        assert!(
            said.contains("course-instructor") && said.contains("--features instructor"),
            "{args:?}: {said}"
        );
        assert!(
            out.stdout.is_empty() && !said.contains("panicked"),
            "{args:?}"
        );
    }
    assert!(!root.join("ws").exists(), "a refused init wrote files");
    // Neither offered in the student's help; both in the instructor's.
    let help = text(&course(&["--help"], root)) + &text(&course(&["init", "--help"], root));
    assert!(
        !help.contains("grade") && !help.contains("--solutions"),
        "{help}"
    );
    let help = text(&instructor(&["--help"], root)) + &text(&instructor(&["init", "--help"], root));
    assert!(
        help.contains("grade") && help.contains("--solutions"),
        "{help}"
    );
    // The student's own init still works.
    let out = course(&["init", "ws"], root);
    assert!(out.status.success(), "{}", text(&out));
}

/// The cargo the tests run under, and the target folder they were built in.
fn cargo_and_target() -> (PathBuf, PathBuf) {
    let cargo = std::env::var_os("CARGO").map_or_else(|| "cargo".into(), PathBuf::from);
    let exe = Path::new(env!("CARGO_BIN_EXE_course"));
    let target = exe
        .ancestors()
        .nth(2)
        .expect("target/PROFILE/course")
        .to_path_buf();
    (cargo, target)
}

#[test]
#[ignore = "builds the course again, as a student installs it (a minute or two)"]
fn the_course_a_student_installs_has_no_solution() {
    let scratch = Scratch::new("student-install");
    let (cargo, target) = cargo_and_target();
    // As docs/course.md tells students (`--debug` only to share the tests' dependencies).
    let out = Command::new(cargo)
        .args(["install", "--offline", "--debug", "--path"])
        .arg(course_dir())
        .arg("--root")
        .arg(&scratch.0)
        .arg("--target-dir")
        .arg(target)
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", text(&out));
    let bin = scratch.0.join("bin");
    let installed: Vec<String> = fs::read_dir(&bin)
        .expect("cargo install wrote bin/")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(installed, ["course"], "a student gets `course` alone");
    let (found, lines) = leaked(&bin.join("course"));
    assert!(
        found.is_empty(),
        "the installed course holds {found:?}: {lines:#?}"
    );
}
