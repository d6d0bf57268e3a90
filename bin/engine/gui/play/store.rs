//! The games' table: every game on the page is one row, written (and
//! committed, `synchronous = FULL`) before the change is answered or pushed,
//! so a restarted server resumes each game where it was.

use crate::gui::db::{connect, Writer};
use rusqlite::{params, Connection};
use std::path::Path;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS play_games (
    session TEXT PRIMARY KEY,
    game INTEGER NOT NULL,
    start_fen TEXT NOT NULL,
    chess960 INTEGER NOT NULL,
    person TEXT NOT NULL,
    strength TEXT NOT NULL,
    base_ms INTEGER,
    inc_ms INTEGER,
    moves TEXT NOT NULL,
    white_ms INTEGER,
    black_ms INTEGER,
    running TEXT,
    end_reason TEXT,
    end_winner TEXT,
    started_ms INTEGER NOT NULL,
    touched_ms INTEGER NOT NULL
);
";

/// One game as stored; clocks hold what each side had left when saved.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    pub session: String,
    pub game: u64,
    pub start_fen: String,
    pub chess960: bool,
    pub person: String,
    pub strength: String,
    /// Base and increment, for a game with a clock.
    pub clock: Option<(u64, u64)>,
    /// The moves in UCI, separated by spaces.
    pub moves: String,
    /// White's and Black's time left, for a game with a clock.
    pub left: Option<(u64, u64)>,
    /// `white` or `black` while a clock runs.
    pub running: Option<String>,
    /// The end's reason code and winner (`null` for a draw).
    pub end: Option<(String, Option<String>)>,
    pub started_ms: i64,
    pub touched_ms: i64,
}

/// The connection that writes the games.
pub struct GameStore {
    conn: Connection,
    writer: Writer,
}

impl GameStore {
    /// Opens the games' table in the database at `path`.
    ///
    /// # Errors
    /// When the file cannot be opened or is not a database of ours.
    pub fn open(path: &Path, writer: Writer) -> Result<GameStore, String> {
        let fail = |e: rusqlite::Error| format!("cannot open database {}: {e}", path.display());
        let conn = connect(path).map_err(fail)?;
        conn.execute_batch(SCHEMA).map_err(fail)?;
        Ok(GameStore { conn, writer })
    }

    /// Writes `game` (replacing the session's previous one).
    pub fn save(&self, g: &Saved) -> rusqlite::Result<()> {
        let (end_reason, end_winner) = match &g.end {
            Some((reason, winner)) => (Some(reason.as_str()), winner.as_deref()),
            None => (None, None),
        };
        let _turn = self.writer.turn();
        self.conn.execute(
            "INSERT OR REPLACE INTO play_games (session, game, start_fen, chess960, person,
                strength, base_ms, inc_ms, moves, white_ms, black_ms, running, end_reason,
                end_winner, started_ms, touched_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            params![
                g.session,
                g.game as i64,
                g.start_fen,
                g.chess960,
                g.person,
                g.strength,
                g.clock.map(|c| c.0 as i64),
                g.clock.map(|c| c.1 as i64),
                g.moves,
                g.left.map(|l| l.0 as i64),
                g.left.map(|l| l.1 as i64),
                g.running,
                end_reason,
                end_winner,
                g.started_ms,
                g.touched_ms,
            ],
        )?;
        Ok(())
    }

    /// Forgets a session's game.
    pub fn delete(&self, session: &str) -> rusqlite::Result<()> {
        let _turn = self.writer.turn();
        self.conn
            .execute("DELETE FROM play_games WHERE session = ?1", [session])?;
        Ok(())
    }

    /// Every stored game.
    pub fn load(&self) -> rusqlite::Result<Vec<Saved>> {
        let mut query = self.conn.prepare(
            "SELECT session, game, start_fen, chess960, person, strength, base_ms, inc_ms,
                    moves, white_ms, black_ms, running, end_reason, end_winner, started_ms,
                    touched_ms
             FROM play_games ORDER BY touched_ms, session",
        )?;
        let rows = query.query_map([], |r| {
            let pair = |a: Option<i64>, b: Option<i64>| Some((a? as u64, b? as u64));
            let end_reason: Option<String> = r.get(12)?;
            Ok(Saved {
                session: r.get(0)?,
                game: r.get::<_, i64>(1)? as u64,
                start_fen: r.get(2)?,
                chess960: r.get(3)?,
                person: r.get(4)?,
                strength: r.get(5)?,
                clock: pair(r.get(6)?, r.get(7)?),
                moves: r.get(8)?,
                left: pair(r.get(9)?, r.get(10)?),
                running: r.get(11)?,
                end: end_reason.map(|reason| (reason, r.get(13).ok().flatten())),
                started_ms: r.get(14)?,
                touched_ms: r.get(15)?,
            })
        })?;
        rows.collect()
    }

    /// Closes the connection.
    pub fn close(self) {
        if let Err((_, e)) = self.conn.close() {
            log::warn!("closing the games' database: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_round_trips_and_is_replaced_and_deleted() {
        let dir = std::env::temp_dir().join(format!("pinmask-play-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.sqlite");
        let _ = std::fs::remove_file(&path);
        let store = GameStore::open(&path, Writer::default()).unwrap();
        let mut g = Saved {
            session: "s1".into(),
            game: 7,
            start_fen: movegen::STARTPOS_FEN.into(),
            chess960: false,
            person: "white".into(),
            strength: "movetime:100".into(),
            clock: Some((60_000, 1_000)),
            moves: "e2e4 e7e5".into(),
            left: Some((59_000, 58_500)),
            running: Some("white".into()),
            end: None,
            started_ms: 1,
            touched_ms: 2,
        };
        store.save(&g).unwrap();
        g.end = Some(("resignation".into(), Some("black".into())));
        g.running = None;
        store.save(&g).unwrap();
        let other = Saved {
            session: "s2".into(),
            clock: None,
            left: None,
            end: Some(("stalemate".into(), None)),
            ..g.clone()
        };
        store.save(&other).unwrap();
        store.close();
        let store = GameStore::open(&path, Writer::default()).unwrap();
        assert_eq!(store.load().unwrap(), [g.clone(), other]);
        store.delete("s2").unwrap();
        assert_eq!(store.load().unwrap(), [g]);
        store.close();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
