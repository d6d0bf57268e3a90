//! The course's programs run from a test, as a user runs them: the student's `course` and the
//! instructor's `course-instructor` (the one with the solutions, `grade` and `merge`).

use std::path::Path;
use std::process::{Command, Output};

/// `course ARGS` to be run in `dir` (add environment variables before running it).
pub fn command(args: &[&str], dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_course"));
    command.args(args).current_dir(dir);
    command
}

/// `course ARGS` run in `dir`.
pub fn course(args: &[&str], dir: &Path) -> Output {
    command(args, dir).output().expect("course runs")
}

/// `course-instructor ARGS` to be run in `dir`.
pub fn instructor_command(args: &[&str], dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_course-instructor"));
    command.args(args).current_dir(dir);
    command
}

/// `course-instructor ARGS` run in `dir`.
pub fn instructor(args: &[&str], dir: &Path) -> Output {
    instructor_command(args, dir)
        .output()
        .expect("course-instructor runs")
}

/// What it printed: standard output, then standard error.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
