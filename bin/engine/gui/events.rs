//! Server-Sent Events: the latest value of a `watch` channel pushed to the
//! page each time it changes (a slow page skips to the newest, never a
//! backlog), until the channel closes or the server shuts down. The open
//! streams are counted: past [`Streams`]'s limit a new one is refused.

use super::http::{secure_headers, Reply};
use super::router::Route;
use axum::extract::FromRequest;
use axum::http::Method;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::watch;

/// Open event streams allowed at once when `--max-streams` is not given.
pub const DEFAULT_MAX_STREAMS: usize = 1000;
/// Seconds a refused page is told to wait (`Retry-After`).
pub const RETRY_AFTER_S: u32 = 5;

/// One pushed event: its name (the page's `addEventListener` type) and its
/// JSON data.
#[derive(Clone, Debug)]
pub struct Pushed {
    pub name: &'static str,
    pub data: Arc<str>,
}

impl Pushed {
    /// The event `name` carrying `value`.
    pub fn new(name: &'static str, value: &serde_json::Value) -> Pushed {
        Pushed {
            name,
            data: value.to_string().into(),
        }
    }
}

/// Opens the event streams of every mode: each holds a connection and a
/// task for as long as the page stays, so their number is capped.
#[derive(Clone)]
pub struct Streams {
    closing: watch::Receiver<bool>,
    open: Arc<AtomicUsize>,
    max: usize,
}

/// One open stream's place; given back when the stream ends or its
/// connection closes.
struct Place(Arc<AtomicUsize>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Streams {
    /// At most `max` streams at once, all ended when `closing` turns true.
    pub fn new(max: usize, closing: watch::Receiver<bool>) -> Streams {
        Streams {
            closing,
            open: Arc::new(AtomicUsize::new(0)),
            max,
        }
    }

    /// The event stream reply for the receiver `subscribe` gives: its
    /// current value at once, then each new one. Past the limit, `503` with
    /// a JSON `error` and `Retry-After`, and `subscribe` is not called.
    pub fn open(&self, subscribe: impl FnOnce() -> watch::Receiver<Pushed>) -> Response {
        if self.open.fetch_add(1, Ordering::AcqRel) >= self.max {
            self.open.fetch_sub(1, Ordering::AcqRel);
            log::warn!("event stream refused: {} open", self.max);
            return Reply::error(
                503,
                format!(
                    "too many open event streams (the server's limit is {}): try again shortly",
                    self.max
                ),
            )
            .with_header("Retry-After", RETRY_AFTER_S.to_string())
            .into_response();
        }
        stream(
            subscribe(),
            self.closing.clone(),
            Place(Arc::clone(&self.open)),
        )
    }
}

/// `GET path`: a mode's event stream, of the receiver `subscribe` gives
/// for the request's input `E` (refused as `E`'s extractor refuses), opened
/// by `streams`.
pub fn route<S, M: 'static, E, F>(path: &'static str, streams: Streams, subscribe: F) -> Route<S>
where
    S: Clone + Send + Sync + 'static,
    E: FromRequest<S, M> + Send + 'static,
    F: Fn(&S, E) -> watch::Receiver<Pushed> + Clone + Send + Sync + 'static,
{
    super::router::route(Method::GET, path, move |state: &S, input: E| {
        streams.open(|| subscribe(state, input))
    })
}

/// The stream of `latest`'s values until it closes or `closing` turns
/// true; `place` is held as long as the stream.
fn stream(
    latest: watch::Receiver<Pushed>,
    closing: watch::Receiver<bool>,
    place: Place,
) -> Response {
    let events = futures_util::stream::unfold(
        (latest, closing, true, place),
        |(mut latest, mut closing, first, place)| async move {
            if !first {
                tokio::select! {
                    changed = latest.changed() => changed.ok()?,
                    _ = closing.wait_for(|c| *c) => return None,
                }
            }
            if *closing.borrow() {
                return None;
            }
            let pushed = latest.borrow_and_update().clone();
            let event = Event::default().event(pushed.name).data(&*pushed.data);
            Some((Ok::<_, Infallible>(event), (latest, closing, false, place)))
        },
    );
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response();
    secure_headers(response.headers_mut());
    response
}
