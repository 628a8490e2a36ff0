//! Games started for real through the lobby (issue 48), as players would: `/hexmeros start` by
//! the first player naming the others, then each other player's Join once the lobby message is
//! up. The fake's tap shows each start to its first board (the turn message pinging the first
//! player). Shared by the start benchmark (`benches/starts.rs`) and the load benchmark's
//! `SCALE_STARTS` mode (`benches/scale.rs`).
#![allow(clippy::unwrap_used)] // test support: a panic is the failure report

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::bot::{content, custom_ids, lobby_number, sub, user_opt};
use crate::fake_discord::{FakeDiscord as F, Sent};
use crate::scale::route_of;

/// What the tap showed of the starts.
#[derive(Default)]
struct Book {
    /// The lobby message of each lobby (by its Join's custom id).
    lobby_messages: HashMap<String, u64>,
    /// The lobby each `/hexmeros start` answered with (by its interaction's token).
    lobbies: HashMap<String, i64>,
    /// Each thread made: when it was asked for, and the game its name ends with (`#<id>`).
    threads: HashMap<u64, (Instant, i64)>,
    /// The first boards (turn messages that give the Token) by the player they ping: when, in
    /// which thread.
    boards: HashMap<u64, Vec<(Instant, u64)>>,
    /// Requests that count on Discord's global limit (not interaction answers).
    global: u64,
    /// Every request by route.
    routes: HashMap<String, u64>,
}

/// A start followed to its board.
#[derive(Clone, Copy, Debug)]
pub struct Started {
    pub game: i64,
    pub thread: u64,
    /// When the last Join was sent.
    pub joined: Instant,
    /// When the thread was asked for, and when the first board was posted.
    pub thread_at: Instant,
    pub board_at: Instant,
    /// Boards posted for it (more than one is a fault).
    pub boards: usize,
}

/// Starts games and follows them (the fake's tap is its own while it lives).
#[derive(Clone)]
pub struct Starter {
    fake: Arc<F>,
    book: Arc<Mutex<Book>>,
}

impl Starter {
    pub fn new(fake: Arc<F>) -> Starter {
        let book = Arc::new(Mutex::new(Book::default()));
        let mut tap = fake.tap();
        let follow = book.clone();
        tokio::spawn(async move {
            while let Some(s) = tap.recv().await {
                see(&follow, &s);
            }
        });
        Starter { fake, book }
    }

