//! The crowd mode's API against the real binary: agreement confirms or
//! flags a task, a later different set leaves it agreed, tokens are checked,
//! hostile input changes nothing, and the export is the test data's format.

#[path = "support/gui_server.rs"]
mod gui_server;

use gui_server::{start, start_on, Server};
use serde_json::{json, Value};

/// Status, head and body (JSON, or the text if it is not JSON) of one request.
fn call(
    s: &Server,
    method: &str,
    path: &str,
    headers: &[String],
    body: &str,
) -> (u16, String, Value) {
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let reply = s.request(method, path, &headers, body);
    let json = serde_json::from_str(&reply.body).unwrap_or(Value::String(reply.body));
    (reply.status, reply.head, json)
}

fn bearer(token: &str) -> Vec<String> {
    vec![format!("Authorization: Bearer {token}")]
}

fn post(s: &Server, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let headers = token.map(bearer).unwrap_or_default();
    let (status, _, json) = call(s, "POST", path, &headers, &body.to_string());
    (status, json)
}

fn get(s: &Server, path: &str, token: Option<&str>) -> (u16, Value) {
    let headers = token.map(bearer).unwrap_or_default();
    let (status, _, json) = call(s, "GET", path, &headers, "");
    (status, json)
}

/// Joins and returns the token.
fn join(s: &Server, name: &str) -> String {
    let (status, reply) = post(s, "/api/crowd/join", None, json!({ "name": name }));
    assert_eq!(status, 200, "{reply}");
    reply["token"].as_str().unwrap().to_string()
}

fn load(s: &Server, body: Value) -> Value {
    let (status, reply) = post(s, "/api/crowd/tasks", Some(&s.organiser), body);
    assert_eq!(status, 200, "{reply}");
    reply
}

fn next(s: &Server, token: &str) -> Value {
    let (status, reply) = post(s, "/api/crowd/next", Some(token), json!({}));
    assert_eq!(status, 200, "{reply}");
    reply["task"].clone()
}

fn next_reply(s: &Server, token: &str) -> Value {
    let (status, reply) = post(s, "/api/crowd/next", Some(token), json!({}));
    assert_eq!(status, 200, "{reply}");
    reply
}

fn submit(s: &Server, token: &str, task: &Value, moves: &[&str]) -> (u16, Value) {
    post(
        s,
        "/api/crowd/submit",
        Some(token),
        json!({ "task": task["id"], "moves": moves }),
    )
}

fn task_list(s: &Server) -> Vec<Value> {
    let (status, reply) = get(s, "/api/crowd/tasks", Some(&s.organiser));
    assert_eq!(status, 200);
    reply["tasks"].as_array().unwrap().clone()
}

const ENDING: &str = "8/3KPk2/8/p7/8/8/8/8 w - - 0 1";
const ENDING_LEGAL: [&str; 9] = [
    "d7c6", "d7c7", "d7c8", "d7d6", "d7d8", "e7e8b", "e7e8n", "e7e8q", "e7e8r",
];

