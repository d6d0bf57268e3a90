//! `course check`: build the workspace once, check each lab asked for, remember progress.

use std::fs;
use std::path::Path;

use crate::checker::{Lab, Verdict};
use crate::student::Student;
use crate::workspace;

/// Checks `labs` in a built workspace, one harness process for all of them.
pub fn check_built(dir: &Path, labs: &[&dyn Lab]) -> Vec<(u8, Verdict)> {
    let mut student = Student::in_workspace(dir);
    labs.iter()
        .map(|lab| (lab.number(), lab.check(&mut student)))
        .collect()
}

/// The result of `course check`: the build failed, or each lab's verdict.
pub enum Outcome {
    /// The workspace did not compile; the compiler's messages.
    BuildFailed(String),
    /// Each lab's verdict, in order.
    Checked(Vec<(u8, Verdict)>),
}

/// Builds `dir` and checks `labs`; records the verdicts in `dir/.course/progress`.
pub fn check(dir: &Path, labs: &[&dyn Lab]) -> Outcome {
    if let Err(messages) = workspace::build(dir) {
        return Outcome::BuildFailed(messages);
    }
    let verdicts = check_built(dir, labs);
    record(dir, &verdicts);
    Outcome::Checked(verdicts)
}

/// One line per lab: `PASS  01 bitboards (312 checks)`.
pub fn verdict_line(lab: &dyn Lab, verdict: &Verdict) -> String {
    let detail = match verdict {
        Verdict::Pass { checked } => format!(" ({checked} checks)"),
        _ => String::new(),
    };
    format!(
        "{:<11}  {:02} {}{detail}",
        verdict.word(),
        lab.number(),
        lab.title()
    )
}

/// The report `course check` prints: a line per lab, the diagnosis of each that failed, and
/// `N passed, M failed`.
pub fn report(labs: &[&dyn Lab], verdicts: &[(u8, Verdict)]) -> String {
    let mut out = String::new();
    for (lab, (_, verdict)) in labs.iter().zip(verdicts) {
        out.push_str(&verdict_line(*lab, verdict));
        out.push('\n');
        if let Verdict::Fail(diagnosis) = verdict {
            for line in diagnosis.to_string().lines() {
                out.push_str("    ");
                out.push_str(line);
                out.push('\n');
            }
            out.push('\n');
        }
    }
    let passed = verdicts.iter().filter(|(_, v)| v.passed()).count();
    let not_started = verdicts
        .iter()
        .filter(|(_, v)| *v == Verdict::NotStarted)
        .count();
    let failed = verdicts.len() - passed;
    out.push_str(&format!("{passed} passed, {failed} failed"));
    if not_started > 0 {
        out.push_str(&format!(" ({not_started} not started)"));
    }
    out.push('\n');
    out
}

fn record(dir: &Path, verdicts: &[(u8, Verdict)]) {
    let mut progress = read_progress(dir);
    for (n, v) in verdicts {
        progress.retain(|(m, _)| m != n);
        progress.push((*n, v.word().to_string()));
    }
    progress.sort();
    let text: String = progress
        .iter()
        .map(|(n, w)| format!("{n:02} {w}\n"))
        .collect();
    // Progress is a convenience for `course list`; a read-only workspace still gets checked.
    let _ = fs::create_dir_all(dir.join(".course"))
        .and_then(|()| fs::write(dir.join(".course/progress"), text));
}

/// The last verdict word recorded for each lab checked in `dir`.
pub fn read_progress(dir: &Path) -> Vec<(u8, String)> {
    let text = fs::read_to_string(dir.join(".course/progress")).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let (n, w) = l.split_once(' ')?;
            Some((n.parse().ok()?, w.to_string()))
        })
        .collect()
}
