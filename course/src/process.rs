//! One program as a child process, spoken to a line at a time: the one driver under the
//! student's harness ([`crate::student`]), the tournament's engines ([`crate::referee`]) and
//! lab 12's engine program.
//!
//! [`Process::start`] starts it with piped input and output, confined by the sandbox when one
//! is given ([`Sandbox::confine`]). [`Process::send`] writes one line; [`Process::read_line`]
//! waits for the next line of its output until a [`Deadline`]: on the clock, or a share of the
//! program's CPU time ([`FairDeadline`], fair on a busy grader). A read that gets no line says
//! why ([`NoLine`]): a hang, with what the program was doing then, or an end, with its exit
//! status and last lines on stderr. Which lines are answers is the caller's to say (the
//! harness marks its own, an engine's `info` lines are not a `bestmove`).
//!
//! A thread reads the output into a bounded channel, so every wait is a `recv_timeout` (no
//! polling), the end of the output is the channel's disconnection, and a program that floods
//! its output is slowed down, not held in memory. Another thread keeps the last lines of
//! stderr. Dropping a [`Process`] kills it.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::sandbox::{FairDeadline, Sandbox};

/// Lines of output that may wait unread before the reader thread waits too.
const BACKLOG: usize = 4096;

/// Lines of stderr kept for the report of an end.
const STDERR_TAIL: usize = 4;

/// How long the stderr thread has, once the program is gone, to hand over what it read.
const STDERR_GRACE: Duration = Duration::from_millis(300);

/// A running program, its input held open.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Receiver<Vec<String>>,
    confined: bool,
}

/// Why a read got no line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoLine {
    /// Nothing by the deadline; what the program was doing then. It is still running.
    Hang(Waiting),
    /// The program ended, or closed its output; it has been reaped.
    Ended(Ended),
}

/// How a program ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    /// Its exit status (`None` if it could not be waited for).
    pub status: Option<ExitStatus>,
    /// Its last non-empty lines on stderr, oldest first (a Rust panic's note on backtraces
    /// left out).
    pub stderr: Vec<String>,
}

impl Ended {
    /// Whether it exited with a code of its own (`std::process::exit`, the end of `main`),
    /// rather than by a signal (a crash, an abort, a kill).
    pub fn exited(&self) -> bool {
        self.status.is_some_and(|s| s.code().is_some())
    }

    /// Its last line on stderr, `""` if none.
    pub fn last_line(&self) -> &str {
        self.stderr.last().map_or("", String::as_str)
    }
}

impl fmt::Display for Ended {
    /// `exit status: 3: last / lines`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.status {
            Some(status) => write!(f, "{status}")?,
            None => write!(f, "it could not be waited for")?,
        }
        if !self.stderr.is_empty() {
            write!(f, ": {}", self.stderr.join(" / "))?;
        }
        Ok(())
    }
}

/// What a program that did not answer in time was doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// Running on a core: computing (an endless loop, or very slow code).
    Computing,
    /// Blocked reading its standard input, where its questions come from.
    ReadingInput,
    /// Blocked on something else (a sleep, a lock, another read).
    Blocked,
    /// Not known (no `/proc`).
    Unknown,
}

/// Until when a read waits.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    until: Instant,
    fair: Option<FairDeadline>,
}

impl Deadline {
    /// `within` from now on the clock (a tournament's clocks are the wall's).
    pub fn clock(within: Duration) -> Deadline {
        Deadline {
            until: Instant::now() + within,
            fair: None,
        }
    }

    /// After a wait ran out: whether there is more time.
    fn extend(&mut self) -> bool {
        let Some(more) = self.fair.as_ref().and_then(FairDeadline::more) else {
            return false;
        };
        self.until = Instant::now() + more;
        true
    }
}

