//! The crowd's database: the one module that opens it and owns its
//! connections. Experts, tasks, the tasks served to each expert,
//! submissions and verdicts are rows of one SQLite file in WAL mode.
//!
//! Each worker thread borrows a connection from a pool (a channel of
//! connections) for one request. A write is one `BEGIN IMMEDIATE`
//! transaction, committed before the reply is sent, with `synchronous =
//! FULL`: what the server acknowledged survives a kill of the process, and a
//! power cut too.

use super::agree::{self, Difference, MoveSet, Score, Standing, Status};
use crossbeam_channel::{Receiver, Sender};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::Path;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS experts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash BLOB NOT NULL,
    joined_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tasks (
    id INTEGER PRIMARY KEY,
    fen TEXT NOT NULL UNIQUE,
    chess960 INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'confirmed', 'flagged', 'closed')),
    agreed TEXT,
    added_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS served (
    expert INTEGER NOT NULL REFERENCES experts(id),
    task INTEGER NOT NULL REFERENCES tasks(id),
    served_ms INTEGER NOT NULL,
    PRIMARY KEY (expert, task)
);
CREATE INDEX IF NOT EXISTS served_task ON served(task);
CREATE TABLE IF NOT EXISTS submissions (
    expert INTEGER NOT NULL REFERENCES experts(id),
    task INTEGER NOT NULL REFERENCES tasks(id),
    moves TEXT NOT NULL,
    found INTEGER NOT NULL,
    missed INTEGER NOT NULL,
    wrong INTEGER NOT NULL,
    millis INTEGER NOT NULL,
    submitted_ms INTEGER NOT NULL,
    PRIMARY KEY (expert, task)
);
CREATE INDEX IF NOT EXISTS submissions_task ON submissions(task);
";

/// Why a store operation failed.
#[derive(Debug)]
pub enum StoreError {
    /// No task has this id.
    NoTask,
    /// The task was never served to this expert.
    NotServed,
    /// This expert already submitted this task (a submission is final).
    AlreadySubmitted,
    /// The task is closed.
    Closed,
    /// The database failed (full disk, lock held too long, a bug).
    Sql(rusqlite::Error),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sql(e)
    }
}

/// A task as the store knows it.
#[derive(Clone, Debug)]
pub struct Task {
    pub id: i64,
    pub fen: String,
    pub chess960: bool,
    pub status: Status,
    /// The agreed set, once there is one.
    pub agreed: Option<MoveSet>,
    /// Submissions so far, and how many of them equal the agreed set.
    pub submissions: usize,
    pub agreeing: usize,
}

/// The pool of connections to the crowd's database.
pub struct Store {
    give: Sender<Connection>,
    take: Receiver<Connection>,
    writer: Writer,
}

/// A borrowed connection, returned to the pool when dropped.
struct Lease<'a> {
    store: &'a Store,
    conn: Option<Connection>,
}

impl std::ops::Deref for Lease<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn
            .as_ref()
            .expect("a lease holds its connection until dropped")
    }
}

impl std::ops::DerefMut for Lease<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        self.conn
            .as_mut()
            .expect("a lease holds its connection until dropped")
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            // The pool's receiver lives as long as the store: this cannot fail.
            let _ = self.store.give.send(conn);
        }
    }
}

pub use crate::gui::db::now_ms;
use crate::gui::db::{connect, Writer};

impl Store {
    /// Opens (creating if needed) the database at `path` with `connections`
    /// connections.
    ///
    /// # Errors
    /// When the file cannot be opened or is not a database of ours.
    pub fn open(path: &Path, connections: usize, writer: Writer) -> Result<Store, String> {
        let fail = |e: rusqlite::Error| format!("cannot open database {}: {e}", path.display());
        let first = connect(path).map_err(fail)?;
        first.execute_batch(SCHEMA).map_err(fail)?;
        let (give, take) = crossbeam_channel::unbounded();
        give.send(first).expect("the pool's receiver is held here");
        for _ in 1..connections.max(1) {
            give.send(connect(path).map_err(fail)?)
                .expect("the pool's receiver is held here");
        }
        Ok(Store { give, take, writer })
    }

    /// Closes every connection (the last one to close checkpoints the
    /// write-ahead log into the database file).
    pub fn shut(self) {
        drop(self.give);
        for conn in self.take.try_iter() {
            if let Err((_, e)) = conn.close() {
                log::warn!("closing the crowd's database: {e}");
            }
        }
    }

