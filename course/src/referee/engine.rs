//! One UCI engine as a child process, spoken to as a GUI would: its stdin held open, each
//! answer awaited with a deadline on the clock (the tournament's clocks are the wall's).
//!
//! The process driver ([`crate::process`]) starts it, reads its lines and says how it ended
//! (its exit status and last lines on stderr). Dropping an [`Engine`] sends `quit` and kills
//! the process if it has not ended a moment later.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::process::{Deadline, Ended, NoLine, Process};

/// How long an engine has to answer `uci` and `isready`.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a dropped engine has to end after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// How to start an engine and set it up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in tables and PGN.
    pub name: String,
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// UCI options to set after the handshake: name and value (`None` for a button).
    pub options: Vec<(String, Option<String>)>,
    /// The sandbox it runs in (`course tournament` confines every engine unless told not to).
    pub sandbox: Option<crate::sandbox::Sandbox>,
}

/// `program` as an absolute path: a path with a folder made absolute, a bare name looked up
/// on `PATH` (the sandbox's `PATH` is not the caller's). Left as it is when not found: the
/// engine then fails to start, and says so.
pub fn resolve(program: &Path) -> PathBuf {
    if program.components().count() > 1 {
        return std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    }
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(program))
                .find(|p| p.is_file())
        })
        .and_then(|p| std::fs::canonicalize(p).ok())
        .unwrap_or_else(|| program.to_path_buf())
}

/// Why an engine could not be started and made ready.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// The program could not be run (missing, not executable, not a program).
    Spawn(String),
    /// No `uciok` in time; the lines it printed instead.
    NoUciok(Vec<String>),
    /// It ended before the handshake was over: how, and its last stderr lines.
    Died(String),
    /// An option it does not offer: the name asked for and the names it offers.
    NoSuchOption(String, Vec<String>),
    /// No `readyok` in time after the options.
    NotReady,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Spawn(e) => write!(f, "cannot be started ({e})"),
            StartError::NoUciok(printed) if printed.is_empty() => write!(
                f,
                "did not answer `uci` with `uciok` within {} s (it printed nothing); is it a UCI engine?",
                ANSWER_TIMEOUT.as_secs()
            ),
            StartError::NoUciok(printed) => write!(
                f,
                "did not answer `uci` with `uciok` within {} s (it printed `{}`); is it a UCI engine?",
                ANSWER_TIMEOUT.as_secs(),
                printed.join(" / ")
            ),
            StartError::Died(how) => write!(f, "stopped before answering `uci`: {how}"),
            StartError::NoSuchOption(name, offered) if offered.is_empty() => {
                write!(f, "has no option `{name}` (it offers none)")
            }
            StartError::NoSuchOption(name, offered) => write!(
                f,
                "has no option `{name}` (it offers: {})",
                offered.join(", ")
            ),
            StartError::NotReady => write!(
                f,
                "did not answer `isready` with `readyok` within {} s",
                ANSWER_TIMEOUT.as_secs()
            ),
        }
    }
}

impl std::error::Error for StartError {}

/// Why a wait for an answer ended without one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoAnswer {
    /// Nothing in time.
    Timeout,
    /// The process ended (or closed its output): how, and its last stderr lines.
    Died(String),
}

impl From<NoLine> for NoAnswer {
    fn from(no: NoLine) -> NoAnswer {
        match no {
            NoLine::Hang(_) => NoAnswer::Timeout,
            NoLine::Ended(ended) => NoAnswer::Died(ended.to_string()),
        }
    }
}

/// A running engine, past its handshake.
pub struct Engine {
    process: Process,
}

