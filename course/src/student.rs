//! A student's harness process: one query a line out, one answer a line back, with a time
//! limit per query. A panic is answered by the harness itself; a hang or a crash (a stack
//! overflow aborts the process) restarts it for the next query.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::sandbox::Sandbox;

/// The harness's answer to one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The student's function answered (the text after `ok `).
    Ok(String),
    /// The function still calls `todo!()`.
    NotStarted,
    /// The function panicked (message and place), or the process died.
    Panic(String),
    /// No answer within the time limit; what the process was doing then.
    Hang(Waiting),
    /// The harness could not be started or did not understand the query.
    Broken(String),
}

/// What a harness process that did not answer in time was doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// Running on a core: computing (an endless loop, or very slow code).
    Computing,
    /// Blocked reading its standard input, where the checker's questions come from.
    ReadingInput,
    /// Blocked on something else (a sleep, a lock, another read).
    Blocked,
    /// Not known (no `/proc`).
    Unknown,
}

/// What process `pid` is doing, from `/proc/PID/stat` (its state) and `/proc/PID/syscall`
/// (the system call it is blocked in: 0 is `read`, whose first argument is the file).
fn waiting(pid: u32) -> Waiting {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Waiting::Unknown;
    };
    let state = stat
        .rfind(')')
        .and_then(|i| stat[i + 1..].split_whitespace().next())
        .unwrap_or("");
    if state == "R" {
        return Waiting::Computing;
    }
    let syscall = std::fs::read_to_string(format!("/proc/{pid}/syscall")).unwrap_or_default();
    let mut fields = syscall.split_whitespace();
    match (fields.next(), fields.next()) {
        (Some("0"), Some("0x0")) => Waiting::ReadingInput,
        (Some(_), Some(_)) => Waiting::Blocked,
        _ if state == "S" || state == "D" => Waiting::Blocked,
        _ => Waiting::Unknown,
    }
}

/// A running harness process.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// A student's built workspace, asked through its harness binary.
pub struct Student {
    exe: PathBuf,
    dir: Option<PathBuf>,
    running: Option<Running>,
    /// The instructor's time limit for one query (`course grade --query-timeout`).
    base_timeout: Duration,
    /// How many times the base the lab that runs allows one query ([`Student::scaled`]).
    scale: u32,
    /// Each lab and the time limits its queries were asked under.
    timeouts_used: BTreeSet<(u8, Duration)>,
    answered: [bool; 256],
    queries: usize,
    todo_at: Option<String>,
    sandbox: Option<Sandbox>,
    /// The lab being checked, when its check started, and the queries asked before it.
    lab_clock: Option<(u8, Instant, usize)>,
    lab_budget: Duration,
}

/// How long one lab's check may take in all (a correct solution takes a few seconds).
pub const LAB_BUDGET: Duration = Duration::from_secs(60);

/// How long one query may take unless the instructor says otherwise; a lab with slow queries
/// allows a multiple of it ([`Student::scaled`]).
pub const DEFAULT_QUERY_TIMEOUT: Duration = Duration::from_secs(5);

impl Student {
    /// The student whose harness binary is `exe` (started on the first query).
    pub fn new(exe: impl Into<PathBuf>) -> Student {
        Student {
            exe: exe.into(),
            dir: None,
            running: None,
            base_timeout: DEFAULT_QUERY_TIMEOUT,
            scale: 1,
            timeouts_used: BTreeSet::new(),
            answered: [false; 256],
            queries: 0,
            todo_at: None,
            sandbox: None,
            lab_clock: None,
            lab_budget: LAB_BUDGET,
        }
    }

    /// The student whose workspace `dir` was built by [`crate::workspace::build`].
    pub fn in_workspace(dir: &Path) -> Student {
        let mut student = Student::new(crate::workspace::harness_exe(dir));
        student.dir = Some(dir.to_path_buf());
        student
    }

    /// The workspace folder, for a student made by [`Student::in_workspace`] (lab 10 reads the
    /// class's crowd exports from its `crowd/` folder).
    pub fn workspace_dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Starts the clock of `lab`'s check ([`LAB_BUDGET`]).
    pub fn start_lab(&mut self, lab: u8) {
        self.lab_clock = Some((lab, Instant::now(), self.queries));
    }

