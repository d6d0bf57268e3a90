//! The HTTP edge of the board page: replies, what a handler is given (the
//! headers, the query, the body read within its limits), typed JSON bodies,
//! and the routes each mode registers.
//!
//! Handlers are plain synchronous functions (they read the database and
//! take locks); each runs on tokio's blocking pool, so none holds up the
//! runtime's threads. The connection handling (timeouts, closing, shutdown)
//! is [`super::server`]'s.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, MethodRouter};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Largest request body we read (a case is a FEN and a few hundred moves).
pub const MAX_BODY: usize = 64 * 1024;

/// A reply: status code, content type and body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
    /// Extra headers (a `Set-Cookie`, say).
    pub headers: Vec<(&'static str, String)>,
}

impl Reply {
    /// A JSON reply with status 200.
    pub fn json(value: Value) -> Reply {
        Reply::json_status(200, value)
    }

    /// A JSON reply with the given status.
    pub fn json_status(status: u16, value: Value) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: value.to_string(),
            headers: Vec::new(),
        }
    }

    /// Plain text with status 200 (an export file, say).
    pub fn text(body: String) -> Reply {
        Reply {
            status: 200,
            content_type: "text/plain; charset=utf-8",
            body,
            headers: Vec::new(),
        }
    }

    /// The reply with one more header.
    pub fn with_header(mut self, name: &'static str, value: String) -> Reply {
        self.headers.push((name, value));
        self
    }

    /// A 4xx or 5xx reply `{"error": message}`.
    pub fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply::json_status(status, json!({ "error": message.into() }))
    }

    /// One of the page's own files.
    pub fn file(content_type: &'static str, body: &'static str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.to_string(),
            headers: Vec::new(),
        }
    }
}

/// The headers every reply carries: no sniffing, no caching, and the page's
/// content security policy.
pub fn secure_headers(headers: &mut HeaderMap) {
    let fixed = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::CACHE_CONTROL, "no-store"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; style-src 'self'; img-src 'self' data:",
        ),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, self.body).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(self.content_type),
        );
        secure_headers(headers);
        for (name, value) in self.headers {
            match HeaderValue::from_str(&value) {
                Ok(value) => {
                    headers.append(name, value);
                }
                Err(_) => log::error!("header {name} not sent: not a header value"),
            }
        }
        response
    }
}

/// What a handler gets: the headers, decoded query parameters and
/// the body (at most [`MAX_BODY`] bytes, read in full before the handler runs).
pub struct Call {
    pub headers: HeaderMap,
    pub params: Vec<(String, String)>,
    pub body: Bytes,
}

impl Call {
    /// The value of request header `name`, if sent as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The value of cookie `name`, if the request carries it.
    pub fn cookie(&self, name: &str) -> Option<&str> {
        cookie(&self.headers, name)
    }

    /// The body as `T`: see [`parse_body`].
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, Reply> {
        parse_body(&self.body)
    }
}

/// The value of cookie `name` in `headers`, if sent.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// A JSON body read as `T` (a serde type that denies unknown fields): a body
/// that is not JSON, not an object, has a field of the wrong type or an
/// unknown field is a 400 whose `error` names what was wrong.
pub fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, Reply> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| Reply::error(400, format!("the body is not JSON: {e}")))?;
    if !value.is_object() {
        return Err(Reply::error(400, "the body must be a JSON object"));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let message = if path == "." {
            inner.to_string()
        } else {
            format!("field \"{path}\": {inner}")
        };
        Reply::json_status(400, json!({ "error": message, "field": path }))
    })
}

/// A route's handler; modes capture their own state in it.
pub type Handler = Arc<dyn Fn(&mut Call) -> Result<Reply, Reply> + Send + Sync>;