    fn lease(&self) -> Lease<'_> {
        let conn = self
            .take
            .recv()
            .expect("the pool's sender is held by the store");
        Lease {
            store: self,
            conn: Some(conn),
        }
    }

    /// Adds an expert and returns its id.
    pub fn join(&self, name: &str, token_hash: &[u8]) -> Result<i64, StoreError> {
        let conn = self.lease();
        let _turn = self.writer.turn();
        conn.execute(
            "INSERT INTO experts (name, token_hash, joined_ms) VALUES (?1, ?2, ?3)",
            params![name, token_hash, now_ms()],
        )?;
        Ok(conn.last_insert_rowid())
    }

    /// An expert's name and stored token hash.
    pub fn expert(&self, id: i64) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        let conn = self.lease();
        let row = conn
            .query_row(
                "SELECT name, token_hash FROM experts WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(row)
    }

    /// Adds tasks (FEN as we print it, Chess960 notation or not); a FEN
    /// already there is skipped. Returns how many were new.
    pub fn add_tasks(&self, tasks: &[(String, bool)]) -> Result<usize, StoreError> {
        let mut conn = self.lease();
        let _turn = self.writer.turn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut added = 0;
        {
            let mut insert = tx.prepare(
                "INSERT OR IGNORE INTO tasks (fen, chess960, added_ms) VALUES (?1, ?2, ?3)",
            )?;
            let now = now_ms();
            for (fen, chess960) in tasks {
                added += insert.execute(params![fen, chess960, now])?;
            }
        }
        tx.commit()?;
        Ok(added)
    }

    /// The task this expert should do next: one served earlier and not yet
    /// submitted if it is still open, else the open task served to the fewest
    /// experts that this one has not seen (recorded as served now).
    pub fn next_task(&self, expert: i64) -> Result<Option<Task>, StoreError> {
        let mut conn = self.lease();
        let _turn = self.writer.turn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let pending: Option<i64> = tx
            .query_row(
                "SELECT v.task FROM served v JOIN tasks t ON t.id = v.task
                 WHERE v.expert = ?1 AND t.status = 'open' AND NOT EXISTS
                   (SELECT 1 FROM submissions s WHERE s.expert = ?1 AND s.task = v.task)
                 ORDER BY v.served_ms LIMIT 1",
                [expert],
                |r| r.get(0),
            )
            .optional()?;
        let id = match pending {
            Some(id) => Some(id),
            None => {
                let fresh: Option<i64> = tx
                    .query_row(
                        "SELECT t.id FROM tasks t WHERE t.status = 'open' AND NOT EXISTS
                           (SELECT 1 FROM served v WHERE v.task = t.id AND v.expert = ?1)
                         ORDER BY (SELECT COUNT(*) FROM served v WHERE v.task = t.id), t.id
                         LIMIT 1",
                        [expert],
                        |r| r.get(0),
                    )
                    .optional()?;
                if let Some(id) = fresh {
                    tx.execute(
                        "INSERT INTO served (expert, task, served_ms) VALUES (?1, ?2, ?3)",
                        params![expert, id, now_ms()],
                    )?;
                }
                fresh
            }
        };
        let task = id.map(|id| read_task(&tx, id)).transpose()?.flatten();
        tx.commit()?;
        Ok(task)
    }

    /// One task.
    pub fn task(&self, id: i64) -> Result<Option<Task>, StoreError> {
        let conn = self.lease();
        Ok(read_task(&conn, id)?)
    }

    /// Records an expert's final set for a task served to them, with its
    /// score against `legal`, and settles agreement: when `k` submissions
    /// of an open task hold one set, the task is confirmed or flagged.
    /// Returns the task as it stands after the submission.
    pub fn submit(
        &self,
        expert: i64,
        task: i64,
        set: &MoveSet,
        legal: &MoveSet,
        k: usize,
    ) -> Result<Task, StoreError> {
        let mut conn = self.lease();
        let _turn = self.writer.turn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let status: Option<String> = tx
            .query_row("SELECT status FROM tasks WHERE id = ?1", [task], |r| {
                r.get(0)
            })
            .optional()?;
        let status = status.ok_or(StoreError::NoTask)?;
        if status == Status::Closed.name() {
            return Err(StoreError::Closed);
        }
        let served: Option<i64> = tx
            .query_row(
                "SELECT served_ms FROM served WHERE expert = ?1 AND task = ?2",
                [expert, task],
                |r| r.get(0),
            )
            .optional()?;
        let served = served.ok_or(StoreError::NotServed)?;
        let now = now_ms();
        let score = Score::of(set, legal);
        let inserted = tx.execute(
            "INSERT OR IGNORE INTO submissions
             (expert, task, moves, found, missed, wrong, millis, submitted_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                expert,
                task,
                agree::join(set),
                score.found,
                score.missed,
                score.wrong,
                (now - served).max(0),
                now
            ],
        )?;
        if inserted == 0 {
            return Err(StoreError::AlreadySubmitted);
        }
        if status == Status::Open.name() {
            let sets = submitted_sets(&tx, task)?;
            if let Some((agreed, _)) = agree::agreement(&sets, k) {
                let verdict = Difference::of(agreed, legal).status();
                tx.execute(
                    "UPDATE tasks SET status = ?1, agreed = ?2 WHERE id = ?3",
                    params![verdict.name(), agree::join(agreed), task],
                )?;
            }
        }
        let after = read_task(&tx, task)?.ok_or(StoreError::NoTask)?;
        tx.commit()?;
        Ok(after)
    }

    /// Closes an open task; an agreed or closed one keeps its status.
    pub fn close(&self, task: i64) -> Result<Task, StoreError> {
        let mut conn = self.lease();
        let _turn = self.writer.turn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "UPDATE tasks SET status = 'closed' WHERE id = ?1 AND status = 'open'",
            [task],
        )?;
        let after = read_task(&tx, task)?.ok_or(StoreError::NoTask)?;
        tx.commit()?;
        Ok(after)
    }

    /// Every task, in the order added.
    pub fn tasks(&self) -> Result<Vec<Task>, StoreError> {
        let conn = self.lease();
        let ids: Vec<i64> = conn
            .prepare("SELECT id FROM tasks ORDER BY id")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut tasks = Vec::with_capacity(ids.len());
        for id in ids {
            tasks.extend(read_task(&conn, id)?);
        }
        Ok(tasks)
    }

    /// How many tasks stand at each status.
    pub fn task_counts(&self) -> Result<Vec<(Status, usize)>, StoreError> {
        let conn = self.lease();
        let rows: Vec<(String, i64)> = conn
            .prepare("SELECT status, COUNT(*) FROM tasks GROUP BY status")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        Ok(rows
            .into_iter()
            .filter_map(|(s, n)| Some((Status::from_name(&s)?, n as usize)))
            .collect())
    }

    /// Every expert's totals, ranked.
    pub fn standings(&self) -> Result<Vec<Standing>, StoreError> {
        let conn = self.lease();
        let mut rows: Vec<Standing> = conn
            .prepare(
                "SELECT e.id, e.name, COUNT(s.task), COALESCE(SUM(s.found), 0),
                        COALESCE(SUM(s.missed), 0), COALESCE(SUM(s.wrong), 0),
                        COALESCE(SUM(s.millis), 0)
                 FROM experts e LEFT JOIN submissions s ON s.expert = e.id
                 GROUP BY e.id",
            )?
            .query_map([], |r| {
                Ok(Standing {
                    expert: r.get(0)?,
                    name: r.get(1)?,
                    tasks: r.get(2)?,
                    score: Score {
                        found: r.get(3)?,
                        missed: r.get(4)?,
                        wrong: r.get(5)?,
                    },
                    millis: r.get::<_, i64>(6)?.max(0) as u64,
                })
            })?
            .collect::<Result<_, _>>()?;
        agree::rank(&mut rows);
        Ok(rows)
    }
}

fn submitted_sets(conn: &Connection, task: i64) -> rusqlite::Result<Vec<MoveSet>> {
    conn.prepare("SELECT moves FROM submissions WHERE task = ?1 ORDER BY submitted_ms, rowid")?
        .query_map([task], |r| r.get::<_, String>(0))?
        .map(|text| text.map(|t| agree::split(&t)))
        .collect()
}

fn read_task(conn: &Connection, id: i64) -> rusqlite::Result<Option<Task>> {
    let row: Option<(String, bool, String, Option<String>)> = conn
        .query_row(
            "SELECT fen, chess960, status, agreed FROM tasks WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let Some((fen, chess960, status, agreed)) = row else {
        return Ok(None);
    };
    let agreed = agreed.map(|a| agree::split(&a));
    let sets = submitted_sets(conn, id)?;
    let agreeing = agreed
        .as_ref()
        .map_or(0, |a| sets.iter().filter(|s| *s == a).count());
    Ok(Some(Task {
        id,
        fen,
        chess960,
        status: Status::from_name(&status).unwrap_or(Status::Open),
        agreed,
        submissions: sets.len(),
        agreeing,
    }))
}
