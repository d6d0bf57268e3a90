//! `course`: the student's program for the weekly labs. It is built without the answer key
//! (the `course_key` crate), so it has no reference solution to write; the instructor's
//! `course-instructor` has them (`cargo install --path course --features instructor`).

fn main() -> std::process::ExitCode {
    course::cli::run(None)
}
