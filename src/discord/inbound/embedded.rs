//! The web board as a Discord Activity (issue 46): the sign-in the page asks for at `POST
//! /api/token` (see `hexmeros::web::activity`), done here because it needs Discord. The
//! Activity's OAuth2 code is exchanged for the user's access token with the application's
//! client secret (`DISCORD_CLIENT_SECRET`, from the settings; it goes to Discord's token
//! endpoint in a request body and nowhere else), the user and their servers are read with that
//! token, and the launch's game is found: the one its deep link's `custom_id` names, or the
//! one whose thread the Activity runs in. A player of the game gets a player's board; anyone
//! else may watch only a game of a server they are in, played in a channel they may see (View
//! Channel, read with the bot's token at the sign-in), and any other game is refused in the
//! words of a game that does not exist.
//!
//! "Play on the board" (a button on the status panel) answers with Discord's launch-activity
//! callback, which opens the Activity in the game's thread.
//!
//! Anyone who reaches the board can post a sign-in, so the calls it costs Discord are bounded
//! for the whole process ([`Gate`], issue 60): a code that does not look like Discord's is
//! refused before any call (`web::activity::code_looks_like_discords`); at most
//! [`EXCHANGES_AT_ONCE`] sign-ins talk to Discord at once, and at most `HEXMEROS_RATE_SIGN_INS`
//! begin (by default 30 in any minute: `config::SIGN_INS`); and after Discord answers any of their calls 429, none is
//! made until the wait it asked for (`retry_after`) has passed: every sign-in meanwhile is
//! answered 503 with a `Retry-After`. Discord bans an address that makes 10,000 invalid
//! requests in 10 minutes; these bounds keep the board far below that whatever is posted.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use governor::clock::{Clock as _, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota};
use poise::serenity_prelude::{self as serenity, Http};
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use hexmeros::host::{GameId, HostError, PlayerId, Refused};
use hexmeros::web::ApiError;
use hexmeros::web::activity::{Activity, Admitted, Launch};

use crate::discord::Data;
use crate::discord::config::Rate;

/// How long a call to Discord's OAuth2 and user endpoints may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Sign-ins that talk to Discord at once, at most; one more is refused (503), not queued.
pub const EXCHANGES_AT_ONCE: usize = 4;

/// The wait a 429 stands for when it says none (no `retry_after`, no `Retry-After`).
const COOLDOWN_UNSAID: Duration = Duration::from_secs(60);

/// The longest wait honoured; a longer one is read as this.
const COOLDOWN_MOST: Duration = Duration::from_secs(3600);

/// The process's bounds on sign-ins (see the module's words), shared by every sign-in.
pub struct Gate {
    /// `None`: no rate (`HEXMEROS_RATE_SIGN_INS=off`).
    rate: Option<DefaultDirectRateLimiter>,
    at_once: Arc<Semaphore>,
    /// Until when Discord asked for no more sign-in calls.
    cooldown: Mutex<Option<Instant>>,
}

impl std::fmt::Debug for Gate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gate").finish_non_exhaustive()
    }
}

/// Whole seconds to wait for `d`, rounded up, at least 1.
fn secs_up(d: Duration) -> u64 {
    d.as_millis().div_ceil(1000).max(1) as u64
}

impl Gate {
    /// `rate`: how many sign-ins may begin in a period (`None`: no bound).
    pub fn new(rate: Option<Rate>) -> Gate {
        let rate = rate.map(|r| {
            let quota = Quota::with_period(r.per / r.count.get())
                .unwrap_or_else(|| Quota::per_second(std::num::NonZeroU32::MAX))
                .allow_burst(r.count);
            DefaultDirectRateLimiter::direct(quota)
        });
        Gate {
            rate,
            at_once: Arc::new(Semaphore::new(EXCHANGES_AT_ONCE)),
            cooldown: Mutex::new(None),
        }
    }

