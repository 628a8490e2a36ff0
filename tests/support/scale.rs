//! The load benchmark of issue 20 (`benches/scale.rs`): many active games seeded straight into
//! the bot's database, then moves at a steady rate against the real `hexmeros serve` (one
//! process on SQLite, or two processes with shard ranges on PostgreSQL) behind the fake
//! Discord, which enforces Discord's global rate limit.
//!
//! Seeding: a few template games are played through a `GameHost` on a scratch database (HexDame
//! a few dozen plies, HexiMeros 300+ events); their rows (game, seats, events, players) are then
//! written for every seeded game with new ids, distinct players and a Discord thread of its own
//! (`discord_games`), in big transactions, with queries that run on SQLite and PostgreSQL alike.
//! The fake is told the threads (`FakeDiscord::add_threads`) before the bot connects, so they
//! are in its GUILD_CREATEs as Discord's active threads are.
//!
//! Measuring: the fake copies every REST call it records to a tap (`FakeDiscord::tap`); one
//! task follows it and times each move: first callback (interaction sent → its first
//! `/callback` at the fake) and board (→ the thread's message telling `played <move>`). A game
//! takes no new move until its last one is told, so a move's messages are never confused with
//! another's. Take it with `use hexmeros_testkit::scale;`.
#![allow(dead_code)]

use crate::host::RulesOf;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::bot::{Bot, START_MS, bool_opt, str_opt, sub};
use crate::fake_discord::{FakeDiscord as F, Sent};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::host::{Actor, Command, GameHost, ManualClock, Status};
use hexmeros::store::Store;
use serde_json::json;
use sqlx::Row;

/// Which processes serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setup {
    /// One `hexmeros serve` on SQLite.
    Sqlite1,
    /// Two processes (`--shards 0-1` and `2-3` of 4) on one PostgreSQL database.
    Pg2,
}

/// Sizes and rates of one benchmark run.
#[derive(Clone, Debug)]
pub struct Config {
    pub setup: Setup,
    /// Two-player HexDame games seeded.
    pub duels: usize,
    /// HexiMeros games seeded (logs of 300+ events).
    pub meros: usize,
    /// Moves sent a second.
    pub rate: f64,
    /// How long moves are sent.
    pub secs: f64,
    /// Step the rate up (rate·f, rate·f², … for `ramp_factor` f) in windows of `ramp_secs` until
    /// board p99 is
    /// 1 s or more, and report the highest rate held.
    pub ramp: bool,
    pub ramp_secs: f64,
    /// Each ramp step's rate over the last one's.
    pub ramp_factor: f64,
    /// Discord's global limit the fake enforces, calls a second.
    pub global_limit: u32,
    /// Template games of each kind the seeded ones copy.
    pub templates: usize,
    pub seed: u64,
    /// Start the games for real through the lobby at this many a second, instead of seeding
    /// them (`SCALE_STARTS`): each a new game at its start position.
    pub starts: Option<f64>,
}

impl Config {
    /// The targets: 45,000 HexDame + 5,000 HexiMeros games, 20 moves a second for five
    /// minutes, one process on SQLite.
    pub fn full() -> Config {
        Config {
            setup: Setup::Sqlite1,
            duels: 45_000,
            meros: 5_000,
            rate: 20.0,
            secs: 300.0,
            ramp: false,
            ramp_secs: 30.0,
            ramp_factor: 1.25,
            global_limit: 50,
            templates: 4,
            seed: 20,
            starts: None,
        }
    }

