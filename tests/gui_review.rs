//! Review mode of the board page against the real binary: a pasted game
//! with a hanging queen reviewed on the engine pool, its analysis read from
//! the event stream as it grows, the blunder marked with the better move,
//! the annotated PGN downloaded; a Play game reviewed after it ended; bad
//! PGN refused with the game and move named; a review stopped.

#[path = "support/gui_server.rs"]
mod gui_server;

use gui_server::{start, Server};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

/// 3. Qxe5+ gives the queen for a pawn: Nxe5 takes it.
const HANGING_QUEEN: &str = "[White \"Careless\"]\n[Black \"Careful\"]\n\n\
    1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 4. d4 *\n";

/// A review's event stream, read as the page's `EventSource` does.
struct Events {
    lines: std::io::Lines<BufReader<TcpStream>>,
}

impl Events {
    fn open(s: &Server, id: &str) -> Events {
        let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        write!(
            stream,
            "GET /api/review/events?id={id} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            s.port
        )
        .unwrap();
        Events {
            lines: BufReader::new(stream).lines(),
        }
    }

    /// The `review` events' data, in order, up to the first for which
    /// `last` holds.
    fn until(&mut self, last: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut seen = Vec::new();
        let mut name = String::new();
        for line in &mut self.lines {
            let line = line.expect("the stream goes on until the review ends");
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(data) = line.strip_prefix("data: ") {
                assert_eq!(name, "review");
                let value: Value = serde_json::from_str(data).unwrap();
                let end = last(&value);
                seen.push(value);
                if end {
                    return seen;
                }
            }
        }
        panic!("the stream closed first: {seen:?}");
    }
}

fn ended(review: &Value) -> bool {
    !matches!(review["status"].as_str(), Some("queued" | "running"))
}

/// Reads the review's event stream until the review ends; returns every
/// `review` event's data, in order.
fn events_until_end(s: &Server, id: &str) -> Vec<Value> {
    Events::open(s, id).until(ended)
}

fn start_review(s: &Server, pgn: &str, depth: u32) -> Value {
    let (status, reply) = s.post("/api/review", &json!({ "pgn": pgn, "depth": depth }));
    assert_eq!(status, 200, "{reply}");
    reply
}

#[test]
fn a_hanging_queen_is_marked_and_the_annotated_pgn_downloads() {
    let s = start("review-queen");
    let first = start_review(&s, HANGING_QUEEN, 4);
    let id = first["id"].as_str().unwrap();
    assert_eq!(id.len(), 32);
    assert_eq!(first["moves"].as_array().unwrap().len(), 7);
    assert_eq!(first["tags"]["White"], "Careless");
    let seen = events_until_end(&s, id);
    // The analysis only grows, one position and one verdict at a time.
    let counts: Vec<usize> = seen
        .iter()
        .map(|e| e["evals"].as_array().unwrap().len())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    for e in &seen {
        let (evals, verdicts) = (
            e["evals"].as_array().unwrap(),
            e["verdicts"].as_array().unwrap(),
        );
        assert_eq!(verdicts.len(), evals.len().saturating_sub(1), "{e}");
    }
    let done = seen.last().unwrap();
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["evals"].as_array().unwrap().len(), 8);
    let blunder = &done["verdicts"][4];
    assert_eq!(
        (blunder["verdict"].as_str(), blunder["glyph"].as_str()),
        (Some("Blunder"), Some("??")),
        "{done}"
    );
    assert!(blunder["drop"].as_f64().unwrap() >= 0.3);
    let better = &done["evals"][4]["best"];
    assert_ne!(better["uci"], "h5e5", "the better move is not the blunder");
    // After the blunder White's chances are near nothing.
    assert!(done["evals"][5]["white"].as_f64().unwrap() < 0.1, "{done}");
    assert_eq!(done["summary"]["white"]["blunders"], 1);
    assert_eq!(s.get(&format!("/api/review/state?id={id}")).1, *done);

    let reply = s.request("GET", &format!("/api/review/pgn?id={id}"), &[], "");
    assert_eq!(reply.status, 200);
    assert!(reply
        .header("content-disposition")
        .unwrap()
        .starts_with("attachment"));
    let pgn = reply.body;
    assert!(pgn.contains("[Annotator \"Pinmask\"]"), "{pgn}");
    assert!(pgn.contains("3. Qxe5+ $4"), "{pgn}");
    assert!(
        pgn.contains(&format!(
            "Blunder. {} was best.",
            better["san"].as_str().unwrap()
        )),
        "{pgn}"
    );
    assert!(pgn.contains("[%eval "), "{pgn}");
}

