//! The board page's JSON API against the real binary (`engine gui --port 0`):
//! legal move lists for every thesis position, divide counts, bad FENs,
//! foreign Host and Origin, malformed requests, and saved cases.

#[path = "support/gui_server.rs"]
mod gui_server;

use gui_server::{raw, start, start_with, Server};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn request(s: &Server, method: &str, path: &str, headers: &[&str], body: &str) -> (u16, Value) {
    let reply = s.request(method, path, headers, body);
    (reply.status, reply.json())
}

fn get(s: &Server, path: &str) -> (u16, Value) {
    s.get(path)
}

fn enc(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

fn epd(name: &str) -> Vec<(String, Vec<(String, String)>)> {
    let text = std::fs::read_to_string(format!("tests/data/{name}")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let ops = parts
                .map(|op| {
                    let op = op.trim();
                    let (k, v) = op.split_once(' ').unwrap_or((op, ""));
                    (k.to_string(), v.to_string())
                })
                .collect();
            (fen, ops)
        })
        .collect()
}

fn op<'a>(ops: &'a [(String, String)], name: &str) -> &'a str {
    &ops.iter().find(|(k, _)| k == name).unwrap().1
}

#[test]
fn thesis_positions_list_their_legal_moves() {
    let s = start("thesis");
    let positions = epd("thesis_positions.epd");
    assert!(positions.len() >= 20);
    for (fen, ops) in &positions {
        let (status, pos) = get(&s, &format!("/api/position?fen={}", enc(fen)));
        assert_eq!(status, 200, "{fen}");
        assert_eq!(pos["fen"], fen.as_str());
        let mut expected: Vec<String> = op(ops, "moves")
            .split_whitespace()
            .map(String::from)
            .collect();
        expected.sort();
        assert_eq!(strings(&pos["legal"]), expected, "{fen}");
        // Every legal move has its SAN, which the library parses back to it.
        let board: movegen::Position = fen.parse().unwrap();
        for uci in &expected {
            let san = pos["san"][uci.as_str()]
                .as_str()
                .unwrap_or_else(|| panic!("{fen}: no SAN for {uci}"));
            let mv = board
                .parse_san(san)
                .unwrap_or_else(|e| panic!("{fen}: {san}: {e}"));
            assert_eq!(
                &mv.to_uci(movegen::CastlingMode::Standard).to_string(),
                uci,
                "{fen}: {san}"
            );
        }
        let (_, div) = get(&s, &format!("/api/divide?fen={}&depth=2", enc(fen)));
        assert_eq!(div["nodes"].to_string(), op(ops, "D2"), "{fen}");
    }
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let s = start("960");
    for (fen, ops) in epd("perft_chess960.epd").iter().take(40) {
        let (status, pos) = get(&s, &format!("/api/position?fen={}", enc(fen)));
        assert_eq!(status, 200, "{fen}");
        assert_eq!(pos["chess960"], true, "{fen}");
        assert_eq!(
            pos["legal"].as_array().unwrap().len().to_string(),
            op(ops, "D1")
        );
    }
    // King b1, rook h1: castling is b1h1, and the Shredder field is printed.
    let fen = "6kr/8/8/8/8/8/8/RK5R w Hh - 0 1";
    let (_, pos) = get(&s, &format!("/api/position?fen={}", enc(fen)));
    assert_eq!(pos["fen"], fen);
    assert!(strings(&pos["legal"]).contains(&"b1h1".to_string()));
    let (_, verdict) = get(
        &s,
        &format!("/api/compare?fen={}&moves=b1h1,b1a1", enc(fen)),
    );
    assert_eq!(strings(&verdict["found"]), ["b1h1"]);
    assert_eq!(
        verdict["wrong"][0]["reason"],
        "no castling right is left on the queen side (O-O-O)"
    );
}

#[test]
fn bad_fens_get_the_typed_error() {
    let s = start("badfen");
    let cases = [
        ("8/8/8 w - -", "piece placement: expected 8 ranks, found 3"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move: expected 'w' or 'b'",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w -", "expected 4 to 6 fields, found 3"),
        (
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
            "piece placement: White has 0 kings, expected 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",
            "castling: right 'Q' needs its king and rook on their squares",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 x",
            "expected 4 to 6 fields, found 7",
        ),
        ("", "expected 4 to 6 fields, found 0"),
    ];
    for (fen, message) in cases {
        assert_eq!(
            message,
            movegen::Position::from_fen(fen).unwrap_err().to_string()
        );
        for path in ["position", "compare", "divide"] {
            let (status, body) = get(&s, &format!("/api/{path}?fen={}", enc(fen)));
            assert_eq!(status, 400, "{path} {fen}");
            assert_eq!(body["error"], message, "{path} {fen}");
        }
    }
}