    /// `base` with `SCALE_SETUP` (`sqlite1` or `pg2`), `SCALE_DUELS`, `SCALE_MEROS`,
    /// `SCALE_RATE`, `SCALE_SECS`, `SCALE_RAMP` (`1`), `SCALE_RAMP_SECS`, `SCALE_GLOBAL_LIMIT`,
    /// `SCALE_TEMPLATES`, `SCALE_SEED`, `SCALE_STARTS` from the environment. A value that does not parse stops
    /// the run with a one-line message.
    pub fn from_env(mut base: Config) -> Config {
        fn var<T: std::str::FromStr>(name: &str) -> Option<T> {
            let v = std::env::var(name).ok()?;
            match v.parse() {
                Ok(x) => Some(x),
                Err(_) => panic!("{name}={v:?} is not a valid value"),
            }
        }
        if let Ok(s) = std::env::var("SCALE_SETUP") {
            base.setup = match s.as_str() {
                "sqlite1" => Setup::Sqlite1,
                "pg2" => Setup::Pg2,
                _ => panic!("SCALE_SETUP={s:?}: expected sqlite1 or pg2"),
            };
        }
        base.duels = var("SCALE_DUELS").unwrap_or(base.duels);
        base.meros = var("SCALE_MEROS").unwrap_or(base.meros);
        base.rate = var("SCALE_RATE").unwrap_or(base.rate);
        base.secs = var("SCALE_SECS").unwrap_or(base.secs);
        base.ramp = var::<u8>("SCALE_RAMP").is_some_and(|v| v != 0);
        base.ramp_secs = var("SCALE_RAMP_SECS").unwrap_or(base.ramp_secs);
        base.ramp_factor = var("SCALE_RAMP_FACTOR")
            .filter(|&f: &f64| f > 1.0)
            .unwrap_or(base.ramp_factor);
        base.global_limit = var("SCALE_GLOBAL_LIMIT").unwrap_or(base.global_limit);
        base.templates = var::<usize>("SCALE_TEMPLATES")
            .unwrap_or(base.templates)
            .max(1);
        base.seed = var("SCALE_SEED").unwrap_or(base.seed);
        base.starts = var::<f64>("SCALE_STARTS").or(base.starts);
        assert!(
            base.starts.is_none_or(|r| r > 0.0),
            "SCALE_STARTS must be above 0"
        );
        assert!(base.rate > 0.0, "SCALE_RATE must be above 0");
        assert!(base.duels + base.meros > 0, "seed at least one game");
        base
    }
}

/// splitmix64: reproducible choices without another crate.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

// ----- templates -----

/// The template games' players: `TEMPLATE_PLAYER + seat`.
const TEMPLATE_PLAYER: i64 = 1_300_000_000_000_000_000;
/// Seeded game `n`'s players: `SEEDED_PLAYER + 8n + seat`.
const SEEDED_PLAYER: i64 = 1_400_000_000_000_000_000;

/// The rows of one template game, as stored.
#[derive(Clone, Debug)]
pub struct Template {
    pub kind: GameKind,
    kind_key: String,
    status: i64,
    version: i64,
    setup: String,
    house_rules: String,
    to_move: Option<i64>,
    next_due: Option<i64>,
    created_at: i64,
    updated_at: i64,
    seats: Vec<(i64, i64, i64, Option<i64>)>,
    events: Vec<(i64, String, Option<i64>, String, i64)>,
    /// The position after the last event (the driver's starting mirror).
    pub position: AnyGame,
    pub players: usize,
}

impl Template {
    pub fn events(&self) -> usize {
        self.events.len()
    }
}

/// Plays one template game of `kind` on `host` until it has at least `min_events` events (and
/// `min_plies` plies) and is still under way; `None` if it ended or a command was refused first.
async fn play_template(
    host: &GameHost,
    kind: GameKind,
    min_plies: usize,
    min_events: u64,
    rng: &mut Rng,
) -> Option<i64> {
    let n = if kind == GameKind::HexiMeros { 6 } else { 2 };
    let players: Vec<i64> = (0..n).map(|s| TEMPLATE_PLAYER + s).collect();
    let (id, _) = host.create(kind, &players, None, None).await.ok()?;
    let mut plies = 0;
    loop {
        let st = host.state(id).await.ok()?;
        if !matches!(st.status(), Status::HouseRules | Status::Playing) {
            return None;
        }
        if plies >= min_plies && st.version() >= min_events && st.staged().is_none() {
            return Some(id);
        }
        if let Some(staged) = st.staged() {
            // A challenge window: everyone asked lets the move stand, then the holder passes.
            let waiting = staged.waiting();
            for s in &waiting {
                let p = st.seats()[s.index()].player;
                host.handle(
                    id,
                    Actor::player(p),
                    Command::Challenge { declare: false },
                    None,
                )
                .await
                .ok()?;
            }
            if waiting.is_empty() {
                let seat = st.rules().to_move()?;
                host.handle(
                    id,
                    Actor::player(players[seat.index()]),
                    Command::Pass,
                    None,
                )
                .await
                .ok()?;
            }
            continue;
        }
        let seat = st.rules().to_move()?;
        let moves = st.rules().legal_moves();
        if moves.is_empty() {
            return None;
        }
        let text = moves[rng.below(moves.len())].clone();
        host.handle(
            id,
            Actor::player(players[seat.index()]),
            Command::Move { text, commit: true },
            None,
        )
        .await
        .ok()?;
        plies += 1;
    }
}

