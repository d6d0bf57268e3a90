//! `course grade`: grade a folder of student workspaces, several at once, each in a sandbox,
//! and write one CSV row and one report per student.
//!
//! The grader (this process) copies each workspace's `src/` into a scratch folder of a
//! private run folder, writes the course's own harness over it, and starts a child,
//! `course grade-one`, in that folder with a clean environment. The child enters the sandbox
//! ([`crate::sandbox`]) before anything else, builds (replacing a lab file that does not
//! compile by the reference solution, so that the other labs still get graded), checks each
//! lab through the student's harness in a nested sandbox, and prints one JSON line per lab on
//! the pipe the grader reads. Student code cannot write to that pipe: it runs in a process
//! of its own, whose output goes to the child, and the nested sandbox keeps it from the
//! child's open files. The grader alone writes the CSV and the reports, at the end, each to a
//! temporary file renamed into place.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::checker::LabRecord;
use crate::report::{LabReport, StudentReport};
use crate::sandbox::{self, Sandbox, SandboxLimits};
use crate::student::Student;
use crate::workspace;

/// How `course grade` grades.
#[derive(Clone)]
pub struct GradeOptions {
    /// The labs to grade.
    pub labs: Vec<&'static LabRecord>,
    /// Time for one student, build and checks together.
    pub limit: Duration,
    /// Time for one query to a student's function.
    pub query_timeout: Duration,
    /// Students graded at once.
    pub jobs: usize,
    /// `Some((k, n))`: grade only the k-th (1-based) of n slices of the class.
    pub shard: Option<(usize, usize)>,
    /// `false` with `--no-sandbox`: student code runs with the grader's rights.
    pub sandbox: bool,
    /// Memory and file limits inside the sandbox.
    pub limits: SandboxLimits,
}

/// One line of `course grade-one`'s output.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line {
    /// What the sandbox enforces.
    Sandbox { status: String },
    /// Labs replaced by the reference solution because they do not compile.
    Substituted { labs: Vec<u8> },
    /// One lab's result.
    Lab(LabReport),
}

fn emit(line: &Line) {
    // One line, flushed at once: what was printed before a time limit still counts.
    if let Ok(text) = serde_json::to_string(line) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// What `course grade-one` is told by the grader.
#[derive(Clone)]
pub struct OneOptions {
    /// The labs.
    pub labs: Vec<&'static LabRecord>,
    /// Time for one query.
    pub query_timeout: Duration,
    /// Time for the whole student.
    pub limit: Duration,
    /// The toolchain's sysroot.
    pub toolchain: PathBuf,
    /// The sandbox's limits; `None` with `--no-sandbox`.
    pub sandbox: Option<SandboxLimits>,
    /// The reference solutions, which take the place of a lab file that does not compile.
    pub solutions: workspace::Solutions,
}

/// `course grade-one`: grades the workspace in the current folder (a scratch copy the grader
/// prepared) and prints one JSON line per lab.
pub fn grade_one(options: &OneOptions) -> Result<ExitCode, String> {
    let scratch = std::env::current_dir().map_err(|e| format!("no working folder: {e}"))?;
    // First, before any thread: the sandbox (a process with threads cannot enter a user
    // namespace).
    let sandbox = match options.sandbox {
        Some(limits) => {
            let sandbox = Sandbox {
                scratch: scratch.clone(),
                toolchain: options.toolchain.clone(),
                limits,
                programs: Vec::new(),
            };
            sandbox.prepare()?;
            let status = sandbox.enter()?;
            emit(&Line::Sandbox { status });
            Some(sandbox)
        }
        None => {
            sandbox::become_subreaper();
            emit(&Line::Sandbox {
                status: "none (--no-sandbox)".into(),
            });
            None
        }
    };
    // The time limit, kept here too: at the deadline every process of this student ends.
    let (done, deadline) = mpsc::channel::<()>();
    let limit = options.limit;
    thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = deadline.recv_timeout(limit) {
            // Holding stdout: a check whose harness dies below must not report a crash.
            let _quiet = std::io::stdout().lock();
            sandbox::end_descendants();
            std::process::exit(3);
        }
    });

    let cargo = options.toolchain.join("bin").join("cargo");
    let (substituted, build_error) = build_per_lab(
        &scratch,
        cargo.as_os_str(),
        sandbox.as_ref(),
        options.solutions,
    );
    emit(&Line::Substituted {
        labs: substituted.iter().map(|(n, _)| *n).collect(),
    });
    let mut student = Student::in_workspace(&scratch);
    student.set_query_timeout(options.query_timeout);
    if let Some(sandbox) = sandbox {
        student.set_sandbox(sandbox);
    }
    for lab in &options.labs {
        let n = lab.number();
        let report = if let Some((_, error)) = substituted.iter().find(|(m, _)| *m == n) {
            LabReport::new(lab, "BUILD FAILED", error)
        } else if let Some(error) = &build_error {
            LabReport::new(lab, "BUILD FAILED", error)
        } else {
            let verdict = crate::runner::check_lab(&mut student, lab);
            let mut report = LabReport::from_verdict(lab, &verdict);
            report.over_reference = substituted
                .iter()
                .map(|(m, _)| *m)
                .filter(|&m| m < n)
                .collect();
            report
        };
        emit(&Line::Lab(report));
    }
    drop(student);
    sandbox::end_descendants();
    let _ = done.send(());
    Ok(ExitCode::SUCCESS)
}

