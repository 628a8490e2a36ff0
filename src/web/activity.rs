//! The board inside Discord, as an Activity: the same page, launched by Discord in an iframe,
//! signs its viewer in through Discord instead of a link.
//!
//! The page's script (in Activity mode, when Discord's launch put `frame_id` in its address)
//! completes the Embedded App SDK's handshake, asks Discord for an OAuth2 code (`authorize`,
//! scopes `identify` and `guilds`), and sends it here with where it was launched: `POST
//! /api/token {code, channel_id, custom_id}`. The front end beside the server ([`Activity`],
//! Discord's) exchanges the code with the bot's client secret, reads the user and decides which
//! game that is and whether they may see it; this module then signs a board token for them as a
//! link would (a player's while they sit in the game, else a spectator's), and answers with it
//! and Discord's access token, which the SDK's `authenticate` needs. The client secret never
//! leaves the server, and neither the code nor either token is ever logged.
//!
//! The game comes from the launch's `custom_id` (`game-<id>`: Discord's documented deep link
//! carries it, for an Activity started in a parent channel) or else from the channel, which is
//! a game's thread when the Activity was launched by "Play on the board" there. Never from the
//! Activity's instance id, which ends when the last viewer leaves.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

use super::{ApiError, PLAYER_LINK_MS, WATCH_LINK_MS, Web};
use crate::host::{GameId, PlayerId};

/// The shortest and longest OAuth2 code the server passes on to Discord. Discord's codes are
/// short alphanumeric strings (about 30 characters); anything else is refused before any call,
/// so junk costs Discord nothing (issue 60).
pub const CODE_LEN: std::ops::RangeInclusive<usize> = 10..=64;

/// Whether `code` looks like one of Discord's OAuth2 codes: `[A-Za-z0-9]{10,64}`.
pub fn code_looks_like_discords(code: &str) -> bool {
    CODE_LEN.contains(&code.len()) && code.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The launch, as the page reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The OAuth2 code from the SDK's `authorize`.
    pub code: String,
    /// The channel (or thread) the Activity runs in.
    pub channel: Option<u64>,
    /// The game the launch's `custom_id` names.
    pub game: Option<GameId>,
}

/// Who the launch signed in, and what they may see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admitted {
    /// Discord's access token for the user, for the SDK's `authenticate`.
    pub access_token: String,
    pub game: GameId,
    /// The player they are, when they sit in the game; `None`: they watch.
    pub player: Option<PlayerId>,
}

/// The sign-in of an Activity, done by the front end that knows Discord.
pub trait Activity: Send + Sync + 'static {
    /// The application's id (the SDK's client id), once the bot knows it.
    fn client_id(&self) -> Option<String>;

    /// Exchange the launch's code, read the user and admit them to the launch's game, or
    /// refuse with a sentence the page shows.
    fn admit(&self, launch: Launch) -> BoxFuture<'static, Result<Admitted, ApiError>>;
}

/// What `POST /api/token` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    pub code: String,
    #[serde(default)]
    pub channel_id: Option<String>,
    #[serde(default)]
    pub custom_id: Option<String>,
}

/// What it answers.
#[derive(Serialize)]
pub struct Signed {
    /// Discord's, for the SDK's `authenticate`.
    pub access_token: String,
    /// The board's, for every other request (`Authorization: Bearer`).
    pub token: String,
    pub game: GameId,
    /// Whether the token acts for a player (else it only shows).
    pub plays: bool,
}

/// What `GET /api/activity` answers: what the page's SDK needs before its handshake.
#[derive(Serialize)]
pub struct Setup {
    pub client_id: String,
}

/// The SDK bundled by `build.rs` (empty when the build had no npm: see there).
pub const SDK: &str = include_str!(concat!(env!("OUT_DIR"), "/discord-sdk.js"));

/// Why this build has no SDK bundle, or empty when it has one.
pub const SDK_MISSING: &str = env!("HEXMEROS_ACTIVITY_MISSING");

/// Whether this binary can serve the Activity (its build bundled the SDK).
pub fn available() -> bool {
    !SDK.is_empty()
}

fn none_here() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "this board is not set up as a Discord Activity; open it from a link instead",
    )
}

/// `GET /api/activity`: the client id, when this server runs an Activity.
pub async fn setup(State(web): State<Web>) -> Result<Json<Setup>, ApiError> {
    let activity = web.front.activity().ok_or_else(none_here)?;
    let client_id = activity.client_id().ok_or_else(|| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the bot is still connecting to Discord; try again in a moment",
        )
    })?;
    Ok(Json(Setup { client_id }))
}

