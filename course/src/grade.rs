//! `course grade`: check a folder of student workspaces and write one CSV row per student.
//!
//! Each student is graded by a child process (`course grade-one`) in a copy of their
//! workspace with the course's own harness files, under a time limit: a submission that does
//! not compile, hangs or crashes costs only its own row.

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::checker::{Lab, Verdict};
use crate::student::Student;
use crate::workspace;

/// One lab's grade: `PASS`, `FAIL`, `NOT STARTED`, `BUILD FAILED` or `TIME LIMIT`, and the
/// first line of the diagnosis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabGrade {
    /// The lab number.
    pub lab: u8,
    /// The verdict word.
    pub word: String,
    /// The failure's summary line, if any.
    pub note: String,
}

/// Copies a student's `src/` (not `target/`) into `to`, then writes the course's provided
/// files over it.
fn prepare(from: &Path, to: &Path, labs: &[&'static dyn Lab]) -> std::io::Result<()> {
    copy_tree(&from.join("src"), &to.join("src"))?;
    workspace::write_provided(to, labs)?;
    // Lab files the student doesn't have yet become skeletons ("not started").
    workspace::init(to, labs, false).map(|_| ())
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// `course grade-one`: grades one workspace and prints a line per lab, `NN<TAB>WORD<TAB>note`.
pub fn grade_one(
    dir: &Path,
    scratch: &Path,
    labs: &[&'static dyn Lab],
    query_timeout: Duration,
) -> Result<ExitCode, String> {
    let _ = fs::remove_dir_all(scratch);
    let result = (|| {
        prepare(dir, scratch, labs).map_err(|e| format!("cannot copy {}: {e}", dir.display()))?;
        if let Err(messages) = workspace::build(scratch) {
            let first = messages
                .lines()
                .find(|l| l.starts_with("error"))
                .unwrap_or("does not compile");
            for lab in labs {
                crate::say!("{:02}\tBUILD FAILED\t{first}", lab.number());
            }
            return Ok(());
        }
        let mut student = Student::in_workspace(scratch);
        student.set_query_timeout(query_timeout);
        for lab in labs {
            let verdict = lab.check(&mut student);
            let note = match &verdict {
                Verdict::Fail(d) => d.summary.lines().next().unwrap_or("").to_string(),
                _ => String::new(),
            };
            // One line per lab, written as soon as it is known: a later hang keeps these.
            crate::say!(
                "{:02}\t{}\t{}",
                lab.number(),
                verdict.word(),
                note.replace('\t', " ")
            );
        }
        Ok(())
    })();
    let _ = fs::remove_dir_all(scratch);
    result.map(|()| ExitCode::SUCCESS)
}

fn parse_grades(text: &str) -> Vec<LabGrade> {
    text.lines()
        .filter_map(|l| {
            let mut f = l.splitn(3, '\t');
            Some(LabGrade {
                lab: f.next()?.parse().ok()?,
                word: f.next()?.to_string(),
                note: f.next().unwrap_or("").to_string(),
            })
        })
        .collect()
}

/// Starts `course grade-one` in its own process group, so a time limit ends its builds and
/// harness too.
fn spawn(
    exe: &Path,
    dir: &Path,
    scratch: &Path,
    labs: &[&'static dyn Lab],
    query_timeout: Duration,
) -> std::io::Result<Child> {
    let numbers: Vec<String> = labs.iter().map(|l| l.number().to_string()).collect();
    let mut command = Command::new(exe);
    command
        .arg("grade-one")
        .arg(dir)
        .arg("--scratch")
        .arg(scratch)
        .arg("--labs")
        .arg(numbers.join(","))
        .arg("--query-timeout-ms")
        .arg(query_timeout.as_millis().to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command.spawn()
}

fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        // The group id is the child's pid (process_group(0)); `kill -KILL -PGID` ends all of it.
        let _ = Command::new("kill")
            .args(["-s", "KILL", "--"])
            .arg(format!("-{}", child.id()))
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Grades one student within `limit`.
pub fn grade_student(
    exe: &Path,
    dir: &Path,
    labs: &[&'static dyn Lab],
    limit: Duration,
    query_timeout: Duration,
) -> Vec<LabGrade> {
    // The copy being built and checked; removed here too, in case the child was killed.
    let scratch = std::env::temp_dir().join(format!(
        "pinmask-course-grade-{}-{}",
        std::process::id(),
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let grades = run_child(exe, dir, &scratch, labs, limit, query_timeout);
    let _ = fs::remove_dir_all(&scratch);
    grades
}

fn run_child(
    exe: &Path,
    dir: &Path,
    scratch: &Path,
    labs: &[&'static dyn Lab],
    limit: Duration,
    query_timeout: Duration,
) -> Vec<LabGrade> {
    let mut child = match spawn(exe, dir, scratch, labs, query_timeout) {
        Ok(child) => child,
        Err(e) => {
            return labs
                .iter()
                .map(|l| LabGrade {
                    lab: l.number(),
                    word: "ERROR".into(),
                    note: e.to_string(),
                })
                .collect();
        }
    };
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        let _ = tx.send(text);
    });
    let text = match rx.recv_timeout(limit) {
        Ok(text) => {
            let _ = child.wait();
            text
        }
        Err(_) => {
            kill_group(&mut child);
            // The pipe closes with the group; what was printed before the limit still counts.
            rx.recv_timeout(Duration::from_secs(5)).unwrap_or_default()
        }
    };
    let mut grades = parse_grades(&text);
    for lab in labs {
        if !grades.iter().any(|g| g.lab == lab.number()) {
            grades.push(LabGrade {
                lab: lab.number(),
                word: "TIME LIMIT".into(),
                note: format!("not finished within {} s", limit.as_secs()),
            });
        }
    }
    grades.sort_by_key(|g| g.lab);
    grades
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The student folders of `submissions`, sorted by name.
fn students(submissions: &Path) -> Result<Vec<PathBuf>, String> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(submissions)
        .map_err(|e| format!("cannot read {}: {e}", submissions.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// `course grade`: grades every sub-folder of `submissions` and writes `output`.
pub fn grade(
    exe: &Path,
    submissions: &Path,
    output: &Path,
    labs: &[&'static dyn Lab],
    limit: Duration,
    query_timeout: Duration,
) -> Result<ExitCode, String> {
    let dirs = students(submissions)?;
    if dirs.is_empty() {
        return Err(format!(
            "{} has no sub-folders (one per student)",
            submissions.display()
        ));
    }
    let mut csv = String::from("student");
    for lab in labs {
        let _ = write!(csv, ",lab{:02}", lab.number());
    }
    csv.push_str(",passed,note\n");
    for dir in dirs {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let started = Instant::now();
        let grades = if dir.join("src").is_dir() {
            grade_student(exe, &dir, labs, limit, query_timeout)
        } else {
            labs.iter()
                .map(|l| LabGrade {
                    lab: l.number(),
                    word: "NO WORKSPACE".into(),
                    note: "no src/ folder".into(),
                })
                .collect()
        };
        let passed = grades.iter().filter(|g| g.word == "PASS").count();
        let note = grades
            .iter()
            .find(|g| !g.note.is_empty())
            .map(|g| format!("lab {:02}: {}", g.lab, g.note))
            .unwrap_or_default();
        crate::say!(
            "{name}: {passed} of {} passed ({:.0} s){}",
            labs.len(),
            started.elapsed().as_secs_f64(),
            if note.is_empty() {
                String::new()
            } else {
                format!("; {note}")
            }
        );
        csv.push_str(&csv_field(&name));
        for g in &grades {
            csv.push(',');
            csv.push_str(&csv_field(&g.word));
        }
        let _ = writeln!(csv, ",{passed},{}", csv_field(&note));
    }
    fs::write(output, csv).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    crate::say!("wrote {}", output.display());
    Ok(ExitCode::SUCCESS)
}