    /// One start in `channel` of `game` (the `/hexmeros start` choice: 0 HexiMeros, 1 HexDame)
    /// among `players` (seat order): returns when the last Join was sent, or why there was none.
    pub async fn start(&self, channel: u64, players: &[u64], game: u64) -> Result<Instant, String> {
        let mut opts: Vec<serde_json::Value> = players
            .iter()
            .enumerate()
            .map(|(i, &p)| user_opt(&format!("p{}", i + 1), p))
            .collect();
        opts.push(json!({"type": 4, "name": "game", "value": game}));
        let i = self
            .fake
            .slash(players[0], channel, "hexmeros", sub("start", json!(opts)))
            .await;
        // Read from the tap, not the fake's record: scanning every request for each start's
        // answer made the fake slower with every start (at 10,000 starts, slower than its own
        // gateway's heartbeats).
        let deadline = Instant::now() + Duration::from_secs(60);
        let lobby = loop {
            if let Some(l) = self.book.lock().unwrap().lobbies.remove(&i.token) {
                break l;
            }
            if Instant::now() > deadline {
                return Err("no lobby in the answer to start".into());
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let join = format!("{lobby}:ljoin:0");
        let deadline = Instant::now() + Duration::from_secs(30);
        let message = loop {
            if let Some(&m) = self.book.lock().unwrap().lobby_messages.get(&join) {
                break m;
            }
            if Instant::now() > deadline {
                return Err(format!("lobby #{lobby}: no lobby message"));
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let mut at = Instant::now();
        for &p in &players[1..] {
            at = Instant::now();
            self.fake.button(p, channel, message, &join).await;
        }
        Ok(at)
    }

    /// Whether the start whose first player is `first` has shown its board.
    pub fn has_board(&self, first: u64) -> bool {
        self.book.lock().unwrap().boards.contains_key(&first)
    }

    /// The start whose first player is `first` and whose last Join went at `joined`, if its
    /// board came.
    pub fn started(&self, first: u64, joined: Instant) -> Option<Started> {
        let b = self.book.lock().unwrap();
        let boards = b.boards.get(&first)?;
        let &(board_at, thread) = boards.first()?;
        let &(thread_at, game) = b.threads.get(&thread)?;
        Some(Started {
            game,
            thread,
            joined,
            thread_at,
            board_at,
            boards: boards.len(),
        })
    }

    /// Requests so far that count on Discord's global limit.
    pub fn global(&self) -> u64 {
        self.book.lock().unwrap().global
    }

    /// Requests so far by route, most first.
    pub fn routes(&self) -> Vec<(String, u64)> {
        let mut r: Vec<_> = self
            .book
            .lock()
            .unwrap()
            .routes
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        r.sort_by_key(|x| std::cmp::Reverse(x.1));
        r
    }
}

fn see(book: &Mutex<Book>, s: &Sent) {
    let mut b = book.lock().unwrap();
    if !s.path.starts_with("/interactions/") && !s.path.starts_with("/webhooks/") {
        b.global += 1;
    }
    *b.routes.entry(route_of(s)).or_insert(0) += 1;
    if !(200..300).contains(&s.status) || s.method != "POST" {
        return;
    }
    // The lobby message: a public followup of `/hexmeros start` (or a channel message).
    let json = s.json.clone().unwrap_or_default();
    for id in custom_ids(&json) {
        if id.ends_with(":ljoin:0")
            && let Some(m) = s.response["id"].as_str().and_then(|m| m.parse().ok())
        {
            b.lobby_messages.insert(id, m);
        }
    }
    let parts: Vec<&str> = s.path.trim_start_matches('/').split('/').collect();
    match parts.as_slice() {
        ["webhooks", _, token] => {
            if let Some(lobby) = lobby_number(&content(s)) {
                b.lobbies.insert(token.to_string(), lobby);
            }
        }
        ["channels", _, "threads"] => {
            let thread = s.response["id"].as_str().and_then(|t| t.parse().ok());
            let game = s.response["name"]
                .as_str()
                .and_then(|n| n.rsplit('#').next())
                .and_then(|g| g.parse().ok());
            if let (Some(t), Some(g)) = (thread, game) {
                b.threads.insert(t, (s.at, g));
            }
        }
        ["channels", channel, "messages"] => {
            let text = json["content"].as_str().unwrap_or_default();
            if text.contains("you have the Token")
                && let Some(p) = text
                    .strip_prefix("<@")
                    .and_then(|r| r.split('>').next())
                    .and_then(|p| p.parse::<u64>().ok())
                && let Ok(thread) = channel.parse::<u64>()
            {
                b.boards.entry(p).or_default().push((s.at, thread));
            }
        }
        _ => {}
    }
}

/// Start `duels` HexDame and `meros` HexiMeros games for real (the HexiMeros ones spread evenly
/// among the others) at `rate` a second, game `k` in the server of shard `k % servers.len()`
/// (`servers` as `scale::servers` makes them), each followed to its first board; prints the
/// figures. Returns the games that showed their board, as the load bench's driver knows them.
pub async fn start_many(
    fake: Arc<F>,
    servers: &[(u64, u64)],
    (duels, meros): (usize, usize),
    rate: f64,
) -> Vec<crate::scale::Seeded> {
    use hexmeros::games::{AnyGame, GameKind};
    let starter = Starter::new(fake);
    let n = duels + meros;
    let is_meros = |k: usize| (k * meros) / n.max(1) != ((k + 1) * meros) / n.max(1);
    let began = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let mut tasks = Vec::with_capacity(n);
    for k in 0..n {
        tick.tick().await;
        let seats = if is_meros(k) { 6 } else { 2 };
        let players: Vec<u64> = (0..seats)
            .map(|i| crate::bot::u(300_000 + 8 * k as u64 + i))
            .collect();
        let channel = servers[k % servers.len()].1;
        let s = starter.clone();
        let choice = if is_meros(k) { 0 } else { 1 };
        let ps = players.clone();
        let t = tokio::spawn(async move { s.start(channel, &ps, choice).await });
        tasks.push((k, players, t));
        if (k + 1) % 5_000 == 0 {
            println!("  {} starts sent in {:.0?}", k + 1, began.elapsed());
        }
    }
    let mut joined = Vec::with_capacity(n);
    let mut failed = 0;
    for (k, players, t) in tasks {
        match t.await {
            Ok(Ok(at)) => joined.push((k, players, at)),
            _ => failed += 1,
        }
    }
    let last = joined.iter().map(|(_, _, at)| *at).max().unwrap_or(began);
    while !joined.iter().all(|(_, p, _)| starter.has_board(p[0]))
        && last.elapsed() < Duration::from_secs(60)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut games = Vec::with_capacity(joined.len());
    let mut waits = Vec::with_capacity(joined.len());
    let mut twice = 0;
    for (k, players, at) in &joined {
        let Some(s) = starter.started(players[0], *at) else {
            continue;
        };
        twice += usize::from(s.boards > 1);
        waits.push(s.board_at - s.joined);
        let kind = if is_meros(*k) {
            GameKind::HexiMeros
        } else {
            GameKind::HexDame
        };
        games.push(crate::scale::Seeded {
            id: s.game,
            thread: s.thread,
            shard: (*k % servers.len()) as u64,
            players: players.clone(),
            position: AnyGame::new(kind, None, None).unwrap(),
            meros: is_meros(*k),
        });
    }
    waits.sort();
    println!(
        "started {} of {n} games ({duels} HexDame, {meros} HexiMeros) by real starts at {rate}/s \
         in {:.0?}: {failed} lobbies not joined, {} boards missing after 60 s, {twice} twice; \
         last Join -> board {}",
        games.len(),
        began.elapsed(),
        joined.len() - games.len(),
        crate::scale::Quantiles::of(&waits)
    );
    games
}