/// `POST /api/token`: sign the Activity's viewer in (see the module's words).
pub async fn token(
    State(web): State<Web>,
    body: Result<Json<TokenBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Signed>, ApiError> {
    let activity = web.front.activity().ok_or_else(none_here)?;
    let Json(body) = body.map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("a sign-in is {{\"code\": …, \"channel_id\": …, \"custom_id\": …}}: {e}"),
        )
    })?;
    let launch = launch(body)?;
    let admitted = activity.admit(launch).await?;
    let expires = web.host.now().saturating_add(match admitted.player {
        Some(_) => PLAYER_LINK_MS,
        None => WATCH_LINK_MS,
    });
    let token = web.keys.sign(&super::Claims {
        game: admitted.game,
        player: admitted.player,
        expires,
    });
    Ok(Json(Signed {
        access_token: admitted.access_token,
        token,
        game: admitted.game,
        plays: admitted.player.is_some(),
    }))
}

/// Check the sign-in's fields: a code, a channel that is a Discord id, a custom id that names
/// a game the way the bot's deep links do.
pub fn launch(body: TokenBody) -> Result<Launch, ApiError> {
    let bad = |m: &str| ApiError::new(StatusCode::BAD_REQUEST, m.to_string());
    let code = body.code.trim().to_string();
    if !code_looks_like_discords(&code) {
        return Err(bad(
            "the sign-in has no usable code from Discord (one is 10 to 64 letters and digits); \
             open the Activity again",
        ));
    }
    let channel = match body.channel_id.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(c) => Some(snowflake(c).ok_or_else(|| {
            bad("the Activity's channel is not a Discord id; open the Activity again")
        })?),
    };
    let game = match body.custom_id.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(c) => Some(deep_link_game(c).ok_or_else(|| {
            bad("this Activity link names no game; use the link from the game's thread")
        })?),
    };
    if channel.is_none() && game.is_none() {
        return Err(bad(
            "the Activity was started outside a game's thread; start it with Play on the board",
        ));
    }
    Ok(Launch {
        code,
        channel,
        game,
    })
}

/// A Discord id: digits only, as Discord spells it (no sign, no leading zero), in 63 bits.
fn snowflake(s: &str) -> Option<u64> {
    let ok = s.len() <= 20 && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit());
    s.parse::<u64>()
        .ok()
        .filter(|v| ok && *v > 0 && *v <= i64::MAX as u64)
}

/// The `custom_id` of the bot's deep link to `game`.
pub fn deep_link_id(game: GameId) -> String {
    format!("game-{game}")
}

/// The game a deep link's `custom_id` names, read back exactly as [`deep_link_id`] spells it.
pub fn deep_link_game(custom_id: &str) -> Option<GameId> {
    let n: GameId = custom_id.strip_prefix("game-")?.parse().ok()?;
    (n > 0 && deep_link_id(n) == custom_id).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code shaped like Discord's.
    const CODE: &str = "NhhvTDYsFcdgNLnnLijcl7Ku7bHEeE";

    fn body(code: &str, channel: Option<&str>, custom: Option<&str>) -> TokenBody {
        TokenBody {
            code: code.to_string(),
            channel_id: channel.map(str::to_string),
            custom_id: custom.map(str::to_string),
        }
    }

    #[test]
    fn a_launch_names_its_game_by_custom_id_or_channel() {
        let l = launch(body(CODE, Some("123456789012345678"), None)).unwrap();
        assert_eq!(l.channel, Some(123456789012345678));
        assert_eq!(l.game, None);
        let l = launch(body(CODE, Some("42"), Some("game-7"))).unwrap();
        assert_eq!((l.channel, l.game), (Some(42), Some(7)));
        let l = launch(body(&format!(" {CODE} "), None, Some("game-7"))).unwrap();
        assert_eq!((l.code.as_str(), l.game), (CODE, Some(7)));
    }

    #[test]
    fn bad_launches_are_refused_with_what_was_wrong() {
        for (b, words) in [
            (body("", Some("42"), None), "no usable code"),
            (body("a b", Some("42"), None), "no usable code"),
            (body(&"x".repeat(300), Some("42"), None), "no usable code"),
            (body(&"x".repeat(65), Some("42"), None), "no usable code"),
            (body("abc123", Some("42"), None), "no usable code"),
            (
                body("fake-code-0000001", Some("42"), None),
                "no usable code",
            ),
            (body("codé000000000000", Some("42"), None), "no usable code"),
            (body(CODE, Some("-42"), None), "not a Discord id"),
            (body(CODE, Some("042"), None), "not a Discord id"),
            (
                body(CODE, Some("99999999999999999999"), None),
                "not a Discord id",
            ),
            (body(CODE, Some("42"), Some("game-07")), "names no game"),
            (body(CODE, Some("42"), Some("game-0")), "names no game"),
            (body(CODE, None, Some("7")), "names no game"),
            (body(CODE, None, None), "outside a game's thread"),
        ] {
            let e = launch(b).unwrap_err();
            assert_eq!(e.status, StatusCode::BAD_REQUEST);
            assert!(e.message.contains(words), "{words}: {}", e.message);
        }
    }

    #[test]
    fn a_deep_link_id_reads_back() {
        assert_eq!(deep_link_game(&deep_link_id(123)), Some(123));
        assert_eq!(deep_link_game("game-+1"), None);
        assert_eq!(deep_link_game("games-1"), None);
    }
}
