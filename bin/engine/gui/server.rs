//! The connections: hyper's HTTP/1.1 on a tokio listener, axum's router,
//! the layers every request passes (Host and Origin, the body timeout), and
//! the graceful shutdown.
//!
//! Our own accept loop, rather than `axum::serve`, because hyper's
//! header-read timeout is set on its connection builder: a connection that
//! does not send a whole request head within [`HEADER_TIMEOUT`] is closed,
//! and the same timer runs between the requests of a kept-alive connection,
//! so it is also the idle timeout. Each connection is one tokio task, so a
//! silent connection costs a few KiB and holds up nobody.
//!
//! A request hyper cannot read (a garbage request line, a header it
//! refuses such as a negative `Content-Length`, over 100 headers, a URL
//! over 64 KiB) never reaches a handler: hyper answers it itself, with an
//! empty body, and has no hook for that body. [`JsonErrors`] sits between
//! hyper and the socket and writes that reply again with the same status
//! and a JSON `error`, as every other error has.

use super::http::Site;
use axum::body::Body;
use axum::http::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::watch;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// Longest wait for a request's head (the request line and headers), and
/// longest idle time between a kept-alive connection's requests.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest wait for a request's body to arrive in full.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a shutdown waits for requests in flight.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// Connections the kernel holds for us before we accept them. Tokio's
/// `TcpListener::bind` asks for 128: a class opening the page at once
/// (each browser opens up to six connections) overflows that, and the
/// kernel then drops a newcomer's SYN, which its client sends again only
/// after a second. The kernel caps this at `net.core.somaxconn`.
pub const LISTEN_BACKLOG: u32 = 1024;

/// A listener on `addr` with [`LISTEN_BACKLOG`], and `SO_REUSEADDR` as the
/// standard library sets it (a restart finds the port free at once).
pub fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => TcpSocket::new_v4()?,
        SocketAddr::V6(_) => TcpSocket::new_v6()?,
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// The router with the layers every request passes: the Host and Origin
/// check (outermost: a refused request reads no body), and the body timeout.
pub fn layered(router: axum::Router, site: Site) -> axum::Router {
    let site = Arc::new(site);
    router
        .layer(RequestBodyTimeoutLayer::new(BODY_TIMEOUT))
        .layer(axum::middleware::from_fn(
            move |request: Request<Body>, next: Next| {
                let site = Arc::clone(&site);
                async move { check_and_log(&site, request, next).await }
            },
        ))
}

async fn check_and_log(site: &Site, request: Request<Body>, next: Next) -> Response {
    let (method, uri) = (request.method().clone(), request.uri().clone());
    let response = match site.check(request.method(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(reply) => reply.into_response(),
    };
    if response.status().as_u16() >= 400 {
        log::info!("{method} {uri} -> {}", response.status().as_u16());
    }
    response
}

/// Serves `app` on `listener` until `closing` turns true (Ctrl-C or
/// SIGTERM), then stops accepting, lets each connection finish the request
/// it is answering (at most [`SHUTDOWN_GRACE`]) and returns.
pub async fn serve(listener: TcpListener, app: axum::Router, mut closing: watch::Receiver<bool>) {
    let graceful = GracefulShutdown::new();
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors, say: the connections we have
                    // go on; a new one is tried again shortly.
                    log::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = closing.wait_for(|c| *c) => break,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .keep_alive(true)
            .serve_connection(TokioIo::new(JsonErrors::new(stream)), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                log::debug!("connection ended: {e}");
            }
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            log::warn!("connections still open after {SHUTDOWN_GRACE:?}: closing them");
        }
    }
}