    /// Sets how long one lab's check may take ([`LAB_BUDGET`] unless set).
    pub fn set_lab_budget(&mut self, budget: Duration) {
        self.lab_budget = budget;
    }

    /// How long one lab's check may take.
    pub fn lab_budget(&self) -> Duration {
        self.lab_budget
    }

    /// Past the lab's budget: how long the lab has run, and the queries answered in it.
    pub fn over_budget(&self, lab: u8) -> Option<(Duration, usize)> {
        let (current, started, before) = self.lab_clock?;
        let spent = started.elapsed();
        (current == lab && spent > self.lab_budget).then(|| (spent, self.queries - before))
    }

    /// Runs the harness in `sandbox` from now on (`course grade`): each start is confined.
    pub fn set_sandbox(&mut self, sandbox: Sandbox) {
        self.stop();
        self.sandbox = Some(sandbox);
    }

    /// A program built in the workspace (`target/debug/NAME`, lab 12's `engine`), to be
    /// started with piped input and output: confined as the harness is, when grading.
    pub fn program(&self, name: &str) -> Result<Command, String> {
        let dir = self.dir.as_deref().ok_or("the checker has no workspace")?;
        let exe = dir
            .join("target/debug")
            .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        if !exe.is_file() {
            return Err(format!("{} was not built", exe.display()));
        }
        let mut command = Command::new(exe);
        if let Some(sandbox) = &self.sandbox {
            sandbox.confine(&mut command)?;
        }
        Ok(command)
    }

    /// The time limit for one query now: the instructor's, times what the lab that runs
    /// allows.
    pub fn query_timeout(&self) -> Duration {
        self.base_timeout * self.scale
    }

    /// Sets the instructor's time limit for one query ([`DEFAULT_QUERY_TIMEOUT`] unless set).
    /// Every lab asks under it; a lab with slow queries scales it, never replaces it.
    pub fn set_query_timeout(&mut self, timeout: Duration) {
        self.base_timeout = timeout;
    }

    /// Runs `f` with `factor` times the time limit in force for one query (a lab with slow
    /// queries, perft or search, or lab 5's first magic search), then restores it.
    pub fn scaled<T>(&mut self, factor: u32, f: impl FnOnce(&mut Student) -> T) -> T {
        let before = self.scale;
        self.scale = before.saturating_mul(factor.max(1));
        let out = f(self);
        self.scale = before;
        out
    }

    /// Each lab asked and the time limits its queries were asked under, in order.
    pub fn timeouts_used(&self) -> Vec<(u8, Duration)> {
        self.timeouts_used.iter().copied().collect()
    }

    /// Whether one of `lab`'s functions has answered `ok` yet.
    pub fn answered(&self, lab: u8) -> bool {
        self.answered[lab as usize]
    }

    /// Where the `todo!()` behind the last `NotStarted` reply is (`src/lab01_bitboards.rs:12`).
    pub fn todo_at(&self) -> Option<&str> {
        self.todo_at.as_deref()
    }

    /// How many queries were asked.
    pub fn queries(&self) -> usize {
        self.queries
    }