#[test]
fn a_play_game_is_reviewed_after_it_ends() {
    let s = start("review-play");
    let (status, game) = s.post(
        "/api/play/new",
        &json!({ "fen": "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "color": "white", "base": 0 }),
    );
    assert_eq!(status, 200, "{game}");
    let (status, ended) = s.post("/api/play/move", &json!({ "move": "a1a8" }));
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["end"]["reason"], "checkmate", "{ended}");
    let (status, _, pgn) = s.send("GET", "/api/play/pgn", "");
    assert_eq!(status, 200);
    let first = start_review(&s, &pgn, 3);
    let done = events_until_end(&s, first["id"].as_str().unwrap());
    let done = done.last().unwrap();
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["moves"][0]["san"], "Ra8#");
    // The mated position: White has won.
    assert_eq!(done["evals"][1]["white"], 1.0);
    assert_eq!(done["evals"][1]["eval"], "1-0");
    assert_eq!(done["verdicts"][0]["verdict"], "Good", "{done}");
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let s = start("review-bad");
    let (status, reply) = s.post("/api/review", &json!({ "pgn": "1. e4 e5\n\n2. Kf9 *" }));
    assert_eq!(status, 400);
    assert_eq!(reply["game"], 1, "{reply}");
    assert_eq!(reply["move"], "2.");
    assert_eq!(reply["token"], "Kf9");
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .starts_with("game 1, move 2."),
        "{reply}"
    );
    let (status, reply) = s.post(
        "/api/review",
        &json!({ "pgn": "1. e4 e5 2. Nf3 Nc6 3. Ke2?? Qh4 4. Kxe5 *" }),
    );
    assert_eq!(status, 400, "{reply}");
    assert_eq!(reply["move"], "4.", "{reply}");
    for (body, field) in [
        (json!({ "pgn": "1. e4 *", "colour": 1 }), "colour"),
        (json!({ "pgn": 5 }), "pgn"),
        (json!({ "pgn": "1. e4 *", "depth": 0 }), "depth"),
        (json!({ "pgn": "1. e4 *", "depth": 40 }), "depth"),
    ] {
        let (status, reply) = s.post("/api/review", &body);
        assert_eq!(status, 400, "{body}: {reply}");
        assert_eq!(reply["field"], field, "{body}: {reply}");
    }
    for pgn in ["", "[Event \"x\"]\n\n*"] {
        let (status, reply) = s.post("/api/review", &json!({ "pgn": pgn }));
        assert_eq!(status, 400, "{pgn:?}: {reply}");
    }
    let big = json!({ "pgn": format!("{{{}}} 1. e4 *", "x".repeat(70_000)) }).to_string();
    assert_eq!(s.send("POST", "/api/review", &big).0, 413);
    for path in [
        "/api/review/state?id=nope",
        "/api/review/pgn?id=nope",
        "/api/review/events?id=nope",
    ] {
        assert_eq!(s.get(path).0, 404, "{path}");
    }
    assert_eq!(s.get("/api/review/state").0, 400);
}

#[test]
fn the_analysis_streams_in_and_a_review_is_stopped() {
    let s = start("review-stop");
    // A long game at depth 12: far from done when the first positions come.
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 \
               8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *";
    let first = start_review(&s, pgn, 12);
    let id = first["id"].as_str().unwrap();
    let mut events = Events::open(&s, id);
    let seen = events.until(|e| !e["evals"].as_array().unwrap().is_empty() || ended(e));
    let partial = seen.last().unwrap();
    assert_eq!(partial["status"], "running", "{partial}");
    assert!(partial["evals"].as_array().unwrap().len() < 41, "{partial}");
    let (status, stopped) = s.post("/api/review/stop", &json!({ "id": id }));
    assert_eq!(status, 200, "{stopped}");
    assert_eq!(stopped["status"], "stopped");
    let last = events.until(ended);
    assert_eq!(last.last().unwrap()["status"], "stopped");
    assert_eq!(s.get(&format!("/api/review/pgn?id={id}")).0, 409);
    // The pool is free again: a short review gets done.
    let next = start_review(&s, "1. e4 *", 2);
    let done = events_until_end(&s, next["id"].as_str().unwrap());
    assert_eq!(done.last().unwrap()["status"], "done");
}

/// The Opera Game (Morphy against the Duke of Brunswick and Count Isouard,
/// Paris 1858).
const OPERA: &str =
    "[Event \"Paris\"]\n[White \"Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n\
    [Result \"1-0\"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 \
    7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 \
    13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n";

#[test]
fn the_page_and_engine_analyse_give_the_same_review() {
    // Same game, same depth, each with its defaults: the same searches, so
    // the same annotated PGN to the byte (a table of another size, say,
    // changes some evaluation).
    let depth = 9;
    let s = start("review-same");
    let id = start_review(&s, OPERA, depth)["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(events_until_end(&s, &id).last().unwrap()["status"], "done");
    let page = s.request("GET", &format!("/api/review/pgn?id={id}"), &[], "");
    assert_eq!(page.status, 200);
    let file = std::env::temp_dir().join(format!("pinmask-review-same-{}.pgn", std::process::id()));
    std::fs::write(&file, OPERA).unwrap();
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("analyse")
        .arg(&file)
        .args(["--depth", &depth.to_string()])
        .output()
        .expect("the engine binary runs");
    let _ = std::fs::remove_file(&file);
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    assert_eq!(page.body, String::from_utf8(cli.stdout).unwrap());
}
