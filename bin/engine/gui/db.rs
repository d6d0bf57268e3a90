//! The page's SQLite file: how every connection to it is opened. The crowd's
//! tables belong to `crowd::store`, the games' to `play::store`; both live in
//! the one file named by `--db`.

use super::lock::lock;
use rusqlite::Connection;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The file's one writer, in this process: every write transaction (the
/// crowd's and the games') holds it, so SQLite never finds its write lock
/// taken. Its own busy handler would sleep and retry (1 ms, 2 ms, ... up to
/// 100 ms a try), which measured as a 440 ms p99 for the crowd's requests
/// under load; waiting here is a queue instead. Readers need no lock (WAL).
#[derive(Clone, Default)]
pub struct Writer(Arc<Mutex<()>>);

impl Writer {
    /// Waits for the write turn; it ends when the guard is dropped.
    pub fn turn(&self) -> MutexGuard<'_, ()> {
        lock(&self.0)
    }
}

/// A connection in WAL mode with `synchronous = FULL`: a committed write
/// survives a kill of the process, and a power cut too.
pub fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