/// Reads a template game's rows back from the scratch store.
async fn read_template(store: &Store, host: &GameHost, id: i64) -> anyhow::Result<Template> {
    let pool = store.writer();
    let g = sqlx::query(
        "SELECT kind, status, version, setup, house_rules, to_move, next_due, created_at, \
         updated_at FROM games WHERE id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    let seats = sqlx::query(
        "SELECT seat, player_id, from_version, until_version FROM seats WHERE game_id = $1 \
         ORDER BY seat, from_version",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| -> anyhow::Result<_> {
        Ok((
            r.try_get::<i64, _>(0)?,
            r.try_get::<i64, _>(1)?,
            r.try_get::<i64, _>(2)?,
            r.try_get::<Option<i64>, _>(3)?,
        ))
    })
    .collect::<anyhow::Result<Vec<_>>>()?;
    let events = sqlx::query(
        "SELECT version, kind, actor, body, at FROM events WHERE game_id = $1 ORDER BY version",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| -> anyhow::Result<_> {
        Ok((
            r.try_get::<i64, _>(0)?,
            r.try_get::<String, _>(1)?,
            r.try_get::<Option<i64>, _>(2)?,
            r.try_get::<String, _>(3)?,
            r.try_get::<i64, _>(4)?,
        ))
    })
    .collect::<anyhow::Result<Vec<_>>>()?;
    let st = host.state(id).await?;
    let kind = st.kind();
    Ok(Template {
        kind,
        kind_key: g.try_get(0)?,
        status: g.try_get(1)?,
        version: g.try_get(2)?,
        setup: g.try_get(3)?,
        house_rules: g.try_get(4)?,
        to_move: g.try_get(5)?,
        next_due: g.try_get(6)?,
        created_at: g.try_get(7)?,
        updated_at: g.try_get(8)?,
        seats,
        events,
        position: st.rules().clone(),
        players: st.seats().len(),
    })
}

/// `count` templates of each kind, played on a scratch SQLite database whose clock stands just
/// before the bot's (`bot::START_MS`), so no seeded game's timer is due while the bot runs.
pub async fn templates(count: usize, seed: u64) -> anyhow::Result<(Vec<Template>, Vec<Template>)> {
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite://{}", dir.path().join("templates.db").display());
    let store = Store::open(&url).await?;
    let clock = Arc::new(ManualClock::new(START_MS - 600_000));
    let host = GameHost::new(store.clone(), clock);
    for s in 0..6 {
        store
            .ensure_player(TEMPLATE_PLAYER + s, &format!("t{s}"), START_MS - 600_000)
            .await?;
    }
    let mut rng = Rng::new(seed);
    let mut duels = vec![];
    let mut meros = vec![];
    for (kind, plies, events, out) in [
        (GameKind::HexDame, 30, 30, &mut duels),
        (GameKind::HexiMeros, 0, 300, &mut meros),
    ] {
        let mut tries = 0;
        while out.len() < count {
            tries += 1;
            anyhow::ensure!(
                tries <= count * 20,
                "no {kind:?} template stayed under way long enough"
            );
            let min_plies = plies + rng.below(plies.max(1) + 1);
            if let Some(id) = play_template(&host, kind, min_plies, events, &mut rng).await {
                out.push(read_template(&store, &host, id).await?);
            }
        }
    }
    store.close().await;
    Ok((duels, meros))
}

// ----- seeding -----

/// One seeded game as the driver knows it.
#[derive(Clone, Debug)]
pub struct Seeded {
    pub id: i64,
    pub thread: u64,
    /// Its server's shard among 4.
    pub shard: u64,
    pub players: Vec<u64>,
    pub position: AnyGame,
    pub meros: bool,
}

