//! The checker's API: a lab, its verdict on a student's workspace, and the diagnosis a
//! student reads when a function is wrong.

use std::fmt;

use crate::student::{Reply, Student, Waiting};

/// One weekly lab: its files and the check that compares a student's functions with the oracle.
pub trait Lab: Sync {
    /// The lab's number, 1..=12.
    fn number(&self) -> u8;
    /// The folder name after the number (`bitboards` in `01-bitboards`).
    fn slug(&self) -> &'static str;
    /// A short title for listings.
    fn title(&self) -> &'static str;
    /// The student module it fills, `src/<module>.rs` (fixed by the course's contract).
    fn module(&self) -> &'static str;
    /// The lab's files, built in with `include_str!`.
    fn files(&self) -> &'static LabFiles;
    /// Files the lab adds to a workspace besides the student's module, as (path, text):
    /// lab 12's engine program.
    fn extra_files(&self) -> &'static [(&'static str, &'static str)];
    /// How many times the instructor's query time-out one of the lab's queries may take.
    fn query_scale(&self) -> u32;
    /// Asks the student's functions through `student` and judges the answers, each query
    /// within [`Lab::query_scale`] times the instructor's time-out.
    fn check(&self, student: &mut Student) -> Verdict;
}

/// One lab, in one record: what identifies it (number, slug, module, title), its files and
/// its check. Each `labs/labNN.rs` defines one `static`, and `labs/mod.rs` lists it in one
/// line; nothing else in the course names a lab.
pub struct LabRecord {
    /// 1..=12.
    pub number: u8,
    /// The folder name after the number.
    pub slug: &'static str,
    /// The student module, `src/<module>.rs`.
    pub module: &'static str,
    /// A short title for listings.
    pub title: &'static str,
    /// The lab folder's files.
    pub files: &'static LabFiles,
    /// Files besides the module, as (path in the workspace, text).
    pub extra_files: &'static [(&'static str, &'static str)],
    /// How many times the instructor's query time-out one query may take: 1, or more for a
    /// lab with slow queries (perft, search). A lab scales the instructor's value, never
    /// replaces it, so `course grade --query-timeout` reaches every lab.
    pub query_scale: u32,
    /// Asks the student's functions and judges the answers.
    pub check: fn(&mut Student) -> Verdict,
}

impl Lab for LabRecord {
    fn number(&self) -> u8 {
        self.number
    }
    fn slug(&self) -> &'static str {
        self.slug
    }
    fn title(&self) -> &'static str {
        self.title
    }
    fn module(&self) -> &'static str {
        self.module
    }
    fn files(&self) -> &'static LabFiles {
        self.files
    }
    fn extra_files(&self) -> &'static [(&'static str, &'static str)] {
        self.extra_files
    }
    fn query_scale(&self) -> u32 {
        self.query_scale
    }
    fn check(&self, student: &mut Student) -> Verdict {
        student.scaled(self.query_scale, self.check)
    }
}

/// A failing verdict with this diagnosis: the checkers' shorthand.
pub fn fail(d: Diagnosis) -> Verdict {
    Verdict::Fail(d)
}

/// The files of one lab folder (`course/labs/NN-slug/`) that a student's workspace gets. The
/// reference solution and the planted bugs' texts are not here: they are the answer key, the
/// crate `course_key`, which only the instructor's build has.
pub struct LabFiles {
    /// The lab text.
    pub readme: &'static str,
    /// The student's starting file (`todo!()` bodies).
    pub skeleton: &'static str,
    /// The dispatcher from query names to the student's functions.
    pub harness: &'static str,
    /// What `course hint` shows.
    pub hints: &'static str,
    /// The names of the lab's planted bugs (`bugs/*.bug`); their texts are in the key.
    pub bugs: &'static [&'static str],
}

/// A lab's [`LabFiles`] from its folder `course/labs/<dir>/`: `lab_files!("01-bitboards",
/// ["bug-one.bug", "bug-two.bug"])` includes the README, skeleton, harness and hints, and
/// names the files of `bugs/` (the course's tests fail if one is not named), never including
/// `solution.rs` or a bug's text.
#[macro_export]
macro_rules! lab_files {
    ($dir:literal, [$($bug:literal),* $(,)?]) => {
        $crate::checker::LabFiles {
            readme: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/labs/", $dir, "/README.md")),
            skeleton: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/labs/", $dir, "/skeleton.rs")),
            harness: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/labs/", $dir, "/harness.rs")),
            hints: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/labs/", $dir, "/hints.md")),
            bugs: &[$($bug),*],
        }
    };
}

