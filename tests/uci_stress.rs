//! 200 random interleavings of `go` (depth, movetime, infinite, perft),
//! `stop`, `isready`, `position`, `setoption` and `ucinewgame`, from a
//! seeded generator, sent to one engine process without waiting between
//! commands. After each: every `isready` was answered, every search `go`
//! had exactly one legal `bestmove`, every perft gave its published count
//! or (only if a `stop` followed it) `info string perft stopped`, and the
//! process is alive. Some interleavings end the process at a random point:
//! with `quit` (every job stopped, each still answers) or by closing stdin
//! (the jobs that end by themselves finish, perfts with their full count);
//! either way every promise above holds, the process exits, and the next
//! interleaving starts a new one.

#[path = "support/uci_engine.rs"]
mod uci_engine;

use movegen::rng::SplitMix64;
use movegen::Position;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};
use uci_engine::Engine;

/// Positions with published perft counts (depths 1 to 4) from the
/// Chess Programming Wiki's perft results page, as in tests/data.
const POSITIONS: [(&str, [u64; 4]); 3] = [
    ("startpos", [20, 400, 8_902, 197_281]),
    (
        "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        [48, 2_039, 97_862, 4_085_603],
    ),
    (
        "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        [14, 191, 2_812, 43_238],
    ),
];

/// What the engine owes for one command, in the order jobs run.
enum Owed {
    /// One `bestmove`, legal in this position.
    Bestmove(Position),
    /// A perft of this many nodes, which may say it was stopped if a `stop`
    /// was sent after it.
    Perft { nodes: u64, stoppable: bool },
}

/// How an interleaving ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ending {
    /// A `stop`, a perft that must complete and an `isready`; the process
    /// goes on to the next interleaving.
    Continue,
    /// `quit` after the last command.
    Quit,
    /// Stdin closed after the last command.
    EndOfInput,
}

/// One interleaving: the lines sent and what is owed for them.
struct Script {
    lines: Vec<String>,
    owed: Vec<Owed>,
    readyoks: usize,
    errors: usize,
    ending: Ending,
}

fn position_of(setup: &str) -> Position {
    match setup.strip_prefix("fen ") {
        Some(fen) => Position::from_fen(fen).unwrap(),
        None => Position::startpos(),
    }
}

fn script(rng: &mut SplitMix64) -> Script {
    let mut s = Script {
        lines: Vec::new(),
        owed: Vec::new(),
        readyoks: 0,
        errors: 0,
        ending: match rng.below(6) {
            0 => Ending::Quit,
            1 => Ending::EndOfInput,
            _ => Ending::Continue,
        },
    };
    // The engine keeps its position between interleavings: set one first.
    let mut current = rng.below(POSITIONS.len());
    s.lines.push(format!("position {}", POSITIONS[current].0));
    for _ in 0..3 + rng.below(8) {
        let pos = position_of(POSITIONS[current].0);
        let line = match rng.below(10) {
            0 => format!("go depth {}", 1 + rng.below(4)),
            1 => format!("go movetime {}", 5 + rng.below(40)),
            2 => "go infinite".to_string(),
            3 => {
                let depth = 1 + rng.below(4);
                s.owed.push(Owed::Perft {
                    nodes: POSITIONS[current].1[depth - 1],
                    stoppable: false,
                });
                format!("go perft {depth}")
            }
            4 | 5 => {
                for owed in &mut s.owed {
                    if let Owed::Perft { stoppable, .. } = owed {
                        *stoppable = true;
                    }
                }
                "stop".to_string()
            }
            6 => {
                s.readyoks += 1;
                "isready".to_string()
            }
            7 if rng.below(4) == 0 => {
                s.errors += 1;
                "position startpos moves e2e5".to_string()
            }
            7 => {
                current = rng.below(POSITIONS.len());
                format!("position {}", POSITIONS[current].0)
            }
            8 => match rng.below(6) {
                0 => format!("setoption name Hash value {}", 1 + rng.below(32)),
                1 => format!("setoption name Threads value {}", 1 + rng.below(2)),
                2 => format!("setoption name MultiPV value {}", 1 + rng.below(3)),
                3 => format!("setoption name Perft Hash value {}", rng.below(4)),
                4 => "setoption name Clear Hash".to_string(),
                _ => {
                    s.errors += 1;
                    "setoption name Contempt value 3".to_string()
                }
            },
            _ => {
                current = 0;
                "ucinewgame".to_string()
            }
        };
        if line.starts_with("go ") && !line.starts_with("go perft") {
            s.owed.push(Owed::Bestmove(pos));
        }
        s.lines.push(line);
    }
    match s.ending {
        Ending::Continue => {}
        Ending::Quit => {
            s.lines.push("quit".to_string());
            for owed in &mut s.owed {
                if let Owed::Perft { stoppable, .. } = owed {
                    *stoppable = true;
                }
            }
            return s;
        }
        // Every perft must complete; endless searches are stopped.
        Ending::EndOfInput => return s,
    }
    // The end: stop what runs, then a perft that must complete (it ends the
    // job stream), and an isready.
    s.lines.push("stop".to_string());
    for owed in &mut s.owed {
        if let Owed::Perft { stoppable, .. } = owed {
            *stoppable = true;
        }
    }
    s.lines.push("go perft 1".to_string());
    s.owed.push(Owed::Perft {
        nodes: POSITIONS[current].1[0],
        stoppable: false,
    });
    s.lines.push("isready".to_string());
    s.readyoks += 1;
    s
}

