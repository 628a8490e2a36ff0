//! The page and its assets, served from the binary (`web/` at the repository's root), and the
//! headers every response carries: a Content-Security-Policy that allows this origin only (no
//! inline script, no third-party origin; Discord may frame the page as an Activity), no
//! sniffing, no referrer, no caching of the API's answers.

use axum::extract::{Path, RawQuery};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

/// Each response's policy, but for who may frame the page (see [`csp`]); `img-src data:` is
/// for nothing but the favicon's absence.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'self' https://discord.com https://ptb.discord.com https://canary.discord.com";

/// The Content-Security-Policy: who may frame the page is this origin and Discord's clients,
/// and, when the bot runs an Activity, its own Activity's origin
/// (`https://<application id>.discordsays.com`, the address Discord serves an Activity at):
/// no other application's Activity may frame the board (a click-jacking of a player's
/// link). Through Discord's proxy the page's own origin is that one, which `'self'` covers.
pub fn csp(application: Option<&str>) -> String {
    match application.filter(|a| !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit())) {
        Some(id) => format!("{POLICY} https://{id}.discordsays.com"),
        None => POLICY.to_string(),
    }
}

const INDEX: &str = include_str!("../../web/index.html");
const BOARD: &str = include_str!("../../web/board.html");
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/board.js"),
    ),
    (
        "board.css",
        "text/css; charset=utf-8",
        include_str!("../../web/board.css"),
    ),
];

/// Add the security headers to a response's (`application`: the Activity's application id,
/// when the bot runs one; see [`csp`]).
pub fn secure(h: &mut HeaderMap, application: Option<&str>) {
    if let Ok(policy) = HeaderValue::from_str(&csp(application)) {
        h.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
}

/// `GET /`: what this server is, for someone who opens it without a link; the board itself
/// when Discord launches it as an Activity (Discord loads the mapped address's root with
/// `frame_id`, `instance_id` and the rest in its query).
pub async fn index(RawQuery(query): RawQuery) -> Html<&'static str> {
    let launched = query
        .as_deref()
        .is_some_and(|q| q.split('&').any(|kv| kv.starts_with("frame_id=")));
    Html(if launched { BOARD } else { INDEX })
}

/// `GET /board`: the board page; the link's fragment carries the token to its script.
pub async fn board() -> Html<&'static str> {
    Html(BOARD)
}

/// `GET /assets/{name}`: the page's script and style, and Discord's SDK for the Activity.
pub async fn asset(Path(name): Path<String>) -> Response {
    if name == "discord-sdk.js" {
        if !super::activity::available() {
            return (
                StatusCode::NOT_FOUND,
                "this build has no Discord Activity script (it was built without npm)",
            )
                .into_response();
        }
        return (
            [
                (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            super::activity::SDK,
        )
            .into_response();
    }
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
