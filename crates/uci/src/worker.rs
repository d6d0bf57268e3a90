//! The search thread: owns the searcher, runs one job at a time, prints its
//! `info` and `bestmove` lines.

use crate::output::Output;
use crossbeam_channel::{Receiver, Sender};
use movegen::{Move, Position};
use search::{Limits, Score, SearchControl, SearchInfo, SearchResult, Searcher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// A search to run: an owned copy of everything it needs.
pub struct SearchJob {
    /// The position to search.
    pub root: Position,
    /// Keys of the game's earlier positions, oldest first.
    pub history: Vec<u64>,
    /// The limits.
    pub limits: Limits,
    /// Whether castling is written king-takes-rook.
    pub chess960: bool,
}

/// Work for the search thread.
pub enum Job {
    /// Search and answer `bestmove`.
    Search(SearchJob),
    /// `go perft`: divide at `depth` on `threads` threads.
    Perft {
        /// The position.
        pos: Position,
        /// The depth, at least 1.
        depth: u32,
        /// Threads to use.
        threads: usize,
        /// Perft hash table size in MiB (0: none).
        hash_mb: usize,
        /// Castling notation.
        chess960: bool,
    },
    /// Resize the hash table, then acknowledge.
    Resize(usize, Sender<()>),
    /// Clear the hash table, then acknowledge.
    Clear(Sender<()>),
}

/// Handle to the search thread.
pub struct Worker {
    jobs: Sender<Job>,
    busy: Arc<AtomicBool>,
    /// Whether the running job ends by itself (not `infinite`, not pondering).
    finite: AtomicBool,
    /// The flags the running search polls.
    pub control: SearchControl,
}

impl Worker {
    /// Starts the search thread with a hash table of `hash_mb` MiB.
    pub fn start(out: Output, hash_mb: usize) -> Worker {
        let (jobs, rx) = crossbeam_channel::unbounded();
        let busy = Arc::new(AtomicBool::new(false));
        let control = SearchControl::default();
        let state = (out, busy.clone(), control.clone());
        thread::Builder::new()
            .name("search".into())
            .spawn(move || worker_loop(rx, Searcher::new(hash_mb), state))
            .expect("the OS can start one more thread");
        Worker {
            jobs,
            busy,
            finite: AtomicBool::new(true),
            control,
        }
    }

    /// Whether a search or perft is running.
    pub fn busy(&self) -> bool {
        self.busy.load(Ordering::SeqCst)
    }

    /// Whether the running job (if any) ends without a further command: it
    /// was limited and is not pondering, or `stop` was already sent. A
    /// stopped search is still busy while it prints its bestmove, and a
    /// client may answer that bestmove with `go` before it is done.
    pub fn finite(&self) -> bool {
        self.control.stop.load(Ordering::SeqCst)
            || (self.finite.load(Ordering::SeqCst)
                && !self.control.pondering.load(Ordering::SeqCst))
    }

    /// Waits for the running job to finish by itself.
    pub fn wait(&self) {
        while self.busy() {
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Starts a search or perft; the caller has checked the worker is idle.
    pub fn run(&self, job: Job, ponder: bool) {
        let infinite = matches!(&job, Job::Search(s) if s.limits.infinite);
        self.finite.store(!infinite, Ordering::SeqCst);
        self.control.stop.store(false, Ordering::SeqCst);
        self.control.pondering.store(ponder, Ordering::SeqCst);
        self.busy.store(true, Ordering::SeqCst);
        self.send(job);
    }

    /// Sends a maintenance job and waits until it is done.
    pub fn run_and_wait(&self, make: impl FnOnce(Sender<()>) -> Job) {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(make(tx));
        let _ = rx.recv();
    }

    fn send(&self, job: Job) {
        self.jobs
            .send(job)
            .expect("the search thread lives as long as the engine");
    }

    /// Asks a running search to stop and waits up to `patience` for it to finish.
    pub fn stop_and_wait(&self, patience: Duration) {
        self.control.stop.store(true, Ordering::SeqCst);
        let start = Instant::now();
        while self.busy() && start.elapsed() < patience {
            thread::sleep(Duration::from_millis(1));
        }
    }
}

fn worker_loop(
    rx: Receiver<Job>,
    mut searcher: Searcher,
    state: (Output, Arc<AtomicBool>, SearchControl),
) {
    let (out, busy, control) = state;
    for job in rx {
        match job {
            Job::Search(job) => run_search(&mut searcher, job, &out, &control),
            Job::Perft {
                pos,
                depth,
                threads,
                hash_mb,
                chess960,
            } => run_perft(&pos, depth, (threads, hash_mb), chess960, &out),
            Job::Resize(mb, ack) => {
                searcher.resize_hash(mb);
                let _ = ack.send(());
            }
            Job::Clear(ack) => {
                searcher.clear();
                let _ = ack.send(());
            }
        }
        busy.store(false, Ordering::SeqCst);
    }
}

fn run_search(searcher: &mut Searcher, job: SearchJob, out: &Output, control: &SearchControl) {
    let chess960 = job.chess960;
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut report = |info: &SearchInfo| out.line(&info_line(info, chess960));
        searcher.search(&job.root, &job.history, &job.limits, control, &mut report)
    }));
    let result = result.unwrap_or_else(|_| {
        out.error("internal error in the search; playing the first legal move");
        SearchResult {
            best: None,
            ponder: None,
        }
    });
    // In infinite and ponder mode the GUI expects no bestmove before stop/ponderhit.
    while (job.limits.infinite || control.pondering.load(Ordering::SeqCst))
        && !control.stop.load(Ordering::SeqCst)
    {
        thread::sleep(Duration::from_millis(1));
    }
    out.line(&bestmove_line(&job.root, result, chess960));
}

/// `bestmove <move> [ponder <move>]`; `0000` only when there is no legal move.
fn bestmove_line(root: &Position, result: SearchResult, chess960: bool) -> String {
    let legal = root.legal_moves();
    let best = result
        .best
        .filter(|mv| legal.contains(mv))
        .or_else(|| legal.first().copied());
    let Some(best) = best else {
        return "bestmove 0000".to_string();
    };
    let mut line = format!("bestmove {}", best.to_uci(chess960));
    if let Some(ponder) = result.ponder.filter(|&p| root.play(best).is_legal(p)) {
        line.push_str(&format!(" ponder {}", ponder.to_uci(chess960)));
    }
    line
}

/// One `info` line for a completed depth.
pub fn info_line(info: &SearchInfo, chess960: bool) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|m| m.to_uci(chess960).to_string())
        .collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {ms} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.hashfull,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

fn run_perft(
    pos: &Position,
    depth: u32,
    (threads, hash_mb): (usize, usize),
    chess960: bool,
    out: &Output,
) {
    let start = Instant::now();
    let hash = (hash_mb > 0).then(|| movegen::PerftHash::new(hash_mb));
    let div: Vec<(Move, u64)> = movegen::divide_with(pos, depth, threads, hash.as_ref());
    let mut total = 0;
    for (mv, n) in &div {
        out.line(&format!("{}: {n}", mv.to_uci(chess960)));
        total += n;
    }
    out.line("");
    out.line(&format!("Nodes searched: {total}"));
    out.line("");
    log::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
}
