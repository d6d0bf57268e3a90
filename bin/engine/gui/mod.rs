//! `engine gui`: the board page.
//!
//! The thesis's crowd-sourced move collection and its bitboard pictures as a
//! web page. The page (HTML, CSS, JavaScript, no build step) is embedded
//! here; the server is a thin JSON layer over `movegen`. Each mode of the
//! page is a module that registers its routes on one [`http::Router`]:
//! `collect` (one expert's list against the generator), `explore` (the
//! bitboards), `crowd` (many experts, agreement, a database), `play`
//! (a game per browser against the engine) and `review` (a game's
//! mistakes, found by the engine on Play's pool). [`server`] owns the
//! connections (hyper on a tokio runtime built here only, timeouts, the
//! Host and Origin layer, graceful shutdown); handlers are plain functions
//! run on the runtime's blocking pool; [`events`] pushes updates. The
//! routes' state is shared read-only or owned by its mode's store, behind
//! [`lock`]'s helpers; what the server promises is written down in
//! `docs/server.md`.

mod api;
mod collect;
mod crowd;
mod db;
mod events;
mod explore;
mod http;
mod lock;
mod play;
mod review;
mod server;

use axum::http::Method;
use http::{param, Reply, Router, Site};
use movegen::{CastlingMode, Position};
use serde_json::json;
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::watch;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// What `engine gui` was asked for.
pub struct Options {
    pub address: IpAddr,
    pub port: u16,
    pub hosts: Vec<String>,
    pub threads: usize,
    pub engine_threads: usize,
    /// Event streams open at once, over every mode.
    pub max_streams: usize,
    pub fen: Option<String>,
    pub cases: Option<PathBuf>,
    pub crowd: crowd::Options,
}

pub use crowd::Options as CrowdOptions;
pub use events::DEFAULT_MAX_STREAMS;

/// The crowd's database file when none is named: in the working directory.
pub const DEFAULT_DB: &str = "pinmask-crowd.sqlite";

/// Serves the page until Ctrl-C or SIGTERM, then shuts down cleanly.
///
/// The tokio runtime is built here, so the engine's other commands never
/// start one.
pub fn run(options: Options) -> Result<(), String> {
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
    let served = runtime.block_on(serve(
        options,
        start,
        Arc::clone(&crowd),
        Arc::clone(&play),
        Arc::clone(&reviews),
    ));
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

async fn serve(
    options: Options,
    start: Position,
    crowd: Arc<crowd::Crowd>,
    play: Arc<play::Play>,
    reviews: Arc<review::Reviews>,
) -> Result<(), String> {
    let listener = server::listen((options.address, options.port).into())
        .map_err(|e| format!("cannot listen on {}:{}: {e}", options.address, options.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("the server has no TCP address: {e}"))?;
    let site = Site::new(addr.ip(), addr.port(), &options.hosts);
    let (closing_tx, closing) = watch::channel(false);
    let mut router = Router::default();
    let cases_file = options.cases.as_ref().map(|p| p.display().to_string());
    let chess960 = CastlingMode::from_chess960(api::is_chess960(&start));
    page_routes(&mut router, start.fen_with(chess960), cases_file);
    collect::register(&mut router, options.cases);
    explore::register(&mut router);
    let streams = events::Streams::new(options.max_streams, closing.clone());
    crowd::register(&mut router, Arc::clone(&crowd), streams.clone());
    play::register(&mut router, Arc::clone(&play), streams.clone());
    review::register(&mut router, reviews, streams);
    let host = match addr.ip() {
        IpAddr::V6(v6) => format!("[{v6}]"),
        v4 => v4.to_string(),
    };
    let banner = format!(
        "listening on http://{host}:{}/\n{}\n",
        addr.port(),
        crowd.organiser_line()
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

/// The page's files and the routes every mode reads: positions, random
/// positions, the bundled suites, the start-up settings.
fn page_routes(router: &mut Router, start_fen: String, cases_file: Option<String>) {
    let files = [
        ("/", "text/html; charset=utf-8", INDEX_HTML),
        ("/index.html", "text/html; charset=utf-8", INDEX_HTML),
        ("/app.js", "text/javascript; charset=utf-8", APP_JS),
        ("/style.css", "text/css; charset=utf-8", STYLE_CSS),
    ];
    for (path, kind, body) in files {
        router.add(Method::GET, path, move |_| Ok(Reply::file(kind, body)));
    }
    router.add(Method::GET, "/api/config", move |_| {
        Ok(Reply::json(
            json!({ "start_fen": start_fen, "cases_file": cases_file }),
        ))
    });
    router.add(Method::GET, "/api/position", |call| {
        let (pos, chess960) = position_param(&call.params)?;
        Ok(Reply::json(api::position(&pos, chess960)))
    });
    router.add(Method::GET, "/api/random", |call| {
        let plies = match param(&call.params, "plies").unwrap_or("16").parse::<u32>() {
            Ok(p @ 0..=400) => p,
            _ => return Err(Reply::error(400, "plies must be 0 to 400")),
        };
        let seed = match param(&call.params, "seed") {
            Some(s) => s
                .parse::<u64>()
                .map_err(|_| Reply::error(400, "seed must be a number"))?,
            None => clock_seed(),
        };
        Ok(Reply::json(api::position(
            &api::random_position(plies, seed),
            false,
        )))
    });
    router.add(Method::GET, "/api/suites", |_| {
        Ok(Reply::json(api::suites()))
    });
}

/// The `fen` parameter (default: the start position) and the castling
/// notation: `chess960=1` asks for king-takes-rook, else it is chosen from
/// the castling rights.
fn position_param(params: &[(String, String)]) -> Result<(Position, bool), Reply> {
    let fen = param(params, "fen").unwrap_or(movegen::STARTPOS_FEN);
    let pos = Position::from_fen(fen).map_err(|e| Reply::error(400, e.to_string()))?;
    let forced = matches!(param(params, "chess960"), Some("1" | "true"));
    Ok((pos, forced || api::is_chess960(&pos)))
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}
