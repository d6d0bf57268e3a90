//! `course tournament`: a round robin between UCI engines, played and refereed here (see
//! [`crate::referee`]), with a crosstable, standings with Elo estimates, and the PGN of every
//! game.
//!
//! Every engine is started and checked (`uci`, its options, `isready`) before any game, so a
//! path that is not an engine fails the run at once. Each pairing plays `--games` games; each
//! opening of the list serves two of them with colours swapped, taken in order and cycling
//! over the whole tournament, so the same command plays the same schedule. By default one game
//! is played at a time (the clocks measure wall time: games in parallel on a busy machine would
//! lose time to each other). An engine that forfeits a game is killed and started again for its
//! next one; one that cannot be started again forfeits the rest of its games in that worker.

mod entrants;
mod openings;
mod pgn;
mod table;

pub use entrants::{engine_name, entrants, parse_named, pinmask};
pub use openings::{load as load_openings, BUILT_IN as BUILT_IN_OPENINGS};
pub use table::{elo, Elo, Table};

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::Duration;

use movegen::{Color, Position};

use crate::referee::{self, Engine, EngineSpec, Fault, Played, Rules, ANSWER_TIMEOUT};

/// The most games per pairing.
const MAX_GAMES: u64 = 1000;
/// The most games at once.
const MAX_CONCURRENCY: u64 = 256;
/// The widest time margin, in milliseconds.
const MAX_MARGIN_MS: u64 = 60_000;

/// The command line of `course tournament`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Players: student workspace folders (`subs/*`: the course builds each one's engine, in
    /// the sandbox), or engine programs, each named after its workspace folder
    /// (`.../NAME/target/release/engine`).
    pub engines: Vec<PathBuf>,
    /// A named engine with its arguments and UCI options, e.g.
    /// "sf-skill0=/usr/games/stockfish option.Skill Level=0" (repeatable).
    #[arg(long = "engine", value_name = "NAME=CMD")]
    pub named: Vec<String>,
    /// Pinmask's engine program, to play as `pinmask-uci-elo-N` at --elo.
    #[arg(long)]
    pub pinmask: Option<PathBuf>,
    /// The Elo Pinmask plays at (UCI_Elo) with --pinmask.
    #[arg(long, default_value_t = 1500)]
    pub elo: u32,
    /// Games per pairing (each opening twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Time control, [MOVES/]SECONDS[+INCREMENT] (`40/10+0.1`, `10+0.1`).
    #[arg(long, default_value = "40/10+0.1")]
    pub tc: String,
    /// Milliseconds an engine may overstep its clock before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub margin: u64,
    /// Adjudicate a game as a draw after this many moves of each side.
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// Start positions, EPD or FEN lines (default: the course's 36 openings).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The PGN file of all games.
    #[arg(long, default_value = "tournament.pgn")]
    pub pgn: PathBuf,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,
    /// Build and run the engines with your own rights, where the kernel cannot give the
    /// sandbox (by default each engine is built and confined as student code is when grading).
    #[arg(long)]
    pub no_sandbox: bool,
}

/// A tournament ready to play: its players, rules and openings.
#[derive(Debug, Clone)]
pub struct Tournament {
    /// The players.
    pub engines: Vec<EngineSpec>,
    /// Games per pairing.
    pub games: u32,
    /// The rules every game is played under.
    pub rules: Rules,
    /// The start positions, in the order they are used.
    pub openings: Vec<Position>,
    /// The PGN file.
    pub pgn: PathBuf,
    /// Games played at once.
    pub concurrency: usize,
}

