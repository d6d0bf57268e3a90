//! The registry: every lab, in order.
//!
//! Adding a lab `NN`:
//! 1. its folder `course/labs/NN-slug/` (README.md, skeleton.rs, solution.rs, harness.rs,
//!    hints.md, bugs/*.rs, each bug starting with `//! bug:` and `//! expect:` lines);
//! 2. its checker `src/labs/labNN.rs`: a unit struct implementing [`Lab`], its files from
//!    `crate::lab_files!("NN-slug", ["bug.rs", ...])`, and `check` asking the student
//!    through [`crate::student::Student::ask`] (a `todo` before any answer becomes
//!    `Verdict::NotStarted`; a panic or hang becomes a `Fail` naming the query), comparing
//!    with movegen through [`crate::compare`], and shrinking with
//!    [`crate::checker::check_cases`];
//! 3. a `mod labNN;` line and an entry in [`all`] below.
//!
//! `course/tests/labs.rs` then checks the new lab's solution, skeleton and bugs by itself.

use crate::checker::Lab;

mod lab01;
mod lab02;
mod lab03;
mod lab04;
mod lab05;
mod lab06;
mod lab07;
mod lab08;
mod lab09;
mod lab10;
mod lab11;
mod lab12;
pub(crate) mod positions;

/// The sample crowd export lab 10 checks (a copy is in every workspace's `labs/`).
pub use lab10::CROWD_EXPORT;

/// Every lab of the course, in order.
pub fn all() -> Vec<&'static dyn Lab> {
    vec![
        &lab01::Lab01,
        &lab02::Lab02,
        &lab03::Lab03,
        &lab04::Lab04,
        &lab05::Lab05,
        &lab06::Lab06,
        &lab07::Lab07,
        &lab08::Lab08,
        &lab09::Lab09,
        &lab10::Lab10,
        &lab11::Lab11,
        &lab12::Lab12,
    ]
}

/// The lab with this number, if the course has it.
pub fn get(number: u8) -> Option<&'static dyn Lab> {
    all().into_iter().find(|l| l.number() == number)
}