impl Process {
    /// Starts `command` with piped input, output and error, confined by `sandbox` when one is
    /// given.
    ///
    /// # Errors
    /// The sandbox's refusal, or `cannot start PROGRAM: why`.
    pub fn start(mut command: Command, sandbox: Option<&Sandbox>) -> Result<Process, String> {
        if let Some(sandbox) = sandbox {
            sandbox.confine(&mut command)?;
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start {}: {e}",
                    command.get_program().to_string_lossy()
                )
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (line_tx, lines) = mpsc::sync_channel(BACKLOG);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = next_line(&mut reader) {
                if line_tx.send(line.trim_end().to_string()).is_err() {
                    break;
                }
            }
        });
        let (tail_tx, tail_rx) = mpsc::channel();
        thread::spawn(move || {
            let _ = tail_tx.send(tail(stderr));
        });
        Ok(Process {
            child,
            stdin,
            lines,
            stderr: tail_rx,
            confined: sandbox.is_some(),
        })
    }

    /// `within` of the program's CPU time from now ([`FairDeadline`]).
    pub fn fair_deadline(&self, within: Duration) -> Deadline {
        let fair = FairDeadline::new(self.child.id(), within);
        Deadline {
            until: Instant::now() + fair.first(),
            fair: Some(fair),
        }
    }

    /// Writes one line and flushes it.
    ///
    /// # Errors
    /// The program no longer reads its input: how it ended.
    pub fn send(&mut self, line: &str) -> Result<(), Ended> {
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        written.map_err(|_| self.end())
    }

    /// The next line of its output (without the line ending), waiting until `deadline` at
    /// most. The same deadline may serve several reads.
    ///
    /// # Errors
    /// A hang or an end ([`NoLine`]).
    pub fn read_line(&mut self, deadline: &mut Deadline) -> Result<String, NoLine> {
        loop {
            let wait = deadline.until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) if deadline.extend() => {}
                Err(RecvTimeoutError::Timeout) => return Err(NoLine::Hang(self.waiting())),
                Err(RecvTimeoutError::Disconnected) => return Err(NoLine::Ended(self.end())),
            }
        }
    }

    /// Lines until the first for which `answer` gives a value; the others are passed to
    /// `other` (output that is not an answer), all within `deadline`.
    ///
    /// # Errors
    /// A hang or an end before the answer.
    pub fn read_until<T>(
        &mut self,
        deadline: &mut Deadline,
        mut answer: impl FnMut(&str) -> Option<T>,
        mut other: impl FnMut(String),
    ) -> Result<T, NoLine> {
        loop {
            let line = self.read_line(deadline)?;
            match answer(&line) {
                Some(value) => return Ok(value),
                None => other(line),
            }
        }
    }

    /// Drops the output that came and was not read (late lines of an earlier answer).
    pub fn discard_unread(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Asks it to end: writes `line` (`quit`) and waits up to `grace` for its output to end.
    /// How it ended, or `None` if it still runs then (dropping it kills it).
    pub fn close(&mut self, line: &str, grace: Duration) -> Option<Ended> {
        let _ = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        let until = Instant::now() + grace;
        loop {
            match self
                .lines
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => return Some(self.end()),
            }
        }
    }

    /// Kills it (if it still runs) and says how it ended.
    pub fn end(&mut self) -> Ended {
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        let stderr = self.stderr.recv_timeout(STDERR_GRACE).unwrap_or_default();
        Ended { status, stderr }
    }

    /// What the program is doing now. Under the sandbox the child only waits for the program
    /// ([`crate::sandbox::program_of`]).
    fn waiting(&self) -> Waiting {
        let pid = self.child.id();
        waiting(if self.confined {
            crate::sandbox::program_of(pid)
        } else {
            pid
        })
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next line of `reader`, bytes that are not UTF-8 replaced; `None` at the end.
fn next_line(reader: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match reader.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&buf).into_owned()),
    }
}

/// The last few non-empty lines of a stream, read to its end (a Rust panic's note on
/// backtraces is left out: the lines before it say what happened).
fn tail(stream: impl Read) -> Vec<String> {
    let mut kept = VecDeque::new();
    let mut reader = BufReader::new(stream);
    while let Some(line) = next_line(&mut reader) {
        let line = line.trim();
        if line.is_empty() || line.starts_with("note: run with `RUST_BACKTRACE") {
            continue;
        }
        if kept.len() == STDERR_TAIL {
            kept.pop_front();
        }
        kept.push_back(line.to_string());
    }
    kept.into()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Process {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        Process::start(command, None).expect("sh starts")
    }

    #[test]
    fn stderr_tail_keeps_the_last_lines_without_the_backtrace_note() {
        let text = "a\n\nb\nc\nthread 'main' panicked at src/x.rs:1:1:\nboom\nnote: run with `RUST_BACKTRACE=1` to show\n";
        assert_eq!(
            tail(text.as_bytes()),
            ["b", "c", "thread 'main' panicked at src/x.rs:1:1:", "boom"]
        );
    }

    #[test]
    fn a_line_is_answered_within_the_deadline() {
        let mut p = sh("while read l; do echo \"got $l\"; done");
        p.send("one").expect("it reads");
        let mut deadline = Deadline::clock(Duration::from_secs(5));
        assert_eq!(p.read_line(&mut deadline), Ok("got one".to_string()));
    }

    #[test]
    fn a_hang_an_end_and_other_output_are_told_apart() {
        // A hang: it reads its input and answers nothing.
        let mut p = sh("while read l; do :; done");
        p.send("hello").expect("it reads");
        let mut deadline = p.fair_deadline(Duration::from_millis(200));
        let got = p.read_line(&mut deadline);
        assert!(matches!(got, Err(NoLine::Hang(_))), "{got:?}");
        // An end: its status and what it said on stderr.
        let mut p = sh("echo oops >&2; exit 3");
        let got = p.read_line(&mut Deadline::clock(Duration::from_secs(5)));
        let Err(NoLine::Ended(ended)) = got else {
            panic!("{got:?}")
        };
        assert!(ended.exited() && ended.last_line() == "oops", "{ended:?}");
        assert_eq!(ended.to_string(), "exit status: 3: oops");
        // Output that is not the answer is handed aside.
        let mut p = sh("echo chatter; echo '> 42'");
        let mut other = Vec::new();
        let answer = p.read_until(
            &mut Deadline::clock(Duration::from_secs(5)),
            |l| l.strip_prefix("> ").map(str::to_string),
            |l| other.push(l),
        );
        assert_eq!(answer, Ok("42".to_string()));
        assert_eq!(other, ["chatter"]);
    }

    #[test]
    fn a_program_asked_to_end_says_whether_it_did() {
        let mut p = sh("read l; exit 0");
        let ended = p.close("quit", Duration::from_secs(5));
        assert!(ended.is_some_and(|e| e.exited()));
        let mut p = sh("while :; do sleep 1; done");
        assert_eq!(p.close("quit", Duration::from_millis(200)), None);
    }

    #[test]
    fn a_program_that_cannot_start_says_so() {
        let err = Process::start(Command::new("/no/such/program"), None).err();
        assert!(
            err.as_deref()
                .is_some_and(|e| e.starts_with("cannot start /no/such/program")),
            "{err:?}"
        );
    }
}