/// Builds the workspace; a lab file with a compile error is replaced by the lab's reference
/// solution and the build tried again, until it compiles. Returns the replaced labs with their
/// first error (`file:line:col: error...`), and the first error of a build that failed
/// elsewhere (the student's `lib.rs`, say), where no replacement helps.
fn build_per_lab(
    dir: &Path,
    cargo: &std::ffi::OsStr,
    sandbox: Option<&Sandbox>,
    solutions: workspace::Solutions,
) -> (Vec<(u8, String)>, Option<String>) {
    let mut substituted: Vec<(u8, String)> = Vec::new();
    // A lab file rustc cannot read as text fails the whole crate, blamed on lib.rs: replace
    // it first, so that it costs its own lab only.
    for n in 1..=u8::MAX {
        let Some(path) = workspace::lab_file(dir, n) else {
            break;
        };
        let Ok(bytes) = fs::read(&path) else { continue };
        let Err(e) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let Some(solution) = solutions(n) else {
            continue;
        };
        if replace_file(&path, solution).is_ok() {
            let name = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .display()
                .to_string();
            substituted.push((
                n,
                format!(
                    "{name}: not UTF-8 text (byte {} of the file, 0x{:02x}); \
                     Rust source files must be UTF-8",
                    e.valid_up_to() + 1,
                    bytes[e.valid_up_to()]
                ),
            ));
        }
    }
    loop {
        let messages = match workspace::build_with(dir, cargo, sandbox) {
            Ok(()) => return (substituted, None),
            Err(messages) => messages,
        };
        let errors = workspace::compile_errors(&messages);
        let mut replaced = false;
        for error in &errors {
            let Some(n) = error.lab() else { continue };
            if substituted.iter().any(|(m, _)| *m == n) {
                continue;
            }
            // Any lab of the course may be replaced: the build has them all (lib.rs names them
            // all), graded or not.
            let (Some(solution), Some(path)) = (solutions(n), workspace::lab_file(dir, n)) else {
                continue;
            };
            if replace_file(&path, solution).is_err() {
                continue;
            }
            substituted.push((n, error.describe()));
            replaced = true;
        }
        if !replaced {
            let first = errors
                .first()
                .map(workspace::CompileError::describe)
                .or_else(|| {
                    messages
                        .lines()
                        .find(|l| !l.trim().is_empty())
                        .map(str::to_string)
                })
                .unwrap_or_else(|| "does not compile".to_string());
            return (substituted, Some(first));
        }
        substituted.sort();
    }
}

/// Writes `text` as a new file at `path`, whatever was there: a link a student's build left
/// in the lab file's place is taken away, not followed.
fn replace_file(path: &Path, text: &str) -> std::io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    use std::io::Write;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?
        .write_all(text.as_bytes())
}

