//! The web board's rate limits over real HTTP on loopback (issue 60): whom each request counts
//! against. A flood without a link (or with a spectator's) from a player's own address does not
//! lock the player out; behind a trusted proxy each forwarded client has its own bucket, and a
//! peer that is not a trusted proxy cannot choose one with its `X-Forwarded-For`.
#![allow(clippy::unwrap_used)]

use std::num::NonZeroU32;
use std::sync::Arc;

use hexmeros::games::GameKind;
use hexmeros::host::GameId;
use hexmeros::web::{self, Keys, Links};
use hexmeros_testkit::host::{self as support, T0, ensure_players, host_on};

pub struct Served {
    pub _env: support::Env,
    pub links: Links,
    pub base: String,
    pub game: GameId,
    pub http: reqwest::Client,
    pub _running: web::Running,
}

/// A HexDame game of players 1 and 2, its board served on a free port with `limits`.
pub async fn served(limits: web::WebLimits) -> Served {
    let env = support::env().await;
    let host = Arc::new(host_on(&env.url, &env.clock).await);
    ensure_players(&host, 1..=2).await;
    let (game, _) = host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    let keys: Keys = web::keys(&host).await.unwrap();
    let front = Arc::new(web::standalone::Standalone::new(host.clone()));
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
        _running: running,
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
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_bucket() {
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
}

#[tokio::test]
async fn an_untrusted_peers_forwarded_address_is_ignored() {
    // The trusted proxy is elsewhere: this peer (127.0.0.1) is not it.
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
