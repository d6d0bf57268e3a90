//! The registry: every lab, in order.
//!
//! Adding a lab `NN`:
//! 1. its folder `course/labs/NN-slug/` (README.md, skeleton.rs, solution.rs, harness.rs,
//!    hints.md, bugs/*.rs, each bug starting with `//! bug:` and `//! expect:` lines);
//! 2. its checker `src/labs/labNN.rs`: one `static LABNN: LabRecord` (number, slug, module,
//!    title, its files from `crate::lab_files!("NN-slug", ["bug.bug", ...])`, any extra
//!    workspace files, and its check function), the check asking the student through
//!    [`crate::student::Student::ask`] (a `todo` before any answer becomes
//!    `CheckVerdict::NotStarted`; a panic or hang becomes a `Fail` naming the query), comparing
//!    with movegen through [`crate::compare`], shrinking with
//!    [`crate::checker::check_cases`], failing with [`crate::checker::fail`];
//! 3. one line `labNN => LABNN,` in the list below.
//!
//! `course/tests/labs.rs` then checks the new lab's solution, skeleton and bugs by itself.

use crate::checker::LabRecord;

/// Declares each lab's module and lists its record in [`all`]: one line per lab.
macro_rules! labs {
    ($($module:ident => $record:ident),* $(,)?) => {
        $(mod $module;)*

        /// Every lab of the course, in order.
        pub fn all() -> Vec<&'static LabRecord> {
            vec![$(&$module::$record),*]
        }
    };
}

labs! {
    lab01 => LAB01,
    lab02 => LAB02,
    lab03 => LAB03,
    lab04 => LAB04,
    lab05 => LAB05,
    lab06 => LAB06,
    lab07 => LAB07,
    lab08 => LAB08,
    lab09 => LAB09,
    lab10 => LAB10,
    lab11 => LAB11,
    lab12 => LAB12,
}

pub(crate) mod positions;

/// The sample crowd export lab 10 checks (a copy is in every workspace's `labs/`).
pub use lab10::CROWD_EXPORT;

/// The lab with this number, if the course has it.
pub fn get(number: u8) -> Option<&'static LabRecord> {
    all().into_iter().find(|l| l.number() == number)
}