/// Copies what grading needs of a student's workspace (`src/`, and `crowd/` for lab 10) into
/// `to`, then writes the course's provided files over it. Links are not followed: a lab file
/// that is a symbolic link, or a file with other hard links, is refused (the lab gets the
/// skeleton). Returns the refused labs with the reason.
pub(crate) fn prepare(
    from: &Path,
    to: &Path,
    labs: &[&'static LabRecord],
) -> std::io::Result<Vec<(u8, String)>> {
    copy_tree(&from.join("src"), &to.join("src"))?;
    if from.join("crowd").is_dir() {
        copy_tree(&from.join("crowd"), &to.join("crowd"))?;
    }
    let mut refused = Vec::new();
    for lab in crate::labs::all() {
        let n = lab.number();
        let (Some(theirs), Some(copy)) = (workspace::lab_file(from, n), workspace::lab_file(to, n))
        else {
            continue;
        };
        let Ok(meta) = fs::symlink_metadata(&theirs) else {
            continue;
        };
        let shown = format!("src/{}", file_name(&theirs));
        if meta.file_type().is_symlink() {
            refused.push((
                n,
                format!(
                    "{shown} is a symbolic link: refused (links are not followed), so the lab \
                     was graded as not started"
                ),
            ));
        } else if meta.is_file() && hard_links(&meta) > 1 {
            fs::remove_file(&copy)?;
            refused.push((
                n,
                format!(
                    "{shown} has {} hard links (it is also another file): refused, so the lab \
                     was graded as not started",
                    hard_links(&meta)
                ),
            ));
        }
    }
    workspace::write_provided(to, labs)?;
    // Lab files the student doesn't have yet become skeletons ("not started").
    workspace::init(to, &crate::labs::all(), None)?;
    fs::create_dir_all(to.join("tmp"))?;
    fs::create_dir_all(to.join(".cargo-home"))?;
    Ok(refused)
}

/// How many names the file of `meta` has (1 where the system cannot say).
fn hard_links(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
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

/// The grader's children that are `course grade-one` processes still being waited for; any
/// other child is an orphan of a student's (re-parented to the grader, a subreaper, when its
/// `grade-one` was killed) and is ended.
struct Children {
    live: Mutex<HashSet<u32>>,
}

impl Children {
    /// Starts `command` and records it, under the lock, so that no sweep mistakes it for an
    /// orphan.
    fn spawn(&self, command: &mut Command) -> std::io::Result<Child> {
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        let child = command.spawn()?;
        live.insert(child.id());
        Ok(child)
    }

    /// Forgets `pid` (reaped), then ends every child of the grader that is no live
    /// `grade-one`.
    fn done_and_sweep(&self, pid: u32) {
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        live.remove(&pid);
        sandbox::end_children_but(&live);
    }
}

fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: the child leads its own process group (process_group(0)).
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

/// Everything the grading run shares.
struct Run<'a> {
    exe: &'a Path,
    options: &'a GradeOptions,
    toolchain: PathBuf,
    folder: PathBuf,
    children: Children,
}

/// Grades one student: prepare the scratch copy, run `grade-one` in it, collect its lines.
fn grade_student(run: &Run, index: usize, dir: &Path, name: &str) -> StudentReport {
    let labs = &run.options.labs;
    let every = |word: &str, note: &str| {
        StudentReport::new(
            name,
            labs.iter().map(|l| LabReport::new(l, word, note)).collect(),
        )
    };
    if !dir.join("src").is_dir() {
        return every("NO WORKSPACE", "no src/ folder");
    }
    let scratch = run.folder.join(format!("{index:04}"));
    let report = match prepare(dir, &scratch, labs) {
        Ok(refused) => {
            let mut report = run_child(run, &scratch, name);
            for (n, why) in &refused {
                let found = report.labs.iter_mut().find(|l| l.lab == *n);
                if let (Some(at), Some(lab)) = (found, labs.iter().find(|l| l.number() == *n)) {
                    *at = LabReport::new(lab, "REFUSED", why);
                }
            }
            report.passed = report.labs.iter().filter(|l| l.passed()).count();
            report
        }
        Err(e) => every("ERROR", &format!("cannot copy the workspace: {e}")),
    };
    let _ = fs::remove_dir_all(&scratch);
    report
}

fn run_child(run: &Run, scratch: &Path, name: &str) -> StudentReport {
    let options = run.options;
    let numbers: Vec<String> = options
        .labs
        .iter()
        .map(|l| l.number().to_string())
        .collect();
    let mut command = Command::new(run.exe);
    sandbox::clean_env(&mut command, scratch, &run.toolchain);
    command
        .arg("grade-one")
        .arg("--labs")
        .arg(numbers.join(","))
        .arg("--query-timeout-ms")
        .arg(options.query_timeout.as_millis().to_string())
        .arg("--time-limit-ms")
        .arg(options.limit.as_millis().to_string())
        .arg("--toolchain")
        .arg(&run.toolchain);
    if options.sandbox {
        command
            .arg("--memory-mib")
            .arg(options.limits.memory_mib.to_string())
            .arg("--build-memory-mib")
            .arg(options.limits.build_memory_mib.to_string())
            .arg("--file-mib")
            .arg(options.limits.file_mib.to_string());
    } else {
        command.arg("--no-sandbox");
    }
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = match run.children.spawn(&mut command) {
        Ok(child) => child,
        Err(e) => {
            return StudentReport::new(
                name,
                options
                    .labs
                    .iter()
                    .map(|l| LabReport::new(l, "ERROR", &format!("cannot start the grader: {e}")))
                    .collect(),
            );
        }
    };
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let errors = thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    // The child keeps the time limit itself; this one is for a child that cannot.
    let deadline = Instant::now() + options.limit + Duration::from_secs(15);
    let mut report = StudentReport::new(name, Vec::new());
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(text) => match serde_json::from_str::<Line>(&text) {
                Ok(Line::Sandbox { status }) => report.sandbox = status,
                Ok(Line::Substituted { labs }) => report.substituted = labs,
                Ok(Line::Lab(lab)) => report.labs.push(lab),
                Err(_) => {}
            },
            Err(mpsc::RecvTimeoutError::Timeout) => {
                kill_group(&mut child);
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let status = child.wait();
    run.children.done_and_sweep(child.id());
    let stderr = errors.join().unwrap_or_default();
    let stopped = crate::student::last_line(&stderr);
    let timed_out = matches!(&status, Ok(s) if s.code() == Some(3)) || Instant::now() >= deadline;
    for lab in &options.labs {
        if !report.labs.iter().any(|r| r.lab == lab.number()) {
            report.labs.push(if timed_out {
                LabReport::new(
                    lab,
                    "TIME LIMIT",
                    &format!("not finished within {} s", options.limit.as_secs()),
                )
            } else {
                LabReport::new(lab, "ERROR", &format!("grading stopped: {stopped}"))
            });
        }
    }
    report.labs.sort_by_key(|l| l.lab);
    report.passed = report.labs.iter().filter(|l| l.passed()).count();
    report
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

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The CSV's header line for `labs`.
fn csv_header(labs: &[u8]) -> String {
    let mut header = String::from("student");
    for n in labs {
        let _ = write!(header, ",lab{n:02}");
    }
    header.push_str(",passed,substituted,note");
    header
}

/// The one-line note: the first lab that has something to say.
fn note(report: &StudentReport) -> String {
    report
        .labs
        .iter()
        .find(|l| !l.summary.is_empty())
        .map(|l| format!("lab {:02}: {}", l.lab, l.summary))
        .unwrap_or_default()
}

/// A student's CSV row.
fn csv_row(report: &StudentReport) -> String {
    let mut row = csv_field(&report.student);
    for lab in &report.labs {
        row.push(',');
        row.push_str(&csv_field(&lab.verdict));
    }
    let substituted: Vec<String> = report
        .substituted
        .iter()
        .map(|n| format!("{n:02}"))
        .collect();
    let _ = write!(
        row,
        ",{},{},{}",
        report.passed,
        substituted.join(" "),
        csv_field(&note(report))
    );
    row
}

/// Where the per-student reports of `output` go: `grades.csv` -> `grades-reports/`.
pub fn reports_folder(output: &Path) -> PathBuf {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "grades".into());
    output.with_file_name(format!("{stem}-reports"))
}

/// A student's folder name as the name of their report files: ASCII letters and digits, `-`,
/// `_` and `.` kept, every other byte (`%` too, and a leading `.`) as `%XX`, so that distinct
/// folders never share a report (`with space` -> `with%20space`, `with_space` stays). Past
/// 200 bytes the name is cut and ends in a hash of the whole (FNV-1a).
fn report_name(folder: &std::ffi::OsStr) -> String {
    let mut name = String::new();
    for (i, &byte) in folder.as_encoded_bytes().iter().enumerate() {
        let kept = byte.is_ascii_alphanumeric() || b"-_".contains(&byte) || (byte == b'.' && i > 0);
        if kept {
            name.push(char::from(byte));
        } else {
            let _ = write!(name, "%{byte:02X}");
        }
    }
    // File names stop at 255 bytes: a longer one keeps its start and a hash of the whole name
    // after a `~`, which the encoding above never writes.
    const LONGEST: usize = 200;
    if name.len() > LONGEST {
        let hash = folder
            .as_encoded_bytes()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
        name.truncate(LONGEST - 17);
        let _ = write!(name, "~{hash:016x}");
    }
    name
}

/// Writes `text` to `path` through a temporary file in the same folder, renamed into place:
/// a reader sees the old file or the whole new one.
fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_file_name(format!(".{}.tmp-{}", file_name(path), std::process::id()));
    fs::write(&tmp, text)
        .and_then(|()| fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = fs::remove_file(&tmp);
            format!("cannot write {}: {e}", path.display())
        })
}