/// The outcome of checking one lab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
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

impl Verdict {
    /// The word a listing prints: `PASS`, `FAIL` or `NOT STARTED`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Pass { .. } => "PASS",
            Verdict::NotStarted => "NOT STARTED",
            Verdict::Fail(_) => "FAIL",
        }
    }

    /// Whether the lab passed.
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Pass { .. })
    }

    /// The verdict of a check written as `Result`: `Ok(checked)` passes, `Err(v)` is `v`.
    pub fn from_result(result: Result<usize, Verdict>) -> Verdict {
        match result {
            Ok(checked) => Verdict::Pass { checked },
            Err(verdict) => verdict,
        }
    }
}

/// A query as the student would call it: `popcount(0x0000000000000001)`; FEN arguments
/// get their spaces back.
pub fn call_text(function: &str, args: &[&str]) -> String {
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            if a.contains('/') {
                format!("\"{}\"", a.replace('_', " "))
            } else {
                a.to_string()
            }
        })
        .collect();
    format!("{function}({})", shown.join(", "))
}

/// The FEN among a query's arguments, if one is.
pub fn fen_arg(args: &[&str]) -> Option<String> {
    args.iter()
        .find(|a| a.contains('/'))
        .map(|a| a.replace('_', " "))
}

impl Student {
    /// Asks one query and turns every answer but `ok` into the verdict it means: `todo` before
    /// any of this lab's functions answered is "not started"; after, it names the unwritten
    /// function; a panic or a hang names the query (and its position, if it had one).
    pub fn ask(&mut self, lab: u8, function: &str, args: &[&str]) -> Result<String, Verdict> {
        if let Some((spent, asked)) = self.over_budget(lab) {
            return Err(Verdict::Fail(
                Diagnosis::new(format!(
                    "correct so far ({asked} answers checked), but lab {lab} has taken {:.0} s, \
                     more than the {} s a lab may take: some function is far slower than it \
                     needs to be (the last one asked: {})",
                    spent.as_secs_f64(),
                    self.lab_budget().as_secs(),
                    call_text(function, args)
                ))
                .with_hint(
                    "a correct solution checks in a few seconds: build tables (attack tables, \
                     magics, zobrist keys) once, in a `static` with `std::sync::OnceLock` or \
                     before the loop, not on every call; and don't allocate inside hot loops.",
                ),
            ));
        }
        let own_file = crate::workspace::module_name(lab).map(|m| format!("src/{m}.rs:"));
        match self.call(lab, function, args) {
            Reply::Ok(answer) => Ok(answer),
            Reply::NotStarted if self.todo_at().is_some_and(|at| own_file.as_ref().is_some_and(|f| !at.starts_with(f.as_str()))) => {
                Err(Verdict::Fail(Diagnosis::new(format!(
                    "{}: it calls a function that is not written yet, the todo!() at {}. Finish that lab first (or write this one without it).",
                    call_text(function, args),
                    self.todo_at().unwrap_or("?")
                ))))
            }
            Reply::NotStarted if !self.answered(lab) => Err(Verdict::NotStarted),
            reply => Err(Verdict::Fail(reply_diagnosis(function, args, &reply, self))),
        }
    }

    /// Like [`Student::ask`], for a bitboard answer.
    pub fn ask_bitboard(&mut self, lab: u8, function: &str, args: &[&str]) -> Result<u64, Verdict> {
        let answer = self.ask(lab, function, args)?;
        parse_bitboard(&answer).ok_or_else(|| {
            Verdict::Fail(Diagnosis::new(format!(
                "{} answered `{answer}`, which is not a bitboard (the harness prints 0x and 16 hex digits)",
                call_text(function, args)
            )))
        })
    }
}

