//! The engine's side of every game on the page: a fixed number of worker
//! threads (`--engine-threads`) that take jobs from one queue, as the UCI
//! worker does, so forty games at once cannot overload the machine. A job
//! is a Play move ([`Job`]) or a whole Review ([`ReviewJob`]); both kinds
//! wait in the same queue, in order.
//!
//! Each job owns its stop flag. Only the game's owner sets it (new game,
//! undo, resignation, a flag fall, shutdown) and only the job reads it: a
//! stopped job still queued is skipped, a running one ends within a few
//! thousand nodes. Each worker reports on one channel when it starts a job
//! (the engine's clock starts then: see `docs/server.md`) and when the
//! search returns (the engine's clock stops then).
//!
//! A worker keeps its transposition table from job to job, whatever the
//! game: an entry is keyed by its position, so another game's entries are
//! as valid as this one's. A review brings its own searcher (the size
//! `engine analyse` uses, fresh for each review), so it does not depend on
//! what the worker searched before.

use crossbeam_channel::{Receiver, Sender};
use movegen::{Game, Move};
use search::{Limits, SearchControl, SearchInfo, Searcher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Instant;

/// Transposition table of each worker, in MiB.
const HASH_MB: usize = 16;

/// A search to run: an owned copy of everything it needs.
pub struct Job {
    /// The game; its current position is searched, its earlier ones count
    /// for repetitions.
    pub game: Game,
    /// The limits (clock times, or a fixed time a move).
    pub limits: Limits,
}

/// A game review: run on a worker with the job's stop flag. It makes its
/// own searcher and reports through what it captured (the review's own
/// state), not through [`Report`].
pub type ReviewJob = Box<dyn FnOnce(&SearchControl) + Send>;

/// What a task asks of a worker.
// The search is the common job and travelled unboxed before reviews came;
// a review is already a box.
#[allow(clippy::large_enum_variant)]
enum Work {
    Search(Job),
    Review(ReviewJob),
}

/// A handle on a job sent to the pool.
#[derive(Clone)]
pub struct Ticket {
    /// The job's number; reports carry it.
    pub id: u64,
    /// The job's stop flag.
    pub control: SearchControl,
}

impl Ticket {
    /// Stops the job: skipped if still queued, ended soon if running.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::SeqCst);
    }
}

/// What a worker tells about a job.
#[derive(Debug)]
pub enum Report {
    /// A worker took the job at `at`.
    Started {
        seat: Arc<str>,
        id: u64,
        at: Instant,
    },
    /// The search returned.
    Done(Done),
}

/// How a search ended.
#[derive(Debug)]
pub struct Done {
    /// The game the job was for.
    pub seat: Arc<str>,
    /// The job's number.
    pub id: u64,
    /// The move chosen; `None` after an internal error.
    pub best: Option<Move>,
    /// When the search returned: the engine's clock stops here.
    pub ended: Instant,
    /// The last completed depth's report, if any.
    pub info: Option<SearchInfo>,
}

struct Task {
    seat: Arc<str>,
    ticket: Ticket,
    work: Work,
}

/// The queue and its workers.
pub struct Pool {
    tasks: Sender<Task>,
    workers: Vec<JoinHandle<()>>,
    next_id: AtomicU64,
}

impl Pool {
    /// Starts `threads` workers (at least one) reporting on `reports`.
    pub fn start(threads: usize, reports: Sender<Report>) -> Pool {
        let (tasks, queue) = crossbeam_channel::unbounded();
        let workers = (0..threads.max(1))
            .map(|k| {
                let (queue, reports) = (queue.clone(), reports.clone());
                thread::Builder::new()
                    .name(format!("play-engine-{k}"))
                    .spawn(move || work(queue, reports))
                    .expect("the OS can start the engine's threads")
            })
            .collect();
        Pool {
            tasks,
            workers,
            next_id: AtomicU64::new(1),
        }
    }

    /// Queues `job` for the game `seat`; returns its ticket.
    pub fn submit(&self, seat: Arc<str>, job: Job) -> Ticket {
        self.queue(seat, Work::Search(job))
    }

    /// Queues the review `job` (named `review` in the logs); returns its
    /// ticket.
    pub fn submit_review(&self, review: Arc<str>, job: ReviewJob) -> Ticket {
        self.queue(review, Work::Review(job))
    }

    fn queue(&self, seat: Arc<str>, work: Work) -> Ticket {
        let ticket = Ticket {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            control: SearchControl::default(),
        };
        let task = Task {
            seat,
            ticket: ticket.clone(),
            work,
        };
        self.tasks
            .send(task)
            .expect("the workers live as long as the pool");
        ticket
    }

    /// Ends the workers once their current jobs end (stop those first) and
    /// waits for them.
    pub fn shutdown(self) {
        drop(self.tasks);
        for worker in self.workers {
            let _ = worker.join();
        }
    }
}