/// Writes the CSV (with `comment` as a `#` line first, if any) and the reports.
fn write_results(
    output: &Path,
    comment: Option<&str>,
    labs: &[u8],
    reports: &[(String, StudentReport)],
) -> Result<(), String> {
    let folder = reports_folder(output);
    fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    for (name, report) in reports {
        write_atomic(&folder.join(format!("{name}.txt")), &report.text())?;
        write_atomic(&folder.join(format!("{name}.json")), &report.json())?;
    }
    let mut csv = String::new();
    if let Some(comment) = comment {
        let _ = writeln!(csv, "# {comment}");
    }
    csv.push_str(&csv_header(labs));
    csv.push('\n');
    for (_, report) in reports {
        csv.push_str(&csv_row(report));
        csv.push('\n');
    }
    write_atomic(output, &csv)
}

const NO_SANDBOX: &str = "graded with --no-sandbox: student code ran with the grader's rights";

/// `course grade`: grades every sub-folder of `submissions` (or one shard of them) and writes
/// `output` and the reports beside it.
pub fn grade(
    exe: &Path,
    submissions: &Path,
    output: &Path,
    options: &GradeOptions,
) -> Result<ExitCode, String> {
    let mut dirs = students(submissions)?;
    if dirs.is_empty() {
        return Err(format!(
            "{} has no sub-folders (one per student)",
            submissions.display()
        ));
    }
    if let Some((k, n)) = options.shard {
        if n == 0 || k == 0 || k > n {
            return Err(format!("--shard {k}/{n}: K must be within 1..=N"));
        }
        dirs = shard(dirs, k, n);
    }
    if options.sandbox {
        sandbox::available().map_err(|why| {
            format!(
                "{why}. Student code is not run without the sandbox unless you pass \
                 --no-sandbox (see docs/course.md: grading in a container)"
            )
        })?;
    }
    let toolchain = sandbox::find_toolchain()?;
    let folder = std::env::temp_dir().join(format!(
        "pinmask-course-grade-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default()
    ));
    private_folder(&folder)?;
    sandbox::become_subreaper();
    let run = Run {
        exe,
        options,
        toolchain,
        folder,
        children: Children {
            live: Mutex::new(HashSet::new()),
        },
    };
    let started = Instant::now();
    let reports = grade_all(&run, &dirs);
    let _ = fs::remove_dir_all(&run.folder);
    let numbers: Vec<u8> = options.labs.iter().map(|l| l.number()).collect();
    let comment = (!options.sandbox).then_some(NO_SANDBOX);
    write_results(output, comment, &numbers, &reports)?;
    crate::say!(
        "graded {} students in {:.0} s; wrote {} and the reports in {}",
        reports.len(),
        started.elapsed().as_secs_f64(),
        output.display(),
        reports_folder(output).display()
    );
    Ok(ExitCode::SUCCESS)
}