/// The diagnosis for an answer that isn't `ok`.
fn reply_diagnosis(function: &str, args: &[&str], reply: &Reply, student: &Student) -> Diagnosis {
    let call = call_text(function, args);
    let mut diagnosis = match reply {
        Reply::Ok(answer) => Diagnosis::new(format!("{call} answered {answer}")),
        Reply::NotStarted => Diagnosis::new(format!(
            "{call}: `{function}` is not written yet (it still calls todo!()); the functions before it are right, so write `{function}` next"
        )),
        Reply::Panic(message) if message.starts_with("the program stopped") => {
            Diagnosis::new(format!("{call} crashed: {message}"))
        }
        Reply::Panic(message) => Diagnosis::new(format!("{call} panicked: {message}")),
        Reply::Hang(doing) => {
            let within = student.query_timeout().as_secs_f64();
            let why = match doing {
                Waiting::Computing => "it was computing all along: an endless loop, or much \
                     slower code than needed?",
                Waiting::ReadingInput => "it was waiting to read its standard input: your \
                     functions must not read stdin (the checker's questions come that way); \
                     take everything from the arguments",
                Waiting::Blocked => "it was blocked, not computing: a sleep, a lock, or a read \
                     that never ends?",
                Waiting::Unknown => "an endless loop?",
            };
            Diagnosis::new(format!("{call} did not answer within {within:.1} s: {why}"))
        }
        Reply::Broken(message) => {
            Diagnosis::new(format!("{call}: the checker could not ask it: {message}"))
        }
    };
    if let Some(fen) = fen_arg(args) {
        diagnosis = diagnosis.with_fen(fen);
    }
    if let Reply::Panic(message) = reply {
        if let Some(hint) = panic_hint(message) {
            diagnosis = diagnosis.with_hint(hint);
        }
    }
    diagnosis
}

/// The hint for the panics students meet most.
fn panic_hint(message: &str) -> Option<&'static str> {
    if message.contains("shift left with overflow") || message.contains("shift right with overflow")
    {
        Some("a shift by 64 or more, or a shift of a 32-bit number: `1 << sq` where the 1 is an i32 \
              overflows from square 32 on. Shift a 64-bit one: `1u64 << sq`.")
    } else if message.contains("subtract with overflow") {
        Some(
            "a subtraction went below zero. In a debug build `0u64 - 1` panics; where the wrap \
              around is what you mean (the subtraction trick), write `a.wrapping_sub(b)`.",
        )
    } else if message.contains("multiply with overflow") {
        Some("a multiplication overflowed; for magic numbers write `a.wrapping_mul(b)`.")
    } else if message.contains("add with overflow") {
        Some("an addition overflowed: a square index past 63, or a counter too small for its type?")
    } else if message.contains("index out of bounds") {
        Some("an index past the end of an array: a square index that went off the board (below 0 or above 63)?")
    } else if message.contains("overflowed its stack") || message.contains("stack overflow") {
        Some("endless recursion: a function that calls itself needs a case that stops (depth 0).")
    } else {
        None
    }
}

/// Runs `case` on each input in order. At the first failure, shrinks the input (`simpler`
/// gives candidates, simplest first; greedy, as in [`crate::shrink::shrink`]) while the case
/// still fails, and returns the verdict of the smallest failing input. `checked` counts the
/// cases that passed.
pub fn check_cases<T: Clone>(
    student: &mut Student,
    inputs: impl IntoIterator<Item = T>,
    simpler: impl Fn(&T) -> Vec<T>,
    mut case: impl FnMut(&mut Student, &T) -> Result<(), Verdict>,
    checked: &mut usize,
) -> Result<(), Verdict> {
    for input in inputs {
        let verdict = match case(student, &input) {
            Ok(()) => {
                *checked += 1;
                continue;
            }
            Err(Verdict::Fail(d)) => Verdict::Fail(d),
            Err(other) => return Err(other),
        };
        let mut smallest = (input, verdict);
        let mut tries = 0;
        'shrinking: while tries < 5_000 {
            for candidate in simpler(&smallest.0) {
                tries += 1;
                if let Err(v @ Verdict::Fail(_)) = case(student, &candidate) {
                    smallest = (candidate, v);
                    continue 'shrinking;
                }
            }
            break;
        }
        return Err(smallest.1);
    }
    Ok(())
}

/// Reads a `0x...` bitboard answer.
pub fn parse_bitboard(answer: &str) -> Option<u64> {
    u64::from_str_radix(answer.trim().strip_prefix("0x")?, 16).ok()
}

/// A bitboard as a query argument.
pub fn bb_arg(bb: u64) -> String {
    format!("0x{bb:016x}")
}

/// A FEN as a query argument (spaces become `_`).
pub fn fen_to_arg(fen: &str) -> String {
    fen.split_whitespace().collect::<Vec<_>>().join("_")
}
