//! The one way a route is written: each mode hands [`Router::table`] a
//! table of [`route`]s and the state they share. A route's handler is a
//! plain synchronous function of that state and its typed input: one of
//! the extractors in [`super::extract`], a mode's own (the crowd's token
//! check, say), or a tuple of them, read in order. A request whose input
//! is wrong never reaches the handler: it is answered with the
//! extractor's 4xx and a JSON `error`. The handler runs on tokio's
//! blocking pool (it reads the database and takes locks), so none holds up
//! the runtime's threads.

use super::extract::read_body;
use super::http::Reply;
use axum::body::Body;
use axum::extract::{FromRequest, Request, State};
use axum::http::Method;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, MethodRouter};
use std::collections::BTreeMap;

/// One row of a mode's route table: a method, an exact path and what
/// answers it, for state `S`.
pub struct Route<S> {
    method: Method,
    path: &'static str,
    answer: MethodRouter<S>,
}

/// The route that answers `method` on `path` with `handler`, run on the
/// blocking pool once its input `E` is read. A `GET` also answers `HEAD`.
pub fn route<S, M: 'static, E, R, F>(method: Method, path: &'static str, handler: F) -> Route<S>
where
    S: Clone + Send + Sync + 'static,
    E: FromRequest<S, M> + Send + 'static,
    R: IntoResponse + Send + 'static,
    F: Fn(&S, E) -> R + Clone + Send + Sync + 'static,
{
    let filter = MethodFilter::try_from(method.clone()).expect("our routes use plain methods");
    let answer = axum::routing::on(filter, move |State(state): State<S>, request: Request| {
        answer(state, request, handler)
    });
    Route {
        method,
        path,
        answer,
    }
}

/// Reads the request's whole body (within [`read_body`]'s limits), then
/// its input `E`, then answers with `handler` on the blocking pool.
///
/// The body first, whatever the route reads: when hyper answers before
/// the body has arrived in full, it closes the kept-alive connection (it
/// drains only what it already holds), and a client that sent its next
/// request on it (`http.client`, after a 401 or a 409) lost that request.
async fn answer<S, M, E, R, F>(state: S, request: Request, handler: F) -> Response
where
    S: Send + Sync + 'static,
    E: FromRequest<S, M> + Send + 'static,
    R: IntoResponse + Send + 'static,
    F: Fn(&S, E) -> R + Send + 'static,
{
    let (parts, body) = request.into_parts();
    let body = match read_body(&parts.headers, body).await {
        Ok(bytes) => Body::from(bytes),
        Err(reply) => return reply.into_response(),
    };
    let input = match E::from_request(Request::from_parts(parts, body), &state).await {
        Ok(input) => input,
        Err(rejection) => return rejection.into_response(),
    };
    blocking(move || handler(&state, input))
        .await
        .into_response()
}

/// `GET path`: one of the page's own files.
pub fn file<S>(path: &'static str, content_type: &'static str, body: &'static str) -> Route<S>
where
    S: Clone + Send + Sync + 'static,
{
    route(Method::GET, path, move |_: &S, ()| {
        Reply::file(content_type, body)
    })
}

/// `GET path`: one of the page's scripts.
pub fn script<S>(path: &'static str, body: &'static str) -> Route<S>
where
    S: Clone + Send + Sync + 'static,
{
    file(path, "text/javascript; charset=utf-8", body)
}

/// Runs `work` on the blocking pool. A panic in it is a 500; the server
/// goes on.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Reply> {
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        log::error!("a request handler failed: {e}");
        Reply::error(500, "internal error (logged)")
    })
}

/// The routes of every mode, gathered into one axum router.
#[derive(Default)]
pub struct Router {
    routes: BTreeMap<&'static str, MethodRouter>,
    taken: Vec<(Method, &'static str)>,
}

impl Router {
    /// Adds a mode's `table`, each route with its own handle on `state`.
    ///
    /// # Panics
    /// When a method and path are registered twice (a bug in the tables).
    pub fn table<S>(&mut self, state: S, table: impl IntoIterator<Item = Route<S>>)
    where
        S: Clone + Send + Sync + 'static,
    {
        for Route {
            method,
            path,
            answer,
        } in table
        {
            assert!(
                !self.taken.iter().any(|(m, p)| *m == method && *p == path),
                "each route is registered once: {method} {path}"
            );
            self.taken.push((method, path));
            let answer = answer.with_state(state.clone());
            let merged = match self.routes.remove(path) {
                Some(existing) => existing.merge(answer),
                None => answer,
            };
            self.routes.insert(path, merged);
        }
    }

    /// Every method and path registered, in the order they were.
    #[cfg(test)]
    pub fn taken(&self) -> &[(Method, &'static str)] {
        &self.taken
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
        router.fallback(|request: Request| async move {
            Reply::error(404, format!("no such page: {}", request.uri().path()))
        })
    }
}
