//! What a student reads: one lab's result ([`LabReport`]) and a whole workspace's
//! ([`StudentReport`]), as the text `course check` prints and as JSON (`course check --json`,
//! and the per-student files `course grade` writes beside its CSV).

use serde::{Deserialize, Serialize};

use crate::checker::{CheckVerdict, LabRecord};

/// `text` with every character that could change how a terminal or an editor shows the
/// rest made visible as an escape: C0 controls, DEL and C1 controls as `\x1b` or `\u{9b}`,
/// and the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
/// U+202A-U+202E, U+2066-U+2069) as `\u{202e}`. With `multiline`, `\n` stays a line break.
///
/// Student text (a panic message, a compiler's quote of their source, a folder name) goes
/// through this before it reaches a report, the CSV or the grader's terminal. Escaped text has
/// nothing left to escape, so applying it twice changes nothing.
pub fn visible(text: &str, multiline: bool) -> String {
    let hidden = |c: char| {
        (c.is_control() && !(multiline && c == '\n'))
            || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.contains(hidden) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !hidden(c) {
            out.push(c);
        } else if c.is_ascii() {
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
    out
}

/// One lab's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabReport {
    /// The lab number.
    pub lab: u8,
    /// The lab's title.
    pub title: String,
    /// `PASS`, `FAIL`, `NOT STARTED`, `BUILD FAILED`, `TIME LIMIT`, `ERROR`, `REFUSED` (a linked
    /// lab file) or `NO WORKSPACE` (docs/course.md says what each means).
    pub verdict: String,
    /// How many answers were compared, for a pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<usize>,
    /// The diagnosis's first line (empty for a pass).
    #[serde(default)]
    pub summary: String,
    /// The whole diagnosis as `course check` prints it: position, diagrams, hint.
    #[serde(default)]
    pub diagnosis: String,
    /// The position of the failing case, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The hint, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Earlier labs whose files did not compile and were replaced by the reference solution
    /// to grade this one (`course grade` only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub over_reference: Vec<u8>,
}

impl LabReport {
    /// The report of a checked lab.
    pub fn from_verdict(lab: &LabRecord, verdict: &CheckVerdict) -> LabReport {
        let mut report = LabReport::new(lab, verdict.word(), "");
        match verdict {
            CheckVerdict::Pass { checked } => report.checks = Some(*checked),
            CheckVerdict::NotStarted => {}
            CheckVerdict::Fail(d) => {
                report.summary = visible(d.summary.lines().next().unwrap_or(""), false);
                report.diagnosis = visible(&d.to_string(), true);
                report.fen = d.fen.as_deref().map(|f| visible(f, false));
                report.hint = d.hint.map(str::to_string);
            }
        }
        report
    }

    /// A report with a verdict word and a one-line explanation (also the diagnosis).
    pub fn new(lab: &LabRecord, verdict: &str, summary: &str) -> LabReport {
        let summary = visible(summary, false);
        LabReport {
            lab: lab.number(),
            title: lab.title().to_string(),
            verdict: verdict.to_string(),
            checks: None,
            summary: summary.clone(),
            diagnosis: if summary.is_empty() {
                String::new()
            } else {
                format!("{summary}\n")
            },
            fen: None,
            hint: None,
            over_reference: Vec::new(),
        }
    }

    /// Whether the lab passed.
    pub fn passed(&self) -> bool {
        self.verdict == "PASS"
    }

    /// The listing line: `PASS         01 bitboards (312 checks)`.
    pub fn line(&self) -> String {
        let detail = self
            .checks
            .map(|n| format!(" ({n} checks)"))
            .unwrap_or_default();
        format!(
            "{:<11}  {:02} {}{detail}",
            self.verdict, self.lab, self.title
        )
    }
}

/// A workspace's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudentReport {
    /// The student (the workspace folder's name).
    pub student: String,
    /// How many labs passed.
    pub passed: usize,
    /// Each lab's result, in order.
    pub labs: Vec<LabReport>,
    /// Labs whose files did not compile and were replaced by the reference solution so that
    /// the other labs could be graded (`course grade` only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub substituted: Vec<u8>,
    /// What the grading sandbox enforced, in plain words (`each build, harness and engine in
    /// a mount view of its own ...`, or `none (--no-sandbox)`; `course grade` only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sandbox: String,
}

impl StudentReport {
    /// The report of `labs` for `student` (the name made [`visible`]).
    pub fn new(student: &str, labs: Vec<LabReport>) -> StudentReport {
        StudentReport {
            student: visible(student, false),
            passed: labs.iter().filter(|l| l.passed()).count(),
            labs,
            substituted: Vec::new(),
            sandbox: String::new(),
        }
    }

    /// The text `course check` prints: a line per lab, the diagnosis of each that failed,
    /// and `N passed, M failed`.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for lab in &self.labs {
            out.push_str(&lab.line());
            out.push('\n');
            if !lab.over_reference.is_empty() {
                let numbers: Vec<String> = lab
                    .over_reference
                    .iter()
                    .map(|n| format!("{n:02}"))
                    .collect();
                out.push_str(&format!(
                    "    (checked with the reference solution of lab {} in place of yours, which does not compile)\n",
                    numbers.join(", ")
                ));
            }
            if !lab.diagnosis.is_empty() {
                for line in lab.diagnosis.lines() {
                    out.push_str("    ");
                    out.push_str(line);
                    out.push('\n');
                }
                out.push('\n');
            }
        }
        let not_started = self
            .labs
            .iter()
            .filter(|l| l.verdict == "NOT STARTED")
            .count();
        out.push_str(&format!(
            "{} passed, {} failed",
            self.passed,
            self.labs.len() - self.passed
        ));
        if not_started > 0 {
            out.push_str(&format!(" ({not_started} not started)"));
        }
        out.push('\n');
        out
    }

    /// The JSON form, one object, pretty-printed.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidirectional_overrides_are_made_visible() {
        let hostile = "a\u{1b}[2Jb\u{7}c\rd\u{202e}e\u{2066}f\u{200f}g\u{9b}h\ti\nj";
        assert_eq!(
            visible(hostile, true),
            "a\\x1b[2Jb\\x07c\\x0dd\\u{202e}e\\u{2066}f\\u{200f}g\\u{9b}h\\x09i\nj"
        );
        assert_eq!(visible("i\nj", false), "i\\x0aj");
        assert_eq!(
            visible(&visible(hostile, true), true),
            visible(hostile, true)
        );
        assert_eq!(visible("plain: é ♞ 日本", false), "plain: é ♞ 日本");
    }
}
