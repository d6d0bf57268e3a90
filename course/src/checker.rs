//! The checker's API: a lab's record and the helpers its check uses (shrinking a failing
//! case, query arguments). Above the student's harness ([`crate::student`]), below the
//! oracle helpers and the labs.

use crate::student::Student;

// The words of a check's outcome, and the query helpers, where the lab checkers have always
// found them: the harness below uses them too.
pub use crate::student::{call_text, fen_arg, parse_bitboard};
pub use crate::verdict::{CheckVerdict, Diagnosis};

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
    pub check: fn(&mut Student) -> CheckVerdict,
}

impl LabRecord {
    /// The lab's number, 1..=12.
    pub fn number(&self) -> u8 {
        self.number
    }
    /// The folder name after the number (`bitboards` in `01-bitboards`).
    pub fn slug(&self) -> &'static str {
        self.slug
    }
    /// A short title for listings.
    pub fn title(&self) -> &'static str {
        self.title
    }
    /// The student module it fills, `src/<module>.rs` (fixed by the course's contract).
    pub fn module(&self) -> &'static str {
        self.module
    }
    /// The lab's files, built in with `include_str!`.
    pub fn files(&self) -> &'static LabFiles {
        self.files
    }
    /// Files the lab adds to a workspace besides the student's module, as (path, text): lab 12's engine program.
    pub fn extra_files(&self) -> &'static [(&'static str, &'static str)] {
        self.extra_files
    }
    /// How many times the instructor's query time-out one of the lab's queries may take.
    pub fn query_scale(&self) -> u32 {
        self.query_scale
    }
    /// Asks the student's functions through `student` and judges the answers, each query within [`LabRecord::query_scale`] times the instructor's time-out.
    pub fn check(&self, student: &mut Student) -> CheckVerdict {
        student.scaled(self.query_scale, self.check)
    }
}

/// A failing verdict with this diagnosis: the checkers' shorthand.
pub fn fail(d: Diagnosis) -> CheckVerdict {
    CheckVerdict::Fail(d)
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

/// Runs `case` on each input in order. At the first failure, shrinks the input (`simpler`
/// gives candidates, simplest first; greedy, as in [`crate::shrink::shrink`]) while the case
/// still fails, and returns the verdict of the smallest failing input. `checked` counts the
/// cases that passed.
pub fn check_cases<T: Clone>(
    student: &mut Student,
    inputs: impl IntoIterator<Item = T>,
    simpler: impl Fn(&T) -> Vec<T>,
    mut case: impl FnMut(&mut Student, &T) -> Result<(), CheckVerdict>,
    checked: &mut usize,
) -> Result<(), CheckVerdict> {
    for input in inputs {
        let verdict = match case(student, &input) {
            Ok(()) => {
                *checked += 1;
                continue;
            }
            Err(CheckVerdict::Fail(d)) => CheckVerdict::Fail(d),
            Err(other) => return Err(other),
        };
        let mut smallest = (input, verdict);
        let mut tries = 0;
        // A case that hangs costs a whole time-out per try: shrink it a little only, and
        // never past the lab's budget (whose verdict would hide the hang).
        let mut hung = 0;
        'shrinking: while tries < 5_000 && hung < MAX_HUNG_TRIES {
            for candidate in simpler(&smallest.0) {
                if student.budget_spent() {
                    break 'shrinking;
                }
                tries += 1;
                if let Err(v @ CheckVerdict::Fail(_)) = case(student, &candidate) {
                    if student.budget_spent() {
                        break 'shrinking;
                    }
                    if is_hang(&v) {
                        hung += 1;
                    }
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

/// How many smaller cases that hang, each a whole time-out, shrinking tries.
const MAX_HUNG_TRIES: u32 = 2;

/// Whether `verdict` is a query that did not answer in time.
fn is_hang(verdict: &CheckVerdict) -> bool {
    matches!(verdict, CheckVerdict::Fail(d) if d.summary.contains("did not answer within"))
}

/// A bitboard as a query argument.
pub fn bb_arg(bb: u64) -> String {
    format!("0x{bb:016x}")
}

/// A FEN as a query argument (spaces become `_`).
pub fn fen_to_arg(fen: &str) -> String {
    fen.split_whitespace().collect::<Vec<_>>().join("_")
}
