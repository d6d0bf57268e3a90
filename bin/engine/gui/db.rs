//! The page's SQLite file: how every connection to it is opened. The crowd's
//! tables belong to `crowd::store`, the games' to `play::store`; both live in
//! the one file named by `--db`.

use rusqlite::Connection;
use std::path::Path;
use std::time::Duration;

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
