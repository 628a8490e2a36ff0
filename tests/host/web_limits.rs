//! The web board's rate limits and pictures over real HTTP on loopback (issue 60): whom each
//! request counts against (a flood without a link, or with a spectator's, from a player's own
//! address does not lock the player out; behind a trusted proxy each forwarded client has its own
//! bucket, and a peer that is not a trusted proxy cannot choose one with its `X-Forwarded-For`),
//! and pictures drawn once per version, in the shared picture queue's web share, within each
//! viewer's picture rate.
#![allow(clippy::unwrap_used)]

use std::num::NonZeroU32;
use std::sync::Arc;

use hexmeros::background::PictureQueue;
use hexmeros::games::GameKind;
use hexmeros::host::{Actor, Command, GameHost, GameId};
use hexmeros::web::{self, Keys, Links};
use hexmeros_testkit::host::{self as support, T0, ensure_players, host_on};

pub struct Served {
    pub _env: support::Env,
    pub links: Links,
    pub base: String,
    pub game: GameId,
    pub http: reqwest::Client,
    pub host: Arc<GameHost>,
    pub running: web::Running,
}

/// A HexDame game of players 1 and 2, its board served on a free port with `limits`.
pub async fn served(limits: web::WebLimits) -> Served {
    served_with(limits, None).await
}

/// [`served`], the board sharing `queue` (as Discord's pictures share theirs) when given.
pub async fn served_with(limits: web::WebLimits, queue: Option<PictureQueue>) -> Served {
    let env = support::env().await;
    let host = Arc::new(host_on(&env.url, &env.clock).await);
    ensure_players(&host, 1..=2).await;
    let (game, _) = host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    let keys: Keys = web::keys(&host).await.unwrap();
    let front = Arc::new(match queue {
        Some(q) => web::standalone::Standalone::with_pictures(host.clone(), q),
        None => web::standalone::Standalone::new(host.clone()),
    });
    let running = web::start_with(
        host.clone(),
        keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
        limits,
    )
    .await
    .unwrap();
    let base = format!("http://{}", running.addr);
    Served {
        _env: env,
        links: Links::new(keys, &base),
        base,
        game,
        http: reqwest::Client::new(),
        host,
        running,
    }
}

impl Served {
    /// The token of `player`'s link (`None`: a spectator's).
    pub fn token(&self, player: Option<i64>) -> String {
        let link = match player {
            Some(p) => self.links.player(self.game, p, T0),
            None => self.links.watch(self.game, T0),
        };
        link.split_once("#t=").unwrap().1.to_string()
    }

    /// The status of `GET path`, with `token` and an `X-Forwarded-For` of `forwarded`.
    pub async fn status(&self, path: &str, token: Option<&str>, forwarded: Option<&str>) -> u16 {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(f) = forwarded {
            req = req.header("x-forwarded-for", f);
        }
        req.send().await.unwrap().status().as_u16()
    }

    /// `GET path` with `token`: the status, the `Retry-After` header and the body.
    pub async fn get(&self, path: &str, token: &str) -> (u16, Option<String>, serde_json::Value) {
        let res = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        let retry = res
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_string());
        (status, retry, res.json().await.unwrap_or_default())
    }

    async fn first_move(&self, player: i64) {
        let text = self.host.legal_moves(self.game, player).await.unwrap()[0].clone();
        self.host
            .handle(
                self.game,
                Actor::player(player),
                Command::Move { text, commit: true },
                None,
            )
            .await
            .unwrap();
    }

    /// Ask `GET path` until it is refused 429 (at most `most` times), as a flood does.
    pub async fn flood(&self, path: &str, token: Option<&str>, most: usize) {
        for _ in 0..most {
            if self.status(path, token, None).await == 429 {
                return;
            }
        }
        panic!("{path} was never refused in {most} requests");
    }
}

/// A quota of `burst` at once, then one a minute: the tests' requests all fall in one minute.
fn few(burst: u32) -> governor::Quota {
    governor::Quota::per_minute(NonZeroU32::MIN).allow_burst(NonZeroU32::new(burst).unwrap())
}

