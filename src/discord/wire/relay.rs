//! What a 429 said to wait, for the wire's retry to honour.
//!
//! Against Discord itself serenity's rate limiter waits out every 429 (its `Retry-After`, for the
//! route or for everything) before the bot hears of it. With a proxied API base
//! (`DISCORD_API_BASE`) serenity runs without its limiter, which is the only way it honours a
//! proxy, and the error it hands back for a 429 has lost both the `Retry-After` header and the
//! body's `retry_after`. So in that mode serenity's requests go to this loopback relay, which
//! passes each request and each answer through unchanged and notes how long each 429 said to
//! wait ([`Told`]); `Wire::retry` waits at least that long before it asks again.
//!
//! The relay listens on 127.0.0.1 only, under a path prefix drawn at random, so nothing else on
//! the machine can use it to reach the API base.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The waits the 429s asked for that have not run out: for one route (a method and a path) or
/// for every route at once (a global 429).
#[derive(Debug, Default)]
pub struct Told {
    waits: Mutex<Waits>,
}

#[derive(Debug, Default)]
struct Waits {
    routes: HashMap<(String, String), Instant>,
    global: Option<Instant>,
}

impl Told {
    /// A 429 for `method path` said to wait `wait` (for every route if `global`).
    pub fn note(&self, method: &str, path: &str, wait: Duration, global: bool) {
        let now = Instant::now();
        let until = now + wait;
        let mut w = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        w.routes.retain(|_, t| *t > now);
        if global {
            w.global = Some(w.global.map_or(until, |t| t.max(until)));
        } else {
            w.routes.insert((method.to_owned(), path.to_owned()), until);
        }
    }

    /// Until when a request `method url` must wait, if a 429 said so: its route's wait or the
    /// global one, whichever ends later. `url` may be the relay's (the route is its path
    /// after the relay's prefix) or Discord's.
    pub fn until(&self, method: &str, url: &str) -> Option<Instant> {
        let path = route_of(url);
        let w = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        let route = w.routes.get(&(method.to_owned(), path)).copied();
        match (route, w.global) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// Until when every request must wait, if a global 429 said so.
    pub fn global(&self) -> Option<Instant> {
        let w = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        w.global.filter(|t| *t > Instant::now())
    }
}

/// The route of a request's address: its path from `/api/` on, without the query (so the
/// relay's prefix and the host do not matter).
fn route_of(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    match path.find("/api/") {
        Some(i) => path[i..].to_owned(),
        None => path.to_owned(),
    }
}

/// How long a 429 said to wait, and whether for every route: the `Retry-After` header
/// (seconds, maybe with a fraction) or else the body's `retry_after`; global when the
/// `X-RateLimit-Global` header is there or the body says `global: true`. None when it says
/// nothing readable.
pub fn told_by(headers: &HeaderMap, body: &[u8]) -> Option<(Duration, bool)> {
    let json: Option<serde_json::Value> = serde_json::from_slice(body).ok();
    let header_secs = headers
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok());
    let body_secs = json
        .as_ref()
        .and_then(|j| j.get("retry_after"))
        .and_then(serde_json::Value::as_f64);
    // The body's value has the fraction the header may round away: take the larger.
    let secs = match (header_secs, body_secs) {
        (Some(a), Some(b)) => a.max(b),
        (a, b) => a.or(b)?,
    };
    let global = headers.contains_key("x-ratelimit-global")
        || json
            .as_ref()
            .and_then(|j| j.get("global"))
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false);
    // A wait of more than an hour is not a rate limit worth holding a call for.
    (secs.is_finite() && secs >= 0.0).then(|| (Duration::from_secs_f64(secs.min(3600.0)), global))
}

/// A running relay to `base`: the address to give serenity as its proxy.
pub struct Relay {
    pub proxy: String,
}

#[derive(Clone)]
struct Shared {
    base: String,
    prefix: String,
    client: reqwest::Client,
    told: Arc<Told>,
}

/// The largest request the relay passes on: Discord takes at most 25 MiB of attachments (more
/// for boosted servers), the JSON besides.
const MAX_BODY: usize = 64 << 20;

/// Start a relay to `base` (an API base already checked: `config::api_base`) that notes each
/// 429's wait in `told`. It runs as long as the process.
pub async fn start(base: &str, told: Arc<Told>) -> anyhow::Result<Relay> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
    let addr = listener.local_addr()?;
    let prefix = format!("/{:032x}", rand::random::<u128>());
    let shared = Shared {
        base: base.trim_end_matches('/').to_owned(),
        prefix: prefix.clone(),
        client: reqwest::Client::builder().build()?,
        told,
    };
    let app = axum::Router::new()
        .fallback(pass_on)
        .with_state(shared)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY));
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "the relay to the Discord API base stopped");
        }
    });
    Ok(Relay {
        proxy: format!("http://{addr}{prefix}"),
    })
}

/// Headers that belong to one connection, not to the request or answer passed on.
fn hop_by_hop(name: &HeaderName) -> bool {
    name == header::HOST
        || name == header::CONNECTION
        || name == header::CONTENT_LENGTH
        || name == header::TRANSFER_ENCODING
        || name == "keep-alive"
}

/// The headers passed on: all but the connection's own.
fn passed(headers: &HeaderMap) -> HeaderMap {
    headers
        .iter()
        .filter(|(name, _)| !hop_by_hop(name))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect()
}

