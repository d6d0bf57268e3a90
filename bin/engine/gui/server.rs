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

use super::http::Site;
use axum::body::Body;
use axum::http::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
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
            .serve_connection(TokioIo::new(stream), service);
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