impl Tournament {
    /// Checks the command line and reads the openings.
    ///
    /// # Errors
    /// A sentence about the first thing wrong.
    pub fn from_args(args: &Args) -> Result<Tournament, String> {
        let engines = entrants(
            &args.engines,
            &args.named,
            args.pinmask.as_deref().map(|p| (p, args.elo)),
        )?;
        if engines.len() < 2 {
            return Err(
                "a tournament needs at least two engines (paths, --engine or --pinmask)".into(),
            );
        }
        // Bounds well past any class's use, so that a typo is an error and not a run that
        // never ends, a thread per game, or a clock that overflows.
        for (flag, value, range) in [
            ("--games", u64::from(args.games), 1..=MAX_GAMES),
            (
                "--concurrency",
                args.concurrency as u64,
                1..=MAX_CONCURRENCY,
            ),
            ("--margin", args.margin, 0..=MAX_MARGIN_MS),
        ] {
            if !range.contains(&value) {
                return Err(format!(
                    "{flag} must be within {}..={}",
                    range.start(),
                    range.end()
                ));
            }
        }
        if args.max_moves == Some(0) {
            return Err("--max-moves must be at least 1".into());
        }
        let tc = args.tc.parse().map_err(|e| format!("--tc: {e}"))?;
        Ok(Tournament {
            engines,
            games: args.games,
            rules: Rules {
                tc,
                margin: Duration::from_millis(args.margin),
                max_moves: args.max_moves,
                ready_timeout: ANSWER_TIMEOUT,
            },
            openings: openings::load(args.openings.as_deref())?,
            pgn: args.pgn.clone(),
            concurrency: args.concurrency,
        })
    }
}

/// One game of the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// The game's number, from 1 (PGN's `Round`).
    pub round: usize,
    /// The White engine's index.
    pub white: usize,
    /// The Black engine's index.
    pub black: usize,
    /// The opening's index.
    pub opening: usize,
}

/// Every game: the pairings in order, `games` each, colours alternating, each opening serving
/// two games in a row and the openings cycling over the whole tournament.
pub fn schedule(players: usize, games: u32, openings: usize) -> Vec<Job> {
    let games = games as usize;
    let mut jobs = Vec::new();
    let mut pairs_so_far = 0;
    for a in 0..players {
        for b in a + 1..players {
            for g in 0..games {
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    round: jobs.len() + 1,
                    white,
                    black,
                    opening: (pairs_so_far + g / 2) % openings.max(1),
                });
            }
            pairs_so_far += games.div_ceil(2);
        }
    }
    jobs
}

/// Runs `course tournament`: checks every engine, plays the games, prints the tables.
///
/// # Errors
/// Bad arguments or an engine that cannot play (before any game); after the games, forfeits, a
/// pairing of which no game started, or a PGN that could not be written (the tables are
/// printed first).
pub fn run(args: &Args) -> Result<ExitCode, String> {
    let mut t = Tournament::from_args(args)?;
    let _engines = prepare_engines(&mut t.engines, !args.no_sandbox)?;
    let ready = preflight(&t.engines)?;
    let mut file = File::create(&t.pgn)
        .map_err(|e| format!("cannot write the PGN file {}: {e}", t.pgn.display()))?;
    let jobs = schedule(t.engines.len(), t.games, t.openings.len());
    crate::say!(
        "{} engines, {} games ({} per pairing) at {}, {} openings",
        t.engines.len(),
        jobs.len(),
        t.games,
        t.rules.tc,
        t.openings.len()
    );
    let names: Vec<String> = t.engines.iter().map(|e| e.name.clone()).collect();
    let mut table = Table::new(names.clone());
    let date = pgn::today();
    let mut write_error = None;
    play_all(&t, &jobs, ready, |job, played| {
        let (white, black) = (&names[job.white], &names[job.black]);
        table.record(job.white, job.black, &played);
        let header = pgn::Header {
            white,
            black,
            round: job.round,
            tc: &t.rules.tc,
            date: &date,
        };
        if let Err(e) = file.write_all(pgn::write(&played, &header).as_bytes()) {
            write_error.get_or_insert(e);
        }
        crate::say!(
            "game {}/{}: {white} - {black} {} ({})",
            job.round,
            jobs.len(),
            played.ending.result(),
            played.ending
        );
    });
    crate::say!("\n{}\n{}", table.crosstable(), table.standings());
    crate::say!("games in {}", t.pgn.display());
    verdict(&table, write_error.map(|e| (t.pgn.as_path(), e)))
}

/// The engines' folder: a scratch folder per engine (its built program, if the course built
/// it), ended (every process left, then the folder) when dropped.
struct Confined(PathBuf);

