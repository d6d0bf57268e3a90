//! The crowd mode: the thesis's crowd-sourced test of the move generator
//! (its chapters 4 and 5.1). Experts join under a name and get a secret
//! token; each is served the least-covered open task (a position) they have
//! not done and submits every legal move they see, once. When K experts
//! submit exactly the same set, the task is agreed: confirmed if the set is
//! the generator's, flagged for the organiser if not. The organiser (a
//! token printed at start-up or kept in a file) loads positions, closes
//! tasks and exports the agreed cases as EPD for the test suite.
//!
//! The rules are plain functions in [`agree`]; the rows live in [`store`],
//! which alone opens the database; [`token`] makes and checks secrets. This
//! file is the HTTP glue between them.

pub mod agree;
mod routes;

pub use routes::register;
mod store;
mod token;

use super::db::Writer;
use super::events::Pushed;
use super::http::{cookie, Reply};
use super::router::blocking;
use agree::MoveSet;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use movegen::{CastlingMode, Position};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use store::{Store, StoreError};
use tokio::sync::watch;

/// The cookie that carries an expert's token for the page.
const COOKIE: &str = "pinmask_crowd";
/// The id part of the organiser's token (`organiser.<secret>`).
const ORGANISER: &str = "organiser";

/// What `engine gui` was asked for about the crowd.
pub struct CrowdOptions {
    /// The database file.
    pub db: PathBuf,
    /// Experts whose identical sets make a task agreed.
    pub agree: usize,
    /// A file holding the organiser's token (made if missing).
    pub organiser_token_file: Option<PathBuf>,
}

/// The crowd mode's state: the store, K, the organiser's token hash, and
/// the leaderboard pushed to pages.
pub struct Crowd {
    store: Store,
    k: usize,
    organiser: token::TokenHash,
    organiser_line: String,
    /// Bumped by every change the leaderboard shows.
    changed: watch::Sender<u64>,
    /// The leaderboard as last pushed.
    board: watch::Sender<Pushed>,
}

/// Who a request's token belongs to.
#[derive(Debug, PartialEq)]
enum Who {
    /// An expert: id and name.
    Expert(i64, String),
    /// The organiser.
    Organiser,
}

impl Crowd {
    /// Opens the database with a connection per worker thread and settles
    /// the organiser's token.
    ///
    /// # Errors
    /// When the database or the token file cannot be used.
    pub fn open(options: &CrowdOptions, threads: usize, writer: Writer) -> Result<Crowd, String> {
        let store = Store::open(&options.db, threads, writer)?;
        let (secret, line) = match &options.organiser_token_file {
            Some(path) => (
                token_from_file(path)?,
                format!("organiser token: in {}", path.display()),
            ),
            None => {
                let secret = token::secret()?;
                let line = format!("organiser token: {ORGANISER}.{secret}");
                (secret, line)
            }
        };
        let empty = Pushed {
            name: "leaderboard",
            data: "null".into(),
        };
        Ok(Crowd {
            store,
            k: options.agree,
            organiser: token::hash(&secret),
            organiser_line: line,
            changed: watch::Sender::new(0),
            board: watch::Sender::new(empty),
        })
    }

    /// Closes the database's connections.
    pub fn close(self) {
        self.store.shut();
    }

    /// Tells the leaderboard's pusher that something it shows changed.
    fn touch(&self) {
        self.changed.send_modify(|n| *n += 1);
    }

    /// The start-up line that tells the organiser their token.
    pub fn organiser_line(&self) -> &str {
        &self.organiser_line
    }

    /// Who the request's token (bearer, else the cookie) belongs to; `None`
    /// without a token.
    ///
    /// The organiser's token counts only as `Authorization: Bearer`: the
    /// server never puts it in a cookie, and a cookie goes along with every
    /// request the browser makes, so one planted there would lend the
    /// organiser's rights to any request from the page.
    ///
    /// # Errors
    /// 401 for a token that is not valid (any shape, forged or unknown),
    /// and for the organiser's token in the cookie.
    fn who(&self, headers: &HeaderMap) -> Result<Option<Who>, Reply> {
        let (given, from_cookie) = match bearer(headers) {
            Some(token) => (token, false),
            None => match cookie(headers, COOKIE) {
                Some(token) => (token, true),
                None => return Ok(None),
            },
        };
        let invalid = || Reply::error(401, "the token is not valid: join again");
        let (id, secret) = token::parse(given).ok_or_else(invalid)?;
        if id == ORGANISER {
            if from_cookie {
                return Err(Reply::error(
                    401,
                    "the organiser's token is accepted only as Authorization: Bearer, not in a cookie",
                ));
            }
            return match token::matches(secret, &self.organiser) {
                true => Ok(Some(Who::Organiser)),
                false => Err(invalid()),
            };
        }
        let id: i64 = id.parse().map_err(|_| invalid())?;
        let (name, stored) = self
            .store
            .expert(id)
            .map_err(store_error)?
            .ok_or_else(invalid)?;
        match token::matches(secret, &stored) {
            true => Ok(Some(Who::Expert(id, name))),
            false => Err(invalid()),
        }
    }
}