/// Turns `closing` true at the first Ctrl-C or SIGTERM.
pub async fn signals(closing: watch::Sender<bool>) {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            log::warn!("cannot wait for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                log::warn!("cannot wait for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    eprintln!("shutting down: finishing the requests in flight");
    let _ = closing.send(true);
}

/// A connection's socket that gives hyper's own error replies a JSON body.
///
/// Hyper writes such a reply as one head, with `content-length: 0`, as the
/// last thing on the connection (it closes it after). Every reply of ours
/// carries `x-content-type-options` (see [`super::http::secure_headers`]);
/// a head without it is hyper's. That head is written in its place with the
/// same status line, `connection` and `date`, our headers and
/// `{"error": ...}`. Everything else passes through untouched.
pub struct JsonErrors<T> {
    inner: T,
    /// The reply written in place of hyper's: its bytes, how many of them
    /// are written so far, and the length of hyper's head it stands for.
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl<T> JsonErrors<T> {
    pub fn new(inner: T) -> JsonErrors<T> {
        JsonErrors {
            inner,
            replacing: None,
        }
    }
}

/// The status of `buf` if it is exactly one reply head of hyper's own: a
/// 4xx or 5xx status line, `content-length: 0`, and none of our headers.
fn hyper_error_status(buf: &[u8]) -> Option<u16> {
    let head = std::str::from_utf8(buf.strip_suffix(b"\r\n\r\n")?).ok()?;
    if head.contains("\r\n\r\n") {
        return None;
    }
    let rest = head
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| head.strip_prefix("HTTP/1.0 "))?;
    let status: u16 = rest.get(..3)?.parse().ok()?;
    let lines: Vec<String> = head.split("\r\n").map(str::to_ascii_lowercase).collect();
    let empty = lines.iter().any(|l| l == "content-length: 0");
    let ours = lines
        .iter()
        .any(|l| l.starts_with("x-content-type-options:"));
    ((400..600).contains(&status) && empty && !ours).then_some(status)
}

/// Hyper's error head `head` (of `status`) as one of our JSON errors.
fn json_error_reply(head: &[u8], status: u16) -> Vec<u8> {
    let message = match status {
        400 => "malformed request: its request line or a header could not be read",
        414 => "the URL is too long",
        431 => "too many request headers, or headers too large",
        _ => "the request could not be read",
    };
    let body = serde_json::json!({ "error": message }).to_string();
    let text = String::from_utf8_lossy(head);
    let mut out = String::new();
    for line in text.trim_end().split("\r\n") {
        if !line.to_ascii_lowercase().starts_with("content-length:") {
            out += line;
            out += "\r\n";
        }
    }
    let mut ours = axum::http::HeaderMap::new();
    super::http::secure_headers(&mut ours);
    for (name, value) in &ours {
        out += &format!("{name}: {}\r\n", value.to_str().unwrap_or_default());
    }
    out += &format!(
        "content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    out.into_bytes()
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.replacing.is_none() {
            match hyper_error_status(buf) {
                Some(status) => {
                    this.replacing = Some((json_error_reply(buf, status), 0, buf.len()))
                }
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        // Hyper calls again with the same head until it is reported
        // written: that is once the whole replacement is.
        if let Some((bytes, written, _)) = &mut this.replacing {
            while *written < bytes.len() {
                let n = ready!(Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]))?;
                if n == 0 {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                *written += n;
            }
        }
        let replaced = this.replacing.take().map_or(0, |(_, _, len)| len);
        Poll::Ready(Ok(replaced))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let first: &[u8] = bufs.first().map_or(&[], |b| b);
        if self.replacing.is_some() || hyper_error_status(first).is_some() {
            return self.poll_write(cx, first);
        }
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYPER_400: &[u8] = b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\ndate: Fri, 27 Nov 2026 13:06:11 GMT\r\n\r\n";

    #[test]
    fn only_hypers_own_error_heads_are_replaced() {
        assert_eq!(hyper_error_status(HYPER_400), Some(400));
        let ours = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nx-content-type-options: nosniff\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error_status(ours), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error_status(ok), None);
        let with_body =
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nHTTP/1.1 400 x\r\n\r\n";
        assert_eq!(hyper_error_status(with_body), None);
        assert_eq!(hyper_error_status(b"data: HTTP/1.1 400\r\n\r\n"), None);
    }

    #[test]
    fn the_replacement_keeps_the_status_and_has_a_json_body() {
        let reply = String::from_utf8(json_error_reply(HYPER_400, 400)).unwrap();
        let (head, body) = reply.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(head.contains("\r\nconnection: close\r\n"), "{head}");
        assert!(
            head.contains(&format!("\r\ncontent-length: {}", body.len())),
            "{head}"
        );
        assert!(!head.contains("content-length: 0"), "{head}");
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(value["error"]
            .as_str()
            .is_some_and(|e| e.contains("malformed")));
    }
}
