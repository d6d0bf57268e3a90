//! The engine's side of a game on the page: a thread that owns the searcher
//! and runs one search job at a time, as the UCI worker does.
//!
//! Each job owns its stop flag. Only the HTTP thread sets it (new game,
//! undo, resignation, a flag fall) and only the job reads it, so a stopped
//! search ends within a few thousand nodes and the thread is free for the
//! next one. Each end is reported on a channel with the instant the search
//! returned, which is what the engine's clock is charged to; the HTTP thread
//! drains that channel when it next answers a request and drops the reports
//! of jobs it has stopped.

use crossbeam_channel::{Receiver, Sender};
use movegen::{Game, Move};
use search::{Limits, SearchControl, SearchInfo, Searcher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Instant;

/// Transposition table of the page's engine, in MiB.
const HASH_MB: usize = 32;

/// A search to run: an owned copy of everything it needs.
pub struct Job {
    /// The game; its current position is searched, its earlier ones count
    /// for repetitions.
    pub game: Game,
    /// The limits (clock times, or a fixed time a move).
    pub limits: Limits,
}

/// How a search ended.
#[derive(Debug)]
pub struct Done {
    /// The job's number, as [`Thinker::think`] returned it.
    pub id: u64,
    /// The move chosen; `None` after an internal error.
    pub best: Option<Move>,
    /// When the search returned: the engine's clock stops here.
    pub ended: Instant,
    /// The last completed depth's report, if any.
    pub info: Option<SearchInfo>,
}

enum Task {
    Search(u64, Box<Job>, SearchControl),
    /// Forget what was learnt (a new game).
    Clear,
}

/// The HTTP thread's handle to the engine thread.
pub struct Thinker {
    tasks: Sender<Task>,
    done: Receiver<Done>,
    /// The job sent last and not yet reported, with its stop flag.
    current: Option<(u64, SearchControl)>,
    next_id: u64,
}

impl Thinker {
    /// Starts the engine thread.
    pub fn start() -> Thinker {
        let (tasks, rx) = crossbeam_channel::unbounded();
        let (done_tx, done) = crossbeam_channel::unbounded();
        thread::Builder::new()
            .name("play-engine".into())
            .spawn(move || engine_loop(rx, done_tx))
            .expect("the OS can start one more thread");
        Thinker {
            tasks,
            done,
            current: None,
            next_id: 1,
        }
    }

    /// Starts searching `job` (after any job still ending); returns its number.
    pub fn think(&mut self, job: Job) -> u64 {
        self.stop();
        let id = self.next_id;
        self.next_id += 1;
        let control = SearchControl::default();
        self.current = Some((id, control.clone()));
        self.send(Task::Search(id, Box::new(job), control));
        id
    }

    /// Stops the current search at once; its report will be dropped.
    pub fn stop(&mut self) {
        if let Some((_, control)) = self.current.take() {
            control.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Whether a search was started and has not been reported or stopped.
    pub fn thinking(&self) -> bool {
        self.current.is_some()
    }

    /// Stops any search and clears the table for a new game.
    pub fn new_game(&mut self) {
        self.stop();
        self.send(Task::Clear);
    }

    /// The current search's end, if it has come; never waits.
    pub fn poll(&mut self) -> Option<Done> {
        let current = self.current.as_ref()?.0;
        for done in self.done.try_iter() {
            if done.id == current {
                self.current = None;
                return Some(done);
            }
        }
        None
    }

    /// Waits up to `timeout` for the current search's end (tests only).
    #[cfg(test)]
    pub fn wait(&mut self, timeout: std::time::Duration) -> Option<Done> {
        let current = self.current.as_ref()?.0;
        let deadline = Instant::now() + timeout;
        while let Ok(done) = self.done.recv_deadline(deadline) {
            if done.id == current {
                self.current = None;
                return Some(done);
            }
        }
        None
    }

    fn send(&self, task: Task) {
        self.tasks
            .send(task)
            .expect("the engine thread lives as long as its handle");
    }
}

fn engine_loop(tasks: Receiver<Task>, done: Sender<Done>) {
    // The table is made for the first search: a page never used for a game
    // never allocates it.
    let mut table: Option<Searcher> = None;
    for task in tasks {
        match task {
            Task::Search(id, job, control) => {
                let searcher = table.get_or_insert_with(|| Searcher::new(HASH_MB));
                let mut last = None;
                let result = catch_unwind(AssertUnwindSafe(|| {
                    let mut report = |info: &SearchInfo| {
                        if info.multipv == 1 {
                            last = Some(info.clone());
                        }
                    };
                    searcher.search(&job.game, &job.limits, &control, &mut report)
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
                // The handle may be gone (shutting down): nothing to tell.
                let _ = done.send(Done {
                    id,
                    best,
                    ended,
                    info: last,
                });
            }
            Task::Clear => {
                if let Some(searcher) = &mut table {
                    searcher.clear();
                }
            }
        }
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

    #[test]
    fn a_search_reports_its_move() {
        let mut t = Thinker::start();
        let id = t.think(job(Limits {
            depth: Some(3),
            ..Limits::default()
        }));
        assert!(t.thinking());
        let done = t
            .wait(Duration::from_secs(60))
            .expect("a depth-3 search ends");
        assert_eq!(done.id, id);
        let best = done.best.expect("the start position has moves");
        assert!(Position::startpos().legal_moves().contains(&best));
        assert_eq!(done.info.map(|i| i.depth), Some(3));
        assert!(!t.thinking());
    }

    #[test]
    fn a_stopped_search_is_dropped_and_the_next_one_runs() {
        let mut t = Thinker::start();
        t.think(job(Limits {
            infinite: true,
            ..Limits::default()
        }));
        t.new_game();
        assert!(!t.thinking());
        assert!(t.poll().is_none());
        // Had the infinite search not stopped, this would never end.
        let id = t.think(job(Limits {
            depth: Some(1),
            ..Limits::default()
        }));
        let done = t
            .wait(Duration::from_secs(60))
            .expect("the second search ends");
        assert_eq!(done.id, id);
    }
}
