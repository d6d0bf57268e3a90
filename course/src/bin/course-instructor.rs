//! `course-instructor`: the instructor's build of the course program, with the answer key:
//! everything `course` does, and `init --solutions`, `grade` and `merge`.

fn main() -> std::process::ExitCode {
    course::cli::run(Some(course_key::solution))
}