#[test]
fn only_our_own_host_and_origin() {
    let s = start("host");
    let port = s.port;
    let ok_hosts = [
        format!("Host: 127.0.0.1:{port}"),
        format!("Host: localhost:{port}"),
    ];
    for host in &ok_hosts {
        assert_eq!(
            request(&s, "GET", "/api/config", &[host], "").0,
            200,
            "{host}"
        );
    }
    let foreign = [
        "Host: evil.example".to_string(),
        format!("Host: evil.example:{port}"),
        format!("Host: 127.0.0.1:{}", port.wrapping_add(1)),
        "Host: 127.0.0.1".to_string(),
        format!("Host: localhost.evil.example:{port}"),
    ];
    for host in &foreign {
        let (status, body) = request(&s, "GET", "/api/position", &[host], "");
        assert_eq!(status, 403, "{host}");
        assert!(body["error"].as_str().unwrap().contains("is not served"));
        assert_eq!(request(&s, "GET", "/", &[host], "").0, 403, "{host}");
    }
    let status = raw(port, b"GET /api/config HTTP/1.0\r\n\r\n").status;
    assert_eq!(status, 403, "no Host at all");

    let case = r#"{"fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "moves": ["e1e2"]}"#;
    for origin in [
        "http://evil.example",
        "null",
        &format!("http://127.0.0.1:{}", port.wrapping_add(1)),
        &format!("https://127.0.0.1:{port}"),
    ] {
        let (status, _) = request(
            &s,
            "POST",
            "/api/cases",
            &[&format!("Origin: {origin}")],
            case,
        );
        assert_eq!(status, 403, "{origin}");
    }
    assert!(!s.cases.exists(), "a refused POST wrote nothing");
    let (status, _) = request(
        &s,
        "POST",
        "/api/cases",
        &[&format!("Origin: http://localhost:{port}")],
        case,
    );
    assert_eq!(status, 200);
    assert_eq!(
        std::fs::read_to_string(&s.cases).unwrap().lines().count(),
        1
    );
}

