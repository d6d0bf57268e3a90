//! `engine gui`: the board page on the loopback interface.
//!
//! The thesis's crowd-sourced move collection and its bitboard pictures as a
//! local web page. The page (HTML, CSS, JavaScript, no build step) is
//! embedded here; the server is a thin JSON layer over `movegen`. One thread
//! answers requests in turn: the page has one user.

mod api;
mod http;
mod play;

use http::{check_caller, json_body, param, split_url, Reply};
use movegen::Position;
use serde_json::{json, Value};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use tiny_http::{Method, Request, Server};

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");
const PLAY_JS: &str = include_str!("page/play.js");

/// Most claims a case may hold (a position has at most 218 legal moves).
const MAX_CLAIMS: usize = 1000;

/// What `engine gui` was asked for.
pub struct Options {
    pub port: u16,
    pub fen: Option<String>,
    pub cases: Option<PathBuf>,
}

struct State {
    port: u16,
    start_fen: String,
    cases: Option<PathBuf>,
    play: play::Play,
}

/// Serves the page until the process is stopped.
pub fn run(options: Options) -> Result<(), String> {
    let start = match &options.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?,
        None => Position::startpos(),
    };
    let server = Server::http(("127.0.0.1", options.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", options.port))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or("the server has no TCP address")?;
    let mut state = State {
        port,
        start_fen: start.fen(api::is_chess960(&start)),
        cases: options.cases,
        play: play::Play::new(),
    };
    println!("listening on http://127.0.0.1:{port}/");
    std::io::stdout().flush().map_err(|e| e.to_string())?;
    loop {
        let request = server.recv().map_err(|e| format!("server stopped: {e}"))?;
        handle(&mut state, request);
    }
}

fn handle(state: &mut State, mut request: Request) {
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        respond(state, &mut request).unwrap_or_else(|e| e)
    }))
    .unwrap_or_else(|_| Reply::error(500, "internal error (logged)"));
    if reply.status >= 400 {
        log::info!("{} {} -> {}", request.method(), request.url(), reply.status);
    }
    reply.send(request);
}

fn respond(state: &mut State, request: &mut Request) -> Result<Reply, Reply> {
    check_caller(request, state.port)?;
    let (path, params) = split_url(request.url())?;
    let method = request.method().clone();
    let get = method == Method::Get || method == Method::Head;
    if path.starts_with("/api/play/") {
        return play::respond(&mut state.play, &method, &path, request);
    }
    match (path.as_str(), get) {
        ("/" | "/index.html", true) => Ok(Reply::file("text/html; charset=utf-8", INDEX_HTML)),
        ("/app.js", true) => Ok(Reply::file("text/javascript; charset=utf-8", APP_JS)),
        ("/style.css", true) => Ok(Reply::file("text/css; charset=utf-8", STYLE_CSS)),
        ("/play.js", true) => Ok(Reply::file("text/javascript; charset=utf-8", PLAY_JS)),
        ("/api/config", true) => Ok(Reply::json(json!({
            "start_fen": state.start_fen,
            "cases_file": state.cases.as_ref().map(|p| p.display().to_string()),
        }))),
        ("/api/position", true) => {
            let (pos, chess960) = position_param(&params)?;
            Ok(Reply::json(api::position(&pos, chess960)))
        }
        ("/api/compare", true) => {
            let (pos, chess960) = position_param(&params)?;
            let claims: Vec<String> = param(&params, "moves")
                .unwrap_or("")
                .split([',', ' '])
                .filter(|m| !m.is_empty())
                .map(String::from)
                .collect();
            if claims.len() > MAX_CLAIMS {
                return Err(Reply::error(400, format!("at most {MAX_CLAIMS} moves")));
            }
            Ok(Reply::json(api::judge(&pos, &claims, chess960).to_json()))
        }
        ("/api/divide", true) => {
            let (pos, chess960) = position_param(&params)?;
            let depth = match param(&params, "depth").unwrap_or("1").parse::<u32>() {
                Ok(d @ 1..=3) => d,
                _ => return Err(Reply::error(400, "depth must be 1, 2 or 3")),
            };
            Ok(Reply::json(api::divide(&pos, depth, chess960)))
        }
        ("/api/random", true) => {
            let plies = match param(&params, "plies").unwrap_or("16").parse::<u32>() {
                Ok(p @ 0..=400) => p,
                _ => return Err(Reply::error(400, "plies must be 0 to 400")),
            };
            let seed = match param(&params, "seed") {
                Some(s) => s
                    .parse::<u64>()
                    .map_err(|_| Reply::error(400, "seed must be a number"))?,
                None => clock_seed(),
            };
            Ok(Reply::json(api::position(
                &api::random_position(plies, seed),
                false,
            )))
        }
        ("/api/suites", true) => Ok(Reply::json(api::suites())),
        ("/api/cases", false) if method == Method::Post => save_case(state, request),
        (
            "/" | "/index.html" | "/app.js" | "/style.css" | "/play.js" | "/api/config"
            | "/api/position" | "/api/compare" | "/api/divide" | "/api/random" | "/api/suites"
            | "/api/cases",
            _,
        ) => Err(Reply::error(
            405,
            format!("{method} is not allowed on {path}"),
        )),
        _ => Err(Reply::error(404, format!("no such page: {path}"))),
    }
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

/// `POST /api/cases` with `{"fen": ..., "moves": [...]}`: judges the claims
/// and appends the case as one line to the `--cases` file.
fn save_case(state: &State, request: &mut Request) -> Result<Reply, Reply> {
    let Some(path) = &state.cases else {
        return Err(Reply::error(
            409,
            "no cases file: start the page with `engine gui --cases FILE`",
        ));
    };
    let body = json_body(request)?;
    let fen = body
        .get("fen")
        .and_then(Value::as_str)
        .ok_or_else(|| Reply::error(400, "body needs \"fen\": a string"))?;
    let claims = body
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| Reply::error(400, "body needs \"moves\": a list of strings"))?;
    if claims.len() > MAX_CLAIMS {
        return Err(Reply::error(400, format!("at most {MAX_CLAIMS} moves")));
    }
    let mut moves = Vec::with_capacity(claims.len());
    for claim in claims {
        match claim.as_str() {
            Some(m) if api::looks_like_uci(m) => moves.push(m.to_string()),
            _ => return Err(Reply::error(400, format!("not a UCI move: {claim}"))),
        }
    }
    let mut params = vec![("fen".to_string(), fen.to_string())];
    if body.get("chess960").and_then(Value::as_bool) == Some(true) {
        params.push(("chess960".to_string(), "1".to_string()));
    }
    let (pos, chess960) = position_param(&params)?;
    let verdict = api::judge(&pos, &moves, chess960);
    let line = verdict.case_line(&pos.fen(chess960), &moves);
    let written = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
    if let Err(e) = written {
        log::warn!("cannot save a case to {}: {e}", path.display());
        return Err(Reply::json_status(
            500,
            json!({"error": format!("cannot write {}: {e}", path.display())}),
        ));
    }
    let mut reply = verdict.to_json();
    reply["line"] = json!(line);
    reply["file"] = json!(path.display().to_string());
    Ok(Reply::json(reply))
}
