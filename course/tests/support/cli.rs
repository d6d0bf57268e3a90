//! The `course` program run from a test, as a user runs it.

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

/// What it printed: standard output, then standard error.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
