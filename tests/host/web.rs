//! The web board's server (issue 46) over real HTTP on loopback, on a real store: what the page
//! reads, a turn played by its actions, and every door an attacker might try (no token, a
//! forged, expired or revoked one, a spectator acting, the wrong seat, a stale version, bad
//! bodies), each refused with a clear message and nothing changed; live updates from this
//! process's moves and from another process's.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use hexmeros::games::GameKind;
use hexmeros::host::{Actor, Command, GameHost, GameId};
use hexmeros::web::{self, Claims, Keys, Links};
use hexmeros_testkit::host::{self as support, T0, ensure_players, host_on};
use serde_json::{Value, json};

struct Board {
    env: support::Env,
    host: Arc<GameHost>,
    keys: Keys,
    links: Links,
    base: String,
    game: GameId,
    http: reqwest::Client,
}

/// A HexDame game of players 1 (White, to move) and 2, its board served on a free port.
async fn board() -> Board {
    let env = support::env().await;
    let host = Arc::new(host_on(&env.url, &env.clock).await);
    ensure_players(&host, 1..=3).await;
    let (game, _) = host
        .create(GameKind::HexDame, &[1, 2], None, None)
        .await
        .unwrap();
    let keys = web::keys(&host).await.unwrap();
    let front = Arc::new(web::standalone::Standalone::new(host.clone()));
    let running = web::start(
        host.clone(),
        keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
    )
    .await
    .unwrap();
    let base = format!("http://{}", running.addr);
    Board {
        env,
        host,
        links: Links::new(keys.clone(), &base),
        keys,
        base,
        game,
        http: reqwest::Client::new(),
    }
}

impl Board {
    /// The token of a link the bot made for `player` (`None`: a spectator's).
    fn token(&self, player: Option<i64>) -> String {
        let link = match player {
            Some(p) => self.links.player(self.game, p, T0),
            None => self.links.watch(self.game, T0),
        };
        link.split_once("#t=").unwrap().1.to_string()
    }

