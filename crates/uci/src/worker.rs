//! The worker thread: owns the searcher, runs the jobs it is sent one at a
//! time in order, prints their output and reports each end on a channel.
//!
//! A job is a value that owns its stop and ponder flags. Only the protocol
//! thread writes them (`stop` sets, `ponderhit` clears) and only the job
//! reads them, so nothing the worker does changes the protocol thread's
//! state except the end reports it sends. A job that must wait for the GUI
//! (`go infinite`, pondering) blocks on a wake-up channel, not a sleep loop.

use crate::output::Output;
use crate::perft;
use crate::report::{bench_summary, bestmove_line, info_line, perft_lines};
use crossbeam_channel::{Receiver, Sender};
use movegen::{Game, Position};
use search::nnue::Network;
use search::{Limits, SearchControl, SearchInfo, Searcher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread;

/// A search to run: an owned copy of everything it needs.
pub struct SearchJob {
    /// The game whose current position is searched.
    pub game: Game,
    /// The limits, options included (threads, multipv, move overhead).
    pub limits: Limits,
    /// Whether `info` lines carry `wdl W D L` (`UCI_ShowWDL`).
    pub show_wdl: bool,
}

/// `go perft`: a divide at `depth`.
pub struct PerftJob {
    /// The position.
    pub pos: Position,
    /// The depth, at least 1.
    pub depth: u32,
    /// Threads to use.
    pub threads: usize,
    /// Perft hash table size in MiB (0: none).
    pub hash_mb: usize,
}

/// The work of a job the GUI may stop.
pub enum JobKind {
    /// Search and answer `bestmove` (boxed: the limits make it the big one).
    Search(Box<SearchJob>),
    /// Count and print the divide.
    Perft(PerftJob),
    /// The fixed benchmark at this depth.
    Bench(u32),
}

/// A job and the flags it owns.
struct Job {
    id: u64,
    kind: JobKind,
    control: SearchControl,
    /// Rung after each change of `control`; closed when the engine goes.
    wake: Receiver<()>,
}

/// What the worker thread is sent, in order.
enum Task {
    Job(Box<Job>),
    /// Replace the transposition table by one of this many MiB.
    Resize(usize),
    /// Forget what was learnt (`ucinewgame`, `Clear Hash`).
    Clear,
    /// Evaluate with this network (`None`: the hand-written evaluation).
    Network(Option<Arc<Network>>),
}

/// The protocol side of a job sent and not yet reported ended.
struct Sent {
    id: u64,
    control: SearchControl,
    wake: Sender<()>,
    /// A search that waits for `stop` (infinite, or with no limit); a
    /// pondering one is told by `control.pondering`.
    endless: bool,
}

impl Sent {
    fn stop(&self) {
        self.control.stop.store(true, Ordering::SeqCst);
        let _ = self.wake.send(());
    }
}

/// The protocol thread's handle to the worker thread.
pub struct Worker {
    tasks: Sender<Task>,
    ended: Receiver<u64>,
    sent: Vec<Sent>,
    next_id: u64,
    thread: thread::JoinHandle<()>,
}

impl Worker {
    /// Starts the worker thread with a hash table of `hash_mb` MiB.
    pub fn start(out: Output, hash_mb: usize) -> Worker {
        let (tasks, rx) = crossbeam_channel::unbounded();
        let (ended_tx, ended) = crossbeam_channel::unbounded();
        let thread = thread::Builder::new()
            .name("worker".into())
            .spawn(move || worker_loop(rx, ended_tx, out, hash_mb))
            .expect("the OS can start one more thread");
        Worker {
            tasks,
            ended,
            sent: Vec::new(),
            next_id: 0,
            thread,
        }
    }

    /// Queues a job behind those already sent; `ponder` starts it pondering.
    pub fn submit(&mut self, kind: JobKind, ponder: bool) {
        self.forget_ended();
        let endless = match &kind {
            JobKind::Search(s) => !s.limits.ends_by_itself(s.game.position().side_to_move()),
            JobKind::Perft(_) | JobKind::Bench(_) => false,
        };
        let control = SearchControl::default();
        control.pondering.store(ponder, Ordering::SeqCst);
        let (wake, wake_rx) = crossbeam_channel::unbounded();
        let id = self.next_id;
        self.next_id += 1;
        self.sent.push(Sent {
            id,
            control: control.clone(),
            wake,
            endless,
        });
        self.send(Task::Job(Box::new(Job {
            id,
            kind,
            control,
            wake: wake_rx,
        })));
    }

    /// Queues a resize of the transposition table.
    pub fn resize(&self, hash_mb: usize) {
        self.send(Task::Resize(hash_mb));
    }

    /// Queues a clear of everything the searcher learnt.
    pub fn clear(&self) {
        self.send(Task::Clear);
    }

    /// Evaluates with `net` from the next job on (`None`: the hand-written
    /// evaluation); the transposition table is cleared.
    pub fn set_network(&self, net: Option<Arc<Network>>) {
        self.send(Task::Network(net));
    }

    /// Stops every job sent so far, running or queued; each still answers.
    pub fn stop_all(&mut self) {
        self.forget_ended();
        for job in &self.sent {
            job.stop();
        }
    }

    /// Stops the jobs that would wait for a `stop` that can no longer come
    /// (infinite and unlimited searches, pondering ones), at the end of the
    /// input; the others run on to their own end.
    pub fn stop_endless(&mut self) {
        self.forget_ended();
        for job in &self.sent {
            if job.endless || job.control.pondering.load(Ordering::SeqCst) {
                job.stop();
            }
        }
    }

    /// Closes the queue and waits until the worker has run every job sent
    /// (each printing all its output) and ended. Used only when leaving:
    /// stop what must not run on first.
    pub fn finish(self) {
        let Worker {
            tasks,
            thread,
            sent,
            ..
        } = self;
        // Closing the wake-up channels too means no job can wait for a GUI
        // that is gone.
        drop(sent);
        drop(tasks);
        // A panic outside a job was already printed by the panic hook.
        let _ = thread.join();
    }

    /// Ends pondering: the pondering job goes on under its time limits.
    pub fn ponderhit(&mut self) {
        self.forget_ended();
        for job in &self.sent {
            if job.control.pondering.swap(false, Ordering::SeqCst) {
                let _ = job.wake.send(());
            }
        }
    }

    /// Drops the handles of jobs the worker reported ended; never waits.
    fn forget_ended(&mut self) {
        for id in self.ended.try_iter() {
            self.sent.retain(|job| job.id != id);
        }
    }

    fn send(&self, task: Task) {
        self.tasks
            .send(task)
            .expect("the worker thread lives as long as its handle");
    }
}

fn worker_loop(tasks: Receiver<Task>, ended: Sender<u64>, out: Output, hash_mb: usize) {
    let mut hash_mb = hash_mb;
    let mut searcher = Searcher::new(hash_mb);
    let mut net = searcher.network().cloned();
    for task in tasks {
        match task {
            Task::Job(job) => {
                let id = job.id;
                run_job(*job, &mut searcher, hash_mb, &out);
                let same = match (searcher.network(), &net) {
                    (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                    (a, b) => a.is_none() && b.is_none(),
                };
                if !same {
                    // A job that failed left a fresh searcher.
                    searcher.set_network(net.clone());
                }
                // The protocol thread may be gone (shutting down): nothing to tell.
                let _ = ended.send(id);
            }
            Task::Resize(mb) => {
                hash_mb = mb;
                searcher.resize_hash(mb);
            }
            Task::Clear => searcher.clear(),
            Task::Network(n) => {
                net = n;
                searcher.set_network(net.clone());
            }
        }
    }
}

/// Runs one job; a panic inside it is reported and the engine goes on.
fn run_job(job: Job, searcher: &mut Searcher, hash_mb: usize, out: &Output) {
    let Job {
        kind,
        control,
        wake,
        ..
    } = job;
    match kind {
        JobKind::Search(s) => {
            let mode = s.game.position().castling_mode();
            let material = s.show_wdl.then(|| search::wdl_material(s.game.position()));
            let result = guarded(out, "the search", || {
                let mut report = |info: &SearchInfo| out.line(&info_line(info, mode, material));
                searcher.search(&s.game, &s.limits, &control, &mut report)
            });
            if result.is_none() {
                // Whatever it held may be inconsistent.
                *searcher = Searcher::new(hash_mb);
            }
            // In infinite and ponder mode the GUI expects no bestmove before stop/ponderhit.
            let held = || {
                !control.stop.load(Ordering::SeqCst)
                    && (s.limits.infinite || control.pondering.load(Ordering::SeqCst))
            };
            while held() && wake.recv().is_ok() {}
            out.line(&bestmove_line(s.game.position(), result));
        }
        JobKind::Perft(p) => {
            let div = guarded(out, "perft", || {
                let mb = perft::hash_mb(p.hash_mb, p.depth);
                let hash = (mb > 0).then(|| movegen::perft::PerftHash::new(mb));
                movegen::perft::Perft::new(p.depth)
                    .threads(p.threads)
                    .hash(hash.as_ref())
                    .stop(&control.stop)
                    .divide(&p.pos, |_, _| {})
            });
            match div {
                Some(Some(div)) => {
                    for line in perft_lines(&div, p.pos.castling_mode()) {
                        out.line(&line);
                    }
                }
                Some(None) => out.info("perft stopped"),
                None => {}
            }
        }
        JobKind::Bench(depth) => run_bench(depth, &control, out),
    }
}

/// The benchmark on the worker thread; a stop ends it within a few thousand
/// nodes, with `info string bench stopped` and no partial count.
fn run_bench(depth: u32, control: &SearchControl, out: &Output) {
    match guarded(out, "bench", || search::bench_until(depth, control)) {
        Some(Some((nodes, elapsed))) => out.line(&bench_summary(nodes, elapsed)),
        Some(None) => out.info("bench stopped"),
        None => {}
    }
}

/// Runs `f`, turning a panic into one `info string error` line and `None`.
fn guarded<T>(out: &Output, what: &str, f: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(value) => Some(value),
        Err(_) => {
            out.error(&format!("internal error in {what}; the engine carries on"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// An output whose lines the test can read.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn a_panic_in_a_job_is_one_error_line() {
        let captured = Captured::default();
        let out = Output::new(captured.clone());
        let got: Option<u32> = guarded(&out, "perft", || panic!("deliberate test panic"));
        assert_eq!(got, None);
        assert_eq!(guarded(&out, "perft", || 7), Some(7));
        let text = captured.text();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with("info string error: internal error in perft"));
    }

    #[test]
    fn stop_ends_running_and_queued_jobs_but_not_later_ones() {
        let captured = Captured::default();
        let mut worker = Worker::start(Output::new(captured.clone()), 1);
        let search = |infinite| {
            JobKind::Search(Box::new(SearchJob {
                game: Game::default(),
                limits: Limits {
                    infinite,
                    ..Limits::default()
                },
                show_wdl: false,
            }))
        };
        worker.submit(search(true), false);
        worker.submit(
            JobKind::Perft(PerftJob {
                pos: Position::startpos(),
                depth: 9,
                threads: 1,
                hash_mb: 0,
            }),
            false,
        );
        worker.submit(search(true), false);
        worker.stop_all();
        worker.submit(
            JobKind::Perft(PerftJob {
                pos: Position::startpos(),
                depth: 2,
                threads: 2,
                hash_mb: 1,
            }),
            false,
        );
        // Dropping the handle closes the queue; the thread ends after the
        // last job, closing the channel of end reports.
        let ended = worker.ended.clone();
        drop(worker);
        for _ in ended.iter() {}
        let text = captured.text();
        let kinds: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("info depth"))
            .filter(|l| l.split_once(": ").is_none_or(|(mv, _)| mv.len() > 5))
            .collect();
        assert_eq!(kinds.len(), 6, "{text}");
        assert!(kinds[0].starts_with("bestmove "));
        assert_eq!(kinds[1], "info string perft stopped");
        assert!(kinds[2].starts_with("bestmove "));
        assert_eq!(kinds[3..], ["", "Nodes searched: 400", ""]);
    }
}