    /// Asks `function` of lab `lab` with `args` (none may contain whitespace).
    pub fn call(&mut self, lab: u8, function: &str, args: &[&str]) -> Reply {
        self.queries += 1;
        if function.contains(char::is_whitespace)
            || args
                .iter()
                .any(|a| a.is_empty() || a.contains(char::is_whitespace))
        {
            return Reply::Broken(format!("a query argument has a space: {function} {args:?}"));
        }
        let mut line = format!("{lab:02} {function}");
        for a in args {
            line.push(' ');
            line.push_str(a);
        }
        line.push('\n');
        if self.running.is_none() {
            match start(&self.exe, self.sandbox.as_ref()) {
                Ok(running) => self.running = Some(running),
                Err(e) => return Reply::Broken(e),
            }
        }
        let timeout = self.query_timeout();
        self.timeouts_used.insert((lab, timeout));
        let running = self.running.as_mut().expect("started above");
        if running
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| running.stdin.flush())
            .is_err()
        {
            return self.died();
        }
        // The time-out counts the harness's CPU time, so that the same work gets the same
        // verdict on a busy grader.
        let pid = running.child.id();
        let deadline = crate::sandbox::FairDeadline::new(pid, timeout);
        let mut wait = deadline.first();
        let answer = loop {
            match running.lines.recv_timeout(wait) {
                Err(RecvTimeoutError::Timeout) => match deadline.more() {
                    Some(more) => wait = more,
                    None => break Err(RecvTimeoutError::Timeout),
                },
                other => break other,
            }
        };
        match answer {
            Ok(answer) => {
                self.todo_at = answer.strip_prefix("todo ").map(str::to_string);
                let reply = parse_reply(&answer);
                if matches!(reply, Reply::Ok(_)) {
                    self.answered[lab as usize] = true;
                }
                reply
            }
            Err(RecvTimeoutError::Timeout) => {
                let program = if self.sandbox.is_some() {
                    crate::sandbox::program_of(pid)
                } else {
                    pid
                };
                let doing = waiting(program);
                self.stop();
                Reply::Hang(doing)
            }
            Err(RecvTimeoutError::Disconnected) => self.died(),
        }
    }

    /// The process ended without answering: report what it printed (a stack overflow says so).
    fn died(&mut self) -> Reply {
        let Some(mut running) = self.running.take() else {
            return Reply::Panic("the program stopped".into());
        };
        let _ = running.child.kill();
        let status = running.child.wait();
        let mut err = String::new();
        if let Some(mut stderr) = running.child.stderr.take() {
            let _ = stderr.read_to_string(&mut err);
        }
        let last = last_line(&err).to_string();
        // Rust's allocator prints this and aborts when the memory limit refuses an allocation.
        if let Some(alloc) = err.lines().find(|l| l.contains("memory allocation of")) {
            let limit = match &self.sandbox {
                Some(s) => format!(
                    "used more than {} MiB of memory, the limit",
                    s.limits.memory_mib
                ),
                None => "ran out of memory".to_string(),
            };
            return Reply::Panic(format!(
                "the program stopped: it {limit} ({})",
                alloc.trim()
            ));
        }
        let what = match status {
            // An exit with a code is the student's own std::process::exit (a panic is
            // answered by the harness, a crash ends by a signal).
            Ok(s) if s.code().is_some() => format!(
                "the program stopped ({s}): your code ended the whole program \
                 (std::process::exit?); a function must return its answer"
            ),
            Ok(s) => format!("the program stopped ({s})"),
            Err(_) => "the program stopped".to_string(),
        };
        if last.is_empty() {
            Reply::Panic(what)
        } else {
            Reply::Panic(format!("{what}: {last}"))
        }
    }

    /// Ends the harness process (the next query starts a fresh one).
    pub fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}

impl Drop for Student {
    fn drop(&mut self) {
        self.stop();
    }
}

fn start(exe: &Path, sandbox: Option<&Sandbox>) -> Result<Running, String> {
    let mut command = Command::new(exe);
    if let Some(sandbox) = sandbox {
        sandbox.confine(&mut command)?;
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let (tx, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            // Lines without the marker are the student's own prints: not answers.
            let Some(answer) = line.strip_prefix('\u{1e}') else {
                continue;
            };
            if tx.send(answer.to_string()).is_err() {
                break;
            }
        }
    });
    Ok(Running {
        child,
        stdin,
        lines,
    })
}

fn parse_reply(line: &str) -> Reply {
    if let Some(rest) = line.strip_prefix("ok") {
        Reply::Ok(rest.strip_prefix(' ').unwrap_or(rest).to_string())
    } else if line == "todo" || line.starts_with("todo ") {
        Reply::NotStarted
    } else if let Some(rest) = line.strip_prefix("panic ") {
        Reply::Panic(rest.to_string())
    } else if let Some(rest) = line.strip_prefix("error ") {
        Reply::Broken(rest.to_string())
    } else {
        Reply::Broken(format!(
            "the harness printed `{line}` (did your code print to stdout?)"
        ))
    }
}

/// The last line of `text` that is not blank, trimmed (what a program said last on stderr).
pub fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

/// Turns a text answer's `\n` back into newlines (and `\\` into `\`).
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}
