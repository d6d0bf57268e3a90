//! The protocol state machine: one command in, protocol lines out, work
//! handed to the worker. Nothing here waits for a job.

use crate::command::Command;
use crate::display::describe;
use crate::eval_table::eval_lines;
use crate::go::parse_go;
use crate::options::{option_lines, OptionChange, UciOptions};
use crate::output::Output;
use crate::position::parse_position;
use crate::report::bench_summary;
use crate::worker::{JobKind, PerftJob, SearchJob, Worker};
use movegen::{CastlingMode, Game};
use search::nnue::Network;
use std::sync::Arc;
use std::time::Duration;

/// Runs `search::bench` (at its default depth if `None`) on this thread and
/// gives its summary line, `<nodes> nodes <nps> nps`.
pub fn bench_line(depth: Option<u32>) -> String {
    let (nodes, elapsed) = search::bench(depth.unwrap_or(search::BENCH_DEPTH));
    bench_summary(nodes, elapsed)
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// Leave the loop.
    Quit,
}

/// The engine as the GUI sees it: options, the current position and its game
/// history, and the handle to the worker thread. Every job takes a copy of
/// the position and options as they are when it is sent.
pub struct Engine {
    out: Output,
    options: UciOptions,
    /// The position set by `position`, with the moves that led to it.
    game: Game,
    worker: Worker,
    /// Varies the weakened search's choices from move to move and run to run.
    games_seed: u64,
    /// The network `EvalFile` loaded (in use while `Use NNUE` is on).
    net: Arc<Network>,
}

/// The next seed of a sequence (a Weyl step; `Strength` mixes it).
fn next_seed(seed: u64) -> u64 {
    seed.wrapping_add(0x9E37_79B9_7F4A_7C15)
}

impl Engine {
    /// An engine at the start position, writing to `out`.
    pub fn new(out: Output) -> Engine {
        let options = UciOptions::default();
        let worker = Worker::start(out.clone(), options.hash_mb);
        Engine {
            out,
            options,
            game: Game::default(),
            worker,
            // The clock, so that two games at the same Elo differ.
            games_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            net: Network::built_in(),
        }
    }

    /// Handles one command; never waits for a job. After `quit` (every job
    /// stopped) and the end of the input (endless searches stopped) it
    /// says [`Flow::Quit`]: call [`Engine::finish`] then.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Uci => self.uci(),
            Command::IsReady => self.out.line("readyok"),
            Command::UciNewGame => {
                self.worker.clear();
                self.game = Game::default();
            }
            Command::Debug(on) => self
                .out
                .info(&format!("debug {}", if on { "on" } else { "off" })),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(tokens) => self.set_position(&tokens),
            Command::Go(tokens) => self.go(&tokens),
            Command::Stop => self.worker.stop_all(),
            Command::PonderHit => self.worker.ponderhit(),
            Command::Quit => {
                self.worker.stop_all();
                return Flow::Quit;
            }
            Command::EndOfInput => {
                self.worker.stop_endless();
                return Flow::Quit;
            }
            Command::Display => {
                for line in describe(self.game.position()) {
                    self.out.line(&line);
                }
            }
            Command::Eval => {
                let net = self.options.use_nnue.then_some(&*self.net);
                for line in eval_lines(self.game.position(), net) {
                    self.out.line(&line);
                }
            }
            Command::Bench(depth) => self.bench(depth.as_deref()),
            Command::Register => self.out.info("no registration is needed"),
            Command::Invalid(e) => self.out.error(&e.to_string()),
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

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut notes = Vec::new();
        match self.options.set(name, value, &mut notes) {
            Ok(change) => {
                for note in notes {
                    self.out.info(&note);
                }
                match change {
                    OptionChange::Hash(mb) => self.worker.resize(mb),
                    OptionChange::ClearHash => self.worker.clear(),
                    OptionChange::Network(net) => {
                        self.net = net;
                        self.send_network();
                    }
                    OptionChange::UseNnue => self.send_network(),
                    OptionChange::Plain => {}
                }
            }
            Err(e) => self.out.error(&e.to_string()),
        }
    }

    /// Tells the worker which evaluation the options choose.
    fn send_network(&self) {
        let net = self.options.use_nnue.then(|| self.net.clone());
        self.worker.set_network(net);
    }

    /// `position ...`; all or nothing.
    fn set_position(&mut self, tokens: &[String]) {
        match parse_position(tokens, CastlingMode::from_chess960(self.options.chess960)) {
            Ok(game) => self.game = game,
            Err(e) => self
                .out
                .error(&format!("position: {e}; position unchanged")),
        }
    }

    fn go(&mut self, tokens: &[String]) {
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let mut req = match parse_go(&tokens, self.game.position()) {
            Ok(req) => req,
            Err(e) => return self.out.error(&e.to_string()),
        };
        if !req.warnings.is_empty() {
            let text: Vec<String> = req.warnings.iter().map(|w| w.to_string()).collect();
            let text = format!("go: {}", text.join("; "));
            log::warn!("{text}");
            self.out.info(&format!("warning: {text}"));
        }
        if let Some(depth) = req.perft {
            let job = PerftJob {
                pos: *self.game.position(),
                depth,
                threads: self.options.threads,
                hash_mb: self.options.perft_hash_mb,
            };
            return self.worker.submit(JobKind::Perft(job), false);
        }
        req.limits.move_overhead = Duration::from_millis(self.options.move_overhead_ms);
        req.limits.threads = self.options.threads;
        req.limits.multipv = self.options.multipv;
        if self.options.limit_strength {
            self.games_seed = next_seed(self.games_seed);
            req.limits.strength = Some(search::Strength::new(self.options.elo, self.games_seed));
        }
        let job = SearchJob {
            game: self.game.clone(),
            limits: req.limits,
            show_wdl: self.options.show_wdl,
        };
        self.worker
            .submit(JobKind::Search(Box::new(job)), req.ponder);
    }

    fn bench(&mut self, depth: Option<&str>) {
        let depth = match depth.map(str::parse::<u32>) {
            None => search::BENCH_DEPTH,
            Some(Ok(d)) if (1..=30).contains(&d) => d,
            Some(_) => {
                return self
                    .out
                    .error("bench: the depth must be a number from 1 to 30")
            }
        };
        self.worker.submit(JobKind::Bench(depth), false);
    }

    /// Waits until every job sent has answered and the worker has ended;
    /// call it after `handle` said [`Flow::Quit`], which stopped the jobs
    /// that must not run on.
    pub fn finish(self) {
        self.worker.finish();
    }
}
