//! The course: twelve weekly labs in which students build their own bitboard chess engine,
//! each checked against Pinmask's move generator as the oracle.
//!
//! The checker is a library ([`checker`], [`compare`], [`diagram`], [`shrink`], [`inputs`]);
//! each lab's check is in [`labs`]; [`student`] talks to a student's workspace through its
//! harness process, one query a line; [`cli`] is the runner, in two builds: the student's
//! `course` and the instructor's `course-instructor`, which alone links the answer key (the
//! `course_key` crate: reference solutions and planted bugs).
#![deny(missing_docs)]

pub mod checker;
pub mod cli;
pub mod compare;
pub mod diagram;
pub mod grade;
pub mod inputs;
pub mod labs;
pub mod process;
pub mod referee;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod shrink;
pub mod student;
pub mod tournament;
pub mod watch;
pub mod workspace;

/// `println!` for the runner's output, except that a closed stdout (`course check | head`)
/// is not worth a panic: the line is dropped.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` in the same way as [`say!`].
#[macro_export]
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

pub use checker::{Diagnosis, Lab, LabFiles, Verdict};
pub use student::{Reply, Student};