#[tokio::test]
async fn a_flood_without_a_link_does_not_lock_out_a_player_behind_the_same_address() {
    // The default limits, as served.
    let b = served(web::WebLimits::default()).await;
    // Someone on the same address (a proxy, Discord's Activity proxy) floods the page.
    b.flood("/", None, 10_000).await;
    assert_eq!(b.status("/", None, None).await, 429, "the address is spent");
    let white = b.token(Some(1));
    for i in 0..20 {
        let s = b.status("/api/board", Some(&white), None).await;
        assert_eq!(s, 200, "the player's request {i} was refused");
    }
    // A flood with the (public) spectator's link spends that link's bucket at this address,
    // not the players'.
    let watch = b.token(None);
    b.flood("/", Some(&watch), 10_000).await;
    let black = b.token(Some(2));
    for i in 0..20 {
        let s = b.status("/api/board", Some(&black), None).await;
        assert_eq!(s, 200, "the player's request {i} was refused");
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_bucket_and_no_other_peer_chooses_one() {
    let b = served(web::WebLimits {
        per_address: few(3),
        trusted_proxies: web::limit::Proxies::parse("127.0.0.1").unwrap(),
        ..web::WebLimits::default()
    })
    .await;
    for _ in 0..3 {
        assert_eq!(b.status("/", None, Some("203.0.113.7")).await, 200);
    }
    assert_eq!(b.status("/", None, Some("203.0.113.7")).await, 429);
    // A forged token is no link: it counts on the address.
    assert_eq!(
        b.status("/", Some("garbage"), Some("203.0.113.7")).await,
        429
    );
    // The client put another's address first; the proxy appended the real one.
    assert_eq!(
        b.status("/", None, Some("203.0.113.8, 203.0.113.7")).await,
        429
    );
    // Another client behind the proxy, and the proxy's own requests: their own buckets.
    assert_eq!(
        b.status("/", None, Some("198.51.100.1, 203.0.113.8")).await,
        200
    );
    assert_eq!(b.status("/", None, None).await, 200);
    // Where the trusted proxy is elsewhere, this peer (127.0.0.1) is not it: its forwarded
    // addresses are ignored.
    let b = served(web::WebLimits {
        per_address: few(3),
        trusted_proxies: web::limit::Proxies::parse("10.0.0.0/8").unwrap(),
        ..web::WebLimits::default()
    })
    .await;
    for i in 0..3 {
        let client = format!("203.0.113.{i}");
        assert_eq!(b.status("/", None, Some(&client)).await, 200);
    }
    // A fresh forwarded address chooses no fresh bucket: the peer's is spent.
    assert_eq!(b.status("/", None, Some("198.51.100.99")).await, 429);
    assert_eq!(b.status("/", None, None).await, 429);
}

#[tokio::test]
async fn one_version_of_a_board_is_drawn_once_however_many_ask() {
    let b = served(web::WebLimits::default()).await;
    let watch = b.token(None);
    // Thirty spectators at once, then ten more: one drawing.
    let asks = (0..30).map(|_| b.get("/api/board", &watch));
    for (status, _, body) in futures_util::future::join_all(asks).await {
        assert_eq!(status, 200, "{body}");
    }
    let (_, _, first) = b.get("/api/board", &watch).await;
    for _ in 0..10 {
        let (status, _, again) = b.get("/api/board", &watch).await;
        assert_eq!(status, 200);
        assert_eq!(again["svg"], first["svg"]);
    }
    assert_eq!(b.running.pictures_drawn(), 1);
    // Black's side is another picture; a move makes a new version.
    let black = b.token(Some(2));
    for _ in 0..5 {
        assert_eq!(b.get("/api/board", &black).await.0, 200);
    }
    assert_eq!(b.running.pictures_drawn(), 2);
    b.first_move(1).await;
    for _ in 0..5 {
        assert_eq!(b.get("/api/board", &watch).await.0, 200);
    }
    assert_eq!(b.running.pictures_drawn(), 3);
    // A replay step too: drawn once.
    for _ in 0..5 {
        let (status, _, step) = b.get("/api/replay?at=0", &watch).await;
        assert_eq!((status, step["of"].as_u64()), (200, Some(1)), "{step}");
    }
    assert_eq!(b.running.pictures_drawn(), 4);
}

#[tokio::test]
async fn a_full_picture_queue_answers_503_and_the_webs_share_leaves_discord_its_room() {
    // Two places, one of them the web's; one drawing a minute per viewer.
    let queue = PictureQueue::with_web_share(2, 1);
    let limits = web::WebLimits {
        pictures: few(1),
        ..web::WebLimits::default()
    };
    let b = served_with(limits, Some(queue.clone())).await;
    let watch = b.token(None);
    // A web drawing holds the web's share: the board is busy, Discord still has its place.
    let held = queue.web_slot().unwrap();
    let (status, retry, body) = b.get("/api/board", &watch).await;
    assert_eq!((status, retry.as_deref()), (503, Some("2")), "{body}");
    assert!(body["error"].as_str().unwrap().contains("busy"), "{body}");
    let discord = queue.slot();
    assert!(discord.is_some(), "the web took Discord's place");
    assert_eq!(b.running.pictures_drawn(), 0);
    drop(held);
    // The refusal spent nothing: the viewer's one drawing is still theirs.
    assert_eq!(b.get("/api/board", &watch).await.0, 200);
    assert_eq!(b.running.pictures_drawn(), 1);
    // Discord drawing in both places: the web waits too.
    drop(discord);
    let both = (queue.slot().unwrap(), queue.slot().unwrap());
    let black = b.token(Some(2));
    assert_eq!(b.get("/api/board", &black).await.0, 503);
    drop(both);
    assert_eq!(b.get("/api/board", &black).await.0, 200);
    // Past their picture rate a viewer is refused a new drawing, not one from the cache.
    let (status, retry, body) = b.get("/api/replay?at=0", &watch).await;
    assert_eq!(status, 429, "{body}");
    assert!(retry.is_some() && body["error"].as_str().unwrap().contains("pictures"));
    assert_eq!(b.get("/api/board", &watch).await.0, 200);
    assert_eq!(b.running.pictures_drawn(), 2);
}