impl Engine {
    /// Starts `spec`'s program, checks that it speaks UCI (`uci` answered by `uciok`), sets its
    /// options and waits for `readyok`, each answer within `timeout`.
    ///
    /// # Errors
    /// A [`StartError`]; the process, if it was started, is ended.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, StartError> {
        let mut engine = Engine::spawn(spec)?;
        let offered = engine.handshake(timeout)?;
        for (name, value) in &spec.options {
            let Some(known) = offered.iter().find(|o| o.eq_ignore_ascii_case(name)) else {
                return Err(StartError::NoSuchOption(name.clone(), offered));
            };
            let line = match value {
                Some(v) => format!("setoption name {known} value {v}"),
                None => format!("setoption name {known}"),
            };
            engine.send(&line).map_err(died)?;
        }
        engine.sync(timeout).map_err(|e| match e {
            NoAnswer::Timeout => StartError::NotReady,
            NoAnswer::Died(how) => StartError::Died(how),
        })?;
        Ok(engine)
    }

    /// The one place the tournament starts a program.
    fn spawn(spec: &EngineSpec) -> Result<Engine, StartError> {
        // A sandboxed engine gets another PATH and working folder: start it by its full path.
        let mut command = Command::new(match &spec.sandbox {
            Some(_) => resolve(&spec.program),
            None => spec.program.clone(),
        });
        command.args(&spec.args);
        let process = Process::start(command, spec.sandbox.as_ref()).map_err(StartError::Spawn)?;
        Ok(Engine { process })
    }

    /// `uci` until `uciok`: the names of the options it offers.
    fn handshake(&mut self, timeout: Duration) -> Result<Vec<String>, StartError> {
        self.send("uci").map_err(died)?;
        let mut deadline = Deadline::clock(timeout);
        let mut offered = Vec::new();
        let mut printed = Vec::new();
        loop {
            match self
                .process
                .read_line(&mut deadline)
                .map_err(NoAnswer::from)
            {
                Ok(line) if line.trim() == "uciok" => return Ok(offered),
                Ok(line) => {
                    if let Some(name) = option_name(&line) {
                        offered.push(name.to_string());
                    } else if !line.starts_with("id ") && printed.len() < 3 {
                        printed.push(line);
                    }
                }
                Err(NoAnswer::Timeout) => return Err(StartError::NoUciok(printed)),
                Err(NoAnswer::Died(how)) => return Err(StartError::Died(how)),
            }
        }
    }

    /// `ucinewgame`, then `isready` until `readyok`.
    ///
    /// # Errors
    /// No `readyok` within `timeout`, or the engine died.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), NoAnswer> {
        self.send("ucinewgame")?;
        self.sync(timeout)
    }

    /// `isready` until `readyok`.
    fn sync(&mut self, timeout: Duration) -> Result<(), NoAnswer> {
        self.send("isready")?;
        let mut deadline = Deadline::clock(timeout);
        self.process.read_until(
            &mut deadline,
            |l| (l.trim() == "readyok").then_some(()),
            drop,
        )?;
        Ok(())
    }

    /// Sends `position` and `go`, and waits until `allowed` after the `go` for a `bestmove`
    /// line: its words after `bestmove`, and the time it took.
    ///
    /// # Errors
    /// No `bestmove` in time, or the engine died.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        allowed: Duration,
    ) -> Result<(String, Duration), NoAnswer> {
        // Whatever is left from the last move (a second `bestmove`, late `info`) is not an
        // answer to this one.
        self.process.discard_unread();
        self.send(position)?;
        self.send(go)?;
        let started = Instant::now();
        let mut deadline = Deadline::clock(allowed);
        let best = self.process.read_until(&mut deadline, bestmove, drop)?;
        Ok((best, started.elapsed()))
    }

    /// Writes one line and flushes it.
    fn send(&mut self, line: &str) -> Result<(), NoAnswer> {
        self.process
            .send(line)
            .map_err(|ended: Ended| NoAnswer::Died(ended.to_string()))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Its output ends when it does; then (or after the grace) the driver kills it.
        let _ = self.process.close("quit", QUIT_GRACE);
    }
}

/// The words after `bestmove` in a `bestmove` line.
fn bestmove(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    (words.next() == Some("bestmove")).then(|| words.collect::<Vec<_>>().join(" "))
}

/// A start error for a failure to write to the engine.
fn died(e: NoAnswer) -> StartError {
    match e {
        NoAnswer::Died(how) => StartError::Died(how),
        NoAnswer::Timeout => StartError::NotReady,
    }
}

/// The name in `option name NAME type ...` (names may hold spaces).
fn option_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim()).filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_names_may_hold_spaces() {
        assert_eq!(
            option_name("option name Skill Level type spin default 20 min 0 max 20"),
            Some("Skill Level")
        );
        assert_eq!(
            option_name("option name Clear Hash type button"),
            Some("Clear Hash")
        );
        assert_eq!(option_name("option name  type x"), None);
        assert_eq!(option_name("id name Foo"), None);
    }

    fn spec(program: &str, args: &[&str]) -> EngineSpec {
        EngineSpec {
            name: "x".into(),
            program: program.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            options: Vec::new(),
            sandbox: None,
        }
    }

    #[test]
    fn programs_that_do_not_speak_uci_are_refused_with_what_they_did() {
        let short = Duration::from_millis(300);
        let err = Engine::start(&spec("/no/such/engine", &[]), short).err();
        assert!(matches!(err, Some(StartError::Spawn(_))), "{err:?}");
        // `cat` repeats what it is told: no `uciok`.
        let err = Engine::start(&spec("cat", &[]), short).err();
        assert_eq!(err, Some(StartError::NoUciok(vec!["uci".into()])));
        let err = Engine::start(&spec("sh", &["-c", "echo oops >&2; exit 3"]), short).err();
        let Some(StartError::Died(how)) = err else {
            panic!("{err:?}")
        };
        assert!(
            how.contains("exit status: 3") && how.ends_with("oops"),
            "{how}"
        );
    }

    #[test]
    fn options_are_checked_against_those_offered() {
        let script = "read l; echo 'option name Skill Level type spin'; echo uciok; \
                      while read l; do case $l in isready) echo readyok;; esac; done";
        let mut s = spec("sh", &["-c", script]);
        s.options = vec![("skill level".into(), Some("0".into()))];
        assert!(Engine::start(&s, ANSWER_TIMEOUT).is_ok());
        s.options = vec![("Hash".into(), Some("16".into()))];
        let err = Engine::start(&s, ANSWER_TIMEOUT).err();
        assert_eq!(
            err,
            Some(StartError::NoSuchOption(
                "Hash".into(),
                vec!["Skill Level".into()]
            ))
        );
    }
}
