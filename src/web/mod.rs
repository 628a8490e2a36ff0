//! The web board (issue 46): an interactive board in the browser, at a signed link or inside
//! Discord, on the same host as every other front end. The page and its assets are served from
//! the binary; a small JSON API over the host answers what the page asks (the board as SVG drawn
//! from the same scene as the pictures, a piece's targets, the story) and carries out what a
//! player does (stage, Pass, Check, take back) through the host's own checks, exactly as a
//! button in Discord; a live stream tells every open board when its game moved, from any front
//! end.
//!
//! Who may do what comes only from the link's token ([`token`]): a player's acts for them while
//! they sit in the game, a spectator's only shows. The token travels in the link's fragment
//! (`/board#t=…`), which browsers never send, and then in an `Authorization` header, so it
//! appears in no request line or log.
//!
//! Guards: rate limits per link, per player's actions and per address ([`limit`]; a forwarded
//! address is read only from a trusted proxy), pictures drawn once per version through the
//! process's one picture queue within each viewer's picture rate ([`pictures`]), bounded live
//! streams per game and in all,
//! connections bounded in time and in number ([`server`]), request bodies of at most
//! [`BODY_MAX`] bytes, a strict Content-Security-Policy with no
//! third-party origin, and a loopback address unless the operator names another.

pub mod activity;
pub mod api;
pub mod limit;
pub mod live;
pub mod page;
pub mod pictures;
pub mod server;
pub mod standalone;
pub mod token;

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use governor::Quota;

use limit::{Asker, Limiter};

use crate::host::{Effect, GameHost, GameId, Millis, PlayerId};
pub use token::{Claims, Keys, TokenError};

/// The largest request body the API reads (an action is a few dozen bytes).
pub const BODY_MAX: usize = 4 * 1024;

/// How long a player's link lasts: a day, longer than most sittings; "My board" makes another.
pub const PLAYER_LINK_MS: Millis = 24 * 3_600_000;

/// How long a spectator's link (the one on a turn message) lasts: two days, a long game's span.
pub const WATCH_LINK_MS: Millis = 48 * 3_600_000;

/// How fast one address, one link and one player may ask (see [`limit`]): a steady rate and
/// the burst allowed; whose forwarded addresses are believed; and how the server bounds its
/// connections (see [`server`]).
#[derive(Clone, Debug)]
pub struct WebLimits {
    /// Requests without a link, per client address.
    pub per_address: Quota,
    /// Requests with a link: per player's link, and per spectator's link and address.
    pub per_link: Quota,
    /// Actions (`POST /api/act`) per player.
    pub per_player: Quota,
    /// Pictures drawn for one viewer (a player's link, a spectator's link at its address);
    /// one from the cache is free (see [`pictures`]).
    pub pictures: Quota,
    /// The reverse proxies whose `X-Forwarded-For` names the client
    /// (`HEXMEROS_WEB_TRUSTED_PROXIES`); none by default.
    pub trusted_proxies: limit::Proxies,
    /// How long a connection has to send a request's headers ([`server::HEADER_TIMEOUT`]).
    pub header_timeout: std::time::Duration,
    /// How long a connection may stay silent ([`server::IDLE_TIMEOUT`]).
    pub idle_timeout: std::time::Duration,
    /// Open connections at most; `None`: half the process's open-file limit (see
    /// [`server::default_connections`]). Live streams in all are at most half of it too.
    pub connections: Option<usize>,
}

impl Default for WebLimits {
    /// 20 requests a second per address and per link (bursts of 60), 5 actions a second per
    /// player (bursts of 20), a picture drawn a second per viewer (bursts of 10), no trusted
    /// proxy; 10 s to send headers, 60 s of silence, connections by the open-file limit.
    fn default() -> WebLimits {
        WebLimits {
            per_address: quota((20, 60)),
            per_link: quota((20, 60)),
            per_player: quota((5, 20)),
            pictures: quota((1, 10)),
            trusted_proxies: limit::Proxies::default(),
            header_timeout: server::HEADER_TIMEOUT,
            idle_timeout: server::IDLE_TIMEOUT,
            connections: None,
        }
    }
}

/// Where the server listens: `ADDR` as given (`0.0.0.0:8080`), or a bare port on loopback
/// (`8080` → `127.0.0.1:8080`), so that nothing is reachable from outside unless the operator
/// says so.
pub fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    text.parse::<SocketAddr>().map_err(|_| {
        format!("{text:?} is not an address to listen on: give IP:PORT (127.0.0.1:8080) or a port")
    })
}

