//! The course: twelve weekly labs in which students build their own bitboard chess engine,
//! each checked against Pinmask's move generator as the oracle.
//!
//! The modules import one way (`course/tests/layers.rs` keeps it so), each using only those
//! before it: the [`process`] driver (a program spoken to a line at a time, under the
//! [`sandbox`]); [`student`], the harness of a student's workspace, one query a line, and the
//! [`verdict`] its replies become; [`checker`], a lab's record and its check helpers; the
//! oracle helpers ([`compare`], [`diagram`], [`shrink`], [`inputs`]); the [`labs`]; the
//! [`workspace`]; the [`runner`] and its [`report`]; [`grade`]; and [`cli`], the command
//! line, in two builds: the student's `course` and the instructor's `course-instructor`,
//! which alone links the answer key (the `course_key` crate: reference solutions and planted
//! bugs). The [`referee`] and the [`tournament`] play engines through the same driver.
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
pub mod verdict;
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

pub use checker::{CheckVerdict, Diagnosis, LabFiles, LabRecord};
pub use student::{Reply, Student};
