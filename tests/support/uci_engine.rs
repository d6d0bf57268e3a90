//! A running engine binary to talk UCI with, for the conversation and
//! stress tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use movegen::Position;

/// A running engine process and its output lines.
pub struct Engine {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
}

/// How long a test waits for an answer that should come.
pub const PATIENCE: Duration = Duration::from_secs(20);

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_within(PATIENCE, done)
            .unwrap_or_else(|got| panic!("timed out; got {got:?}"))
    }

    pub fn until_within(
        &mut self,
        limit: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, Vec<String>> {
        let deadline = Instant::now() + limit;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return Ok(got);
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return Err(got),
            }
        }
    }

    /// Sends `isready` and checks `readyok` comes back, returning what came before.
    pub fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// `go perft depth` output, checked for Stockfish's exact layout.
    pub fn perft(&mut self, depth: u32) -> (Vec<(String, u64)>, u64) {
        self.send(&format!("go perft {depth}"));
        let lines = self.until(|l| l.starts_with("Nodes searched: "));
        let blank = self.lines.recv_timeout(PATIENCE).unwrap();
        assert_eq!(blank, "", "an empty line follows the total");
        let (moves, tail) = lines.split_at(lines.len() - 2);
        assert_eq!(tail[0], "", "an empty line precedes the total");
        let total: u64 = tail[1]["Nodes searched: ".len()..].parse().unwrap();
        let moves = moves
            .iter()
            .map(|l| {
                let (mv, n) = l
                    .split_once(": ")
                    .unwrap_or_else(|| panic!("bad line {l:?}"));
                (mv.to_string(), n.parse().unwrap())
            })
            .collect();
        (moves, total)
    }

    pub fn bestmove(&mut self) -> String {
        let lines = self.until(|l| l.starts_with("bestmove "));
        lines.last().unwrap()["bestmove ".len()..].to_string()
    }

    pub fn wait_exit(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` answer, checked legal in `pos`.
pub fn assert_legal_bestmove(answer: &str, pos: &Position) {
    let mv = answer.split_whitespace().next().unwrap();
    assert!(
        pos.parse_uci_move(mv).is_ok(),
        "bestmove {answer} is not legal in {pos}"
    );
}
