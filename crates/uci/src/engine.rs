//! The protocol state machine: one command in, protocol lines out.

use crate::command::{clip, Command};
use crate::display::describe;
use crate::go::parse_go;
use crate::options::{option_lines, OptionChange, Options};
use crate::output::Output;
use crate::worker::{Job, SearchJob, Worker};
use movegen::Position;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Runs `search::bench` (at its default depth if `None`) and gives its
/// summary line, `<nodes> nodes <nps> nps`.
pub fn bench_line(depth: Option<u32>) -> String {
    let (nodes, elapsed) = search::bench(depth.unwrap_or(search::BENCH_DEPTH));
    let nps = nodes as u128 * 1000 / elapsed.as_millis().max(1);
    format!("{nodes} nodes {nps} nps")
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// Leave the loop.
    Quit,
}

/// How long `quit` and option changes wait for a running search to stop.
const STOP_PATIENCE: Duration = Duration::from_secs(5);

/// The engine as the GUI sees it: options, the current position and its game
/// history, and the search thread.
pub struct Engine {
    out: Output,
    options: Options,
    position: Position,
    /// Keys of the positions before `position`, oldest first.
    history: Vec<u64>,
    worker: Worker,
}

impl Engine {
    /// An engine at the start position, writing to `out`.
    pub fn new(out: Output) -> Engine {
        let options = Options::default();
        let worker = Worker::start(out.clone(), options.hash_mb);
        Engine {
            out,
            options,
            position: Position::startpos(),
            history: Vec::new(),
            worker,
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Uci => self.uci(),
            Command::IsReady => self.out.line("readyok"),
            Command::UciNewGame => {
                self.settle();
                self.worker.run_and_wait(Job::Clear);
                self.position = Position::startpos();
                self.history.clear();
            }
            Command::Debug(on) => self
                .out
                .info(&format!("debug {}", if on { "on" } else { "off" })),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(tokens) => self.set_position(&tokens),
            Command::Go(tokens) => self.go(&tokens),
            Command::Stop => self.worker.control.stop.store(true, Ordering::SeqCst),
            Command::PonderHit => self.worker.control.pondering.store(false, Ordering::SeqCst),
            Command::Quit => {
                self.worker.stop_and_wait(Duration::from_millis(500));
                return Flow::Quit;
            }
            Command::Display => {
                for line in describe(&self.position, self.options.chess960) {
                    self.out.line(&line);
                }
            }
            Command::Bench(depth) => self.bench(depth.as_deref()),
            Command::Register => self.out.info("no registration is needed"),
            Command::Invalid(msg) => self.out.error(&msg),
            Command::Empty => {}
        }
        Flow::Continue
    }

    fn uci(&self) {
        self.out
            .line(&format!("id name Pinmask {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Pinmask developers");
        for line in option_lines() {
            self.out.line(&line);
        }
        self.out.line("uciok");
    }

    /// Stops a running search before a change that needs the search thread.
    fn settle(&self) {
        if self.worker.busy() {
            self.worker.stop_and_wait(STOP_PATIENCE);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut notes = Vec::new();
        match self.options.set(name, value, &mut notes) {
            Ok(change) => {
                for note in notes {
                    self.out.info(&note);
                }
                match change {
                    OptionChange::Hash(mb) => {
                        self.settle();
                        self.worker.run_and_wait(|ack| Job::Resize(mb, ack));
                    }
                    OptionChange::ClearHash => {
                        self.settle();
                        self.worker.run_and_wait(Job::Clear);
                    }
                    OptionChange::Plain => {}
                }
            }
            Err(msg) => self.out.error(&msg),
        }
    }

    /// `position startpos|fen <fen> [moves <m>...]`; all or nothing.
    fn set_position(&mut self, tokens: &[String]) {
        match self.parse_position(tokens) {
            Ok((position, history)) => {
                self.position = position;
                self.history = history;
            }
            Err(msg) => self
                .out
                .error(&format!("position: {msg}; position unchanged")),
        }
    }

    fn parse_position(&self, tokens: &[String]) -> Result<(Position, Vec<u64>), String> {
        let moves_at = tokens.iter().position(|t| t == "moves");
        let setup = &tokens[..moves_at.unwrap_or(tokens.len())];
        let mut pos = match setup.split_first() {
            Some((kind, rest)) if kind == "startpos" && rest.is_empty() => Position::startpos(),
            Some((kind, _)) if kind == "startpos" => {
                return Err("unexpected text after 'startpos' (missing 'moves'?)".into())
            }
            Some((kind, fen)) if kind == "fen" => {
                Position::from_fen(&fen.join(" ")).map_err(|e| format!("invalid FEN: {e}"))?
            }
            Some((other, _)) => {
                return Err(format!(
                    "expected 'startpos' or 'fen', got '{}'",
                    clip(other)
                ))
            }
            None => return Err("expected 'startpos' or 'fen'".into()),
        };
        let mut history = Vec::new();
        let moves = moves_at.map_or(&[][..], |m| &tokens[m + 1..]);
        for (i, text) in moves.iter().enumerate() {
            let mv = pos
                .parse_uci_move(text, self.options.chess960)
                .map_err(|e| format!("move {} '{}' is {e}", i + 1, clip(text)))?;
            history.push(pos.key());
            pos = pos.play(mv);
        }
        Ok((pos, history))
    }

    fn go(&mut self, tokens: &[String]) {
        if self.worker.busy() {
            if !self.worker.finite() {
                return self.out.error("go: already searching; send 'stop' first");
            }
            // A perft or a limited search ends by itself: queue behind it, as
            // scripts that pipe several `go` commands expect.
            self.worker.wait();
        }
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let mut req = match parse_go(&tokens, &self.position, self.options.chess960) {
            Ok(req) => req,
            Err(msg) => return self.out.error(&msg),
        };
        let chess960 = self.options.chess960;
        if let Some(depth) = req.perft {
            let job = Job::Perft {
                pos: self.position,
                depth,
                threads: self.options.threads,
                hash_mb: self.options.perft_hash_mb,
                chess960,
            };
            return self.worker.run(job, false);
        }
        req.limits.move_overhead = Duration::from_millis(self.options.move_overhead_ms);
        let job = SearchJob {
            root: self.position,
            history: self.history.clone(),
            limits: req.limits,
            chess960,
        };
        self.worker.run(Job::Search(job), req.ponder);
    }

    fn bench(&mut self, depth: Option<&str>) {
        let depth = match depth.map(str::parse::<u32>) {
            None => None,
            Some(Ok(d)) if (1..=30).contains(&d) => Some(d),
            Some(_) => {
                return self
                    .out
                    .error("bench: the depth must be a number from 1 to 30")
            }
        };
        if self.worker.busy() {
            return self
                .out
                .error("bench: a search is running; send 'stop' first");
        }
        self.out.line(&bench_line(depth));
    }

    /// Stops any running search, for shutdown.
    pub fn shutdown(&self) {
        self.worker.stop_and_wait(Duration::from_millis(500));
    }
}