/// `(guild, text channel)` of one server on each of 4 shards, shard `k` at index `k` (the
/// fake's own guild is one of them). Call before any bot connects.
pub fn servers(fake: &F) -> Vec<(u64, u64)> {
    (0..4)
        .map(|shard| {
            if F::shard_of(F::GUILD_ID, 4) == shard {
                (F::GUILD_ID, F::CHANNEL_ID)
            } else {
                let g = F::guild_on_shard(shard, 4, 0);
                (g, fake.add_guild(g))
            }
        })
        .collect()
}

/// Makes the threads of `n` games at the fake, game `i` in the server of shard `i % 4`, each
/// with its status panel (a message of the thread's id): the threads in order.
pub fn make_threads(fake: &F, servers: &[(u64, u64)], n: usize) -> Vec<u64> {
    let per: Vec<Vec<u64>> = (0..servers.len())
        .map(|k| {
            let count = n / servers.len() + usize::from(k < n % servers.len());
            fake.add_threads(servers[k].0, servers[k].1, count)
        })
        .collect();
    let threads: Vec<u64> = (0..n)
        .map(|i| per[i % servers.len()][i / servers.len()])
        .collect();
    // Each game's status panel, as a game in play has one (`seed` links it).
    fake.add_panels(&threads);
    threads
}