    fn cooldown(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        self.cooldown.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Refused while Discord's wait lasts.
    fn not_cooling(&self) -> Result<(), ApiError> {
        let left = self
            .cooldown()
            .and_then(|until| until.checked_duration_since(Instant::now()))
            .filter(|left| !left.is_zero());
        match left {
            Some(left) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "Discord asked the bot to wait before signing anyone else in; try again later",
            )
            .retry_after(secs_up(left))),
            None => Ok(()),
        }
    }

    /// A place for one sign-in, or the reason there is none: Discord's wait, too many at once,
    /// too many lately. Checked before any call.
    fn enter(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.not_cooling()?;
        let place = self.at_once.clone().try_acquire_owned().map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many sign-ins at once; try again in a moment",
            )
            .retry_after(1)
        })?;
        if let Some(rate) = &self.rate
            && let Err(not_until) = rate.check()
        {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many sign-ins on this board lately; try again in a moment",
            )
            .retry_after(secs_up(wait)));
        }
        Ok(place)
    }

    /// Discord answered 429 and asked to wait `wait`: no sign-in calls until it has passed.
    fn cool_down(&self, wait: Duration) -> ApiError {
        let wait = wait.min(COOLDOWN_MOST);
        let until = Instant::now() + wait;
        {
            let mut c = self.cooldown();
            if c.is_none_or(|t| t < until) {
                *c = Some(until);
            }
        }
        tracing::warn!(
            wait = ?wait,
            "the Activity's sign-in: Discord answered 429; no sign-in calls until the wait is over"
        );
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "Discord asked the bot to wait before signing anyone else in; try again later",
        )
        .retry_after(secs_up(wait))
    }
}

/// The wait a 429 asks for: its JSON `retry_after` (seconds, fractional), else its
/// `Retry-After` header (whole seconds), else [`COOLDOWN_UNSAID`].
async fn asked_wait(res: reqwest::Response) -> Duration {
    let header = res
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok());
    let body = res
        .bytes()
        .await
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v["retry_after"].as_f64());
    body.or(header)
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(COOLDOWN_MOST.as_secs_f64())))
        .unwrap_or(COOLDOWN_UNSAID)
}

/// The Activity's sign-in against Discord's API.
#[derive(Clone)]
pub struct SignIn {
    data: Data,
    /// The client's HTTP once it first connected: the application id comes from there.
    http: Arc<OnceLock<Arc<Http>>>,
    /// `https://discord.com/api/v10`, or the test's fake Discord.
    api: String,
    secret: String,
    client: reqwest::Client,
    gate: Arc<Gate>,
}

impl std::fmt::Debug for SignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignIn")
            .field("api", &self.api)
            .finish_non_exhaustive()
    }
}

impl SignIn {
    /// `api_base`: the address REST calls go to instead of discord.com (tests), if any; `rate`:
    /// how many sign-ins may begin in a period (`HEXMEROS_RATE_SIGN_INS`).
    pub fn new(
        data: Data,
        http: Arc<OnceLock<Arc<Http>>>,
        api_base: Option<&str>,
        secret: String,
        rate: Option<Rate>,
    ) -> anyhow::Result<SignIn> {
        let api = match api_base {
            Some(b) => format!("{}/api/v10", b.trim_end_matches('/')),
            None => "https://discord.com/api/v10".to_string(),
        };
        let client = reqwest::Client::builder()
            .timeout(CALL_TIMEOUT)
            .user_agent("DiscordBot (https://github.com/hexmeros, 0.1) hexmeros-activity")
            .build()?;
        Ok(SignIn {
            data,
            http,
            api,
            secret,
            client,
            gate: Arc::new(Gate::new(rate)),
        })
    }
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
}

#[derive(Deserialize)]
struct User {
    id: String,
}

#[derive(Deserialize)]
struct Guild {
    id: String,
}

/// Discord failed or did not answer: the page may try again.
fn unreachable_discord(what: &str, e: impl std::fmt::Display) -> ApiError {
    // No secret can be in `e`: the secret and the code travel in request bodies, which
    // reqwest's errors never show, and the addresses carry neither.
    tracing::warn!(error = %e, "the Activity's sign-in: {what} failed");
    ApiError::new(
        StatusCode::BAD_GATEWAY,
        "Discord did not answer the sign-in; try again in a moment",
    )
}

