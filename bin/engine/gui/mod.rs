//! `engine gui`: the board page.
//!
//! The thesis's crowd-sourced move collection and its bitboard pictures as a
//! web page. The page (HTML, CSS, JavaScript, no build step) is embedded
//! here; the server is a thin JSON layer over `movegen`. Each mode of the
//! page is a module that hands one [`router::Router`] its route table:
//! `page` (the files, positions), `collect` (one expert's list against the
//! generator), `explore` (the bitboards), `crowd` (many experts,
//! agreement, a database), `play` (a game per browser against the engine)
//! and `review` (a game's mistakes, found by the engine on Play's pool).
//! Every route is written one way ([`router`]): a plain function of its
//! mode's state and a typed input ([`extract`]), run on the runtime's
//! blocking pool; bad input is a 4xx with a JSON `error` before the
//! handler runs. [`server`] owns the connections (hyper on a tokio runtime
//! built here only, timeouts, the Host and Origin layer, graceful
//! shutdown); [`events`] pushes updates. The routes' state is shared
//! read-only or owned by its mode's store, behind [`lock`]'s helpers; what
//! the server promises is written down in `docs/server.md`.

mod api;
mod collect;
mod crowd;
mod db;
mod events;
mod explore;
mod extract;
mod http;
mod lock;
mod page;
mod play;
mod review;
mod router;
mod server;
#[cfg(test)]
mod tests;

use http::Site;
use movegen::{CastlingMode, Position};
use router::Router;
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::watch;

/// What `engine gui` was asked for.
pub struct GuiOptions {
    pub address: IpAddr,
    pub port: u16,
    pub hosts: Vec<String>,
    pub threads: usize,
    pub engine_threads: usize,
    /// Event streams open at once, over every mode.
    pub max_streams: usize,
    pub fen: Option<String>,
    pub cases: Option<PathBuf>,
    pub crowd: crowd::CrowdOptions,
}

pub use crowd::CrowdOptions;
pub use events::DEFAULT_MAX_STREAMS;

/// The crowd's database file when none is named: in the working directory.
pub const DEFAULT_DB: &str = "pinmask-crowd.sqlite";

/// Serves the page until Ctrl-C or SIGTERM, then shuts down cleanly.
///
/// The tokio runtime is built here, so the engine's other commands never
/// start one.
pub fn run(options: GuiOptions) -> Result<(), String> {
    let start = match &options.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?,
        None => Position::startpos(),
    };
    // Handlers run on tokio's blocking pool (up to its default of 512
    // threads): a request waiting for the database holds a thread, never
    // the way of a request that does not touch it.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("gui")
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    let writer = db::Writer::default();
    let crowd = Arc::new(crowd::Crowd::open(
        &options.crowd,
        options.threads,
        writer.clone(),
    )?);
    let play = play::Play::open(&options.crowd.db, options.engine_threads, writer)?;
    let reviews = review::Reviews::new(Arc::clone(&play));
    let modes = Modes {
        crowd: Arc::clone(&crowd),
        play: Arc::clone(&play),
        reviews: Arc::clone(&reviews),
    };
    let served = runtime.block_on(serve(options, start, modes));
    // Handlers still running on the blocking pool finish their writes here.
    drop(runtime);
    reviews.close();
    play.close();
    match Arc::try_unwrap(crowd) {
        Ok(crowd) => crowd.close(),
        Err(_) => log::warn!("the crowd's database is still in use at exit"),
    }
    served
}

async fn serve(options: GuiOptions, start: Position, modes: Modes) -> Result<(), String> {
    let listener = server::listen((options.address, options.port).into())
        .map_err(|e| format!("cannot listen on {}:{}: {e}", options.address, options.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("the server has no TCP address: {e}"))?;
    let site = Site::new(addr.ip(), addr.port(), &options.hosts);
    let (closing_tx, closing) = watch::channel(false);
    let streams = events::Streams::new(options.max_streams, closing.clone());
    let organiser_line = modes.crowd.organiser_line().to_string();
    let router = routes(&start, options.cases, modes, streams);
    let host = match addr.ip() {
        IpAddr::V6(v6) => format!("[{v6}]"),
        v4 => v4.to_string(),
    };
    let banner = format!(
        "listening on http://{host}:{}/\n{}\n",
        addr.port(),
        organiser_line
    );
    // One write: a reader that stops after the first line (a test) must not
    // turn the second into a broken pipe. Nobody reading is no reason to stop.
    let mut out = std::io::stdout();
    if let Err(e) = out.write_all(banner.as_bytes()).and_then(|()| out.flush()) {
        log::warn!("cannot print the start-up lines: {e}");
    }
    tokio::spawn(server::signals(closing_tx));
    let app = server::layered(router.build(), site);
    server::serve(listener, app, closing).await;
    Ok(())
}

/// The state of the modes that keep one.
struct Modes {
    crowd: Arc<crowd::Crowd>,
    play: Arc<play::Play>,
    reviews: Arc<review::Reviews>,
}

/// Every mode's route table on one router; the page starts at `start`,
/// cases are appended to `cases`, event streams are opened by `streams`.
fn routes(
    start: &Position,
    cases: Option<PathBuf>,
    modes: Modes,
    streams: events::Streams,
) -> Router {
    let mut router = Router::default();
    let chess960 = CastlingMode::from_chess960(api::is_chess960(start));
    let config = page::Config {
        start_fen: start.fen_with(chess960),
        cases_file: cases.as_ref().map(|p| p.display().to_string()),
    };
    router.table(Arc::new(config), page::routes());
    router.table((), explore::routes());
    router.table(collect::Cases::new(cases), collect::routes());
    crowd::register(&mut router, modes.crowd, streams.clone());
    play::register(&mut router, modes.play, streams.clone());
    review::register(&mut router, modes.reviews, streams);
    router
}

/// A seed for the random positions when the request names none.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}