/// What the front end beside the board does with what a player's action on the board made:
/// Discord delivers it (the board in the thread, the next player's ping) and lets the bots
/// play; local mode lets the bots play. It answers with the private texts for the player, which
/// the board shows them.
pub trait Front: Send + Sync + 'static {
    fn acted(
        &self,
        game: GameId,
        player: PlayerId,
        effects: Vec<Effect>,
    ) -> futures_util::future::BoxFuture<'static, Vec<String>>;

    /// The picture queue this front end draws its own pictures in, which the board then shares
    /// (taking at most its web share); `None`: the board has a queue of its own.
    fn pictures(&self) -> Option<crate::background::PictureQueue> {
        None
    }

    /// The Discord Activity's sign-in, where this front end runs one (see [`activity`]).
    fn activity(&self) -> Option<Arc<dyn activity::Activity>> {
        None
    }

    /// Whether `player` may still act on `game` from outside it: Discord's, whether they are
    /// still a member of the server the game is played in (one who left or was banned acts
    /// nowhere through the bot). Without such a place (local mode), always.
    fn still_member(
        &self,
        game: GameId,
        player: PlayerId,
    ) -> futures_util::future::BoxFuture<'static, bool> {
        let _ = (game, player);
        Box::pin(std::future::ready(true))
    }
}

/// The private texts among `effects` meant for `player`: what the board shows them.
pub fn said_to(effects: Vec<Effect>, player: PlayerId) -> Vec<String> {
    effects
        .into_iter()
        .filter_map(|e| match e {
            Effect::Private { player: p, text } if p == player => Some(text.to_string()),
            _ => None,
        })
        .collect()
}

/// The board's links, for a front end that hands them out ("My board", "Open the board").
#[derive(Clone, Debug)]
pub struct Links {
    keys: Keys,
    /// The public address the page is reached at, without a trailing slash.
    base: String,
}

impl Links {
    pub fn new(keys: Keys, base: &str) -> Links {
        Links {
            keys,
            base: base.trim_end_matches('/').to_string(),
        }
    }

    /// A link that lets `player` act on `game` for [`PLAYER_LINK_MS`] from `now`.
    pub fn player(&self, game: GameId, player: PlayerId, now: Millis) -> String {
        self.link(Claims {
            game,
            player: Some(player),
            expires: now.saturating_add(PLAYER_LINK_MS),
        })
    }

    /// A spectator's link to `game`, for [`WATCH_LINK_MS`] from `now`.
    pub fn watch(&self, game: GameId, now: Millis) -> String {
        self.link(Claims {
            game,
            player: None,
            expires: now.saturating_add(WATCH_LINK_MS),
        })
    }

    fn link(&self, claims: Claims) -> String {
        format!("{}/board#t={}", self.base, self.keys.sign(&claims))
    }
}

/// The database's signing key for board links, made on first use (see `Store::secret`).
pub async fn keys(host: &GameHost) -> Result<Keys, crate::host::HostError> {
    let fresh: [u8; 32] = rand::random();
    let fresh: String = fresh.iter().map(|b| format!("{b:02x}")).collect();
    let secret = host.secret("web-links", &fresh).await?;
    Ok(Keys::new(secret.as_bytes()))
}

/// Everything a request handler needs.
#[derive(Clone)]
pub struct Web {
    pub(crate) host: Arc<GameHost>,
    pub(crate) keys: Keys,
    pub(crate) front: Arc<dyn Front>,
    pub(crate) live: live::Live,
    proxies: limit::Proxies,
    per_address: Arc<Limiter<Asker>>,
    per_link: Arc<Limiter<Asker>>,
    pub(crate) per_player: Arc<Limiter<(GameId, PlayerId)>>,
    pub(crate) pictures: pictures::Pictures,
}

/// `per_second` with bursts of `burst` (each at least 1).
pub fn quota((per_second, burst): (u32, u32)) -> Quota {
    let n = |v: u32| NonZeroU32::new(v).unwrap_or(NonZeroU32::MIN);
    Quota::per_second(n(per_second)).allow_burst(n(burst))
}

/// A running board server.
pub struct Running {
    /// The address it listens on (the port the system chose when given port 0).
    pub addr: SocketAddr,
    pub task: tokio::task::JoinHandle<()>,
    pictures: pictures::Pictures,
}

impl Running {
    /// How many pictures the board drew (not taken from its cache) since it started.
    pub fn pictures_drawn(&self) -> u64 {
        self.pictures.drawn()
    }
}