impl SignIn {
    fn application_id(&self) -> Option<u64> {
        self.http
            .get()
            .and_then(|h| h.application_id())
            .map(|a| a.get())
    }

    /// The code exchanged for the user's access token.
    ///
    /// No `redirect_uri`: RFC 6749 (§4.1.3) asks for one in the exchange only when the
    /// authorization request carried one, and the Activity's `authorize` (the Embedded App
    /// SDK's, in `web/board.js`) passes none: Discord hands the code to the SDK, not to a
    /// redirect. Discord's own Activity examples exchange the code the same way.
    async fn exchange(&self, client_id: u64, code: &str) -> Result<String, ApiError> {
        self.gate.not_cooling()?;
        let client_id = client_id.to_string();
        let res = self
            .client
            .post(format!("{}/oauth2/token", self.api))
            .form(&[
                ("client_id", client_id.as_str()),
                ("client_secret", self.secret.as_str()),
                ("grant_type", "authorization_code"),
                ("code", code),
            ])
            .send()
            .await
            .map_err(|e| unreachable_discord("the code exchange", e))?;
        match res.status() {
            s if s.is_success() => Ok(res
                .json::<TokenAnswer>()
                .await
                .map_err(|e| unreachable_discord("reading the code exchange", e))?
                .access_token),
            StatusCode::BAD_REQUEST | StatusCode::UNAUTHORIZED => {
                // Discord's body may repeat what was sent: not logged.
                tracing::info!(status = %res.status(), "the Activity's sign-in: a code was refused");
                Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "Discord did not accept this sign-in (its code was used or has expired); \
                     close the Activity and open it again",
                ))
            }
            StatusCode::TOO_MANY_REQUESTS => Err(self.gate.cool_down(asked_wait(res).await)),
            s => Err(unreachable_discord("the code exchange", s)),
        }
    }

    /// `GET path` with the user's token.
    async fn get<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        access: &str,
    ) -> Result<T, ApiError> {
        self.gate.not_cooling()?;
        let res = self
            .client
            .get(format!("{}{path}", self.api))
            .bearer_auth(access)
            .send()
            .await
            .map_err(|e| unreachable_discord(path, e))?;
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            return Err(self.gate.cool_down(asked_wait(res).await));
        }
        if res.status() == StatusCode::UNAUTHORIZED {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "Discord ended this sign-in; close the Activity and open it again",
            ));
        }
        if !res.status().is_success() {
            return Err(unreachable_discord(path, res.status()));
        }
        res.json::<T>()
            .await
            .map_err(|e| unreachable_discord(path, e))
    }

    async fn sign_in(&self, launch: Launch) -> Result<Admitted, ApiError> {
        let client_id = self.application_id().ok_or_else(|| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the bot is still connecting to Discord; try again in a moment",
            )
        })?;
        // Held until the sign-in's last call to Discord is answered.
        let _place = self.gate.enter()?;
        let access_token = self.exchange(client_id, &launch.code).await?;
        let user: User = self.get("/users/@me", &access_token).await?;
        let user: u64 = user
            .id
            .parse()
            .map_err(|_| unreachable_discord("reading the user", "not an id"))?;
        let link = match (launch.game, launch.channel) {
            (Some(game), _) => self.data.links.by_game(game).await,
            (None, Some(channel)) => self.data.links.by_thread(channel).await,
            (None, None) => Ok(None),
        }
        .map_err(|e| {
            tracing::error!(error = %e, "the Activity's sign-in could not read the game's thread");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "something went wrong on the server; try again",
            )
        })?;
        let Some(link) = link else {
            return Err(match launch.game {
                Some(game) => unknown(game),
                None => ApiError::new(
                    StatusCode::NOT_FOUND,
                    "no game is played in this channel: start the Activity with Play on the \
                     board in a game's thread",
                ),
            });
        };
        let me = user as PlayerId;
        let state = self.data.host.state(link.game).await?;
        if state.seat_of(me).is_some() {
            return Ok(Admitted {
                access_token,
                game: link.game,
                player: Some(me),
            });
        }
        // Not a player: a spectator of a game of one of their servers, else told nothing.
        let Some(guild) = link.guild else {
            return Err(unknown(link.game));
        };
        let guilds: Vec<Guild> = self.get("/users/@me/guilds", &access_token).await?;
        if !guilds.iter().any(|g| g.id == guild.to_string()) {
            return Err(unknown(link.game));
        }
        // And only one who may see the channel it is played in (its thread is public there).
        if !self.sees_channel(guild, link.parent, user).await? {
            return Err(unknown(link.game));
        }
        Ok(Admitted {
            access_token,
            game: link.game,
            player: None,
        })
    }
}