/// `($1, …), (…)`: `rows` rows of `cols` placeholders.
fn values(rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| {
            let ps: Vec<String> = (1..=cols).map(|c| format!("${}", r * cols + c)).collect();
            format!("({})", ps.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The template's player ids in `text` replaced by game `n`'s.
fn rename(text: &str, n: usize, players: usize) -> String {
    let mut out = text.to_string();
    for s in 0..players as i64 {
        out = out.replace(
            &(TEMPLATE_PLAYER + s).to_string(),
            &(SEEDED_PLAYER + 8 * n as i64 + s).to_string(),
        );
    }
    out
}

fn player_of(id: i64, n: usize) -> i64 {
    if (TEMPLATE_PLAYER..TEMPLATE_PLAYER + 8).contains(&id) {
        id - TEMPLATE_PLAYER + SEEDED_PLAYER + 8 * n as i64
    } else {
        id
    }
}

/// Writes `duels` HexDame and `meros` HexiMeros games (copies of the templates, round robin)
/// into the database at `url`, game `n` in thread `threads[n]` of the server of shard `n % 4`:
/// the games, in order (HexDame first).
pub async fn seed(
    url: &str,
    servers: &[(u64, u64)],
    threads: &[u64],
    duels: &[Template],
    meros: &[Template],
    counts: (usize, usize),
) -> anyhow::Result<Vec<Seeded>> {
    let store = Store::open(url).await?;
    let pool = store.writer().clone();
    let total = counts.0 + counts.1;
    anyhow::ensure!(threads.len() >= total, "one thread per game");
    let template = |n: usize| -> &Template {
        if n < counts.0 {
            &duels[n % duels.len()]
        } else {
            &meros[(n - counts.0) % meros.len()]
        }
    };
    let mut out = Vec::with_capacity(total);
    const BATCH: usize = 500;
    let mut n = 0;
    while n < total {
        let end = (n + BATCH).min(total);
        let mut tx = pool.begin().await?;
        // Players, many to a statement.
        let mut players: Vec<(i64, String)> = vec![];
        for k in n..end {
            for s in 0..template(k).players {
                let id = SEEDED_PLAYER + 8 * k as i64 + s as i64;
                players.push((id, format!("s{k}.{s}")));
            }
        }
        for chunk in players.chunks(300) {
            let sql = format!(
                "INSERT INTO players (id, name, created_at) VALUES {}",
                values(chunk.len(), 3)
            );
            let mut q = sqlx::query(&sql);
            for (id, name) in chunk {
                q = q.bind(*id).bind(name.clone()).bind(START_MS - 600_000);
            }
            q.execute(&mut *tx).await?;
        }
        let mut seats: Vec<(i64, i64, i64, i64, Option<i64>)> = vec![];
        let mut events: Vec<(i64, i64, String, Option<i64>, String, i64)> = vec![];
        let mut links: Vec<(i64, i64, i64, i64)> = vec![];
        for k in n..end {
            let t = template(k);
            let thread = threads[k];
            let shard = (k % servers.len()) as u64;
            let (guild, parent) = servers[k % servers.len()];
            let row = sqlx::query(
                "INSERT INTO games (kind, status, version, setup, house_rules, channel, \
                 to_move, next_due, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
            )
            .bind(t.kind_key.clone())
            .bind(t.status)
            .bind(t.version)
            .bind(rename(&t.setup, k, t.players))
            .bind(t.house_rules.clone())
            .bind(thread.to_string())
            .bind(t.to_move.map(|p| player_of(p, k)))
            .bind(t.next_due)
            .bind(t.created_at)
            .bind(t.updated_at)
            .fetch_one(&mut *tx)
            .await?;
            let id: i64 = row.try_get(0)?;
            for (seat, player, from, until) in &t.seats {
                seats.push((id, *seat, player_of(*player, k), *from, *until));
            }
            for (version, kind, actor, body, at) in &t.events {
                events.push((
                    id,
                    *version,
                    kind.clone(),
                    actor.map(|a| player_of(a, k)),
                    rename(body, k, t.players),
                    *at,
                ));
            }
            links.push((id, guild as i64, parent as i64, thread as i64));
            out.push(Seeded {
                id,
                thread,
                shard,
                players: (0..t.players)
                    .map(|s| (SEEDED_PLAYER + 8 * k as i64 + s as i64) as u64)
                    .collect(),
                position: t.position.clone(),
                meros: t.kind == GameKind::HexiMeros,
            });
        }
        for chunk in seats.chunks(200) {
            let sql = format!(
                "INSERT INTO seats (game_id, seat, player_id, from_version, until_version) \
                 VALUES {}",
                values(chunk.len(), 5)
            );
            let mut q = sqlx::query(&sql);
            for (g, seat, p, from, until) in chunk {
                q = q.bind(*g).bind(*seat).bind(*p).bind(*from).bind(*until);
            }
            q.execute(&mut *tx).await?;
        }
        for chunk in events.chunks(200) {
            let sql = format!(
                "INSERT INTO events (game_id, version, kind, actor, body, at) VALUES {}",
                values(chunk.len(), 6)
            );
            let mut q = sqlx::query(&sql);
            for (g, v, kind, actor, body, at) in chunk {
                q = q
                    .bind(*g)
                    .bind(*v)
                    .bind(kind.clone())
                    .bind(*actor)
                    .bind(body.clone())
                    .bind(*at);
            }
            q.execute(&mut *tx).await?;
        }
        for chunk in links.chunks(200) {
            let sql = format!(
                "INSERT INTO discord_games (game_id, guild_id, parent_id, thread_id, \
                 panel_message, panel_text) VALUES {}",
                values(chunk.len(), 6)
            );
            let mut q = sqlx::query(&sql);
            // The panel is the message of the thread's id (`make_threads`); its text is not
            // the game's yet, so the first move edits it, as every later move does.
            for (g, guild, parent, thread) in chunk {
                q = q
                    .bind(*g)
                    .bind(*guild)
                    .bind(*parent)
                    .bind(*thread)
                    .bind(*thread)
                    .bind("");
            }
            q.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        n = end;
    }
    store.close().await;
    Ok(out)
}

// ----- driving and measuring -----

/// One move sent.
#[derive(Clone, Debug)]
struct MoveRec {
    game: usize,
    mv: String,
    sent: Instant,
    first_callback: Option<Instant>,
    board: Option<Instant>,
    refused: bool,
}

#[derive(Default)]
struct Book {
    moves: Vec<MoveRec>,
    by_interaction: HashMap<u64, usize>,
    by_token: HashMap<String, usize>,
    /// The move waiting for its board, by thread.
    by_thread: HashMap<u64, usize>,
    /// Games that may take a move now.
    idle: Vec<usize>,
    games: Vec<Seeded>,
    requests: u64,
    global429: u64,
    /// Calls by method and path shape (ids as `#`).
    by_route: HashMap<String, u64>,
}

/// `POST /channels/#/messages`: a call's route with its ids and tokens as `#`.
pub fn route_of(s: &Sent) -> String {
    let segs: Vec<&str> = s
        .path
        .trim_start_matches('/')
        .split('/')
        .map(|p| {
            if p.chars().any(|c| c.is_ascii_digit()) {
                "#"
            } else {
                p
            }
        })
        .collect();
    format!("{} /{}", s.method, segs.join("/"))
}

/// The shared books of a run.
#[derive(Clone)]
pub struct Driver {
    book: Arc<Mutex<Book>>,
    changed: Arc<tokio::sync::Notify>,
}

fn path_ids(s: &Sent) -> Vec<&str> {
    s.path.trim_start_matches('/').split('/').collect()
}

impl Driver {
    /// Follows the fake's tap from now on.
    pub fn new(fake: &F, games: Vec<Seeded>) -> Driver {
        let book = Book {
            idle: (0..games.len()).collect(),
            games,
            ..Book::default()
        };
        let d = Driver {
            book: Arc::new(Mutex::new(book)),
            changed: Arc::new(tokio::sync::Notify::new()),
        };
        let mut rx = fake.tap();
        let follow = d.clone();
        tokio::spawn(async move {
            while let Some(s) = rx.recv().await {
                follow.see(&s);
            }
        });
        d
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn see(&self, s: &Sent) {
        let mut b = self.book();
        b.requests += 1;
        *b.by_route.entry(route_of(s)).or_insert(0) += 1;
        if s.status == 429 && s.response["global"] == true {
            b.global429 += 1;
        }
        let p = path_ids(s);
        match (s.method.as_str(), p.as_slice()) {
            (_, ["interactions", id, _, "callback"]) => {
                if let Some(&m) = id
                    .parse()
                    .ok()
                    .and_then(|id: u64| b.by_interaction.get(&id))
                {
                    let rec = &mut b.moves[m];
                    rec.first_callback.get_or_insert(s.at);
                }
            }
            ("POST", ["webhooks", _, token, ..]) => {
                let refused = s
                    .json
                    .as_ref()
                    .and_then(|j| j["content"].as_str())
                    .is_some_and(|c| c.starts_with("⚠️"));
                if let Some(&m) = b.by_token.get(*token)
                    && refused
                    && !b.moves[m].refused
                    && b.moves[m].board.is_none()
                {
                    // Refused (the position went elsewhere than the mirror): the game is
                    // dropped from the pool.
                    b.moves[m].refused = true;
                    let thread = b.games[b.moves[m].game].thread;
                    b.by_thread.remove(&thread);
                }
            }
            ("POST", ["channels", thread, "messages"]) if s.status == 200 => {
                let Ok(thread) = thread.parse::<u64>() else {
                    return;
                };
                let Some(&m) = b.by_thread.get(&thread) else {
                    return;
                };
                let told = format!("played {}", b.moves[m].mv);
                let content = s
                    .json
                    .as_ref()
                    .and_then(|j| j["content"].as_str())
                    .unwrap_or_default();
                if s.at >= b.moves[m].sent && content.contains(&told) {
                    b.moves[m].board = Some(s.at);
                    b.by_thread.remove(&thread);
                    let g = b.moves[m].game;
                    let mv = b.moves[m].mv.clone();
                    if b.games[g].position.play(&mv).is_ok() {
                        b.idle.push(g);
                    }
                }
            }
            _ => {}
        }
        drop(b);
        self.changed.notify_waiters();
    }

    /// Sends one move in a random idle game among those `pick` accepts: whether one was sent
    /// (no idle game, or no connection for its shard: not sent).
    pub fn send(&self, fake: &F, rng: &mut Rng, pick: impl Fn(&Seeded) -> bool) -> Option<usize> {
        let mut b = self.book();
        let candidates = b.idle.len();
        if candidates == 0 {
            return None;
        }
        // A few random tries among the idle games for one `pick` accepts.
        let mut slot = None;
        for _ in 0..32 {
            let i = rng.below(b.idle.len());
            if pick(&b.games[b.idle[i]]) {
                slot = Some(i);
                break;
            }
        }
        let i = slot?;
        let g = b.idle.swap_remove(i);
        let game = &b.games[g];
        // A game with no one to move (it ended) leaves the pool.
        let seat = game.position.to_move()?;
        // Moves no one may challenge (a HexiMeros move that leaves the mover's Sovereign
        // attacked is only staged while a challenge window is open: not a committed move).
        let moves: Vec<String> = game
            .position
            .legal_moves()
            .into_iter()
            .filter(|m| game.position.challengers(m).is_ok_and(|c| c.is_empty()))
            .collect();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.below(moves.len())].clone();
        let player = game.players[seat.index()];
        let thread = game.thread;
        let opts = json!([str_opt("from", &mv), bool_opt("pass", true)]);
        // The fake's lock is taken inside; ours is held so that the tap's calls wait for the
        // books to know the move.
        let Some(ix) = fake.try_slash(player, thread, "hexmeros", sub("move", opts)) else {
            b.idle.push(g);
            return None;
        };
        let m = b.moves.len();
        b.moves.push(MoveRec {
            game: g,
            mv,
            sent: ix.sent_at,
            first_callback: None,
            board: None,
            refused: false,
        });
        b.by_interaction.insert(ix.id, m);
        b.by_token.insert(ix.token.clone(), m);
        b.by_thread.insert(thread, m);
        Some(m)
    }

    /// The moves sent that were neither told nor refused: (game id, HexiMeros?, move, thread).
    pub fn untold(&self) -> Vec<(i64, bool, String, u64)> {
        let b = self.book();
        b.moves
            .iter()
            .filter(|m| m.board.is_none() && !m.refused)
            .map(|m| {
                let g = &b.games[m.game];
                (g.id, g.meros, m.mv.clone(), g.thread)
            })
            .collect()
    }

    /// REST calls so far by route, most first.
    pub fn routes(&self) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = self
            .book()
            .by_route
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    /// Waits until move `m` has its first callback (or `timeout` passes): when.
    pub async fn wait_callback(&self, m: usize, timeout: Duration) -> Option<Instant> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.changed.notified();
            if let Some(t) = self.book().moves[m].first_callback {
                return Some(t);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return None;
            }
        }
    }

    /// Waits until every move sent has its board or was refused, or `timeout` passes.
    pub async fn settle(&self, timeout: Duration) {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.changed.notified();
            if self.book().by_thread.is_empty() {
                return;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return;
            }
        }
    }

    /// The counters now: (requests, global 429s, moves sent).
    pub fn counters(&self) -> (u64, u64, usize) {
        let b = self.book();
        (b.requests, b.global429, b.moves.len())
    }

    /// Figures of the moves `from..` and the calls since `counters` were `before`.
    pub fn window(&self, from: usize, before: (u64, u64, usize), secs: f64) -> Window {
        let b = self.book();
        let moves = &b.moves[from.min(b.moves.len())..];
        let mut cb: Vec<Duration> = moves
            .iter()
            .filter_map(|m| {
                m.first_callback
                    .map(|t| t.saturating_duration_since(m.sent))
            })
            .collect();
        let mut board: Vec<Duration> = moves
            .iter()
            .filter_map(|m| m.board.map(|t| t.saturating_duration_since(m.sent)))
            .collect();
        cb.sort_unstable();
        board.sort_unstable();
        let committed = board.len();
        Window {
            secs,
            sent: moves.len(),
            committed,
            refused: moves.iter().filter(|m| m.refused).count(),
            unanswered: moves.iter().filter(|m| m.first_callback.is_none()).count(),
            callback: Quantiles::of(&cb),
            board: Quantiles::of(&board),
            requests: b.requests - before.0,
            global429: b.global429 - before.1,
        }
    }
}

/// p50, p99 and max of some latencies.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quantiles {
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl Quantiles {
    pub fn of(sorted: &[Duration]) -> Quantiles {
        if sorted.is_empty() {
            return Quantiles::default();
        }
        let at =
            |q: f64| sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1];
        Quantiles {
            p50: at(0.50),
            p99: at(0.99),
            max: sorted[sorted.len() - 1],
        }
    }
}

