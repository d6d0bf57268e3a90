//! What a route reads from a request, as typed values: the query string as
//! a serde type ([`Query`]), the body as one ([`Json`], [`JsonOrEmpty`]).
//!
//! Ours rather than axum's own extractors, which each wrap: axum's reject
//! bad input with a `text/plain` body, and its `Json` wants a
//! `Content-Type: application/json` header, which our clients need not
//! send. Every rejection here is a 4xx [`Reply`] with a JSON `error`, the
//! handler never runs, and nothing changes.

use super::http::Reply;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// Largest request body we read (a case is a FEN and a few hundred moves).
pub const MAX_BODY: usize = 64 * 1024;

/// The query string read as `T` (axum's `Query`): a value of the wrong
/// type, a field given twice or a missing field is a 400 naming it.
/// Parameters `T` does not name are ignored, as a browser may add some.
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = Reply;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Query<T>, Reply> {
        use axum::extract::rejection::QueryRejection;
        match axum::extract::Query::try_from_uri(&parts.uri) {
            Ok(axum::extract::Query(value)) => Ok(Query(value)),
            // Its cause names the parameter (`depth: invalid digit found
            // in string`), without axum's capitalised preamble.
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => {
                let cause = std::error::Error::source(&e).map_or(e.to_string(), |c| c.to_string());
                Err(Reply::error(400, format!("query: {cause}")))
            }
            Err(e) => Err(Reply::error(e.status().as_u16(), e.body_text())),
        }
    }
}

/// The body read as `T`: see [`parse_body`] and [`read_body`].
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = Reply;

    async fn from_request(request: Request, _: &S) -> Result<Json<T>, Reply> {
        let (parts, body) = request.into_parts();
        let bytes = read_body(&parts.headers, body).await?;
        parse_body(&bytes).map(Json)
    }
}

/// As [`Json`], but a body that is empty (or only white space) is `None`:
/// for routes whose fields are all optional, or that take nothing.
pub struct JsonOrEmpty<T>(pub Option<T>);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonOrEmpty<T> {
    type Rejection = Reply;

    async fn from_request(request: Request, _: &S) -> Result<JsonOrEmpty<T>, Reply> {
        let (parts, body) = request.into_parts();
        let bytes = read_body(&parts.headers, body).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(JsonOrEmpty(None));
        }
        parse_body(&bytes).map(|value| JsonOrEmpty(Some(value)))
    }
}

/// The body, at most [`MAX_BODY`] bytes: 413 beyond (the connection is then
/// closed, so the rest of the body is never read as a request), 408 when it
/// does not arrive within the server's body timeout.
pub async fn read_body(headers: &HeaderMap, body: Body) -> Result<Bytes, Reply> {
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

#[cfg(test)]
mod tests {
    use super::*;

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

    fn request(uri: &str, headers: &[(&str, &str)], body: &str) -> Request {
        let mut builder = Request::builder().uri(uri);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(Body::from(body.to_string())).unwrap()
    }

    fn on_runtime<T>(work: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(work)
    }

    /// The status and `error` of a rejection.
    fn rejected(reply: Reply) -> (u16, String) {
        assert_eq!(reply.content_type, "application/json");
        let value: Value = serde_json::from_str(&reply.body).unwrap();
        (reply.status, value["error"].as_str().unwrap().to_string())
    }

    #[test]
    fn queries_are_decoded_into_their_type_or_refused_as_json() {
        #[derive(serde::Deserialize)]
        struct Wanted {
            fen: Option<String>,
            depth: Option<u32>,
        }
        let query = |uri: &str| {
            let (mut parts, _) = request(uri, &[], "").into_parts();
            on_runtime(Query::<Wanted>::from_request_parts(&mut parts, &()))
        };
        let Query(ok) = query("/x?fen=8%2F8+w&depth=3&other=1").ok().unwrap();
        assert_eq!((ok.fen.as_deref(), ok.depth), (Some("8/8 w"), Some(3)));
        let Query(none) = query("/x").ok().unwrap();
        assert_eq!((none.fen, none.depth), (None, None));
        for bad in ["/x?depth=x", "/x?depth=-1", "/x?depth=1&depth=2"] {
            let (status, error) = rejected(query(bad).err().unwrap());
            assert_eq!(status, 400, "{bad}");
            assert!(
                error.starts_with("query: ") && error.contains("depth"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn bodies_need_no_content_type_and_are_refused_as_json() {
        let json = |headers: &[(&str, &str)], body: &str| {
            on_runtime(Json::<Sample>::from_request(
                request("/x", headers, body),
                &(),
            ))
        };
        let Json(ok) = json(&[], r#"{"name": "a"}"#).ok().unwrap();
        assert_eq!(ok.name, "a");
        let text = [("content-type", "text/plain")];
        assert!(json(&text, r#"{"name": "a"}"#).is_ok());
        assert_eq!(rejected(json(&[], "").err().unwrap()).0, 400);
        let big = format!(r#"{{"name": "{}"}}"#, "x".repeat(MAX_BODY));
        let (status, error) = rejected(json(&[], &big).err().unwrap());
        assert_eq!(status, 413, "{error}");
        let declared = [("content-length", "70000")];
        assert_eq!(rejected(json(&declared, "{}").err().unwrap()).0, 413);
        let empty = |body: &str| {
            on_runtime(JsonOrEmpty::<Sample>::from_request(
                request("/x", &[], body),
                &(),
            ))
        };
        assert!(empty(" \n").ok().unwrap().0.is_none());
        assert_eq!(empty(r#"{"name": "b"}"#).ok().unwrap().0.unwrap().name, "b");
        assert_eq!(rejected(empty("{").err().unwrap()).0, 400);
    }
}
