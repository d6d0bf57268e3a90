//! The HTTP edge of the board page: the [`Reply`] every route answers
//! with (a JSON `error` for every 4xx and 5xx), the headers every reply
//! carries, cookies, and the Host and Origin check. How routes are written
//! is [`super::router`]'s, what they read [`super::extract`]'s; the
//! connections (timeouts, closing, shutdown) are [`super::server`]'s.

use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

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
