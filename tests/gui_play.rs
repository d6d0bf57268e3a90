//! Play mode of the board page against the real binary: games through the
//! JSON API to checkmate either way, undo, illegal moves with their reasons,
//! a new game stopping the engine's search at once, the clock and a flag fall,
//! and two browsers (two session cookies) playing two games apart.

#[path = "support/gui_server.rs"]
mod gui_server;

use gui_server::{start, start_on, Server};
use serde_json::{json, Value};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// White: king g6, rook a1; Black: king h8. White mates in one (Ra8#) or,
/// after a waiting rook move, Black's only move is Kg8 and Ra8 mates.
const LADDER: &str = "7k/8/6K1/8/8/8/8/R7 w - - 0 1";

/// Asks for the game's state until `done` holds (the engine thinks on its
/// own thread; the page asks the same way).
fn wait_for(s: &Server, within: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, state) = s.get("/api/play/state");
        assert_eq!(status, 200, "{state}");
        if done(&state) {
            return state;
        }
        assert!(
            start.elapsed() < within,
            "still waiting after {within:?}: {state}"
        );
        sleep(Duration::from_millis(20));
    }
}

fn engine_done(state: &Value) -> bool {
    state["thinking"] == false
}

fn moves(state: &Value, key: &str) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[key].as_str().unwrap().to_string())
        .collect()
}

fn new_game(s: &Server, setup: Value) -> Value {
    let (status, state) = s.post("/api/play/new", &setup);
    assert_eq!(status, 200, "{state}");
    state
}

fn play(s: &Server, mv: &str) -> Value {
    let (status, state) = s.post("/api/play/move", &json!({ "move": mv }));
    assert_eq!(status, 200, "{mv}: {state}");
    state
}