/// What a route asks of the request's token; checked before the body is
/// parsed (see [`Token`]).
trait Role: Sized + Send + 'static {
    /// The role `headers` carry, or the 401 or 403 that refuses them.
    fn of(crowd: &Crowd, headers: &HeaderMap) -> Result<Self, Reply>;
}

/// Anyone: who the token belongs to, `None` without one (an invalid
/// token is still 401).
impl Role for Option<Who> {
    fn of(crowd: &Crowd, headers: &HeaderMap) -> Result<Option<Who>, Reply> {
        crowd.who(headers)
    }
}

/// An expert, by id. No token or an invalid one is 401; the
/// organiser's token is 403.
struct Expert(i64);

impl Role for Expert {
    fn of(crowd: &Crowd, headers: &HeaderMap) -> Result<Expert, Reply> {
        match crowd.who(headers)? {
            Some(Who::Expert(id, _)) => Ok(Expert(id)),
            Some(Who::Organiser) => Err(Reply::error(
                403,
                "the organiser's token is not an expert's: join as an expert",
            )),
            None => Err(Reply::error(401, "no token: join first")),
        }
    }
}

/// The organiser: none or an invalid token is 401, an expert's is 403.
struct Organiser;

impl Role for Organiser {
    fn of(crowd: &Crowd, headers: &HeaderMap) -> Result<Organiser, Reply> {
        match crowd.who(headers)? {
            Some(Who::Organiser) => Ok(Organiser),
            Some(Who::Expert(..)) => Err(Reply::error(403, "only the organiser may do this")),
            None => Err(Reply::error(
                401,
                "the organiser's token is required (Authorization: Bearer)",
            )),
        }
    }
}

/// The request's token checked as role `R`, on the blocking pool (an
/// expert's is looked up in the database). As the first input of a route
/// it is read before the body, so a request without the right token is
/// 401 or 403 whatever its body holds.
struct Token<R>(R);

impl<R: Role> FromRequestParts<Arc<Crowd>> for Token<R> {
    type Rejection = Reply;

    async fn from_request_parts(parts: &mut Parts, crowd: &Arc<Crowd>) -> Result<Self, Reply> {
        let (crowd, headers) = (Arc::clone(crowd), parts.headers.clone());
        blocking(move || R::of(&crowd, &headers)).await?.map(Token)
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The organiser's secret from `path`, written there first if the file does
/// not exist (readable by its owner only).
fn token_from_file(path: &Path) -> Result<String, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => match token::parse(text.trim()) {
            Some((ORGANISER, secret)) => Ok(secret.to_string()),
            _ => Err(format!(
                "{} does not hold an organiser token ({ORGANISER}.<64 hex digits>)",
                path.display()
            )),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let secret = token::secret()?;
            write_private(path, &format!("{ORGANISER}.{secret}\n"))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(secret)
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)?.write_all(text.as_bytes())
}

/// The HTTP reply for a store failure.
fn store_error(e: StoreError) -> Reply {
    match e {
        StoreError::NoTask => Reply::error(404, "no such task"),
        StoreError::NotServed => Reply::error(
            409,
            "this task was not served to you: ask for the next task",
        ),
        StoreError::AlreadySubmitted => Reply::error(
            409,
            "you already submitted this task; a submission is final",
        ),
        StoreError::Closed => Reply::error(409, "the organiser closed this task"),
        StoreError::Sql(e) => {
            log::error!("database: {e}");
            let busy = matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            );
            if busy {
                Reply::error(503, "the database is busy: try again")
            } else {
                Reply::error(500, "database error (logged)")
            }
        }
    }
}

/// The generator's legal moves in the task's notation.
fn legal(pos: &Position, chess960: bool) -> MoveSet {
    pos.legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::from_chess960(chess960)).to_string())
        .collect()
}

/// An expert's claims as a set: legal ones in our notation (so `e1h1` for
/// standard castling becomes `e1g1`), the rest as written.
fn normalise(pos: &Position, claims: &[String], chess960: bool) -> MoveSet {
    claims
        .iter()
        .map(
            |c| match movegen::explain_move(&crate::gui::api::with_mode(pos, chess960), c) {
                Ok(mv) => mv.to_uci(CastlingMode::from_chess960(chess960)).to_string(),
                Err(_) => c.clone(),
            },
        )
        .collect()
}