    async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn post(&self, token: &str, body: &str) -> (u16, Value) {
        let res = self
            .http
            .post(format!("{}/api/act", self.base))
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn act(&self, token: &str, body: Value) -> (u16, Value) {
        self.post(token, &body.to_string()).await
    }

    async fn version(&self) -> u64 {
        self.host.state(self.game).await.unwrap().version()
    }
}

fn error(v: &Value) -> String {
    v["error"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn a_turn_is_played_on_the_board_by_its_actions() {
    let b = board().await;
    let white = b.token(Some(1));
    let (status, view) = b.get("/api/board", Some(&white)).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["kind"], "HexDame");
    assert_eq!(view["you"]["mover"], true);
    assert_eq!(view["you"]["label"], "White");
    assert_eq!(view["cells"].as_array().unwrap().len(), 61);
    let svg = view["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg") && svg.matches("class=\"cell\"").count() >= 61);
    let pieces = view["pieces"].as_array().unwrap();
    assert!(!pieces.is_empty());
    // The first piece's targets, as the picker numbers them.
    let origin = pieces[0]["origin"].as_str().unwrap();
    let (status, targets) = b
        .get(&format!("/api/targets?origin={origin}"), Some(&white))
        .await;
    assert_eq!(status, 200, "{targets}");
    let target = &targets[0];
    assert_eq!(target["number"], 1);
    assert!(target["hex"].is_array());
    let text = target["moves"][0].as_str().unwrap().to_string();
    // Staged: nothing is final, and only the mover sees it.
    let v0 = view["version"].as_u64().unwrap();
    let (status, done) = b
        .act(&white, json!({"version": v0, "do": "stage", "text": text}))
        .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["version"], v0 + 1);
    let (_, staged) = b.get("/api/board", Some(&white)).await;
    assert_eq!(staged["staged"], text);
    assert!(staged["pieces"].as_array().unwrap().is_empty());
    let (_, watched) = b.get("/api/board", Some(&b.token(None))).await;
    assert!(watched["staged"].is_null() && watched["you"].is_null());
    // Taken back, staged again, passed.
    let (status, _) = b
        .act(&white, json!({"version": v0 + 1, "do": "take_back"}))
        .await;
    assert_eq!(status, 200);
    b.act(
        &white,
        json!({"version": v0 + 2, "do": "stage", "text": text}),
    )
    .await;
    let (status, done) = b
        .act(&white, json!({"version": v0 + 3, "do": "pass"}))
        .await;
    assert_eq!(status, 200, "{done}");
    let st = b.host.state(b.game).await.unwrap();
    assert_eq!(st.record().len(), 1, "the move is committed");
    let (_, black) = b.get("/api/board", Some(&b.token(Some(2)))).await;
    assert_eq!(black["you"]["mover"], true);
    assert_eq!(black["story"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn doors_without_a_good_token_are_shut() {
    let b = board().await;
    let v = b.version().await;
    // No token, garbage, another key's token, an expired one.
    let (status, body) = b.get("/api/board", None).await;
    assert_eq!(status, 401);
    assert!(
        error(&body).contains("link from the game's thread"),
        "{body}"
    );
    let (status, _) = b.get("/api/board", Some("")).await;
    assert_eq!(status, 401);
    for bad in ["garbage", &"A".repeat(75)] {
        let (status, body) = b.get("/api/board", Some(bad)).await;
        assert_eq!(status, 401, "{bad:?}");
        assert!(error(&body).contains("not one the bot made"), "{body}");
    }
    let claims = Claims {
        game: b.game,
        player: Some(1),
        expires: T0 + 1_000,
    };
    let forged = Keys::new(b"not the database's key, 32 bytes").sign(&claims);
    let (status, body) = b.act(&forged, json!({"version": v, "do": "pass"})).await;
    assert_eq!(
        (status, error(&body).contains("not one the bot made")),
        (401, true)
    );
    let expired = b.keys.sign(&Claims {
        expires: T0 - 1,
        ..claims
    });
    let (status, body) = b.get("/api/board", Some(&expired)).await;
    assert_eq!(
        (status, error(&body).contains("expired")),
        (401, true),
        "{body}"
    );
    b.env.clock.set(T0 + web::PLAYER_LINK_MS);
    let (status, _) = b.get("/api/board", Some(&b.token(Some(1)))).await;
    assert_eq!(status, 401, "a day later the link has expired");
    b.env.clock.set(T0);
    // A token for someone who does not (or no longer) sit in the game.
    let (status, body) = b.get("/api/board", Some(&b.token(Some(3)))).await;
    assert_eq!(status, 403);
    assert!(error(&body).contains("no longer sit"), "{body}");
    // A token is never echoed.
    assert!(!body.to_string().contains(&b.token(Some(3))));
    assert_eq!(b.version().await, v, "nothing changed");
}

#[tokio::test]
async fn the_wrong_player_a_spectator_or_a_stale_board_changes_nothing() {
    let b = board().await;
    let v = b.version().await;
    let white = b.token(Some(1));
    let (_, view) = b.get("/api/board", Some(&white)).await;
    let origin = view["pieces"][0]["origin"].as_str().unwrap().to_string();
    let (_, targets) = b
        .get(&format!("/api/targets?origin={origin}"), Some(&white))
        .await;
    let text = targets[0]["moves"][0].as_str().unwrap().to_string();
    // Black, who does not hold the Token.
    let black = b.token(Some(2));
    let (status, body) = b
        .act(&black, json!({"version": v, "do": "stage", "text": text}))
        .await;
    assert_eq!(status, 403);
    assert!(error(&body).contains("not your turn"), "{body}");
    let (status, _) = b
        .get(&format!("/api/targets?origin={origin}"), Some(&black))
        .await;
    assert_eq!(status, 403, "Black may not see White's targets");
    // A spectator.
    let watch = b.token(None);
    let (status, body) = b
        .act(&watch, json!({"version": v, "do": "stage", "text": text}))
        .await;
    assert_eq!(status, 403);
    assert!(error(&body).contains("spectator"), "{body}");
    // White, from a board that is one version old.
    let (status, body) = b
        .act(
            &white,
            json!({"version": v + 1, "do": "stage", "text": text}),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    // Passing with nothing staged, a move that is not legal, a seat that is not one.
    let (status, _) = b.act(&white, json!({"version": v, "do": "pass"})).await;
    assert_eq!(status, 403);
    let (status, body) = b
        .act(
            &white,
            json!({"version": v, "do": "stage", "text": "a1-z9"}),
        )
        .await;
    assert!(status == 403 || status == 400, "{status} {body}");
    let (status, body) = b
        .act(
            &white,
            json!({"version": v, "do": "check", "seat": "mauve"}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(error(&body).contains("mauve"), "{body}");
    assert_eq!(b.version().await, v, "nothing changed");
}

#[tokio::test]
async fn bad_bodies_are_refused_with_a_reason() {
    let b = board().await;
    let v = b.version().await;
    let white = b.token(Some(1));
    for (body, what) in [
        ("not json", "not an action"),
        ("{\"version\": 0}", "not an action"),
        ("{\"version\": 0, \"do\": \"teleport\"}", "not an action"),
        ("{\"do\": \"pass\"}", "not an action"),
    ] {
        let (status, answer) = b.post(&white, body).await;
        assert_eq!(status, 400, "{body}");
        assert!(error(&answer).contains(what), "{body}: {answer}");
    }
    let long = "a".repeat(65);
    let (status, answer) = b
        .act(&white, json!({"version": v, "do": "stage", "text": long}))
        .await;
    assert_eq!(status, 400);
    assert!(error(&answer).contains("1 to 64"), "{answer}");
    let huge = format!(
        "{{\"version\": {v}, \"do\": \"stage\", \"text\": \"{}\"}}",
        "a".repeat(web::BODY_MAX)
    );
    let (status, _) = b.post(&white, &huge).await;
    assert_eq!(status, 413, "a body over the limit is not read");
    let (status, answer) = b.get("/api/targets?origin=zz99", Some(&white)).await;
    assert_eq!(status, 400);
    assert!(
        error(&answer).contains("not a piece you can move"),
        "{answer}"
    );
    assert_eq!(b.version().await, v, "nothing changed");
}

#[tokio::test]
async fn pages_carry_a_strict_policy_and_serve_no_stranger_file() {
    let b = board().await;
    for path in [
        "/",
        "/board",
        "/assets/board.js",
        "/assets/board.css",
        "/api/board",
    ] {
        let res = b
            .http
            .get(format!("{}{path}", b.base))
            .send()
            .await
            .unwrap();
        let csp = res.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"));
        assert!(!csp.contains("unsafe-inline"), "{path}");
        // No Activity here: Discord's clients may frame the board, no Activity's origin.
        assert!(
            csp.contains("frame-ancestors 'self' https://discord.com")
                && !csp.contains("discordsays"),
            "{csp}"
        );
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    }
    let page = b
        .http
        .get(format!("{}/board", b.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!page.contains("<script>") && page.contains("/assets/board.js"));
    for path in [
        "/assets/../Cargo.toml",
        "/assets/secret",
        "/assets/board.js.map",
    ] {
        let res = b
            .http
            .get(format!("{}{path}", b.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 404, "{path}");
    }
}

/// The versions the live stream sends, as they come.
async fn live(b: &Board, token: &str) -> tokio::sync::mpsc::UnboundedReceiver<u64> {
    let res = b
        .http
        .get(format!("{}/api/live", b.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut body = res.bytes_stream();
    tokio::spawn(async move {
        let mut buf = String::new();
        while let Some(Ok(chunk)) = body.next().await {
            buf.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(i) = buf.find("\n\n") {
                let block: String = buf.drain(..i + 2).collect();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("data:") {
                        let _ = tx.send(v.trim().parse().unwrap());
                    }
                }
            }
        }
    });
    rx
}

/// Wait (with a deadline) until the stream has sent `version`.
async fn until(rx: &mut tokio::sync::mpsc::UnboundedReceiver<u64>, version: u64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, rx.recv()).await {
            Ok(Some(v)) if v >= version => return,
            Ok(Some(_)) => continue,
            other => panic!("no version {version} on the live stream: {other:?}"),
        }
    }
}

#[tokio::test]
async fn open_boards_follow_moves_from_this_process_and_another() {
    let b = board().await;
    let v = b.version().await;
    let mut white = live(&b, &b.token(Some(1))).await;
    let mut watcher = live(&b, &b.token(None)).await;
    until(&mut white, v).await;
    until(&mut watcher, v).await;
    // A move made elsewhere in this process (as in Discord).
    first_move(&b.host, b.game, 1).await;
    until(&mut white, v + 1).await;
    until(&mut watcher, v + 1).await;
    // A move by another process on the same database.
    let other = host_on(&b.env.url, &b.env.clock).await;
    first_move(&other, b.game, 2).await;
    until(&mut watcher, v + 2).await;
    until(&mut white, v + 2).await;
}

/// `player`'s first legal move on `game`, committed through `host` (as Discord would).
async fn first_move(host: &GameHost, game: GameId, player: i64) {
    let text = host.legal_moves(game, player).await.unwrap()[0].clone();
    host.handle(
        game,
        Actor::player(player),
        Command::Move { text, commit: true },
        None,
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn the_story_steps_back_move_by_move_for_anyone_with_a_link() {
    let b = board().await;
    first_move(&b.host, b.game, 1).await;
    let watch = b.token(None);
    let (status, start) = b.get("/api/replay?at=0", Some(&watch)).await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(
        (start["at"].as_u64(), start["of"].as_u64()),
        (Some(0), Some(1))
    );
    let (_, after) = b.get("/api/replay?at=1", Some(&watch)).await;
    let (start, after) = (
        start["svg"].as_str().unwrap(),
        after["svg"].as_str().unwrap(),
    );
    assert!(start.starts_with("<svg") && after.starts_with("<svg"));
    assert_ne!(start, after, "the move changed the board");
    let (status, body) = b.get("/api/replay?at=2", Some(&watch)).await;
    assert_eq!(status, 400);
    assert!(error(&body).contains("has 1 moves, not 2"), "{body}");
    let (status, _) = b.get("/api/replay?at=-1", Some(&watch)).await;
    assert_eq!(status, 400);
    let (status, _) = b.get("/api/replay?at=0", None).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn an_address_or_a_player_past_their_rate_is_refused_for_a_while() {
    let b = board().await;
    // Limits of a few a minute: the test's requests all fall within one minute.
    let limits = web::WebLimits {
        per_address: governor::Quota::per_minute(std::num::NonZeroU32::new(1).unwrap())
            .allow_burst(std::num::NonZeroU32::new(4).unwrap()),
        per_player: governor::Quota::per_minute(std::num::NonZeroU32::new(1).unwrap())
            .allow_burst(std::num::NonZeroU32::new(2).unwrap()),
        ..web::WebLimits::default()
    };
    let front = Arc::new(web::standalone::Standalone::new(b.host.clone()));
    let running = web::start_with(
        b.host.clone(),
        b.keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
        limits,
    )
    .await
    .unwrap();
    let base = format!("http://{}", running.addr);
    let white = b.token(Some(1));
    let act = |body: Value| {
        b.http
            .post(format!("{base}/api/act"))
            .bearer_auth(&white)
            .json(&body)
            .send()
    };
    let v = b.version().await;
    // Two actions (refused by the host: nothing staged), then the player's burst is spent.
    for _ in 0..2 {
        let r = act(json!({"version": v, "do": "pass"})).await.unwrap();
        assert_eq!(r.status().as_u16(), 403);
    }
    let r = act(json!({"version": v, "do": "pass"})).await.unwrap();
    assert_eq!(r.status().as_u16(), 429);
    assert!(r.text().await.unwrap().contains("too many actions"));
    // The address's burst of four is its own (the player's link took none of it), then spent.
    for _ in 0..4 {
        let r = b.http.get(format!("{base}/")).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
    }
    let r = b.http.get(format!("{base}/")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 429);
    assert_eq!(b.version().await, v, "nothing changed");
}

/// Issue 60: past its connection cap the board answers a new connection 503 at once and
/// closes it; a place freed is taken again. A connection's time to send its headers is hyper's
/// header-read timeout, here shortened.
#[tokio::test]
async fn past_its_connection_cap_the_board_refuses_at_once_and_serves_again_when_one_leaves() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let b = board().await;
    let limits = web::WebLimits {
        connections: Some(8),
        header_timeout: Duration::from_secs(300),
        ..web::WebLimits::default()
    };
    let front = Arc::new(web::standalone::Standalone::new(b.host.clone()));
    let running = web::start_with(
        b.host.clone(),
        b.keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
        limits,
    )
    .await
    .unwrap();
    let addr = running.addr;
    let mut idle = Vec::new();
    for _ in 0..8 {
        idle.push(tokio::net::TcpStream::connect(addr).await.unwrap());
    }
    // The ninth: 503 and closed, before anything is asked.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let refused = loop {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let mut answer = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut answer)).await;
        let text = String::from_utf8_lossy(&answer).to_string();
        if read.is_ok() && text.starts_with("HTTP/1.1 503") {
            break text;
        }
        // The eight may not all have been taken yet.
        assert!(
            tokio::time::Instant::now() < deadline,
            "never refused: {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(refused.contains("too many connections"), "{refused}");
    assert!(
        refused.to_ascii_lowercase().contains("retry-after: 5"),
        "{refused}"
    );
    // One leaves: a real request gets its place.
    drop(idle.pop());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: board\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut answer)).await;
        if answer.starts_with(b"HTTP/1.1 200") {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "no place freed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // A connection that sends half its headers is closed by the header timeout of another
    // board (1 s here).
    let limits = web::WebLimits {
        header_timeout: Duration::from_secs(1),
        ..web::WebLimits::default()
    };
    let front = Arc::new(web::standalone::Standalone::new(b.host.clone()));
    let quick = web::start_with(
        b.host.clone(),
        b.keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
        limits,
    )
    .await
    .unwrap();
    let mut s = tokio::net::TcpStream::connect(quick.addr).await.unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHost: bo").await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "a half-sent request was never closed");
    drop(idle);
}

/// The live stream at `base` for `token`: its versions as they come, the channel closing when
/// the stream ends. `None` when the stream is refused, with its status.
async fn live_at(
    http: &reqwest::Client,
    base: &str,
    token: &str,
) -> Result<tokio::sync::mpsc::UnboundedReceiver<u64>, u16> {
    let res = http
        .get(format!("{base}/api/live"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    if res.status().as_u16() != 200 {
        return Err(res.status().as_u16());
    }
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut body = res.bytes_stream();
    tokio::spawn(async move {
        let mut buf = String::new();
        while let Some(Ok(chunk)) = body.next().await {
            buf.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(i) = buf.find("\n\n") {
                let block: String = buf.drain(..i + 2).collect();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("data:") {
                        let _ = tx.send(v.trim().parse().unwrap());
                    }
                }
            }
        }
    });
    Ok(rx)
}

/// One spectator link (public on every turn message) cannot take a game's live places (issue
/// 60): past the spectators' share it is refused and the players' own boards still open; a
/// player's stream ends once they resign (their link has ended), as their link's requests do.
#[tokio::test]
async fn a_spectators_link_cannot_take_a_games_streams_and_a_resigned_players_stream_ends() {
    let b = board().await;
    let many = governor::Quota::per_second(std::num::NonZeroU32::new(10_000).unwrap());
    let limits = web::WebLimits {
        per_address: many,
        per_link: many,
        per_player: many,
        ..web::WebLimits::default()
    };
    let front = Arc::new(web::standalone::Standalone::new(b.host.clone()));
    let running = web::start_with(
        b.host.clone(),
        b.keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
        limits,
    )
    .await
    .unwrap();
    let base = format!("http://{}", running.addr);
    let watch = b.token(None);
    let mut crowd = Vec::new();
    for _ in 0..web::live::SPECTATORS {
        crowd.push(live_at(&b.http, &base, &watch).await.unwrap());
    }
    assert_eq!(live_at(&b.http, &base, &watch).await.err(), Some(503));
    let v = b.version().await;
    let mut white = live_at(&b.http, &base, &b.token(Some(1))).await.unwrap();
    let mut black = live_at(&b.http, &base, &b.token(Some(2))).await.unwrap();
    until(&mut white, v).await;
    until(&mut black, v).await;
    // Black resigns (in Discord, say): their stream ends, White's and the crowd's go on.
    b.host
        .handle(
            b.game,
            Actor::player(2),
            Command::Resign { replacement: None },
            None,
        )
        .await
        .unwrap();
    until(&mut white, v + 1).await;
    until(&mut crowd[0], v + 1).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, black.recv()).await {
            Ok(Some(_)) => continue,
            Ok(None) => break,
            Err(_) => panic!("the resigned player's stream stayed open"),
        }
    }
    let (status, body) = b.get("/api/board", Some(&b.token(Some(2)))).await;
    assert_eq!(status, 403, "{body}");
    assert!(error(&body).contains("no longer sit"), "{body}");
    drop(crowd);
}

/// The page says what the game expects, from the host's projection (issue 62): a forced
/// HexDame capture (rules/hexdame.md T5) is named with both men it takes, the piece that
/// cannot move says why, and once the move is passed the page tells the new state, not the
/// staged move.
#[tokio::test]
async fn the_board_says_what_is_forced_and_why_a_piece_cannot_move() {
    let mut b = board().await;
    let man = |cell: &str, owner: &str| json!({"cell": cell, "owner": owner, "kind": "man"});
    let position = json!({"game": "hexdame", "to_move": "white", "pieces": [
        man("c3", "white"), man("a3", "white"), man("d4", "black"), man("f5", "black"),
        man("a4", "black")]});
    let (game, _) = b
        .host
        .create_from_position(&[1, 2], &position.to_string(), None)
        .await
        .unwrap();
    b.game = game;
    let white = b.token(Some(1));
    let (status, view) = b.get("/api/board", Some(&white)).await;
    assert_eq!(status, 200, "{view}");
    let forced = view["forced"].as_str().unwrap();
    assert!(forced.contains("capture is compulsory"), "{view}");
    // The SVG's words for a screen reader, as Discord's pictures carry them.
    let alt = view["alt"].as_str().unwrap();
    assert!(
        alt.contains("White has the Token.") && alt.contains("White must capture, 2 pieces."),
        "{alt}"
    );
    assert!(
        view["expects"].as_str().unwrap().contains("takes 2"),
        "{view}"
    );
    assert_eq!(view["stuck"][0]["cell"], "a3");
    let why = view["stuck"][0]["why"].as_str().unwrap();
    assert!(why.contains("cannot move: capture is compulsory"), "{why}");
    let (status, answer) = b.get("/api/targets?origin=a3", Some(&white)).await;
    assert_eq!(status, 400);
    assert!(
        error(&answer).contains("your Man on a3 cannot move"),
        "{answer}"
    );
    let (status, targets) = b.get("/api/targets?origin=c3", Some(&white)).await;
    assert_eq!(status, 200, "{targets}");
    assert_eq!(targets[0]["mark"], "capture");
    assert_eq!(
        targets[0]["does"],
        json!(["takes Black's Man", "takes Black's Man"])
    );
    let text = targets[0]["moves"][0].as_str().unwrap().to_string();
    let v = view["version"].as_u64().unwrap();
    let (status, _) = b
        .act(&white, json!({"version": v, "do": "stage", "text": text}))
        .await;
    assert_eq!(status, 200);
    let (_, view) = b.get("/api/board", Some(&white)).await;
    assert!(
        view["expects"].as_str().unwrap().contains("is staged"),
        "{view}"
    );
    let v = view["version"].as_u64().unwrap();
    let (status, _) = b.act(&white, json!({"version": v, "do": "pass"})).await;
    assert_eq!(status, 200);
    let (_, view) = b.get("/api/board", Some(&white)).await;
    assert_eq!(view["staged"], Value::Null);
    assert_eq!(view["expects"], "Black has the Token.");
    assert_eq!(view["stuck"], json!([]));
}