#[test]
fn the_person_mates_the_engine() {
    let s = start("mates-engine");
    let (_, none) = s.get("/api/play/state");
    assert_eq!(none["game"], Value::Null);
    let state = new_game(
        &s,
        json!({"fen": LADDER, "color": "white", "strength": "movetime:50"}),
    );
    assert_eq!(state["person"], "white");
    assert_eq!(state["thinking"], false, "the person moves first");
    let state = play(&s, "a1a2");
    assert_eq!(state["thinking"], true);
    let state = wait_for(&s, Duration::from_secs(30), engine_done);
    assert_eq!(moves(&state, "uci"), ["a1a2", "h8g8"], "Kg8 is forced");
    let state = play(&s, "a2a8");
    assert_eq!(state["end"]["reason"], "checkmate");
    assert_eq!(state["end"]["winner"], "white");
    assert_eq!(state["result"], "1-0");
    assert_eq!(state["position"]["status"], "checkmate");
    let (status, after) = s.post("/api/play/move", &json!({"move": "g8h8"}));
    assert_eq!(
        (status, after["error"].as_str()),
        (409, Some("the game is over"))
    );
    let (status, content_type, pgn) = s.send("GET", "/api/play/pgn", "");
    assert_eq!(status, 200);
    assert!(
        content_type.starts_with("application/x-chess-pgn"),
        "{content_type}"
    );
    for tag in [
        "[White \"Player\"]",
        "[Black \"Pinmask ",
        "[Result \"1-0\"]",
        "[SetUp \"1\"]",
        &format!("[FEN \"{LADDER}\"]"),
        "[TimeControl \"-\"]",
        "[Termination \"normal\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    assert!(pgn.ends_with("1. Ra2 Kg8 2. Ra8# 1-0\n"), "{pgn}");
}

#[test]
fn the_engine_mates_the_person() {
    let s = start("mates-person");
    let state = new_game(
        &s,
        json!({"fen": LADDER, "color": "black", "strength": "full", "base": 60, "inc": 1}),
    );
    assert_eq!(
        state["thinking"], true,
        "the engine is White and moves first"
    );
    let state = wait_for(&s, Duration::from_secs(60), engine_done);
    assert_eq!(moves(&state, "uci"), ["a1a8"]);
    assert_eq!(moves(&state, "san"), ["Ra8#"]);
    assert_eq!(state["end"]["reason"], "checkmate");
    assert_eq!(state["result"], "1-0");
    assert_eq!(
        state["clock"]["running"],
        Value::Null,
        "the clock stops at the end"
    );
    let (status, undone) = s.post("/api/play/undo", &json!({}));
    assert_eq!(status, 409, "the person has no move to take back: {undone}");
}

#[test]
fn illegal_moves_are_refused_with_their_reason() {
    let s = start("illegal");
    let (status, e) = s.post("/api/play/move", &json!({"move": "e2e4"}));
    assert_eq!(status, 409, "no game yet: {e}");
    // White's knight on c3 is pinned by the bishop on b4.
    let fen = "rnbqk1nr/pppp1ppp/8/4p3/1b2P3/2NP4/PPP2PPP/R1BQKBNR w KQkq - 1 3";
    // The engine thinks 5 s, so its reply never beats the request below
    // that finds it to move (with 50 ms it did once, on a loaded machine).
    let before = new_game(
        &s,
        json!({"fen": fen, "color": "white", "strength": "movetime:5000"}),
    );
    for (mv, reason) in [
        ("c3d5", "the knight on c3 is pinned"),
        ("e4e6", "a pawn does not move from e4 to e6"),
        ("e5e4", "belongs to Black"),
        ("xx", "not a move in UCI notation"),
    ] {
        let (status, reply) = s.post("/api/play/move", &json!({ "move": mv }));
        assert_eq!(status, 400, "{mv}: {reply}");
        let text = reply["error"].as_str().unwrap();
        assert!(text.contains(reason), "{mv}: {text}");
    }
    let (status, reply) = s.post("/api/play/move", &json!({"mv": "a2a3"}));
    assert_eq!(status, 400, "{reply}");
    let (status, _, _) = s.send("POST", "/api/play/move", "{not json");
    assert_eq!(status, 400);
    let (_, after) = s.get("/api/play/state");
    assert_eq!(after["position"]["fen"], before["position"]["fen"]);
    assert_eq!(after["moves"], json!([]));
    // The engine's turn is not the person's.
    play(&s, "a2a3");
    let (status, reply) = s.post("/api/play/move", &json!({"move": "a3b4"}));
    assert_eq!(
        (status, reply["error"].as_str()),
        (409, Some("it is the engine's move"))
    );
    for (setup, why) in [
        (json!({"fen": "8/8/8 w - -"}), "field \"fen\""),
        (
            json!({"color": "green"}),
            "field \"color\": unknown variant `green`",
        ),
        (
            json!({"strength": "movetime:5"}),
            "field \"strength\": strength must be",
        ),
        (json!({"base": -1}), "field \"base\": 0 to 10800 seconds"),
        (json!({"inc": 61}), "field \"inc\": 0 to 60 seconds"),
        (json!({"chess960": 960}), "field \"chess960\""),
        (json!({"color": 5}), "field \"color\": invalid type"),
        (json!({"colour": "black"}), "unknown field `colour`"),
        (json!({"chess960": 5, "fen": LADDER}), "not both"),
    ] {
        let (status, reply) = s.post("/api/play/new", &setup);
        assert_eq!(status, 400, "{setup}: {reply}");
        assert!(reply["error"].as_str().unwrap().contains(why), "{reply}");
    }
    let (_, still) = s.get("/api/play/state");
    assert_eq!(still["game"], after["game"], "a bad set-up keeps the game");
    let (status, _, _) = s.send("GET", "/api/play/new", "");
    assert_eq!(status, 405);
    let (status, _, _) = s.send("GET", "/api/play/nothing", "");
    assert_eq!(status, 404);
}

#[test]
fn undo_takes_back_the_move_and_the_reply() {
    let s = start("undo");
    let start_fen = new_game(&s, json!({"strength": "movetime:50"}))["position"]["fen"].clone();
    let (status, _) = s.post("/api/play/undo", &json!({}));
    assert_eq!(status, 409, "nothing to take back yet");
    play(&s, "e2e4");
    let state = wait_for(&s, Duration::from_secs(30), engine_done);
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    play(&s, "d2d4");
    let state = wait_for(&s, Duration::from_secs(30), engine_done);
    assert_eq!(state["moves"].as_array().unwrap().len(), 4);
    let (status, state) = s.post("/api/play/undo", &json!({}));
    assert_eq!(status, 200);
    assert_eq!(moves(&state, "uci")[0], "e2e4");
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    assert_eq!(state["thinking"], false);
    let (_, state) = s.post("/api/play/undo", &json!({}));
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["position"]["fen"], start_fen);

    // Undo while the engine thinks takes back the person's move only and
    // stops the search: its move never arrives.
    new_game(&s, json!({"strength": "movetime:60000"}));
    let state = play(&s, "g1f3");
    assert_eq!(state["thinking"], true);
    let (_, state) = s.post("/api/play/undo", &json!({}));
    assert_eq!(
        (state["moves"].clone(), state["thinking"].clone()),
        (json!([]), json!(false))
    );
    let state = play(&s, "b1c3");
    assert_eq!(
        state["thinking"], true,
        "a new search starts after the undone one"
    );
    let (_, state) = s.post("/api/play/resign", &json!({}));
    assert_eq!(state["end"]["reason"], "resignation");
    assert_eq!(state["result"], "0-1");
    assert_eq!(moves(&state, "uci"), ["b1c3"]);
}

