//! The checker's words for a lab's outcome: its verdict, and the diagnosis a student reads
//! when a function is wrong. Below the student's harness, which turns its replies into them.

use std::fmt;

/// The outcome of checking one lab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckVerdict {
    /// Every check agreed with the oracle.
    Pass {
        /// How many answers were compared.
        checked: usize,
    },
    /// The lab's functions still call `todo!()`.
    NotStarted,
    /// A wrong answer, a panic or a hang, explained.
    Fail(Diagnosis),
}

/// What a student reads when a check fails: the smallest failing case found, the position,
/// expected against got, and the hint for that kind of mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// One line: which function, which input, what went wrong.
    pub summary: String,
    /// The position the failing query was about, drawn as a diagram under the summary.
    pub fen: Option<String>,
    /// The details: side-by-side diagrams, missing and extra squares or moves.
    pub body: String,
    /// The hint for the kind of mistake this looks like.
    pub hint: Option<&'static str>,
}

impl Diagnosis {
    /// A diagnosis with only a summary.
    pub fn new(summary: impl Into<String>) -> Diagnosis {
        Diagnosis {
            summary: summary.into(),
            fen: None,
            body: String::new(),
            hint: None,
        }
    }

    /// Names the position (drawn as a diagram when shown).
    pub fn with_fen(mut self, fen: impl Into<String>) -> Diagnosis {
        self.fen = Some(fen.into());
        self
    }

    /// Sets the details.
    pub fn with_body(mut self, body: impl Into<String>) -> Diagnosis {
        self.body = body.into();
        self
    }

    /// Sets the hint.
    pub fn with_hint(mut self, hint: &'static str) -> Diagnosis {
        self.hint = Some(hint);
        self
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary)?;
        if let Some(fen) = &self.fen {
            writeln!(f, "\nposition: {fen}")?;
            if let Some(board) = crate::diagram::board(fen) {
                writeln!(f, "{board}")?;
            }
        }
        if !self.body.is_empty() {
            writeln!(f, "\n{}", self.body.trim_end())?;
        }
        if let Some(hint) = self.hint {
            writeln!(f, "\nhint: {hint}")?;
        }
        Ok(())
    }
}

impl CheckVerdict {
    /// The word a listing prints: `PASS`, `FAIL` or `NOT STARTED`.
    pub fn word(&self) -> &'static str {
        match self {
            CheckVerdict::Pass { .. } => "PASS",
            CheckVerdict::NotStarted => "NOT STARTED",
            CheckVerdict::Fail(_) => "FAIL",
        }
    }

    /// Whether the lab passed.
    pub fn passed(&self) -> bool {
        matches!(self, CheckVerdict::Pass { .. })
    }

    /// The verdict of a check written as `Result`: `Ok(checked)` passes, `Err(v)` is `v`.
    pub fn from_result(result: Result<usize, CheckVerdict>) -> CheckVerdict {
        match result {
            Ok(checked) => CheckVerdict::Pass { checked },
            Err(verdict) => verdict,
        }
    }
}