impl SignIn {
    /// Whether `user` may view `channel` of server `guild` (View Channel, from the server's
    /// roles, the member's and the channel's overwrites), as Discord says now with the bot's
    /// token: the server, the member and the channel, three calls a spectator's sign-in costs
    /// (sign-ins are bounded, see [`Gate`]). A member Discord does not know (left, or the bot
    /// was removed) sees nothing; a failure refuses the sign-in for now (the page may retry).
    async fn sees_channel(&self, guild: u64, channel: u64, user: u64) -> Result<bool, ApiError> {
        let http = self.http.get().ok_or_else(|| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the bot is still connecting to Discord; try again in a moment",
            )
        })?;
        let (g, u, c) = (
            serenity::GuildId::new(guild.max(1)),
            serenity::UserId::new(user.max(1)),
            serenity::ChannelId::new(channel.max(1)),
        );
        let gone = |e: &serenity::Error| {
            matches!(crate::discord::wire::http_status(e), Some((403 | 404, _)))
        };
        let member = match http.get_member(g, u).await {
            Ok(m) => m,
            Err(e) if gone(&e) => return Ok(false),
            Err(e) => return Err(unreachable_discord("reading the member", e)),
        };
        let server = http
            .get_guild(g)
            .await
            .map_err(|e| unreachable_discord("reading the server", e))?;
        let place = match http.get_channel(c).await {
            Ok(serenity::Channel::Guild(place)) => place,
            Ok(_) => return Ok(false),
            Err(e) if gone(&e) => return Ok(false),
            Err(e) => return Err(unreachable_discord("reading the channel", e)),
        };
        if place.guild_id != g {
            return Ok(false);
        }
        let may = server.user_permissions_in(&place, &member);
        Ok(may.contains(serenity::Permissions::VIEW_CHANNEL))
    }
}

/// A game that does not exist, or that this user may not know of: the same words.
fn unknown(game: GameId) -> ApiError {
    ApiError::from(HostError::from(Refused::UnknownGame(game)))
}

impl Activity for SignIn {
    fn client_id(&self) -> Option<String> {
        self.application_id().map(|a| a.to_string())
    }

    fn admit(&self, launch: Launch) -> BoxFuture<'static, Result<Admitted, ApiError>> {
        // The future owns what it uses (a few handles).
        let me = self.clone();
        async move { me.sign_in(launch).await }.boxed()
    }
}

/// Discord's documented deep link to the Activity, carrying `game` in its `custom_id`, so that
/// the Activity knows the game wherever it is launched (a thread, its parent channel, a DM).
pub fn deep_link(application: u64, game: GameId) -> String {
    format!(
        "https://discord.com/activities/{application}?custom_id={}",
        hexmeros::web::activity::deep_link_id(game)
    )
}

/// Answer "Play on the board" with Discord's launch-activity callback: the Activity opens in
/// the channel the button was pressed in (the game's thread).
pub async fn launch(
    http: &Arc<Http>,
    data: &Data,
    ci: &serenity::ComponentInteraction,
) -> anyhow::Result<()> {
    data.wire
        .retry_answer("launching the Activity", || {
            ci.create_response(http, serenity::CreateInteractionResponse::LaunchActivity)
        })
        .await?;
    Ok(())
}