impl Drop for Confined {
    fn drop(&mut self) {
        crate::sandbox::end_descendants();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Readies every engine. A workspace folder given as a player is copied (what grading copies:
/// `src/` and the course's own files) and its engine built here with the toolchain that builds
/// `course`, in the sandbox: no student's `cargo build` runs outside it. Then, unless
/// `sandboxed` is false, each engine is confined as student code is confined when grading: it
/// sees only its own folder (and a script its interpreter), writes only a scratch folder of its
/// own, has no network, cannot reach another process, and each of its processes ends with
/// the tournament. Programs named without a folder are found on `PATH` first.
fn prepare_engines(engines: &mut [EngineSpec], sandboxed: bool) -> Result<Confined, String> {
    use crate::sandbox::{Sandbox, SandboxLimits};
    if sandboxed {
        crate::sandbox::available().map_err(|why| {
            format!("{why}. Engines are not run without the sandbox unless you pass --no-sandbox")
        })?;
    }
    let folder =
        std::env::temp_dir().join(format!("pinmask-course-tournament-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let confined = Confined(folder);
    crate::sandbox::become_subreaper();
    let workspaces = engines
        .iter()
        .any(|e| crate::workspace::is_workspace(&e.program));
    let toolchain = if workspaces {
        Some(crate::sandbox::find_toolchain()?)
    } else {
        None
    };
    for (i, engine) in engines.iter_mut().enumerate() {
        let scratch = confined.0.join(format!("{i:02}"));
        std::fs::create_dir_all(scratch.join("tmp"))
            .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
        if let (true, Some(toolchain)) =
            (crate::workspace::is_workspace(&engine.program), &toolchain)
        {
            crate::grade::prepare(&engine.program, &scratch, &crate::labs::all())
                .map_err(|e| format!("{}: cannot copy the workspace: {e}", engine.name))?;
            let build = Sandbox {
                scratch: scratch.clone(),
                toolchain: toolchain.clone(),
                limits: SandboxLimits::default(),
                programs: Vec::new(),
            };
            if sandboxed {
                build.prepare()?;
            }
            crate::say!(
                "building {}'s engine{}",
                engine.name,
                if sandboxed { " in the sandbox" } else { "" }
            );
            let cargo = toolchain.join("bin").join("cargo");
            engine.program = crate::workspace::build_engine(
                &scratch,
                cargo.as_os_str(),
                sandboxed.then_some(&build),
            )
            .map_err(|e| {
                let first = crate::workspace::compile_errors(&e)
                    .first()
                    .map(crate::workspace::CompileError::describe)
                    .unwrap_or_else(|| e.lines().next().unwrap_or("").to_string());
                format!("{}: the engine does not build: {first}", engine.name)
            })?;
        }
        if !sandboxed {
            continue;
        }
        let program = referee::resolve(&engine.program);
        let sandbox = Sandbox {
            scratch,
            toolchain: program
                .parent()
                .map_or_else(|| PathBuf::from("/nonexistent"), Path::to_path_buf),
            limits: SandboxLimits::default(),
            programs: crate::sandbox::interpreter(&program).into_iter().collect(),
        };
        sandbox.prepare()?;
        engine.sandbox = Some(sandbox);
    }
    Ok(confined)
}

/// Success, or what went wrong in a tournament that was played.
fn verdict(
    table: &Table,
    write_error: Option<(&Path, std::io::Error)>,
) -> Result<ExitCode, String> {
    let mut problems = Vec::new();
    if let Some((path, e)) = write_error {
        problems.push(format!(
            "the PGN file {} is incomplete: {e}",
            path.display()
        ));
    }
    for (a, b) in table.unstarted_pairings() {
        problems.push(format!(
            "{a} and {b} played no game (every game was forfeited before it started)"
        ));
    }
    let forfeits = table.forfeits();
    if !forfeits.is_empty() {
        problems.push(format!(
            "forfeits (counted in the standings): {}",
            forfeits.join("; ")
        ));
    }
    if problems.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(problems.join("\n"))
    }
}

/// Starts every engine at once and checks it; all the failures in one message.
fn preflight(specs: &[EngineSpec]) -> Result<Vec<Engine>, String> {
    let started: Vec<Result<Engine, String>> = thread::scope(|s| {
        let checks: Vec<_> = specs
            .iter()
            .map(|spec| {
                s.spawn(move || Engine::start(spec, ANSWER_TIMEOUT).map_err(|e| e.to_string()))
            })
            .collect();
        checks
            .into_iter()
            .map(|c| {
                c.join()
                    .unwrap_or_else(|_| Err("its check panicked".into()))
            })
            .collect()
    });
    let mut ready = Vec::new();
    let mut failures = Vec::new();
    for (spec, result) in specs.iter().zip(started) {
        match result {
            Ok(engine) => ready.push(engine),
            Err(_) if spec.program.components().count() > 1 && !spec.program.exists() => failures.push(format!(
                "  {} ({}): no such file (give a student's workspace folder, and the course builds its engine)",
                spec.name,
                spec.program.display()
            )),
            Err(e) => failures.push(format!("  {} ({}): {e}", spec.name, spec.program.display())),
        }
    }
    if failures.is_empty() {
        Ok(ready)
    } else {
        Err(format!(
            "not every engine can play, so no game was played:\n{}",
            failures.join("\n")
        ))
    }
}

/// One engine's place in a worker: the running process, or why it cannot be started again.
#[derive(Default)]
struct Seat {
    engine: Option<Engine>,
    broken: Option<String>,
}

impl Seat {
    /// The engine, started if it is not running.
    fn take(&mut self, spec: &EngineSpec) -> Result<Engine, Fault> {
        if let Some(engine) = self.engine.take() {
            return Ok(engine);
        }
        if let Some(why) = &self.broken {
            return Err(Fault::Crash(why.clone()));
        }
        Engine::start(spec, ANSWER_TIMEOUT).map_err(|e| {
            let why = format!("could not be started again: {e}");
            self.broken = Some(why.clone());
            Fault::Crash(why)
        })
    }
}

/// Plays `jobs` on `t.concurrency` workers and hands each game to `done` as it ends. The first
/// worker gets the engines already started.
fn play_all(t: &Tournament, jobs: &[Job], ready: Vec<Engine>, mut done: impl FnMut(&Job, Played)) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut first: Vec<Seat> = ready
        .into_iter()
        .map(|e| Seat {
            engine: Some(e),
            broken: None,
        })
        .collect();
    thread::scope(|s| {
        for _ in 0..t.concurrency {
            let seats = if first.is_empty() {
                t.engines.iter().map(|_| Seat::default()).collect()
            } else {
                std::mem::take(&mut first)
            };
            let (tx, next) = (tx.clone(), &next);
            s.spawn(move || worker(t, jobs, next, seats, tx));
        }
        drop(tx);
        for (i, played) in rx {
            done(&jobs[i], played);
        }
    });
}

/// Takes the next job until none is left; its engines end when it does.
fn worker(
    t: &Tournament,
    jobs: &[Job],
    next: &AtomicUsize,
    mut seats: Vec<Seat>,
    tx: Sender<(usize, Played)>,
) {
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(i) else { break };
        let start = t.openings[job.opening];
        let white = seats[job.white].take(&t.engines[job.white]);
        let black = seats[job.black].take(&t.engines[job.black]);
        let played = match (white, black) {
            (Ok(mut w), Ok(mut b)) => {
                let played = referee::play(&mut w, &mut b, start, &t.rules);
                // An engine that forfeited is dropped (ended) and started afresh next time.
                let loser = match played.ending {
                    referee::Ending::Forfeit { loser, .. } => Some(loser),
                    _ => None,
                };
                if loser != Some(Color::White) {
                    seats[job.white].engine = Some(w);
                }
                if loser != Some(Color::Black) {
                    seats[job.black].engine = Some(b);
                }
                played
            }
            (Err(fault), black) => {
                seats[job.black].engine = black.ok();
                Played::unstarted(start, Color::White, fault)
            }
            (Ok(w), Err(fault)) => {
                seats[job.white].engine = Some(w);
                Played::unstarted(start, Color::Black, fault)
            }
        };
        if tx.send((i, played)).is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_pairs_everyone_swaps_colours_and_cycles_openings() {
        let jobs = schedule(3, 2, 2);
        let seen: Vec<(usize, usize, usize)> =
            jobs.iter().map(|j| (j.white, j.black, j.opening)).collect();
        assert_eq!(
            seen,
            [
                (0, 1, 0),
                (1, 0, 0),
                (0, 2, 1),
                (2, 0, 1),
                (1, 2, 0),
                (2, 1, 0)
            ]
        );
        assert_eq!(
            jobs.iter().map(|j| j.round).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5, 6]
        );
        // An odd count: the last game of a pairing has its opening to itself.
        let jobs = schedule(2, 3, 10);
        let seen: Vec<(usize, usize)> = jobs.iter().map(|j| (j.white, j.opening)).collect();
        assert_eq!(seen, [(0, 0), (1, 0), (0, 1)]);
    }
}