impl std::fmt::Display for Quantiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            self.p50.as_secs_f64() * 1e3,
            self.p99.as_secs_f64() * 1e3,
            self.max.as_secs_f64() * 1e3
        )
    }
}

/// The figures of one window of steady moves.
#[derive(Clone, Debug, Default)]
pub struct Window {
    pub secs: f64,
    pub sent: usize,
    /// Moves told in their thread (`played <move>`).
    pub committed: usize,
    pub refused: usize,
    pub unanswered: usize,
    pub callback: Quantiles,
    pub board: Quantiles,
    pub requests: u64,
    pub global429: u64,
}

impl Window {
    pub fn global_per_move(&self) -> f64 {
        self.global429 as f64 / self.committed.max(1) as f64
    }

    pub fn print(&self, label: &str) {
        println!(
            "{label}: moves sent {}, committed {} ({} refused, {} without callback) in {:.0} s\n  \
             first callback {}\n  board posted   {}\n  REST calls {} ({:.1}/s), global 429s {} \
             ({:.2} per committed move)",
            self.sent,
            self.committed,
            self.refused,
            self.unanswered,
            self.secs,
            self.callback,
            self.board,
            self.requests,
            self.requests as f64 / self.secs.max(1e-9),
            self.global429,
            self.global_per_move(),
        );
    }
}