fn private_folder(folder: &Path) -> Result<(), String> {
    let mut builder = fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
        .create(folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))
}

/// Grades `dirs` with `jobs` workers; a progress bar with its ETA on a terminal, a line per
/// student. Returns each student's report with the name of its files ([`report_name`]).
fn grade_all(run: &Run, dirs: &[PathBuf]) -> Vec<(String, StudentReport)> {
    let bar = indicatif::ProgressBar::new(dirs.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} students, {elapsed} gone, ETA {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let labs = run.options.labs.len();
    let mut reports: Vec<Option<StudentReport>> = vec![None; dirs.len()];
    thread::scope(|scope| {
        for _ in 0..run.options.jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(dir) = dirs.get(i) else { break };
                let started = Instant::now();
                let report = grade_student(run, i, dir, &file_name(dir));
                if tx.send((i, report, started.elapsed())).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, report, took) in rx {
            let note = note(&report);
            bar.suspend(|| {
                crate::say!(
                    "{}: {} of {labs} passed ({:.0} s){}",
                    report.student,
                    report.passed,
                    took.as_secs_f64(),
                    if note.is_empty() {
                        String::new()
                    } else {
                        format!("; {note}")
                    }
                );
            });
            bar.inc(1);
            reports[i] = Some(report);
        }
    });
    bar.finish_and_clear();
    dirs.iter()
        .zip(reports)
        .filter_map(|(dir, report)| {
            let name = report_name(dir.file_name().unwrap_or_default());
            Some((name, report?))
        })
        .collect()
}

