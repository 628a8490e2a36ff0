//! The fake Discord's side of an Activity (issue 46): Discord's OAuth2 (codes the test grants,
//! `POST /oauth2/token` exchanging them for access tokens with the application's client secret,
//! `GET /users/@me` and `/users/@me/guilds` with such a token), and the Activity's frame:
//! [`Frame`], a second server on loopback that stands for `<app>.discordsays.com`, Discord's
//! proxy to the Activity's mapped address, with the Discord client's side of the Embedded App
//! SDK's handshake at [`Frame::client_url`].
//!
//! The Discord client page and the proxied Activity share the frame's origin, which the SDK
//! accepts for local development (`window.location.origin` is one of its allowed origins); on
//! Discord the client is `discord.com` and the Activity `discordsays.com`, both allowed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State as AxumState;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::{FakeDiscord, Reply, Sent, error, ok, user_json};

/// The application's client secret the fake expects unless a test sets another.
pub const CLIENT_SECRET: &str = "fake-client-secret-7d1c";

/// Discord's OAuth2, as much of it as an Activity uses.
#[derive(Debug, Default)]
pub struct OAuth {
    pub(super) secret: Option<String>,
    /// Code → (user, the servers they are in); a code works once.
    codes: HashMap<String, (u64, Vec<u64>)>,
    /// Access token → (user, servers).
    tokens: HashMap<String, (u64, Vec<u64>)>,
    next: u64,
}

impl OAuth {
    /// The answer to an OAuth2 call, or `None` when `sent` is not one (`bearer`: the token of
    /// an `Authorization: Bearer` header).
    pub(super) fn answer(&mut self, sent: &Sent, bearer: Option<&str>) -> Option<Reply> {
        match (sent.method.as_str(), sent.path.as_str(), bearer) {
            ("POST", "/oauth2/token", _) => Some(self.exchange(sent)),
            ("GET", "/users/@me", Some(t)) => Some(match self.tokens.get(t) {
                Some((user, _)) => ok(user_json(*user)),
                None => error(401, 0, "401: Unauthorized"),
            }),
            ("GET", "/users/@me/guilds", Some(t)) => Some(match self.tokens.get(t) {
                Some((_, guilds)) => ok(Value::Array(
                    guilds
                        .iter()
                        .map(|g| json!({"id": g.to_string(), "name": format!("guild {g}")}))
                        .collect(),
                )),
                None => error(401, 0, "401: Unauthorized"),
            }),
            _ => None,
        }
    }

    fn exchange(&mut self, sent: &Sent) -> Reply {
        let form = sent.json.clone().unwrap_or(Value::Null);
        let field = |k: &str| form[k].as_str().unwrap_or("").to_string();
        let secret = self.secret.as_deref().unwrap_or(CLIENT_SECRET);
        if field("client_id") != FakeDiscord::APP_ID.to_string() || field("client_secret") != secret
        {
            return (
                401,
                json!({"error": "invalid_client", "error_description": "bad client"}),
                vec![],
            );
        }
        if field("grant_type") != "authorization_code" {
            return (400, json!({"error": "unsupported_grant_type"}), vec![]);
        }
        match self.codes.remove(&field("code")) {
            Some(who) => {
                self.next += 1;
                let token = format!("fake-access-{}", self.next);
                self.tokens.insert(token.clone(), who);
                ok(json!({
                    "access_token": token,
                    "token_type": "Bearer",
                    "expires_in": 604800,
                    "refresh_token": format!("fake-refresh-{}", self.next),
                    "scope": "identify guilds",
                }))
            }
            None => (
                400,
                json!({"error": "invalid_grant", "error_description": "Invalid \"code\" in request."}),
                vec![],
            ),
        }
    }
}

impl FakeDiscord {
    /// A code the Activity's `authorize` would give `user`, who is in `guilds`: 30 letters and
    /// digits, as Discord's are.
    pub fn grant_code(&self, user: u64, guilds: &[u64]) -> String {
        let mut st = self.state();
        st.oauth.next += 1;
        let code = format!("fakecode{:022}", st.oauth.next);
        st.oauth.codes.insert(code.clone(), (user, guilds.to_vec()));
        code
    }

    /// The client secret the token endpoint accepts (default [`CLIENT_SECRET`]).
    pub fn set_client_secret(&self, secret: &str) {
        self.state().oauth.secret = Some(secret.to_string());
    }
}

/// `<app>.discordsays.com` on loopback: the Discord client's page at `/__discord_client`, and
/// everything else proxied to the Activity's mapped address (the bot's web board).
pub struct Frame {
    pub base: String,
    seen: Arc<Mutex<Vec<String>>>,
    _task: tokio::task::JoinHandle<()>,
}

