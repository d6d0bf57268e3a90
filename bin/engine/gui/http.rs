//! The HTTP edge of the board page: who may ask (Host and Origin), the
//! routes each mode registers, query strings, bodies, and JSON replies.

use serde_json::{json, Value};
use std::io::{Read, Write};
use tiny_http::{Method, Request, StatusCode};

/// Largest request body we read (a case is a FEN and a few hundred moves).
const MAX_BODY: u64 = 64 * 1024;

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

    /// A 4xx reply `{"error": message}`.
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

    /// Sends the reply and asks the client to close the connection; a client
    /// gone away is no error of ours.
    ///
    /// `Connection: close` because `tiny_http` 0.12 runs each connection as
    /// one task of its thread pool, and the pool can lose a wake-up: when two
    /// connections arrive while an idle thread is still waking, the second is
    /// queued although no thread will take it, and it waits until some
    /// thread's connection ends. Kept-alive connections end only when the
    /// client leaves (there is no idle timeout), so a browser could wait for
    /// another browser to go. Closed after each reply, connections end within
    /// milliseconds and a queued one is taken at once. `tiny_http` refuses a
    /// `Connection` header in a `Response`, so the head is written here.
    pub fn send(self, request: Request) {
        let head_only = *request.method() == Method::Head;
        let head = self.head();
        let mut writer = request.into_writer();
        let sent = writer
            .write_all(head.as_bytes())
            .and_then(|()| match head_only {
                true => Ok(()),
                false => writer.write_all(self.body.as_bytes()),
            })
            .and_then(|()| writer.flush());
        if let Err(e) = sent {
            log::debug!("reply not delivered: {e}");
        }
    }

    /// The status line and headers of the reply, ending in the blank line.
    fn head(&self) -> String {
        let reason = StatusCode(self.status).default_reason_phrase();
        let mut head = format!("HTTP/1.1 {} {reason}\r\n", self.status);
        let fixed = [
            ("Content-Type", self.content_type),
            ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "no-store"),
            (
                "Content-Security-Policy",
                "default-src 'self'; style-src 'self'; img-src 'self' data:",
            ),
            ("Connection", "close"),
        ];
        let extra = self.headers.iter().map(|(n, v)| (*n, v.as_str()));
        for (name, value) in fixed.into_iter().chain(extra) {
            assert!(
                !value.contains(['\r', '\n']),
                "our header values are one line: {name}"
            );
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", self.body.len()));
        head
    }
}

/// The value of request header `name`, if sent.
pub fn header<'a>(request: &'a Request, name: &'static str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
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
    pub fn check(&self, request: &Request) -> Result<(), Reply> {
        match header(request, "Host") {
            Some(host) if self.hosts.iter().any(|h| h == host) => {}
            Some(host) => return Err(Reply::error(403, format!("host {host:?} is not served"))),
            None => return Err(Reply::error(403, "a Host header is required")),
        }
        if *request.method() != Method::Get && *request.method() != Method::Head {
            if let Some(origin) = header(request, "Origin") {
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

/// What a handler gets: the request (for its headers and body) and the
/// decoded query parameters.
pub struct Call<'a> {
    pub request: &'a mut Request,
    pub params: &'a [(String, String)],
}

/// A route's handler; modes capture their own state in it.
pub type Handler = Box<dyn Fn(&mut Call) -> Result<Reply, Reply> + Send + Sync>;

/// The routes of every mode: exact paths, one handler per method.
#[derive(Default)]
pub struct Router {
    routes: Vec<(Method, &'static str, Handler)>,
}

impl Router {
    /// Adds `handler` for `method` on `path` (a `GET` also answers `HEAD`).
    pub fn add(
        &mut self,
        method: Method,
        path: &'static str,
        handler: impl Fn(&mut Call) -> Result<Reply, Reply> + Send + Sync + 'static,
    ) {
        assert!(
            !self.routes.iter().any(|r| r.0 == method && r.1 == path),
            "each route is registered once: {method} {path}"
        );
        self.routes.push((method, path, Box::new(handler)));
    }

    /// Answers `request`: its handler's reply, 404 for an unknown path and
    /// 405 for a known path with a method it does not take.
    pub fn dispatch(&self, request: &mut Request) -> Result<Reply, Reply> {
        let (path, params) = split_url(request.url())?;
        let method = match request.method() {
            Method::Head => Method::Get,
            m => m.clone(),
        };
        let mut known = false;
        for (m, p, handler) in &self.routes {
            if *p == path {
                known = true;
                if *m == method {
                    return handler(&mut Call {
                        request,
                        params: &params,
                    });
                }
            }
        }
        let method = request.method();
        Err(if known {
            Reply::error(405, format!("{method} is not allowed on {path}"))
        } else {
            Reply::error(404, format!("no such page: {path}"))
        })
    }
}

/// The path and the decoded query parameters of a request URL.
pub fn split_url(url: &str) -> Result<(String, Vec<(String, String)>), Reply> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let mut params = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        params.push((decode(k)?, decode(v)?));
    }
    Ok((decode(path)?, params))
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

/// The value of cookie `name`, if the request carries it.
pub fn cookie<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .filter(|h| h.field.equiv("Cookie"))
        .flat_map(|h| h.value.as_str().split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The request body parsed as JSON.
pub fn json_body(request: &mut Request) -> Result<Value, Reply> {
    if request.body_length().is_some_and(|n| n as u64 > MAX_BODY) {
        return Err(Reply::error(413, "request body too large"));
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut body)
        .map_err(|e| Reply::error(400, format!("could not read the body: {e}")))?;
    if body.len() as u64 > MAX_BODY {
        return Err(Reply::error(413, "request body too large"));
    }
    serde_json::from_slice(&body).map_err(|e| Reply::error(400, format!("body is not JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_asks_the_client_to_close() {
        let reply = Reply::error(404, "no such page: /x").with_header("Set-Cookie", "a=b".into());
        let head = reply.head();
        assert!(head.starts_with("HTTP/1.1 404 Not Found\r\n"), "{head}");
        for line in [
            "Content-Type: application/json",
            "Connection: close",
            "Set-Cookie: a=b",
            "X-Content-Type-Options: nosniff",
        ] {
            assert!(
                head.contains(&format!("\r\n{line}\r\n")),
                "{line} in {head}"
            );
        }
        let length = format!("\r\nContent-Length: {}\r\n\r\n", reply.body.len());
        assert!(head.ends_with(&length), "{head}");
    }

    #[test]
    fn decodes_queries() {
        let (path, params) = split_url("/api/position?fen=8%2F8+w&x=%E2%99%9A&flag").unwrap();
        assert_eq!(path, "/api/position");
        assert_eq!(param(&params, "fen"), Some("8/8 w"));
        assert_eq!(param(&params, "x"), Some("♚"));
        assert_eq!(param(&params, "flag"), Some(""));
        assert_eq!(param(&params, "y"), None);
        for bad in ["/?fen=%", "/?fen=%4", "/?fen=%zz", "/?fen=%ff"] {
            assert_eq!(split_url(bad).err().map(|r| r.status), Some(400), "{bad}");
        }
    }
}
