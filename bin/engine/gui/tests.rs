//! The one route style, checked over every table the modes register: a
//! request with bad input is answered with a 4xx and a JSON `error`
//! (never axum's plain-text rejections, a panic's 500 or a hang), and
//! changes nothing.

use super::*;
use axum::body::Body;
use axum::http::{header, Method, Request};
use http_body_util::BodyExt;
use hyper::service::Service;
use hyper_util::service::TowerToHyperService;
use serde_json::Value;

/// Query strings no route may take as valid: bad FENs and numbers,
/// parameters given twice, a review id that is no review.
const BAD_QUERIES: [&str; 4] = [
    "?fen=not+a+fen&depth=x&plies=x&seed=x&moves=e2e4&chess960=1&id=",
    "?fen=%zz&depth=-1&plies=-1&seed=-1&id=0",
    "?depth=1&depth=2&plies=1&plies=2&seed=1&seed=2&id=a&id=b",
    "?plies=401&depth=4",
];

/// Bodies no route may take as valid.
fn bad_bodies() -> Vec<String> {
    [
        "{",
        "[1, 2]",
        "null",
        r#"{"no such field": 1}"#,
        r#"{"fen": 3, "moves": "e2e4", "name": 7, "task": "1", "move": 5, "pgn": 1, "id": 2}"#,
    ]
    .map(String::from)
    .into_iter()
    .chain([format!(r#"{{"pgn": "{}"}}"#, "x".repeat(extract::MAX_BODY))])
    .collect()
}

/// What a reply says: its status, its body if that is JSON (an event
/// stream's is never read), and whether it sets a cookie.
struct Answer {
    status: u16,
    json: Option<Value>,
    sets_cookie: bool,
}

impl Answer {
    /// Whether the reply is a JSON `{"error": "..."}`.
    fn is_json_error(&self) -> bool {
        self.json.as_ref().is_some_and(|v| v["error"].is_string())
    }
}

async fn ask(app: &TowerToHyperService<axum::Router>, request: Request<Body>) -> Answer {
    let reply = app.call(request).await.expect("the router answers");
    let status = reply.status().as_u16();
    let sets_cookie = reply.headers().contains_key(header::SET_COOKIE);
    let is_json = reply
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v == "application/json");
    let mut json = None;
    if is_json {
        let bytes = reply.into_body().collect().await.unwrap().to_bytes();
        json = serde_json::from_slice(&bytes).ok();
    }
    Answer {
        status,
        json,
        sets_cookie,
    }
}

fn request(method: &Method, uri: &str, body: String) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .body(Body::from(body))
        .unwrap()
}

#[test]
fn every_route_answers_bad_input_with_a_json_4xx_and_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("pinmask-routes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (db, cases) = (dir.join("page.sqlite"), dir.join("cases.epd"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let writer = db::Writer::default();
    let options = crowd::CrowdOptions {
        db: db.clone(),
        agree: 2,
        organiser_token_file: None,
    };
    let crowd = Arc::new(crowd::Crowd::open(&options, 2, writer.clone()).unwrap());
    let play = play::Play::open(&db, 1, writer).unwrap();
    let reviews = review::Reviews::new(Arc::clone(&play));
    let modes = Modes {
        crowd: Arc::clone(&crowd),
        play: Arc::clone(&play),
        reviews: Arc::clone(&reviews),
    };
    runtime.block_on(async {
        let (_closing_tx, closing) = tokio::sync::watch::channel(false);
        let streams = events::Streams::new(10, closing);
        let router = routes(&Position::startpos(), Some(cases.clone()), modes, streams);
        let taken = router.taken().to_vec();
        assert!(taken.len() >= 30, "every mode's table: {taken:?}");
        let app = TowerToHyperService::new(router.build());
        let mut refused = 0;
        for (method, path) in &taken {
            // A GET reads at most its query, a POST at most its body.
            let tries: Vec<(String, String)> = if *method == Method::GET {
                BAD_QUERIES
                    .iter()
                    .map(|q| (format!("{path}{q}"), String::new()))
                    .collect()
            } else {
                bad_bodies()
                    .into_iter()
                    .map(|b| (path.to_string(), b))
                    .collect()
            };
            for (uri, body) in tries {
                let shown = format!("{method} {uri} {body:.40}");
                let answer = ask(&app, request(method, &uri, body)).await;
                assert!(!answer.sets_cookie, "{shown}: nothing is started");
                if answer.status < 400 {
                    // A GET that reads no query (a file, the leaderboard).
                    assert_eq!(*method, Method::GET, "{shown}: a bad body was taken");
                    continue;
                }
                refused += 1;
                assert!(answer.status < 500, "{shown}: {}", answer.status);
                assert!(
                    answer.is_json_error(),
                    "{shown}: {} without a JSON error",
                    answer.status
                );
            }
        }
        assert!(refused > 50, "only {refused} refusals");
        // Nothing changed: no case saved, nobody joined, no task loaded.
        assert!(!cases.exists(), "a case was saved");
        let board = ask(
            &app,
            request(&Method::GET, "/api/crowd/leaderboard", String::new()),
        )
        .await
        .json
        .unwrap();
        assert_eq!(board["experts"], serde_json::json!([]), "{board}");
        assert_eq!(board["tasks"]["open"], 0, "{board}");
    });
    drop(runtime);
    reviews.close();
    play.close();
    if let Ok(crowd) = Arc::try_unwrap(crowd) {
        crowd.close();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
