//! `engine gui`: the board page.
//!
//! The thesis's crowd-sourced move collection and its bitboard pictures as a
//! web page. The page (HTML, CSS, JavaScript, no build step) is embedded
//! here; the server is a thin JSON layer over `movegen`. Each mode of the
//! page is a module that registers its routes on one [`http::Router`]:
//! `collect` (one expert's list against the generator), `explore` (the
//! bitboards) and `crowd` (many experts, agreement, a database). A pool of
//! threads answers requests concurrently; the routes' state is shared
//! read-only or owned by the crowd's store.

mod api;
mod collect;
mod crowd;
mod explore;
mod http;
mod play;

use http::{param, Reply, Router, Site};
use movegen::Position;
use serde_json::json;
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tiny_http::{Method, Request, Server};

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// What `engine gui` was asked for.
pub struct Options {
    pub address: IpAddr,
    pub port: u16,
    pub hosts: Vec<String>,
    pub threads: usize,
    pub fen: Option<String>,
    pub cases: Option<PathBuf>,
    pub crowd: crowd::Options,
}

pub use crowd::Options as CrowdOptions;

/// The crowd's database file when none is named: in the working directory.
pub const DEFAULT_DB: &str = "pinmask-crowd.sqlite";

/// Serves the page until the process is stopped.
pub fn run(options: Options) -> Result<(), String> {
    let start = match &options.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?,
        None => Position::startpos(),
    };
    let crowd = Arc::new(crowd::Crowd::open(&options.crowd, options.threads)?);
    let server = Server::http((options.address, options.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", options.address, options.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no TCP address")?;
    let site = Site::new(addr.ip(), addr.port(), &options.hosts);
    let mut router = Router::default();
    let cases_file = options.cases.as_ref().map(|p| p.display().to_string());
    page_routes(&mut router, start.fen(api::is_chess960(&start)), cases_file);
    collect::register(&mut router, options.cases);
    explore::register(&mut router);
    crowd::register(&mut router, Arc::clone(&crowd));
    play::register(&mut router);
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
    let server = Arc::new(server);
    let shared = Arc::new((site, router));
    let workers: Vec<_> = (0..options.threads)
        .map(|_| {
            let server = Arc::clone(&server);
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    handle(&shared.0, &shared.1, request);
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.join();
    }
    Err("server stopped".to_string())
}

fn handle(site: &Site, router: &Router, mut request: Request) {
    let reply = answer(site, router, &mut request);
    if reply.status >= 400 {
        log::info!("{} {} -> {}", request.method(), request.url(), reply.status);
    }
    reply.send(request);
}

/// The reply to `request`: a bug in a handler (a panic) becomes a 500, and
/// the thread goes on to the next request.
fn answer(site: &Site, router: &Router, request: &mut Request) -> Reply {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        site.check(request)
            .and_then(|()| router.dispatch(request))
            .unwrap_or_else(|e| e)
    }))
    .unwrap_or_else(|_| Reply::error(500, "internal error (logged)"))
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
        router.add(Method::Get, path, move |_| Ok(Reply::file(kind, body)));
    }
    router.add(Method::Get, "/api/config", move |_| {
        Ok(Reply::json(
            json!({ "start_fen": start_fen, "cases_file": cases_file }),
        ))
    });
    router.add(Method::Get, "/api/position", |call| {
        let (pos, chess960) = position_param(call.params)?;
        Ok(Reply::json(api::position(&pos, chess960)))
    });
    router.add(Method::Get, "/api/random", |call| {
        let plies = match param(call.params, "plies").unwrap_or("16").parse::<u32>() {
            Ok(p @ 0..=400) => p,
            _ => return Err(Reply::error(400, "plies must be 0 to 400")),
        };
        let seed = match param(call.params, "seed") {
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
    router.add(Method::Get, "/api/suites", |_| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use tiny_http::{Header, TestRequest};

    fn request(method: Method, path: &str) -> Request {
        TestRequest::new()
            .with_method(method)
            .with_path(path)
            .with_header(Header::from_bytes("Host", "127.0.0.1:80").unwrap())
            .into()
    }

    #[test]
    fn a_panicking_handler_is_a_500_and_the_router_goes_on() {
        let site = Site::new([127, 0, 0, 1].into(), 80, &[]);
        let mut router = Router::default();
        router.add(Method::Get, "/bug", |_| panic!("a bug in a handler"));
        router.add(Method::Get, "/fine", |_| {
            Ok(Reply::json(json!({"ok": true})))
        });
        let bug = answer(&site, &router, &mut request(Method::Get, "/bug"));
        assert_eq!(bug.status, 500);
        assert!(bug.body.contains("internal error"));
        let fine = answer(&site, &router, &mut request(Method::Get, "/fine"));
        assert_eq!((fine.status, fine.body.as_str()), (200, r#"{"ok":true}"#));
        let head = answer(&site, &router, &mut request(Method::Head, "/fine"));
        assert_eq!(head.status, 200, "HEAD is answered as GET");
        assert_eq!(
            answer(&site, &router, &mut request(Method::Post, "/fine")).status,
            405
        );
        assert_eq!(
            answer(&site, &router, &mut request(Method::Get, "/none")).status,
            404
        );
    }

    #[test]
    fn hosts_follow_the_address_served() {
        let lan = Site::new(
            [192, 168, 1, 5].into(),
            8960,
            &["chess.example.org".to_string()],
        );
        let ask = |host: &str, origin: Option<&str>| {
            let mut r = TestRequest::new()
                .with_method(Method::Post)
                .with_path("/x")
                .with_header(Header::from_bytes("Host", host).unwrap());
            if let Some(o) = origin {
                r = r.with_header(Header::from_bytes("Origin", o).unwrap());
            }
            lan.check(&r.into()).map_err(|e| e.status)
        };
        assert_eq!(ask("192.168.1.5:8960", None), Ok(()));
        assert_eq!(
            ask("chess.example.org", Some("https://chess.example.org")),
            Ok(())
        );
        assert_eq!(ask("localhost:8960", None), Err(403), "not loopback");
        assert_eq!(ask("127.0.0.1:8960", None), Err(403));
        assert_eq!(
            ask("192.168.1.5:8960", Some("http://evil.example")),
            Err(403)
        );
        let local = Site::new([127, 0, 0, 1].into(), 80, &[]);
        let r: Request = TestRequest::new()
            .with_header(Header::from_bytes("Host", "localhost:80").unwrap())
            .into();
        assert!(local.check(&r).is_ok());
    }
}