/// The routes of every mode: exact paths, one handler per method (a `GET`
/// also answers `HEAD`), gathered into one axum router.
#[derive(Default)]
pub struct Router {
    routes: BTreeMap<&'static str, MethodRouter>,
    taken: Vec<(Method, &'static str)>,
}

impl Router {
    /// Adds the synchronous `handler` for `method` on `path`.
    pub fn add(
        &mut self,
        method: Method,
        path: &'static str,
        handler: impl Fn(&mut Call) -> Result<Reply, Reply> + Send + Sync + 'static,
    ) {
        let handler: Handler = Arc::new(handler);
        let filter = MethodFilter::try_from(method.clone()).expect("our routes use plain methods");
        self.add_async(
            method,
            path,
            axum::routing::on(filter, move |request: Request<Body>| {
                run(Arc::clone(&handler), request)
            }),
        );
    }

    /// Adds an asynchronous route (an event stream) for `method` on `path`.
    pub fn add_async(&mut self, method: Method, path: &'static str, route: MethodRouter) {
        assert!(
            !self.taken.iter().any(|(m, p)| *m == method && *p == path),
            "each route is registered once: {method} {path}"
        );
        self.taken.push((method, path));
        let entry = self.routes.remove(path);
        let merged = match entry {
            Some(existing) => existing.merge(route),
            None => route,
        };
        self.routes.insert(path, merged);
    }

    /// The axum router: our routes, a JSON 405 for a known path asked with
    /// another method, and a JSON 404 for the rest.
    pub fn build(self) -> axum::Router {
        let mut router = axum::Router::new();
        for (path, route) in self.routes {
            router = router.route(
                path,
                route.fallback(move |method: Method| async move {
                    Reply::error(405, format!("{method} is not allowed on {path}"))
                }),
            );
        }
        router.fallback(|request: Request<Body>| async move {
            Reply::error(404, format!("no such page: {}", request.uri().path()))
        })
    }
}

/// Reads the request's query and body, then answers it with `handler` on the
/// blocking pool. A panic in a handler is a 500; the server goes on.
async fn run(handler: Handler, request: Request<Body>) -> Response {
    let (parts, body) = request.into_parts();
    let params = match split_query(parts.uri.query().unwrap_or("")) {
        Ok(params) => params,
        Err(reply) => return reply.into_response(),
    };
    let body = match read_body(&parts.headers, body).await {
        Ok(body) => body,
        Err(reply) => return reply.into_response(),
    };
    let mut call = Call {
        headers: parts.headers,
        params,
        body,
    };
    let answer = tokio::task::spawn_blocking(move || handler(&mut call).unwrap_or_else(|e| e));
    match answer.await {
        Ok(reply) => reply,
        Err(e) => {
            log::error!("a request handler failed: {e}");
            Reply::error(500, "internal error (logged)")
        }
    }
    .into_response()
}

/// The body, at most [`MAX_BODY`] bytes: 413 beyond (the connection is then
/// closed, so the rest of the body is never read as a request), 408 when it
/// does not arrive within the server's body timeout.
async fn read_body(headers: &HeaderMap, body: Body) -> Result<Bytes, Reply> {
    let too_large = || {
        Reply::error(
            413,
            format!("request body too large (over {MAX_BODY} bytes)"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    match Limited::new(body, MAX_BODY).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) => {
            let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e.as_ref());
            while let Some(err) = source {
                if err.is::<LengthLimitError>() {
                    return Err(too_large());
                }
                if err.is::<tower_http::timeout::TimeoutError>() {
                    return Err(Reply::error(408, "the request body did not arrive in time"));
                }
                source = err.source();
            }
            Err(Reply::error(400, format!("could not read the body: {e}")))
        }
    }
}

/// The decoded parameters of a query string.
pub fn split_query(query: &str) -> Result<Vec<(String, String)>, Reply> {
    let mut params = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        params.push((decode(k)?, decode(v)?));
    }
    Ok(params)
}

/// Percent-decoding, with `+` as a space (as forms send it; FENs have no `+`).
fn decode(text: &str) -> Result<String, Reply> {
    let bad = || Reply::error(400, "malformed percent-encoding in the URL");
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or_else(bad)?;
                let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| Reply::error(400, "the URL is not UTF-8"))
}

/// The value of query parameter `name`, if given.
pub fn param<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The names this server answers to (`Host`) and the origins that may
/// change things (`Origin` on anything but `GET`): both follow the address
/// served, plus any host name given on the command line.
pub struct Site {
    hosts: Vec<String>,
    origins: Vec<String>,
}