/// Pass one request on to the API base and its answer back, noting a 429's wait.
async fn pass_on(State(s): State<Shared>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let path_and_query = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let Some(rest) = path_and_query.strip_prefix(&s.prefix) else {
        return (StatusCode::NOT_FOUND, "not a relayed request").into_response();
    };
    let body = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(b) => b,
        Err(e) => return failed(StatusCode::PAYLOAD_TOO_LARGE, &e.to_string()),
    };
    let headers = passed(&parts.headers);
    let url = format!("{}{rest}", s.base);
    let sent = s
        .client
        .request(parts.method.clone(), &url)
        .headers(headers)
        .body(body)
        .send()
        .await;
    let answer = match sent {
        Ok(a) => a,
        Err(e) => return failed(StatusCode::BAD_GATEWAY, &e.to_string()),
    };
    let status = answer.status();
    let headers = passed(answer.headers());
    let bytes = match answer.bytes().await {
        Ok(b) => b,
        Err(e) => return failed(StatusCode::BAD_GATEWAY, &e.to_string()),
    };
    if status == StatusCode::TOO_MANY_REQUESTS
        && let Some((wait, global)) = told_by(&headers, &bytes)
    {
        s.told
            .note(parts.method.as_str(), &route_of(rest), wait, global);
    }
    let mut out = Response::new(Body::from(bytes));
    *out.status_mut() = status;
    *out.headers_mut() = headers;
    out
}

/// A Discord-shaped error for what went wrong in the relay itself (the API base unreachable,
/// a request too large): serenity reads it as an unsuccessful request, which the wire retries
/// when it is a 5xx.
fn failed(status: StatusCode, why: &str) -> Response {
    let body = serde_json::json!({"code": 0, "message": format!("relay: {why}")});
    (status, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::{Told, route_of, told_by};
    use axum::http::{HeaderMap, HeaderValue};
    use std::time::{Duration, Instant};

    #[test]
    fn a_429_says_its_wait_in_the_header_or_the_body() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("2"));
        let body =
            br#"{"message": "You are being rate limited.", "retry_after": 2.75, "global": false}"#;
        assert_eq!(
            told_by(&h, body),
            Some((Duration::from_secs_f64(2.75), false))
        );
        assert_eq!(told_by(&h, b"oops"), Some((Duration::from_secs(2), false)));
        assert_eq!(
            told_by(
                &HeaderMap::new(),
                br#"{"retry_after": 1.5, "global": true}"#
            ),
            Some((Duration::from_secs_f64(1.5), true))
        );
        h.insert("x-ratelimit-global", HeaderValue::from_static("true"));
        assert_eq!(told_by(&h, b""), Some((Duration::from_secs(2), true)));
        assert_eq!(told_by(&HeaderMap::new(), br#"{"message": "no"}"#), None);
        let mut bad = HeaderMap::new();
        bad.insert("retry-after", HeaderValue::from_static("-1"));
        assert_eq!(told_by(&bad, b""), None);
    }

    #[tokio::test]
    async fn the_relay_passes_only_its_own_requests_and_says_when_the_base_is_down() {
        // Nothing listens on port 9 of this machine (discard is not served here).
        let relay = super::start("http://127.0.0.1:9", Default::default())
            .await
            .expect("the relay starts");
        let (origin, prefix) = relay
            .proxy
            .split_at(relay.proxy.rfind('/').expect("a prefix"));
        assert_eq!(prefix.len(), 33, "{}", relay.proxy);
        let client = reqwest::Client::new();
        let stranger = client
            .get(format!("{origin}/api/v10/gateway/bot"))
            .send()
            .await
            .expect("an answer");
        assert_eq!(stranger.status(), 404, "a request without the prefix");
        let down = client
            .get(format!("{}/api/v10/gateway/bot", relay.proxy))
            .send()
            .await
            .expect("an answer");
        assert_eq!(down.status(), 502);
        let body: serde_json::Value = down.json().await.expect("JSON");
        assert!(
            body["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("relay: ")),
            "{body}"
        );
    }

    #[test]
    fn a_wait_holds_its_route_and_a_global_one_every_route() {
        let told = Told::default();
        let relayed = "http://127.0.0.1:5/0af3/api/v10/channels/7/messages";
        let direct = "https://discord.com/api/v10/channels/7/messages?x=1";
        assert_eq!(route_of(relayed), route_of(direct));
        assert_eq!(told.until("POST", relayed), None);
        told.note(
            "POST",
            "/api/v10/channels/7/messages",
            Duration::from_secs(3),
            false,
        );
        let at = told.until("POST", direct).expect("the route waits");
        assert!(at > Instant::now() + Duration::from_secs(2));
        assert_eq!(told.until("GET", direct), None, "another method");
        assert_eq!(told.until("POST", "/api/v10/channels/8/messages"), None);
        assert_eq!(told.global(), None);
        told.note("PATCH", "/api/v10/channels/9", Duration::from_secs(9), true);
        let all = told.global().expect("a global wait");
        assert_eq!(
            told.until("POST", "/api/v10/channels/8/messages"),
            Some(all)
        );
        assert_eq!(
            told.until("POST", direct),
            Some(all),
            "the later of the two"
        );
    }
}