#[test]
fn two_experts_agree_and_the_task_is_confirmed() {
    let s = start("confirm");
    assert_eq!(load(&s, json!({ "fens": [ENDING] }))["added"], 1);
    let (a, b, c) = (join(&s, "Ann"), join(&s, "Bob"), join(&s, "Cy"));
    let (ta, tb, tc) = (next(&s, &a), next(&s, &b), next(&s, &c));
    assert_eq!(ta["position"]["fen"], ENDING);
    assert_eq!(ta["id"], tb["id"]);
    // Asking again gives the same task while it is pending.
    assert_eq!(next(&s, &a)["id"], ta["id"]);
    let (status, r) = submit(&s, &a, &ta, &ENDING_LEGAL);
    assert_eq!((status, r["status"].as_str()), (200, Some("open")));
    assert_eq!(
        r["score"],
        json!({"found": 9, "missed": 0, "wrong": 0, "points": 9})
    );
    // The same set in another order is the same set.
    let mut reversed = ENDING_LEGAL;
    reversed.reverse();
    let (status, r) = submit(&s, &b, &tb, &reversed);
    assert_eq!(
        (status, r["status"].as_str()),
        (200, Some("confirmed")),
        "{r}"
    );
    // A third, different set leaves the agreed task as it is.
    let (status, r) = submit(&s, &c, &tc, &["d7c6", "d7e8"]);
    assert_eq!(
        (status, r["status"].as_str()),
        (200, Some("confirmed")),
        "{r}"
    );
    assert_eq!(
        r["score"],
        json!({"found": 1, "missed": 8, "wrong": 1, "points": 0})
    );
    // A submission is final; the agreed task is served to no one else.
    assert_eq!(submit(&s, &a, &ta, &[]).0, 409);
    assert_eq!(next(&s, &a), Value::Null);
    assert_eq!(next(&s, &join(&s, "Dee")), Value::Null);
    let tasks = task_list(&s);
    assert_eq!(tasks[0]["status"], "confirmed");
    assert_eq!(
        (
            tasks[0]["submissions"].as_u64(),
            tasks[0]["agreeing"].as_u64()
        ),
        (Some(3), Some(2))
    );
    let (_, board) = get(&s, "/api/crowd/leaderboard", None);
    let names: Vec<&str> = board["experts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    // Ann and Bob have 9 points each (the faster first), Cy 0 after a task,
    // Dee none.
    let mut top = names[..2].to_vec();
    top.sort();
    assert_eq!((top, &names[2..]), (vec!["Ann", "Bob"], &["Cy", "Dee"][..]));
    assert_eq!(board["experts"][0]["found"], 9);
    assert_eq!(board["experts"][2]["wrong"], 1);
    assert_eq!(board["tasks"]["confirmed"], 1);
    let (status, _, export) = call(&s, "GET", "/api/crowd/export", &bearer(&s.organiser), "");
    assert_eq!(status, 200);
    assert_eq!(
        export.as_str().unwrap(),
        format!(
            "{ENDING} ;moves {} ;D1 9 ;experts 2\n",
            ENDING_LEGAL.join(" ")
        )
    );
}

#[test]
fn agreement_on_a_wrong_set_is_flagged_with_reasons() {
    let s = start("flag");
    load(&s, json!({ "fens": [ENDING] }));
    let wrong = ["d7c6", "d7c7", "d7c8", "d7d6", "d7d8", "d7e8", "e7e8q"];
    for name in ["Ann", "Bob"] {
        let t = join(&s, name);
        let task = next(&s, &t);
        submit(&s, &t, &task, &wrong);
    }
    let tasks = task_list(&s);
    assert_eq!(tasks[0]["status"], "flagged");
    let diffs = tasks[0]["differences"].as_array().unwrap();
    let by_move = |m: &str| {
        diffs
            .iter()
            .find(|d| d["move"] == m)
            .unwrap_or_else(|| panic!("{m}"))
    };
    assert_eq!(
        by_move("d7e8")["reason"],
        "the king would be in check on e8 from the king on f7"
    );
    assert_eq!(by_move("d7e8")["crowd"], true);
    for m in ["e7e8r", "e7e8b", "e7e8n"] {
        assert_eq!(by_move(m)["generator"], true);
    }
    assert_eq!(diffs.len(), 4);
    let (_, _, export) = call(&s, "GET", "/api/crowd/export", &bearer(&s.organiser), "");
    assert_eq!(
        export.as_str().unwrap(),
        format!(
            "{ENDING} ;moves {} ;D1 9 ;experts 2 ;crowd {}\n",
            ENDING_LEGAL.join(" "),
            wrong.join(" ")
        )
    );
}

#[test]
fn differing_sets_stay_open_and_tasks_spread_over_the_crowd() {
    let s = start("spread");
    assert_eq!(load(&s, json!({ "suite": "thesis" }))["added"], 26);
    assert_eq!(
        load(&s, json!({ "suite": "thesis" }))["added"],
        0,
        "no duplicates"
    );
    let tokens: Vec<String> = (0..3).map(|k| join(&s, &format!("e{k}"))).collect();
    let first: Vec<Value> = tokens.iter().map(|t| next(&s, t)).collect();
    let ids: Vec<i64> = first.iter().map(|t| t["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [1, 2, 3], "the least-covered task first");
    // Experts 0 and 1 both do task 2 with different sets: it stays open.
    submit(&s, &tokens[0], &first[0], &[]);
    submit(&s, &tokens[1], &first[1], &[]);
    let t = next(&s, &tokens[0]);
    assert_eq!(t["id"], 4, "a fresh task before one someone has seen");
    let (status, r) = post(
        &s,
        "/api/crowd/submit",
        Some(&tokens[2]),
        json!({"task": 1, "moves": []}),
    );
    assert_eq!(status, 409, "task 1 was not served to expert 2: {r}");
    // Closing: the organiser only; a closed task takes no submissions.
    assert_eq!(
        post(&s, "/api/crowd/close", Some(&tokens[2]), json!({"task": 3})).0,
        403
    );
    let (status, closed) = post(
        &s,
        "/api/crowd/close",
        Some(&s.organiser),
        json!({"task": 3}),
    );
    assert_eq!((status, closed["status"].as_str()), (200, Some("closed")));
    assert_eq!(submit(&s, &tokens[2], &first[2], &[]).0, 409);
    assert_eq!(
        post(
            &s,
            "/api/crowd/close",
            Some(&s.organiser),
            json!({"task": 999})
        )
        .0,
        404
    );
    let statuses: Vec<String> = task_list(&s)
        .iter()
        .map(|t| t["status"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(statuses.iter().filter(|s| *s == "open").count(), 25);
}

#[test]
fn tokens_are_required_and_checked() {
    let s = start("tokens");
    load(&s, json!({ "fens": [ENDING] }));
    let a = join(&s, "Ann");
    let forged = format!("{}.{}", &a[..a.find('.').unwrap()], "0".repeat(64));
    let other_id = format!("99.{}", &a[a.find('.').unwrap() + 1..]);
    for token in [
        None,
        Some("nonsense"),
        Some(forged.as_str()),
        Some(other_id.as_str()),
    ] {
        let (status, reply) = post(&s, "/api/crowd/next", token, json!({}));
        assert_eq!(status, 401, "{token:?}");
        assert!(reply["error"].is_string());
    }
    let (status, _) = post(&s, "/api/crowd/next", Some(&s.organiser), json!({}));
    assert_eq!(status, 403, "the organiser is not an expert");
    // Organiser-only routes refuse experts (403) and missing or wrong tokens (401).
    let wrong_org = format!("organiser.{}", "ab".repeat(32));
    for (path, method) in [
        ("/api/crowd/tasks", "POST"),
        ("/api/crowd/tasks", "GET"),
        ("/api/crowd/export", "GET"),
        ("/api/crowd/close", "POST"),
    ] {
        let body = r#"{"suite": "thesis"}"#;
        assert_eq!(
            call(&s, method, path, &bearer(&a), body).0,
            403,
            "{method} {path}"
        );
        assert_eq!(call(&s, method, path, &[], body).0, 401, "{method} {path}");
        assert_eq!(
            call(&s, method, path, &bearer(&wrong_org), body).0,
            401,
            "{method} {path}"
        );
    }
    // The cookie works as well as the bearer header, and is HttpOnly.
    let (_, head, reply) = call(&s, "POST", "/api/crowd/join", &[], r#"{"name": "Cookie"}"#);
    let set_cookie = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap();
    assert!(
        set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"),
        "{set_cookie}"
    );
    let cookie = format!("Cookie: pinmask_crowd={}", reply["token"].as_str().unwrap());
    let (status, _, me) = call(&s, "GET", "/api/crowd/me", &[cookie], "");
    assert_eq!(
        (status, me["expert"]["name"].as_str()),
        (200, Some("Cookie"))
    );
    assert_eq!(get(&s, "/api/crowd/me", None).1["expert"], Value::Null);
    // Only hashes are stored: the secret is nowhere in the database file.
    let secret = &a[a.find('.').unwrap() + 1..];
    let file = std::fs::read(&s.db).unwrap();
    let wal = std::fs::read(format!("{}-wal", s.db.display())).unwrap_or_default();
    for bytes in [&file, &wal] {
        assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()));
    }
    assert_eq!(task_list(&s)[0]["submissions"], 0, "nothing was submitted");
}

#[test]
fn the_organiser_token_counts_only_as_a_bearer_header() {
    let s = start("bearer-only");
    let cookie = vec![format!("Cookie: pinmask_crowd={}", s.organiser)];
    for (path, method) in [
        ("/api/crowd/tasks", "POST"),
        ("/api/crowd/tasks", "GET"),
        ("/api/crowd/export", "GET"),
        ("/api/crowd/close", "POST"),
        ("/api/crowd/me", "GET"),
    ] {
        let body = if path == "/api/crowd/close" {
            r#"{"task": 1}"#
        } else {
            r#"{"suite": "thesis"}"#
        };
        let (status, _, reply) = call(&s, method, path, &cookie, body);
        assert_eq!(status, 401, "{method} {path}: {reply}");
        let error = reply["error"].as_str().unwrap_or_default();
        assert!(error.contains("Bearer"), "{method} {path}: {error}");
    }
    assert!(task_list(&s).is_empty(), "the cookie loaded nothing");
    // The header still works, also beside an expert's cookie.
    let a = join(&s, "Ann");
    let mut both = bearer(&s.organiser);
    both.push(format!("Cookie: pinmask_crowd={a}"));
    let (status, _, me) = call(&s, "GET", "/api/crowd/me", &both, "");
    assert_eq!((status, &me["organiser"]), (200, &Value::Bool(true)));
    let (status, _, _) = call(
        &s,
        "POST",
        "/api/crowd/tasks",
        &both,
        r#"{"suite": "thesis"}"#,
    );
    assert_eq!(status, 200);
    assert!(!task_list(&s).is_empty());
}

/// With no task to serve, `next` says why: nothing loaded yet, every open
/// task done by this expert, or every task settled.
#[test]
fn no_task_says_why() {
    let s = start("why");
    let a = join(&s, "Ann");
    let b = join(&s, "Bea");
    let reply = next_reply(&s, &a);
    assert_eq!(
        (&reply["task"], &reply["why"]),
        (&Value::Null, &json!("empty"))
    );
    load(&s, json!({ "fens": [ENDING] }));
    let task = next(&s, &a);
    assert_eq!(submit(&s, &a, &task, &ENDING_LEGAL).0, 200);
    let reply = next_reply(&s, &a);
    assert_eq!(
        (&reply["task"], &reply["why"]),
        (&Value::Null, &json!("done"))
    );
    let task = next(&s, &b);
    assert_eq!(submit(&s, &b, &task, &ENDING_LEGAL).0, 200);
    let reply = next_reply(&s, &a);
    assert_eq!(
        (&reply["task"], &reply["why"]),
        (&Value::Null, &json!("settled"))
    );
    assert_eq!(next_reply(&s, &b)["why"], "settled");
}

#[test]
fn hostile_names_fens_and_moves_change_nothing() {
    let s = start("hostile");
    let bad_loads = [
        json!({ "fens": ["8/8/8 w - -"] }),
        json!({ "fens": [ENDING, "'); DROP TABLE tasks; --"] }),
        json!({ "fens": [format!("{ENDING}{}", " ".repeat(200))] }),
        json!({ "fens": [] }),
        json!({ "fens": [3] }),
        json!({ "suite": "nope" }),
        json!({ "epd": "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;moves e1d1\nnot a fen ;moves" }),
        json!({}),
    ];
    for body in bad_loads {
        let (status, reply) = post(&s, "/api/crowd/tasks", Some(&s.organiser), body.clone());
        assert_eq!(status, 400, "{body}: {reply}");
        assert!(reply["error"].is_string());
    }
    assert!(
        task_list(&s).is_empty(),
        "all or nothing: no task was added"
    );
    let hostile = "<img src=x onerror=alert(1)>";
    let bad_names = [
        json!({ "name": "" }),
        json!({ "name": "   " }),
        json!({ "name": "x".repeat(41) }),
        json!({ "name": "a\u{0}b" }),
        json!({ "name": 7 }),
        json!({}),
    ];
    for body in bad_names {
        assert_eq!(
            post(&s, "/api/crowd/join", None, body.clone()).0,
            400,
            "{body}"
        );
    }
    let (_, board) = get(&s, "/api/crowd/leaderboard", None);
    assert!(board["experts"].as_array().unwrap().is_empty());
    // A hostile name is stored and given back as the same text.
    let t = join(&s, hostile);
    let (_, board) = get(&s, "/api/crowd/leaderboard", None);
    assert_eq!(board["experts"][0]["name"], hostile);
    load(&s, json!({ "epd": format!("{ENDING} ;moves d7c6\n\n") }));
    let task = next(&s, &t);
    let bad_moves = [
        json!(["e2e4; DROP"]),
        json!("e2e4"),
        json!([1]),
        json!(vec!["e2e4"; 1001]),
    ];
    for moves in bad_moves {
        let (status, _) = post(
            &s,
            "/api/crowd/submit",
            Some(&t),
            json!({ "task": task["id"], "moves": moves }),
        );
        assert_eq!(status, 400);
    }
    assert_eq!(
        post(
            &s,
            "/api/crowd/submit",
            Some(&t),
            json!({ "task": "1", "moves": [] })
        )
        .0,
        400
    );
    assert_eq!(
        post(
            &s,
            "/api/crowd/submit",
            Some(&t),
            json!({ "task": 77, "moves": [] })
        )
        .0,
        404
    );
    // Foreign origins may not write, even with a valid token.
    let headers = vec![
        format!("Authorization: Bearer {t}"),
        "Origin: http://evil.example".to_string(),
    ];
    let body = json!({ "task": task["id"], "moves": [] }).to_string();
    assert_eq!(
        call(&s, "POST", "/api/crowd/submit", &headers, &body).0,
        403
    );
    assert_eq!(task_list(&s)[0]["submissions"], 0, "nothing was recorded");
    // The server still works, and the valid submission goes through.
    assert_eq!(submit(&s, &t, &task, &["d7c6"]).0, 200);
    assert_eq!(task_list(&s)[0]["submissions"], 1);
}

#[test]
fn data_survives_a_restart_on_the_same_file() {
    let mut s = start("restart");
    load(&s, json!({ "fens": [ENDING] }));
    let token = join(&s, "Ann");
    let task = next(&s, &token);
    assert_eq!(submit(&s, &token, &task, &ENDING_LEGAL).0, 200);
    s.keep = true;
    let (db, cases) = (s.db.clone(), s.cases.clone());
    drop(s);
    let s = start_on(db, cases);
    let (status, me) = get(&s, "/api/crowd/me", Some(&token));
    assert_eq!(
        (status, me["expert"]["name"].as_str()),
        (200, Some("Ann")),
        "the token still works"
    );
    assert_eq!(task_list(&s)[0]["submissions"], 1);
    assert_ne!(s.organiser, "", "a new organiser token each start");
}