/// User time plus system time of a process so far (`/proc/<pid>/stat`, in clock ticks of 10 ms).
pub fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or_default();
    let fields: Vec<u64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // utime and stime are the 14th and 15th fields; the 3rd is the first after the name.
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

/// VmRSS of a process in KiB (`/proc/<pid>/status`).
pub fn rss_kib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Peak VmRSS of processes, sampled every 200 ms while it lives.
#[derive(Clone, Default)]
pub struct Peaks(Arc<Mutex<HashMap<String, u64>>>);

impl Peaks {
    /// Samples the process `name` (its pid read through `pid` each time, so a restarted
    /// process is followed) until `stop`.
    pub fn sample(
        &self,
        name: &str,
        pid: Arc<Mutex<Option<u32>>>,
        stop: Arc<std::sync::atomic::AtomicBool>,
    ) {
        let peaks = self.0.clone();
        let name = name.to_string();
        tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let p = *pid.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(kib) = p.and_then(rss_kib) {
                    let mut m = peaks.lock().unwrap_or_else(|e| e.into_inner());
                    let e = m.entry(name.clone()).or_insert(0);
                    *e = (*e).max(kib);
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
    }

    pub fn peaks(&self) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        v.sort();
        v
    }
}

/// Sends moves at `rate` a second for `secs` over games `pick` accepts (moves whose game has
/// no idle slot or no connection are skipped and counted), then waits up to 30 s for the
/// stragglers: the window's figures.
pub async fn run_window(
    fake: &F,
    driver: &Driver,
    rng: &mut Rng,
    rate: f64,
    secs: f64,
    pick: &(dyn Fn(&Seeded) -> bool + Sync),
) -> (Window, usize) {
    let before = driver.counters();
    let start = tokio::time::Instant::now();
    let every = Duration::from_secs_f64(1.0 / rate);
    let total = (rate * secs).round() as u64;
    let mut skipped = 0;
    for k in 0..total {
        tokio::time::sleep_until(start + every * k as u32).await;
        if driver.send(fake, rng, pick).is_none() {
            skipped += 1;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    driver.settle(Duration::from_secs(30)).await;
    (driver.window(before.2, before, elapsed), skipped)
}

/// Kills `bot`, starts it again and times from the new process's start to the first callback
/// of a move in one of its games (`pick`): the restart to first answer.
pub async fn restart_to_first_answer(
    fake: &F,
    bot: &mut Bot,
    driver: &Driver,
    rng: &mut Rng,
    pick: &(dyn Fn(&Seeded) -> bool + Sync),
) -> Option<Duration> {
    driver.settle(Duration::from_secs(30)).await;
    let started = bot.respawn(fake).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let m = loop {
        if let Some(m) = driver.send(fake, rng, pick) {
            break m;
        }
        if Instant::now() > deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
    let sent = Instant::now();
    let t = driver.wait_callback(m, Duration::from_secs(30)).await?;
    println!(
        "restart: the move sent {:.0} ms after the start (a gateway connection up), its first \
         callback {:.0} ms later",
        sent.saturating_duration_since(started).as_secs_f64() * 1e3,
        t.saturating_duration_since(sent).as_secs_f64() * 1e3
    );
    Some(t.saturating_duration_since(started))
}
