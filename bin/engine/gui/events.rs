//! Server-Sent Events: the latest value of a `watch` channel pushed to the
//! page each time it changes (a slow page skips to the newest, never a
//! backlog), until the channel closes or the server shuts down.

use super::http::secure_headers;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::watch;

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

/// The event stream reply: the current value at once, then each new one.
pub fn stream(latest: watch::Receiver<Pushed>, closing: watch::Receiver<bool>) -> Response {
    let events = futures_util::stream::unfold(
        (latest, closing, true),
        |(mut latest, mut closing, first)| async move {
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
            Some((Ok::<_, Infallible>(event), (latest, closing, false)))
        },
    );
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response();
    secure_headers(response.headers_mut());
    response
}