#[derive(Clone)]
struct Target {
    to: String,
    client: reqwest::Client,
    /// Every path proxied, in order (without the query).
    seen: Arc<Mutex<Vec<String>>>,
}

impl Frame {
    /// Serve the frame, proxying to `target` (`http://127.0.0.1:PORT`).
    pub async fn start(target: &str) -> Frame {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the Activity's frame");
        let base = format!("http://{}", listener.local_addr().expect("its address"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let state = Target {
            to: target.trim_end_matches('/').to_string(),
            client: reqwest::Client::new(),
            seen: seen.clone(),
        };
        let app = Router::new()
            .route("/__discord_client", get(client_page))
            .fallback(proxy)
            .with_state(state);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Frame {
            base,
            seen,
            _task: task,
        }
    }

    /// The paths the Activity asked for through the proxy, in order.
    pub fn requested(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }

    /// The Discord client showing the Activity launched in `channel` of `guild` (with a deep
    /// link's `custom_id`, if any) for a user whose `authorize` yields `code`.
    pub fn client_url(&self, code: &str, guild: u64, channel: u64, custom: Option<&str>) -> String {
        let mut url = format!(
            "{}/__discord_client?code={code}&guild={guild}&channel={channel}&app={}",
            self.base,
            FakeDiscord::APP_ID
        );
        if let Some(c) = custom {
            url.push_str(&format!("&custom={c}"));
        }
        url
    }
}

/// The Discord client's half of the SDK's protocol: HANDSHAKE → READY, AUTHORIZE → the test's
/// code, AUTHENTICATE → the user, anything else → an empty answer. Every frame the Activity
/// sent is kept in `document.body.dataset.rpc` (JSON) for the test to read.
async fn client_page() -> Html<&'static str> {
    Html(CLIENT)
}

const CLIENT: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>fake Discord client</title>
<style>body{margin:0} iframe{border:0;width:100vw;height:100vh;display:block}</style></head>
<body data-rpc="[]"><script>
"use strict";
const q = new URLSearchParams(location.search);
const log = [];
const frame = document.createElement("iframe");
const launch = new URLSearchParams({
  frame_id: "frame-1", instance_id: "i-1-c-" + q.get("channel"), platform: "desktop",
  guild_id: q.get("guild"), channel_id: q.get("channel"),
});
if (q.get("custom")) launch.set("custom_id", q.get("custom"));
frame.src = "/?" + launch.toString();
addEventListener("message", (e) => {
  if (e.source !== frame.contentWindow || !Array.isArray(e.data)) return;
  const [op, data] = e.data;
  log.push([op, data]);
  document.body.dataset.rpc = JSON.stringify(log);
  const reply = (payload) => frame.contentWindow.postMessage([1, payload], "*");
  if (op === 0) {
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null, data: {
      v: 1, config: { api_endpoint: "//discord.com/api", environment: "production" } } });
  } else if (op === 1 && data.cmd === "AUTHORIZE") {
    reply({ cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: { code: q.get("code") } });
  } else if (op === 1 && data.cmd === "AUTHENTICATE") {
    reply({ cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
      access_token: data.args.access_token,
      user: { id: "0", username: "player", discriminator: "0", public_flags: 0 },
      scopes: ["identify", "guilds"], expires: "2099-01-01T00:00:00.000Z",
      application: { id: q.get("app"), name: "hexmeros", description: "" } } });
  } else if (op === 1) {
    reply({ cmd: data.cmd, evt: null, nonce: data.nonce, data: null });
  }
});
document.body.appendChild(frame);
</script></body></html>"#;

/// Discord's proxy: the request as it came (method, path, query, body, the headers that
/// matter), and the answer as it comes back, streamed (the board's live updates).
async fn proxy(
    AxumState(t): AxumState<Target>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    t.seen.lock().unwrap().push(uri.path().to_string());
    let path = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    let mut req = t.client.request(method, format!("{}{path}", t.to));
    for name in ["authorization", "content-type", "accept", "cache-control"] {
        if let Some(v) = headers.get(name) {
            req = req.header(name, v);
        }
    }
    let res = match req.body(body).send().await {
        Ok(r) => r,
        Err(e) => return (StatusCode::BAD_GATEWAY, format!("proxy: {e}")).into_response(),
    };
    let mut out = Response::builder().status(res.status());
    for (k, v) in res.headers() {
        if !matches!(
            k.as_str(),
            "transfer-encoding" | "connection" | "content-length"
        ) {
            out = out.header(k, v);
        }
    }
    out.body(Body::from_stream(res.bytes_stream()))
        .unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response())
}