impl Site {
    /// The site at `ip:port`: loopback also answers to `localhost`, and
    /// `names` (host names with or without a port) are added for a server
    /// behind a reverse proxy, which may speak https.
    pub fn new(ip: std::net::IpAddr, port: u16, names: &[String]) -> Site {
        let mut hosts = vec![match ip {
            std::net::IpAddr::V6(v6) => format!("[{v6}]:{port}"),
            v4 => format!("{v4}:{port}"),
        }];
        if ip.is_loopback() {
            hosts.push(format!("localhost:{port}"));
        }
        let mut origins: Vec<String> = hosts.iter().map(|h| format!("http://{h}")).collect();
        for name in names {
            hosts.push(name.clone());
            origins.push(format!("http://{name}"));
            origins.push(format!("https://{name}"));
        }
        Site { hosts, origins }
    }

    /// Refuses requests a page from elsewhere could make: a `Host` we do not
    /// serve (DNS rebinding), a write from a foreign `Origin`.
    pub fn check(&self, method: &Method, headers: &HeaderMap) -> Result<(), Reply> {
        let text = |name| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));
        match text(header::HOST) {
            Some(host) if self.hosts.iter().any(|h| h == host) => {}
            Some(host) => return Err(Reply::error(403, format!("host {host:?} is not served"))),
            None => return Err(Reply::error(403, "a Host header is required")),
        }
        if *method != Method::GET && *method != Method::HEAD {
            if let Some(origin) = text(header::ORIGIN) {
                if !self.origins.iter().any(|o| o == origin) {
                    return Err(Reply::error(
                        403,
                        format!("origin {origin:?} may not change anything here"),
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_queries() {
        let params = split_query("fen=8%2F8+w&x=%E2%99%9A&flag").unwrap();
        assert_eq!(param(&params, "fen"), Some("8/8 w"));
        assert_eq!(param(&params, "x"), Some("♚"));
        assert_eq!(param(&params, "flag"), Some(""));
        assert_eq!(param(&params, "y"), None);
        for bad in ["fen=%", "fen=%4", "fen=%zz", "fen=%ff"] {
            assert_eq!(split_query(bad).err().map(|r| r.status), Some(400), "{bad}");
        }
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Sample {
        name: String,
        count: Option<u32>,
    }

    #[test]
    fn typed_bodies_name_the_field() {
        let ok: Sample = parse_body(br#"{"name": "a", "count": 3}"#).unwrap();
        assert_eq!((ok.name.as_str(), ok.count), ("a", Some(3)));
        let cases: [(&[u8], &str); 6] = [
            (br#"{"name": 5}"#, "field \"name\": invalid type"),
            (
                br#"{"name": "a", "count": "3"}"#,
                "field \"count\": invalid type",
            ),
            (br#"{"name": "a", "colour": 1}"#, "unknown field `colour`"),
            (br#"[1, 2]"#, "the body must be a JSON object"),
            (b"null", "the body must be a JSON object"),
            (b"{", "the body is not JSON"),
        ];
        for (body, expected) in cases {
            let e = parse_body::<Sample>(body).unwrap_err();
            assert_eq!(e.status, 400);
            let reply: Value = serde_json::from_str(&e.body).unwrap();
            let error = reply["error"].as_str().unwrap();
            assert!(error.contains(expected), "{expected} in {error}");
        }
        let missing = parse_body::<Sample>(b"{}").unwrap_err();
        assert!(
            missing.body.contains("missing field `name`"),
            "{}",
            missing.body
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
            let mut headers = HeaderMap::new();
            headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
            if let Some(o) = origin {
                headers.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
            }
            lan.check(&Method::POST, &headers).map_err(|e| e.status)
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
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("localhost:80"));
        assert!(local.check(&Method::GET, &headers).is_ok());
        assert_eq!(
            local
                .check(&Method::GET, &HeaderMap::new())
                .map_err(|e| e.status),
            Err(403)
        );
    }
}