/// The engine's lines for one interleaving, split as they are read into the
/// protocol thread's (`readyok`, errors and notes, counted) and the jobs'.
struct Answers<'a> {
    e: &'a mut Engine,
    case: usize,
    sent: &'a [String],
    deadline: Instant,
    got: Vec<String>,
    readyoks: usize,
    errors: usize,
}

impl Answers<'_> {
    /// The next line, whoever wrote it.
    fn raw(&mut self) -> String {
        let left = self.deadline.saturating_duration_since(Instant::now());
        let line = self.e.lines.recv_timeout(left).unwrap_or_else(|_| {
            panic!(
                "case {}: no answer; sent {:?}, got {:?}",
                self.case, self.sent, self.got
            )
        });
        self.got.push(line.clone());
        line
    }

    /// Counts a protocol thread line; false for a job's line.
    fn protocol(&mut self, line: &str) -> bool {
        if line == "readyok" {
            self.readyoks += 1;
        } else if line.starts_with("info string error: ") {
            self.errors += 1;
        } else if !line.starts_with("info string") || line.contains("perft stopped") {
            return false;
        }
        // Other `info string` lines are notes about clamped values.
        true
    }

    /// The next line a job wrote.
    fn job(&mut self) -> String {
        loop {
            let line = self.raw();
            if !self.protocol(&line) {
                return line;
            }
        }
    }
}

/// Reads the engine's answers to `s` and checks them; the protocol
/// thread's lines may come between any two lines of a job.
fn check(e: &mut Engine, s: &Script, case: usize) {
    let mut a = Answers {
        e,
        case,
        sent: &s.lines,
        deadline: Instant::now() + Duration::from_secs(60),
        got: Vec::new(),
        readyoks: 0,
        errors: 0,
    };
    for owed in &s.owed {
        match owed {
            Owed::Bestmove(pos) => {
                let line = loop {
                    let line = a.job();
                    if !line.starts_with("info depth ") {
                        break line;
                    }
                };
                let mv = line.strip_prefix("bestmove ").unwrap_or_else(|| {
                    panic!("case {case}: {line:?} for a search; got {:?}", a.got)
                });
                uci_engine::assert_legal_bestmove(mv, pos);
            }
            Owed::Perft { nodes, stoppable } => {
                let mut total = 0;
                let mut line = a.job();
                if line == "info string perft stopped" {
                    assert!(
                        stoppable,
                        "case {case}: a perft no stop followed was stopped"
                    );
                    continue;
                }
                while let Some((_, n)) = line.split_once(": ").filter(|(mv, _)| mv.len() <= 5) {
                    total += n.parse::<u64>().unwrap();
                    line = a.job();
                }
                assert_eq!(line, "", "case {case}: got {:?}", a.got);
                let line = a.job();
                assert_eq!(line, format!("Nodes searched: {nodes}"), "case {case}");
                assert_eq!(total, *nodes, "case {case}");
                assert_eq!(a.job(), "", "case {case}");
            }
        }
    }
    if s.ending != Ending::Continue {
        // The process exits after its last job: only protocol lines remain.
        loop {
            let left = a.deadline.saturating_duration_since(Instant::now());
            match a.e.lines.recv_timeout(left) {
                Ok(line) => {
                    a.got.push(line.clone());
                    assert!(
                        a.protocol(&line),
                        "case {case}: {line:?} after the last job"
                    );
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("case {case}: no exit; got {:?}", a.got),
            }
        }
    }
    // Every job has answered; the protocol thread's last lines may still be
    // on their way, and nothing else may come.
    while a.readyoks < s.readyoks {
        let line = a.raw();
        assert!(
            a.protocol(&line),
            "case {case}: {line:?} after the last job"
        );
    }
    assert_eq!(a.errors, s.errors, "case {case}: got {:?}", a.got);
}

#[test]
fn random_interleavings_keep_every_promise() {
    let mut rng = SplitMix64::new(0x00C0_FFEE_5EED);
    let mut e = Engine::start();
    let start = Instant::now();
    let mut sent = 0;
    let mut ended = 0;
    for case in 0..200 {
        let s = script(&mut rng);
        // All at once, as a piped script or a hasty GUI would.
        let text: String = s.lines.iter().map(|l| format!("{l}\n")).collect();
        e.send_bytes(text.as_bytes());
        if s.ending == Ending::EndOfInput {
            e.stdin = None;
        }
        check(&mut e, &s, case);
        if s.ending == Ending::Continue {
            assert!(
                e.child.try_wait().unwrap().is_none(),
                "case {case}: the engine died"
            );
        } else {
            assert!(
                e.wait_exit(Duration::from_secs(2)),
                "case {case}: still running after {:?}",
                s.ending
            );
            assert!(e.child.wait().unwrap().success(), "case {case}");
            ended += 1;
            e = Engine::start();
        }
        sent += s.lines.len();
    }
    eprintln!(
        "200 interleavings ({ended} ending the process), {sent} commands, in {:?}",
        start.elapsed()
    );
}