/// The k-th (1-based) of n slices of `dirs` (sorted by name): every n-th student from the
/// k-th, so that slices are even in size and in the mix of names.
fn shard<T>(dirs: Vec<T>, k: usize, n: usize) -> Vec<T> {
    dirs.into_iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, d)| d)
        .collect()
}

/// `course merge`: joins the CSVs and reports of shards (`--shard K/N` runs) into `output`
/// and its reports folder. The shards must grade the same labs.
pub fn merge(inputs: &[PathBuf], output: &Path) -> Result<ExitCode, String> {
    if inputs.is_empty() {
        return Err("name the shards' CSV files to merge".into());
    }
    let mut header: Option<String> = None;
    let mut comment: Option<String> = None;
    let mut rows: Vec<(String, String)> = Vec::new();
    let folder = reports_folder(output);
    fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    for input in inputs {
        let text = fs::read_to_string(input)
            .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
        let mut lines = text.lines().peekable();
        if let Some(c) = lines.next_if(|l| l.starts_with('#')) {
            comment = Some(c.trim_start_matches('#').trim().to_string());
        }
        let Some(h) = lines.next() else {
            return Err(format!("{} is empty", input.display()));
        };
        match &header {
            Some(first) if first != h => {
                return Err(format!(
                    "{} grades other labs than the first shard ({h} against {first})",
                    input.display()
                ));
            }
            _ => header = Some(h.to_string()),
        }
        for row in lines.filter(|l| !l.is_empty()) {
            let name = row.split(',').next().unwrap_or("").trim_matches('"');
            if rows.iter().any(|(n, _)| n == name) {
                return Err(format!("{name} is in two shards"));
            }
            rows.push((name.to_string(), row.to_string()));
        }
        let theirs = reports_folder(input);
        if let Ok(entries) = fs::read_dir(&theirs) {
            for entry in entries.filter_map(|e| e.ok()) {
                fs::copy(entry.path(), folder.join(entry.file_name()))
                    .map_err(|e| format!("cannot copy {}: {e}", entry.path().display()))?;
            }
        }
    }
    rows.sort();
    let mut csv = String::new();
    if let Some(c) = comment {
        let _ = writeln!(csv, "# {c}");
    }
    csv.push_str(header.as_deref().unwrap_or_default());
    csv.push('\n');
    for (_, row) in &rows {
        csv.push_str(row);
        csv.push('\n');
    }
    write_atomic(output, &csv)?;
    crate::say!(
        "merged {} students from {} shards into {}",
        rows.len(),
        inputs.len(),
        output.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_names_the_substituted_labs_and_the_first_note() {
        let labs = crate::labs::all();
        let mut report = StudentReport::new(
            "x, y",
            vec![
                LabReport::new(labs[0], "PASS", ""),
                LabReport::new(labs[1], "BUILD FAILED", "src/lab02_pawns.rs:3:1: error: x"),
            ],
        );
        report.substituted = vec![2];
        assert_eq!(
            csv_row(&report),
            "\"x, y\",PASS,BUILD FAILED,1,02,lab 02: src/lab02_pawns.rs:3:1: error: x"
        );
        assert_eq!(
            csv_header(&[1, 2]),
            "student,lab01,lab02,passed,substituted,note"
        );
        assert_eq!(report_name("../a b".as_ref()), "%2E.%2Fa%20b");
        assert_eq!(report_name("with_space.v2".as_ref()), "with_space.v2");
        assert_ne!(
            report_name("with space".as_ref()),
            report_name("with_space".as_ref())
        );
        assert_ne!(report_name("a%20b".as_ref()), report_name("a b".as_ref()));
        let long = "é".repeat(100);
        let longer = format!("{long}x");
        assert_eq!(report_name(long.as_ref()).len(), 200);
        assert_ne!(report_name(long.as_ref()), report_name(longer.as_ref()));
    }

    #[test]
    fn shards_cover_the_class_once_and_merge_back() {
        let class: Vec<u32> = (0..10).collect();
        let mut all: Vec<u32> = (1..=3).flat_map(|k| shard(class.clone(), k, 3)).collect();
        all.sort();
        assert_eq!(all, class);
        assert_eq!(shard(class.clone(), 2, 3), vec![1, 4, 7]);

        let dir = std::env::temp_dir().join(format!("pinmask-course-merge-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("a-reports")).expect("writable");
        fs::create_dir_all(dir.join("b-reports")).expect("writable");
        let header = "student,lab01,passed,substituted,note\n";
        fs::write(dir.join("a.csv"), format!("{header}zoe,PASS,1,,\n")).expect("writable");
        fs::write(dir.join("a-reports/zoe.txt"), "zoe's").expect("writable");
        fs::write(
            dir.join("b.csv"),
            format!("# {NO_SANDBOX}\n{header}amy,FAIL,0,,\"lab 01: x, y\"\n"),
        )
        .expect("writable");
        fs::write(dir.join("b-reports/amy.txt"), "amy's").expect("writable");
        merge(
            &[dir.join("a.csv"), dir.join("b.csv")],
            &dir.join("all.csv"),
        )
        .expect("merges");
        assert_eq!(
            fs::read_to_string(dir.join("all.csv")).expect("written"),
            format!("# {NO_SANDBOX}\n{header}amy,FAIL,0,,\"lab 01: x, y\"\nzoe,PASS,1,,\n")
        );
        assert_eq!(
            fs::read_to_string(dir.join("all-reports/zoe.txt")).expect("copied"),
            "zoe's"
        );
        // Shards of other labs, or a student twice, are refused.
        fs::write(dir.join("c.csv"), "student,lab02,passed,substituted,note\n").expect("writable");
        assert!(merge(&[dir.join("a.csv"), dir.join("c.csv")], &dir.join("x.csv")).is_err());
        assert!(merge(&[dir.join("a.csv"), dir.join("a.csv")], &dir.join("x.csv")).is_err());
        let _ = fs::remove_dir_all(&dir);
    }
}