fn work(queue: Receiver<Task>, reports: Sender<Report>) {
    // The table is made for the first search: a page never used for a game
    // never allocates it.
    let mut table: Option<Searcher> = None;
    for Task { seat, ticket, work } in queue {
        if ticket.control.stopped() {
            continue;
        }
        let job = match work {
            Work::Search(job) => job,
            Work::Review(review) => {
                let ran = catch_unwind(AssertUnwindSafe(|| review(&ticket.control)));
                if ran.is_err() {
                    log::error!("internal error in review {seat}; the engine carries on");
                }
                continue;
            }
        };
        let id = ticket.id;
        let _ = reports.send(Report::Started {
            seat: Arc::clone(&seat),
            id,
            at: Instant::now(),
        });
        let searcher = table.get_or_insert_with(|| Searcher::new(HASH_MB));
        let mut last = None;
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut report = |info: &SearchInfo| {
                if info.multipv == 1 {
                    last = Some(info.clone());
                }
            };
            searcher.search(&job.game, &job.limits, &ticket.control, &mut report)
        }));
        let ended = Instant::now();
        let best = match result {
            Ok(result) => result.best,
            Err(_) => {
                log::error!("internal error in the page's search; the engine carries on");
                // Whatever it held may be inconsistent.
                table = None;
                None
            }
        };
        // The receiver may be gone (shutting down): nothing to tell.
        let _ = reports.send(Report::Done(Done {
            seat,
            id,
            best,
            ended,
            info: last,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;
    use std::time::Duration;

    fn job(limits: Limits) -> Job {
        Job {
            game: Game::new(Position::startpos()),
            limits,
        }
    }

    fn done(reports: &Receiver<Report>) -> Done {
        loop {
            match reports.recv_timeout(Duration::from_secs(60)) {
                Ok(Report::Done(done)) => return done,
                Ok(Report::Started { .. }) => {}
                Err(e) => panic!("no report: {e}"),
            }
        }
    }

    #[test]
    fn a_search_reports_its_start_and_its_move() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let pool = Pool::start(1, tx);
        let depth = |d| Limits {
            depth: Some(d),
            ..Limits::default()
        };
        let ticket = pool.submit("a".into(), job(depth(3)));
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(Report::Started { seat, id, .. }) => assert_eq!((&*seat, id), ("a", ticket.id)),
            other => panic!("expected the start, got {other:?}"),
        }
        let report = done(&rx);
        assert_eq!((&*report.seat, report.id), ("a", ticket.id));
        let best = report.best.expect("the start position has moves");
        assert!(Position::startpos().legal_moves().contains(&best));
        assert_eq!(report.info.map(|i| i.depth), Some(3));
        pool.shutdown();
    }

    #[test]
    fn a_stopped_job_ends_and_a_queued_stopped_one_is_skipped() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let pool = Pool::start(1, tx);
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let running = pool.submit("a".into(), job(infinite.clone()));
        let queued = pool.submit("b".into(), job(infinite));
        queued.stop();
        let next = pool.submit(
            "c".into(),
            job(Limits {
                depth: Some(1),
                ..Limits::default()
            }),
        );
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(Report::Started { id, .. }) => assert_eq!(id, running.id),
            other => panic!("expected the start, got {other:?}"),
        }
        running.stop();
        // Had the infinite searches not stopped, these would never come.
        assert_eq!(done(&rx).id, running.id);
        assert_eq!(done(&rx).id, next.id, "the stopped queued job is skipped");
        pool.shutdown();
    }

    #[test]
    fn a_review_job_runs_in_turn_with_its_stop_flag() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let pool = Pool::start(1, tx);
        let (ran_tx, ran_rx) = crossbeam_channel::unbounded();
        let first = pool.submit(
            "a".into(),
            job(Limits {
                depth: Some(2),
                ..Limits::default()
            }),
        );
        let review = pool.submit_review(
            "r".into(),
            Box::new(move |control: &SearchControl| {
                let _ = ran_tx.send(control.stopped());
            }),
        );
        assert_eq!(done(&rx).id, first.id);
        assert_eq!(ran_rx.recv_timeout(Duration::from_secs(60)), Ok(false));
        let skipped_tx = crossbeam_channel::unbounded::<()>();
        let blocker = pool.submit(
            "b".into(),
            job(Limits {
                infinite: true,
                ..Limits::default()
            }),
        );
        // The review waits behind a running search, then is stopped.
        loop {
            match rx.recv_timeout(Duration::from_secs(60)) {
                Ok(Report::Started { id, .. }) if id == blocker.id => break,
                Ok(_) => {}
                Err(e) => panic!("no start: {e}"),
            }
        }
        let stopped = pool.submit_review(
            "s".into(),
            Box::new(move |_: &SearchControl| {
                let _ = skipped_tx.0.send(());
            }),
        );
        stopped.stop();
        blocker.stop();
        assert_eq!(done(&rx).id, blocker.id);
        let last = pool.submit(
            "c".into(),
            job(Limits {
                depth: Some(1),
                ..Limits::default()
            }),
        );
        assert_eq!(done(&rx).id, last.id);
        assert!(
            skipped_tx.1.try_recv().is_err(),
            "a stopped review is skipped"
        );
        assert_ne!(review.id, stopped.id);
        pool.shutdown();
    }
}