/// Listen on `addr` and serve the board for `host`'s games until the task is dropped.
pub async fn start(
    host: Arc<GameHost>,
    keys: Keys,
    addr: SocketAddr,
    front: Arc<dyn Front>,
) -> std::io::Result<Running> {
    start_with(host, keys, addr, front, WebLimits::default()).await
}

/// [`start`] with other rate limits (a benchmark's, a test's).
pub async fn start_with(
    host: Arc<GameHost>,
    keys: Keys,
    addr: SocketAddr,
    front: Arc<dyn Front>,
    limits: WebLimits,
) -> std::io::Result<Running> {
    let files = server::raise_open_files();
    let connections = limits
        .connections
        .unwrap_or_else(|| server::default_connections(files))
        .max(1);
    // Live streams hold their connections: at most half of them, so other requests find room.
    let streams = (connections / 2).clamp(1, live::IN_ALL);
    let live = live::Live::start(host.clone(), streams);
    let queue = front
        .pictures()
        .unwrap_or_else(|| crate::background::PictureQueue::new(pictures::QUEUE_DEFAULT));
    let pictures = pictures::Pictures::new(queue, limits.pictures);
    let web = Web {
        host,
        keys,
        front,
        live,
        proxies: limits.trusted_proxies.clone(),
        per_address: Arc::new(limit::limiter(limits.per_address, limit::KEYS_MOST)),
        per_link: Arc::new(limit::limiter(limits.per_link, limit::KEYS_MOST)),
        per_player: Arc::new(limit::limiter(limits.per_player, limit::KEYS_MOST)),
        pictures: pictures.clone(),
    };
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let served = server::Served {
        header_timeout: limits.header_timeout,
        idle_timeout: limits.idle_timeout,
        connections,
    };
    let sweeper = web.clone();
    let app = router(web);
    // The sweep lives as long as the server: one task, both stop with it.
    let task = tokio::spawn(async move {
        tokio::select! {
            () = server::serve(listener, app, served) => {}
            () = sweeper.sweep() => {}
        }
    });
    tracing::info!(
        %addr,
        open_files = files,
        connections,
        streams,
        header_timeout = ?limits.header_timeout,
        idle_timeout = ?limits.idle_timeout,
        "web board listening"
    );
    Ok(Running {
        addr,
        task,
        pictures,
    })
}

fn router(web: Web) -> axum::Router {
    let routes = routes();
    // Discord's Activity proxy: the page inside Discord asks under `/.proxy/…`, which Discord
    // may pass on as it is; the same routes answer there.
    axum::Router::new()
        .merge(routes.clone())
        .nest("/.proxy", routes)
        .layer(axum::extract::DefaultBodyLimit::max(BODY_MAX))
        .layer(axum::middleware::from_fn_with_state(web.clone(), guard))
        .with_state(web)
}

fn routes() -> axum::Router<Web> {
    axum::Router::new()
        .route("/", get(page::index))
        .route("/board", get(page::board))
        .route("/assets/{name}", get(page::asset))
        .route("/api/board", get(api::board))
        .route("/api/targets", get(api::targets))
        .route("/api/replay", get(api::replay))
        .route("/api/act", post(api::act))
        .route("/api/live", get(live::stream))
        .route("/api/activity", get(activity::setup))
        .route("/api/token", post(activity::token))
}

/// The client's address, as the guard found it (see [`limit::Proxies::client`]).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

/// Every response: refused past its asker's rate (see [`limit`]), and sent with the page's
/// security headers.
async fn guard(
    State(web): State<Web>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut req: Request,
    next: Next,
) -> Response {
    let client = web.proxies.client(peer.ip(), req.headers());
    let counted = match web.claims(req.headers()) {
        Some(c) => web.per_link.check_key(&web.asker(Some(c), client)),
        None => web.per_address.check_key(&web.asker(None, client)),
    };
    if let Err(not_until) = counted {
        use governor::clock::{Clock as _, DefaultClock};
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        return ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests; wait a moment",
        )
        .retry_after(wait.as_millis().div_ceil(1000) as u64)
        .into_response();
    }
    req.extensions_mut().insert(Client(client));
    let mut res = next.run(req).await;
    let application = web.front.activity().and_then(|a| a.client_id());
    page::secure(res.headers_mut(), application.as_deref());
    res
}

/// The token of a request's `Authorization: Bearer` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
}

