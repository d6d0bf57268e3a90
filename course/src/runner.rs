//! `course check`: build the workspace once, check each lab asked for, remember progress.

use std::fs;
use std::path::Path;

use crate::checker::{CheckVerdict, LabRecord};
use crate::report::{LabReport, StudentReport};
use crate::student::Student;
use crate::workspace;

/// Checks `labs` in a built workspace, one harness process for all of them.
pub fn check_built(dir: &Path, labs: &[&LabRecord]) -> Vec<(u8, CheckVerdict)> {
    let mut student = Student::in_workspace(dir);
    labs.iter()
        .map(|lab| (lab.number(), check_lab(&mut student, lab)))
        .collect()
}

/// Checks one lab, with its time budget ([`crate::student::LAB_BUDGET`]) running.
pub fn check_lab(student: &mut Student, lab: &LabRecord) -> CheckVerdict {
    student.start_lab(lab.number());
    lab.check(student)
}

/// The result of `course check`: the build failed, or each lab's verdict.
pub enum Outcome {
    /// The workspace did not compile; the compiler's messages.
    BuildFailed(String),
    /// Each lab's verdict, in order.
    Checked(Vec<(u8, CheckVerdict)>),
}

/// Builds `dir` and checks `labs`; records the verdicts in `dir/.course/progress`.
pub fn check(dir: &Path, labs: &[&LabRecord]) -> Outcome {
    if let Err(messages) = workspace::build(dir) {
        return Outcome::BuildFailed(messages);
    }
    let verdicts = check_built(dir, labs);
    record(dir, &verdicts);
    Outcome::Checked(verdicts)
}

/// The report of `verdicts` (one per lab of `labs`, in order) for `student`.
pub fn to_report(
    student: &str,
    labs: &[&LabRecord],
    verdicts: &[(u8, CheckVerdict)],
) -> StudentReport {
    let labs = labs
        .iter()
        .zip(verdicts)
        .map(|(lab, (_, verdict))| LabReport::from_verdict(lab, verdict))
        .collect();
    StudentReport::new(student, labs)
}

/// The report `course check` prints: a line per lab, the diagnosis of each that failed, and
/// `N passed, M failed`.
pub fn report(labs: &[&LabRecord], verdicts: &[(u8, CheckVerdict)]) -> String {
    to_report("", labs, verdicts).text()
}

fn record(dir: &Path, verdicts: &[(u8, CheckVerdict)]) {
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