#[test]
fn a_new_game_stops_the_engine_at_once() {
    let s = start("newgame");
    // Three hours on the clock: the engine would think for minutes.
    let first = new_game(
        &s,
        json!({"color": "black", "strength": "full", "base": 10800}),
    );
    assert_eq!(first["thinking"], true);
    sleep(Duration::from_millis(300));
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let asked = Instant::now();
    let second = new_game(
        &s,
        json!({"fen": fen, "color": "black", "strength": "movetime:100"}),
    );
    assert_ne!(second["game"], first["game"]);
    let state = wait_for(&s, Duration::from_secs(20), |st| {
        st["moves"].as_array().is_some_and(|m| !m.is_empty())
    });
    let waited = asked.elapsed();
    let mv = &moves(&state, "uci")[0];
    assert!(
        second["position"]["legal"]
            .as_array()
            .unwrap()
            .contains(&json!(mv)),
        "{mv}"
    );
    assert_eq!(state["moves"].as_array().unwrap().len(), 1);
    // The first search would have run for minutes; the second one's 100 ms
    // and the page's delays are all that passed.
    assert!(waited < Duration::from_secs(20), "{waited:?}");
}

#[test]
fn the_clock_charges_each_side_and_a_flag_falls() {
    let s = start("clock");
    new_game(
        &s,
        json!({"strength": "movetime:200", "base": 60, "inc": 2}),
    );
    play(&s, "e2e4");
    let state = wait_for(&s, Duration::from_secs(30), engine_done);
    let clock = &state["clock"];
    let (white, black) = (
        clock["white_ms"].as_u64().unwrap(),
        clock["black_ms"].as_u64().unwrap(),
    );
    assert!(
        (60_500..62_000).contains(&white),
        "White moved at once and gained 2 s: {clock}"
    );
    assert!(
        (61_000..62_000).contains(&black),
        "Black thought 0.2 s and gained 2 s: {clock}"
    );
    assert_eq!(clock["running"], "white");

    // Half a second for White: the flag falls and the late move is refused.
    new_game(&s, json!({"strength": "movetime:50", "base": 0.5}));
    sleep(Duration::from_millis(700));
    let (status, reply) = s.post("/api/play/move", &json!({"move": "e2e4"}));
    assert_eq!(
        (status, reply["error"].as_str()),
        (409, Some("the game is over"))
    );
    let (_, state) = s.get("/api/play/state");
    assert_eq!(state["end"]["reason"], "time");
    assert_eq!(state["end"]["winner"], "black");
    assert_eq!(state["result"], "0-1");
    assert_eq!(state["clock"]["white_ms"], 0);
    assert_eq!(state["moves"], json!([]));
    let (status, _) = s.post("/api/play/undo", &json!({}));
    assert_eq!(status, 409, "a flag fall is final");
    let (_, _, pgn) = s.send("GET", "/api/play/pgn", "");
    assert!(pgn.contains("[TimeControl \"0.5+0\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.ends_with("\n0-1\n"), "{pgn}");
}

#[test]
fn draws_and_chess960_come_from_the_library() {
    let s = start("draws");
    // Kxd2 leaves king and knight against king.
    new_game(
        &s,
        json!({"fen": "4k3/8/8/8/8/8/3n4/3NK3 w - - 0 1", "strength": "movetime:50"}),
    );
    let state = play(&s, "e1d2");
    assert_eq!(state["end"]["reason"], "insufficient material");
    assert_eq!(state["end"]["winner"], Value::Null);
    assert_eq!(state["result"], "1/2-1/2");
    assert_eq!(state["thinking"], false, "no search after the end");

    let state = new_game(
        &s,
        json!({"chess960": 0, "color": "black", "strength": "movetime:50"}),
    );
    assert_eq!(state["chess960"], true);
    assert_eq!(
        state["start_fen"],
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
    wait_for(&s, Duration::from_secs(30), engine_done);
    let (_, _, pgn) = s.send("GET", "/api/play/pgn", "");
    assert!(pgn.contains("[White \"Pinmask "), "{pgn}");
    assert!(pgn.contains("[Black \"Player\"]"), "{pgn}");
    assert!(
        pgn.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/"),
        "{pgn}"
    );
    assert!(pgn.contains("\n\n1. "), "{pgn}");
}

/// Makes `cookie` (Play's session, `pinmask_play=...`) the one the test's
/// client sends, as if another browser asked.
fn as_browser(s: &Server, cookie: &str) {
    *s.cookies.lock().unwrap() = vec![cookie.to_string()];
}

fn session(s: &Server) -> String {
    s.cookies.lock().unwrap()[0].clone()
}

#[test]
fn two_browsers_play_two_games_apart() {
    let s = start("two-browsers");
    let a = new_game(&s, json!({"strength": "movetime:50"}));
    let cookie_a = session(&s);
    s.cookies.lock().unwrap().clear();
    let (_, none) = s.get("/api/play/state");
    assert_eq!(none["game"], Value::Null, "a new browser sees no game");
    let b = new_game(&s, json!({"strength": "movetime:50", "color": "black"}));
    let cookie_b = session(&s);
    assert_ne!(cookie_a, cookie_b);
    assert_ne!(a["game"], b["game"]);
    as_browser(&s, &cookie_a);
    play(&s, "e2e4");
    let state_a = wait_for(&s, Duration::from_secs(30), engine_done);
    as_browser(&s, &cookie_b);
    let state_b = wait_for(&s, Duration::from_secs(30), engine_done);
    assert_eq!(state_a["moves"].as_array().unwrap().len(), 2);
    assert_eq!(
        state_b["moves"].as_array().unwrap().len(),
        1,
        "b's engine opened"
    );
    assert_eq!(state_b["person"], "black");
    // Undo in a leaves b alone; a new game in b leaves a alone.
    as_browser(&s, &cookie_a);
    let (status, undone) = s.post("/api/play/undo", &json!({}));
    assert_eq!(status, 200, "{undone}");
    assert_eq!(undone["moves"].as_array().unwrap().len(), 0);
    as_browser(&s, &cookie_b);
    let (_, still_b) = s.get("/api/play/state");
    assert_eq!(still_b["moves"], state_b["moves"]);
    let fresh_b = new_game(&s, json!({"strength": "movetime:50"}));
    assert_ne!(fresh_b["game"], state_b["game"]);
    as_browser(&s, &cookie_a);
    let (_, still_a) = s.get("/api/play/state");
    assert_eq!(still_a["game"], a["game"]);
    let (status, _, pgn) = s.send("GET", "/api/play/pgn", "");
    assert_eq!(status, 200);
    assert!(pgn.contains("[White \"Player\"]"), "{pgn}");
}

/// Each state names its server start: after a restart `version` counts
/// from 0 again, so a page holding an older start's state must take the new
/// one whatever its `version`; `server` tells it that this one is newer.
#[test]
fn a_restart_gives_states_a_new_server_start() {
    let mut s = start("restart-name");
    let first = new_game(&s, json!({ "strength": "movetime:50" }));
    let name = first["server"]
        .as_str()
        .expect("the state names its server start")
        .to_string();
    assert_eq!(name.len(), 16, "{name}");
    play(&s, "e2e4");
    let before = wait_for(&s, Duration::from_secs(20), engine_done);
    let (status, same) = s.get("/api/play/state");
    assert_eq!(
        (status, same["server"].as_str()),
        (200, Some(name.as_str()))
    );
    s.keep = true;
    let (db, cases) = (s.db.clone(), s.cases.clone());
    let jar = s.cookies.lock().unwrap().clone();
    drop(s);
    let s = start_on(db, cases);
    *s.cookies.lock().unwrap() = jar;
    let (status, after) = s.get("/api/play/state");
    assert_eq!(status, 200, "{after}");
    assert_eq!(
        moves(&after, "uci"),
        moves(&before, "uci"),
        "the game resumed"
    );
    let renamed = after["server"].as_str().unwrap_or_default();
    assert!(
        renamed.len() == 16 && renamed != name,
        "{name} then {renamed}"
    );
    assert!(
        after["version"].as_u64() < before["version"].as_u64(),
        "versions count from 0 again: {} then {}",
        before["version"],
        after["version"]
    );
    // A move after the restart is answered with the new start's name.
    let legal = after["position"]["legal"][0].as_str().unwrap().to_string();
    assert_eq!(play(&s, &legal)["server"].as_str(), Some(renamed));
}