/// A refusal or failure the page shows: its status and one sentence, never a secret.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// Seconds to wait before asking again (`Retry-After`, and `retry_after` in the body).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same refusal, telling the client to wait `secs` (at least 1).
    pub fn retry_after(mut self, secs: u64) -> ApiError {
        self.retry_after = Some(secs.max(1));
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match self.retry_after {
            Some(s) => serde_json::json!({ "error": self.message, "retry_after": s }),
            None => serde_json::json!({ "error": self.message }),
        };
        let mut res = (self.status, axum::Json(body)).into_response();
        if let Some(s) = self.retry_after {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, s.into());
        }
        res
    }
}

impl From<crate::host::HostError> for ApiError {
    fn from(e: crate::host::HostError) -> ApiError {
        use crate::host::Refused;
        match e.refusal() {
            Some(Refused::Stale { .. }) => ApiError::new(StatusCode::CONFLICT, e.to_string()),
            Some(Refused::UnknownGame(_)) => ApiError::new(StatusCode::NOT_FOUND, e.to_string()),
            Some(_) => ApiError::new(StatusCode::FORBIDDEN, e.to_string()),
            None if !e.is_internal() => ApiError::new(StatusCode::BAD_REQUEST, e.to_string()),
            None => {
                tracing::error!(error = %e, "web board request failed");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "something went wrong on the server; try again",
                )
            }
        }
    }
}

/// Whether a player's link still acts for `player` in `state`: they sit in the game and have
/// not left it (resigned, expelled, conceded, lost on time); a replaced player sits no more.
pub fn still_plays(state: &crate::host::GameState, player: PlayerId) -> bool {
    state.seat_of(player).is_some_and(|s| !state.has_left(s))
}

/// Who is asking, from the request's token: the game, and the player when the link acts for
/// one who still sits in the game.
#[derive(Clone, Copy, Debug)]
pub struct Viewer {
    pub game: GameId,
    pub player: Option<PlayerId>,
    /// When the link ends (Unix milliseconds, the host's clock).
    pub expires: Millis,
}

impl Web {
    /// The viewer of a request whose `Authorization: Bearer` header carries a token, refused
    /// when the token is missing, forged or expired, or names a player who no longer sits in
    /// the game (leaving or being replaced ends their link) or is no longer a member of its
    /// server ([`Front::still_member`]).
    pub async fn viewer(&self, headers: &HeaderMap) -> Result<Viewer, ApiError> {
        let token = bearer(headers).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "this board needs a link from the game's thread (Open the board, or My board)",
            )
        })?;
        let claims = self
            .keys
            .verify(token, self.host.now())
            .map_err(|e| ApiError::new(StatusCode::UNAUTHORIZED, e.to_string()))?;
        if let Some(p) = claims.player {
            let state = self.host.state(claims.game).await?;
            if !still_plays(&state, p) {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "you no longer sit in this game (you left it or were replaced), so this link \
                     has ended",
                ));
            }
            if !self.front.still_member(claims.game, p).await {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "you are no longer a member of the server this game is played in, so this \
                     link has ended",
                ));
            }
        }
        Ok(Viewer {
            game: claims.game,
            player: claims.player,
            expires: claims.expires,
        })
    }

    /// The claims of a request's token when it is one the bot made and has not expired
    /// (whether its player still sits is the handlers' to check).
    fn claims(&self, headers: &HeaderMap) -> Option<Claims> {
        self.keys.verify(bearer(headers)?, self.host.now()).ok()
    }

    /// Whose bucket a request of `claims` (`None`: without a valid link) from `client` takes
    /// from.
    pub(crate) fn asker(&self, claims: Option<Claims>, client: IpAddr) -> Asker {
        let address = limit::bucket_address(client);
        match claims {
            None => Asker::Address(address),
            Some(Claims {
                game,
                player: Some(p),
                ..
            }) => Asker::Player(game, p),
            Some(Claims { game, .. }) => Asker::Watcher(game, address),
        }
    }

    /// Forget the buckets that are full again, so the tables hold only recent askers.
    pub fn forget_idle(&self) {
        for l in [&self.per_address, &self.per_link] {
            l.retain_recent();
            l.shrink_to_fit();
        }
        self.per_player.retain_recent();
        self.per_player.shrink_to_fit();
        self.pictures.forget_idle();
    }

    /// [`Web::forget_idle`] every [`limit::SWEEP_EVERY`], for ever.
    async fn sweep(self) {
        let mut every = tokio::time::interval(limit::SWEEP_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            self.forget_idle();
        }
    }
}
