//! A student's harness process: one query a line out, one answer a line back, with a time
//! limit per query, through the process driver ([`crate::process`]). A panic is answered by
//! the harness itself; a hang or a crash (a stack overflow aborts the process) restarts it for
//! the next query. [`Student::ask`] turns every reply but an answer into the [`CheckVerdict`] it
//! means.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub use crate::process::Waiting;
use crate::process::{Ended, NoLine, Process};
use crate::sandbox::Sandbox;
use crate::verdict::{CheckVerdict, Diagnosis};

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

/// A student's built workspace, asked through its harness binary.
pub struct Student {
    exe: PathBuf,
    dir: Option<PathBuf>,
    running: Option<Process>,
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
    /// The lab being checked, when its check started, the queries asked before it, and the
    /// CPU time this process and its children had used then.
    lab_clock: Option<(u8, Instant, usize, Duration)>,
    lab_budget: Duration,
    /// Past the budget on the clock, when to look at the CPU time again.
    next_look: std::cell::Cell<Option<Instant>>,
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
            next_look: std::cell::Cell::new(None),
        }
    }

    /// The student whose workspace `dir` was built (`course check` builds it).
    pub fn in_workspace(dir: &Path) -> Student {
        let mut student = Student::new(harness_exe(dir));
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
        let cpu = crate::sandbox::cpu_time(std::process::id());
        self.lab_clock = Some((lab, Instant::now(), self.queries, cpu));
        self.next_look.set(None);
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
    ///
    /// Fair under load: past the budget on the clock, the lab is over only once this process
    /// and the harness have also used the budget in CPU time (looked at once a second), or
    /// the clock has run [`crate::sandbox::WALL_SLACK`] times the budget; a busy grader gives
    /// a lab less of the CPU, not less time.
    pub fn over_budget(&self, lab: u8) -> Option<(Duration, usize)> {
        let (current, started, before, cpu_before) = self.lab_clock?;
        let spent = started.elapsed();
        if current != lab || spent <= self.lab_budget {
            return None;
        }
        let now = Instant::now();
        if self.next_look.get().is_some_and(|at| now < at) {
            return None;
        }
        let cpu = crate::sandbox::cpu_time(std::process::id()).saturating_sub(cpu_before);
        if cpu <= self.lab_budget && spent <= self.lab_budget * crate::sandbox::WALL_SLACK {
            self.next_look.set(Some(now + Duration::from_secs(1)));
            return None;
        }
        Some((spent, self.queries - before))
    }

    /// Whether the lab being checked is past its budget ([`Student::over_budget`]).
    pub fn budget_spent(&self) -> bool {
        self.lab_clock
            .is_some_and(|(lab, ..)| self.over_budget(lab).is_some())
    }

    /// Runs the harness in `sandbox` from now on (`course grade`): each start is confined.
    pub fn set_sandbox(&mut self, sandbox: Sandbox) {
        self.stop();
        self.sandbox = Some(sandbox);
    }

    /// A program built in the workspace (`target/debug/NAME`, lab 12's `engine`), to be
    /// started with piped input and output: confined as the harness is, when grading.
    pub fn program(&self, name: &str) -> Result<Command, String> {
        let mut command = Command::new(self.built(name)?);
        if let Some(sandbox) = &self.sandbox {
            sandbox.confine(&mut command)?;
        }
        Ok(command)
    }

    /// Starts a program built in the workspace (lab 12's `engine`) through the process
    /// driver, confined as the harness is, when grading.
    pub fn start_program(&self, name: &str) -> Result<Process, String> {
        Process::start(Command::new(self.built(name)?), self.sandbox.as_ref())
    }

    /// The path of the workspace's program `name`, if it was built.
    fn built(&self, name: &str) -> Result<PathBuf, String> {
        let dir = self.dir.as_deref().ok_or("the checker has no workspace")?;
        let exe = dir
            .join("target/debug")
            .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        if !exe.is_file() {
            return Err(format!("{} was not built", exe.display()));
        }
        Ok(exe)
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
        if self.running.is_none() {
            match Process::start(Command::new(&self.exe), self.sandbox.as_ref()) {
                Ok(running) => self.running = Some(running),
                Err(e) => return Reply::Broken(e),
            }
        }
        let timeout = self.query_timeout();
        self.timeouts_used.insert((lab, timeout));
        let running = self.running.as_mut().expect("started above");
        if let Err(ended) = running.send(&line) {
            return self.died(&ended);
        }
        // The time-out counts the harness's CPU time, so that the same work gets the same
        // verdict on a busy grader. Lines without the marker are the student's own prints:
        // not answers.
        let mut deadline = running.fair_deadline(timeout);
        let answer = running.read_until(
            &mut deadline,
            |line| line.strip_prefix('\u{1e}').map(str::to_string),
            drop,
        );
        match answer {
            Ok(answer) => {
                self.todo_at = answer.strip_prefix("todo ").map(str::to_string);
                let reply = parse_reply(&answer);
                if matches!(reply, Reply::Ok(_)) {
                    self.answered[lab as usize] = true;
                }
                reply
            }
            Err(NoLine::Hang(doing)) => {
                self.stop();
                Reply::Hang(doing)
            }
            Err(NoLine::Ended(ended)) => self.died(&ended),
        }
    }

    /// The process ended without answering: report what it printed (a stack overflow says so).
    fn died(&mut self, ended: &Ended) -> Reply {
        self.running = None;
        // Rust's allocator prints this and aborts when the memory limit refuses an allocation.
        if let Some(alloc) = ended
            .stderr
            .iter()
            .find(|l| l.contains("memory allocation of"))
        {
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
        let what = match ended.status {
            // An exit with a code is the student's own std::process::exit (a panic is
            // answered by the harness, a crash ends by a signal).
            Some(s) if ended.exited() => format!(
                "the program stopped ({s}): your code ended the whole program \
                 (std::process::exit?); a function must return its answer"
            ),
            Some(s) => format!("the program stopped ({s})"),
            None => "the program stopped".to_string(),
        };
        match ended.last_line() {
            "" => Reply::Panic(what),
            last => Reply::Panic(format!("{what}: {last}")),
        }
    }

    /// Ends the harness process (the next query starts a fresh one).
    pub fn stop(&mut self) {
        // Dropping the process kills it.
        self.running = None;
    }
}

impl Drop for Student {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Student {
    /// Asks one query and turns every answer but `ok` into the verdict it means: `todo` before
    /// any of this lab's functions answered is "not started"; after, it names the unwritten
    /// function; a panic or a hang names the query (and its position, if it had one).
    pub fn ask(&mut self, lab: u8, function: &str, args: &[&str]) -> Result<String, CheckVerdict> {
        if let Some((spent, asked)) = self.over_budget(lab) {
            return Err(CheckVerdict::Fail(
                Diagnosis::new(format!(
                    "correct so far ({asked} answers checked), but lab {lab} has taken {:.0} s, \
                     more than the {} s a lab may take: some function is far slower than it \
                     needs to be (the last one asked: {})",
                    spent.as_secs_f64(),
                    self.lab_budget().as_secs(),
                    call_text(function, args)
                ))
                .with_hint(
                    "a correct solution checks in a few seconds: build tables (attack tables, \
                     magics, zobrist keys) once, in a `static` with `std::sync::OnceLock` or \
                     before the loop, not on every call; and don't allocate inside hot loops.",
                ),
            ));
        }
        match self.call(lab, function, args) {
            Reply::Ok(answer) => Ok(answer),
            Reply::NotStarted if self.todo_at().is_some_and(|at| !in_own_file(at, lab)) => {
                Err(CheckVerdict::Fail(Diagnosis::new(format!(
                    "{}: it calls a function that is not written yet, the todo!() at {}. Finish that lab first (or write this one without it).",
                    call_text(function, args),
                    self.todo_at().unwrap_or("?")
                ))))
            }
            Reply::NotStarted if !self.answered(lab) => Err(CheckVerdict::NotStarted),
            reply => Err(CheckVerdict::Fail(reply_diagnosis(function, args, &reply, self))),
        }
    }

    /// Like [`Student::ask`], for a bitboard answer.
    pub fn ask_bitboard(
        &mut self,
        lab: u8,
        function: &str,
        args: &[&str],
    ) -> Result<u64, CheckVerdict> {
        let answer = self.ask(lab, function, args)?;
        parse_bitboard(&answer).ok_or_else(|| {
            CheckVerdict::Fail(Diagnosis::new(format!(
                "{} answered `{answer}`, which is not a bitboard (the harness prints 0x and 16 hex digits)",
                call_text(function, args)
            )))
        })
    }
}

/// The harness binary of a built workspace.
pub fn harness_exe(dir: &Path) -> PathBuf {
    dir.join("target/debug")
        .join(format!("harness{}", std::env::consts::EXE_SUFFIX))
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

/// The diagnosis for an answer that isn't `ok`.
fn reply_diagnosis(function: &str, args: &[&str], reply: &Reply, student: &Student) -> Diagnosis {
    let call = call_text(function, args);
    let mut diagnosis = match reply {
        Reply::Ok(answer) => Diagnosis::new(format!("{call} answered {answer}")),
        Reply::NotStarted => Diagnosis::new(format!(
            "{call}: `{function}` is not written yet (it still calls todo!()); the functions before it are right, so write `{function}` next"
        )),
        Reply::Panic(message) if message.starts_with("the program stopped") => {
            Diagnosis::new(format!("{call} crashed: {message}"))
        }
        Reply::Panic(message) => Diagnosis::new(format!("{call} panicked: {message}")),
        Reply::Hang(doing) => {
            let within = student.query_timeout().as_secs_f64();
            let why = match doing {
                Waiting::Computing => "it was computing all along: an endless loop, or much \
                     slower code than needed?",
                Waiting::ReadingInput => "it was waiting to read its standard input: your \
                     functions must not read stdin (the checker's questions come that way); \
                     take everything from the arguments",
                Waiting::Blocked => "it was blocked, not computing: a sleep, a lock, or a read \
                     that never ends?",
                Waiting::Unknown => "an endless loop?",
            };
            Diagnosis::new(format!("{call} did not answer within {within:.1} s: {why}"))
        }
        Reply::Broken(message) => {
            Diagnosis::new(format!("{call}: the checker could not ask it: {message}"))
        }
    };
    if let Some(fen) = fen_arg(args) {
        diagnosis = diagnosis.with_fen(fen);
    }
    if let Reply::Panic(message) = reply {
        if let Some(hint) = panic_hint(message) {
            diagnosis = diagnosis.with_hint(hint);
        }
    }
    diagnosis
}

/// The hint for the panics students meet most.
fn panic_hint(message: &str) -> Option<&'static str> {
    if message.contains("shift left with overflow") || message.contains("shift right with overflow")
    {
        Some("a shift by 64 or more, or a shift of a 32-bit number: `1 << sq` where the 1 is an i32 \
              overflows from square 32 on. Shift a 64-bit one: `1u64 << sq`.")
    } else if message.contains("subtract with overflow") {
        Some(
            "a subtraction went below zero. In a debug build `0u64 - 1` panics; where the wrap \
              around is what you mean (the subtraction trick), write `a.wrapping_sub(b)`.",
        )
    } else if message.contains("multiply with overflow") {
        Some("a multiplication overflowed; for magic numbers write `a.wrapping_mul(b)`.")
    } else if message.contains("add with overflow") {
        Some("an addition overflowed: a square index past 63, or a counter too small for its type?")
    } else if message.contains("index out of bounds") {
        Some("an index past the end of an array: a square index that went off the board (below 0 or above 63)?")
    } else if message.contains("overflowed its stack") || message.contains("stack overflow") {
        Some("endless recursion: a function that calls itself needs a case that stops (depth 0).")
    } else {
        None
    }
}

/// Whether the `todo!()` at `at` (`src/lab07_legal.rs:12`) is in lab `lab`'s own file: by the
/// course's contract a lab's module is `labNN_<name>` (`course/tests/layers.rs` checks it).
fn in_own_file(at: &str, lab: u8) -> bool {
    at.starts_with(&format!("src/lab{lab:02}_"))
}

/// A query as the student would call it: `popcount(0x0000000000000001)`; FEN arguments
/// get their spaces back.
pub fn call_text(function: &str, args: &[&str]) -> String {
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            if a.contains('/') {
                format!("\"{}\"", a.replace('_', " "))
            } else {
                a.to_string()
            }
        })
        .collect();
    format!("{function}({})", shown.join(", "))
}

/// The FEN among a query's arguments, if one is.
pub fn fen_arg(args: &[&str]) -> Option<String> {
    args.iter()
        .find(|a| a.contains('/'))
        .map(|a| a.replace('_', " "))
}

/// Reads a `0x...` bitboard answer.
pub fn parse_bitboard(answer: &str) -> Option<u64> {
    u64::from_str_radix(answer.trim().strip_prefix("0x")?, 16).ok()
}