#[test]
fn malformed_requests_get_4xx_and_the_server_keeps_serving() {
    let s = start("malformed");
    let alive = |s: &Server| assert_eq!(get(s, "/api/config").0, 200);
    let garbage: &[&[u8]] = &[
        b"\x00\x01\x02garbage\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
    ];
    for g in garbage {
        let status = raw(s.port, g).status;
        assert!((400..500).contains(&status) || status == 505, "{status}");
        alive(&s);
    }
    let many = format!("/api/compare?moves={}", "e2e4,".repeat(1001));
    let gets = [
        ("/api/position?fen=%zz", 400),
        ("/api/position?fen=%ff%fe", 400),
        ("/api/divide?depth=9", 400),
        ("/api/divide?depth=x", 400),
        ("/api/random?plies=-1", 400),
        ("/api/random?seed=abc", 400),
        ("/api/nothing", 404),
        (&many, 400),
        ("/../../etc/passwd", 404),
    ];
    for (path, code) in gets {
        let (status, body) = get(&s, path);
        assert_eq!(status, code, "{path}");
        assert!(body["error"].is_string(), "{path}: {body}");
        alive(&s);
    }
    assert_eq!(request(&s, "DELETE", "/api/position", &[], "").0, 405);
    assert_eq!(request(&s, "POST", "/api/position", &[], "{}").0, 405);
    assert_eq!(request(&s, "GET", "/api/cases", &[], "").0, 405);
    let bodies = [
        ("not json", 400),
        ("{}", 400),
        (r#"{"fen": 3, "moves": []}"#, 400),
        (
            r#"{"fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "moves": "e1e2"}"#,
            400,
        ),
        (
            r#"{"fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "moves": [1]}"#,
            400,
        ),
        (
            r#"{"fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "moves": ["e1e2 ;x"]}"#,
            400,
        ),
        (r#"{"fen": "nonsense", "moves": []}"#, 400),
    ];
    for (body, code) in bodies {
        let (status, reply) = request(&s, "POST", "/api/cases", &[], body);
        assert_eq!(status, code, "{body}");
        assert!(reply["error"].is_string(), "{body}");
    }
    let big = format!(r#"{{"fen": "{}", "moves": []}}"#, "x".repeat(70_000));
    assert_eq!(request(&s, "POST", "/api/cases", &[], &big).0, 413);
    assert!(!s.cases.exists(), "rejected cases wrote nothing");
    alive(&s);
}

#[test]
fn a_saved_case_is_one_epd_line() {
    let s = start("save");
    let fen = "8/3KPk2/8/p7/8/8/8/8 w - - 0 1";
    let body = format!(r#"{{"fen": "{fen}", "moves": ["d7c6", "e7e8q", "d7e8", "e7e8q"]}}"#);
    let (status, reply) = request(
        &s,
        "POST",
        "/api/cases",
        &["Content-Type: application/json"],
        &body,
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(strings(&reply["found"]), ["d7c6", "e7e8q"]);
    assert_eq!(strings(&reply["repeated"]), ["e7e8q"]);
    assert_eq!(
        reply["wrong"][0]["reason"],
        "the king would be in check on e8 from the king on f7"
    );
    let expected = format!(
        "{fen} ;claimed d7c6 e7e8q d7e8 e7e8q ;missed d7c7 d7c8 d7d6 d7d8 e7e8b e7e8n e7e8r ;wrong d7e8\n"
    );
    assert_eq!(std::fs::read_to_string(&s.cases).unwrap(), expected);
    // An empty claim list is a case too; the FEN written is ours, reprinted.
    let body = r#"{"fen": " 4k3/4P3/4K3/8/8/8/8/8  b - -\n", "moves": []}"#;
    assert_eq!(request(&s, "POST", "/api/cases", &[], body).0, 200);
    let text = std::fs::read_to_string(&s.cases).unwrap();
    assert_eq!(
        text.lines().nth(1),
        Some("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1 ;claimed ;missed ;wrong")
    );
}

#[test]
fn the_page_and_the_other_endpoints() {
    let s = start("page");
    let page = raw(
        s.port,
        format!(
            "GET / HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
            s.port
        )
        .as_bytes(),
    );
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<script src=\"/app.js\">"));
    let (_, suites) = get(&s, "/api/suites");
    assert_eq!(
        suites["suites"][0]["positions"].as_array().unwrap().len(),
        epd("thesis_positions.epd").len()
    );
    let (_, a) = get(&s, "/api/random?plies=30&seed=5");
    let (_, b) = get(&s, "/api/random?plies=30&seed=5");
    assert_eq!(a["fen"], b["fen"], "a seed gives one position");
    let (_, start_pos) = get(&s, "/api/position");
    assert_eq!(
        start_pos["bitboards"]["attacked_by_white"],
        "0x0000000000ffff7e"
    );
    assert_eq!(start_pos["bitboards"]["white"], "0x000000000000ffff");
    assert_eq!(start_pos["targets"]["g1"], "0x0000000000a00000");
}

/// Errors that hyper finds before any handler runs (a request line or a
/// header it cannot read, too many headers, a URL too long) have a JSON
/// body like every other error, and the server goes on serving.
#[test]
fn errors_below_the_handlers_have_json_bodies() {
    let s = start("below");
    let host = format!("Host: 127.0.0.1:{}", s.port);
    let many: String = (0..150).map(|i| format!("X-{i}: a\r\n")).collect();
    let cases: Vec<(Vec<u8>, u16)> = vec![
        (b"GARBAGE\r\n\r\n".to_vec(), 400),
        (b"\x00\x01\x02garbage\r\n\r\n".to_vec(), 400),
        (b"GET / HTTP/9.9\r\n\r\n".to_vec(), 400),
        (
            format!("POST /api/cases HTTP/1.1\r\n{host}\r\nContent-Length: -5\r\n\r\n")
                .into_bytes(),
            400,
        ),
        (
            format!("GET / HTTP/1.1\r\n{host}\r\n{many}\r\n").into_bytes(),
            431,
        ),
        (
            format!("GET /{} HTTP/1.1\r\n{host}\r\n\r\n", "a".repeat(70_000)).into_bytes(),
            414,
        ),
    ];
    for (request, code) in cases {
        let shown = String::from_utf8_lossy(&request[..request.len().min(40)]).to_string();
        let reply = raw(s.port, &request);
        assert_eq!(reply.status, code, "{shown:?}");
        assert_eq!(
            reply.header("content-type").as_deref(),
            Some("application/json"),
            "{shown:?}: {}",
            reply.head
        );
        let error = reply.json()["error"].as_str().map(str::to_string);
        assert!(
            error.as_ref().is_some_and(|e| !e.is_empty()),
            "{shown:?}: {:?}",
            reply.body
        );
        let length: usize = reply.header("content-length").unwrap().parse().unwrap();
        assert_eq!(length, reply.body.len(), "{shown:?}");
        assert_eq!(
            get(&s, "/api/config").0,
            200,
            "still serving after {shown:?}"
        );
    }
}

/// A request refused before its route reads the body (no game, no token,
/// a route that takes no body) still has its body read, so its kept-alive
/// connection serves the next request. The body comes a moment after the
/// head, as Python's `http.client` sends it: left unread, hyper closed the
/// connection after the reply, and the next request on it was lost.
#[test]
fn a_refused_request_keeps_its_connection() {
    let s = start("keep-alive");
    let host = format!("Host: 127.0.0.1:{}", s.port);
    let firsts = [
        ("POST", "/api/play/move", r#"{"move": "e2e4"}"#, 409),
        ("POST", "/api/crowd/close", r#"{"task": 1}"#, 401),
        ("POST", "/api/crowd/next", "{}", 401),
        ("POST", "/api/cases", "{", 400),
        ("GET", "/api/crowd/tasks", "ignored", 401),
    ];
    for (method, path, body, code) in firsts {
        let head = format!(
            "{method} {path} HTTP/1.1\r\n{host}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let rest = format!("{body}GET /api/config HTTP/1.1\r\n{host}\r\nConnection: close\r\n\r\n");
        let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        // The server may have closed the connection: the replies tell.
        let _ = stream.write_all(rest.as_bytes());
        let mut replies = String::new();
        let _ = stream.read_to_string(&mut replies);
        let statuses: Vec<&str> = replies
            .match_indices("HTTP/1.1 ")
            .map(|(at, _)| &replies[at + 9..at + 12])
            .collect();
        assert_eq!(
            statuses,
            [code.to_string().as_str(), "200"],
            "{method} {path}: {replies}"
        );
    }
}

/// Opens an event stream; its status once the head has arrived, and the
/// connection (kept open) with the rest of the head.
fn open_stream(port: u16) -> (u16, String, TcpStream) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let request = format!("GET /api/crowd/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    let head = String::from_utf8_lossy(&head).to_string();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    (status, head, stream)
}

#[test]
fn event_streams_are_capped_with_a_clear_error() {
    let s = start_with("streams", &["--max-streams", "4"]);
    let mut open: Vec<TcpStream> = (0..4)
        .map(|k| {
            let (status, head, stream) = open_stream(s.port);
            assert_eq!(status, 200, "stream {k}: {head}");
            stream
        })
        .collect();
    let (status, head, mut refused) = open_stream(s.port);
    assert_eq!(status, 503, "{head}");
    let lower = head.to_ascii_lowercase();
    assert!(lower.contains("retry-after: "), "{head}");
    assert!(lower.contains("content-type: application/json"), "{head}");
    let mut body = String::new();
    let _ = refused.read_to_string(&mut body);
    let error: Value = serde_json::from_str(body.trim()).unwrap_or(Value::Null);
    assert!(
        error["error"].as_str().is_some_and(|e| e.contains('4')),
        "the error names the limit: {body:?}"
    );
    // Other requests are still answered.
    assert_eq!(get(&s, "/api/config").0, 200);
    // A closed stream frees its place.
    drop(open.pop());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, _, stream) = open_stream(s.port);
        if status == 200 {
            open.push(stream);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the closed stream's place never came free"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn help_names_the_five_modes() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["gui", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for mode in ["Collect", "Explore", "Crowd", "Play", "Review"] {
        assert!(help.contains(mode), "{mode} is not in: {help}");
    }
    assert!(help.contains("--max-streams"), "{help}");
}
