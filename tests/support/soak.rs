//! The fault-injection soak of issue 18, shared by `tests/discord/soak.rs` (short, in
//! `cargo test`) and `benches/soak.rs` (the full rates and sizes).
//!
//! The real `hexmeros serve` binary plays against the fake Discord
//! (`tests/support/fake_discord.rs`) while the fake injects random 500s, 429s, "carried out
//! then answered 500", dropped connections, an outage (every REST call 503), gateway drops, and
//! the process is SIGKILLed and restarted. Simulated players read their game from the bot's
//! database (read-only, a fresh `GameHost` each time) and act when it is their turn, with a
//! legal move from the rules engine; a lost or refused action is simply tried again, so the
//! players assume nothing about the order of concurrent events.
//!
//! At the end, from the fake's own records: every committed move has exactly one turn message
//! in its game's thread, in order; no effect (nonce `hx<entry>.<n>`) made two messages; every
//! game's stored state replays and equals the reference replay of its record; the outbox
//! drains. Take it with `use hexmeros_testkit::soak;`.
#![allow(dead_code)]

use crate::host::RulesOf;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::bot::{Bot, custom_ids, lobby_number};
use crate::fake_discord::{Chaos, FakeDiscord as F};
use hexmeros::games::{AnyGame, GameKind, Rules};
use hexmeros::host::{GameHost, GameState, Status, SystemClock};
use hexmeros::store::Store;
use serde_json::{Value, json};

/// Sizes, rates and durations of one soak.
#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    /// Two-player HexDame games.
    pub duels: usize,
    /// HexiMeros games (two people, four level-0 bots).
    pub meros: usize,
    /// How long the players play (faults included).
    pub play: Duration,
    pub chaos: Chaos,
    /// When the outage starts (from the start of play) and how long it lasts.
    pub outage_at: Duration,
    pub outage: Duration,
    /// A gateway drop every this often (none if zero).
    pub gateway_every: Duration,
    /// SIGKILL + restart of the bot, spread over the play.
    pub kills: usize,
    /// How long the outbox may take to drain after play.
    pub drain: Duration,
    /// Cap on moves per game (games may also finish).
    pub max_moves: usize,
    /// A player waits 50 ms plus up to this long before each action.
    pub think: Duration,
    /// Print progress.
    pub verbose: bool,
}

impl Config {
    /// The soak: 200 + 20 games, ~10 % 500s, 5 % 429s, 2 % drops, a 60 s outage, a
    /// gateway drop every 30 s, 5 SIGKILLs. `SOAK_*` variables override (see `from_env`).
    pub fn full() -> Config {
        Config {
            seed: 18,
            duels: 200,
            meros: 20,
            play: Duration::from_secs(360),
            chaos: Chaos {
                seed: 18,
                p500: 0.10,
                p429: 0.05,
                p_after: 0.02,
                p_drop: 0.02,
                retry_after: 1.0,
            },
            outage_at: Duration::from_secs(120),
            outage: Duration::from_secs(60),
            gateway_every: Duration::from_secs(30),
            kills: 5,
            drain: Duration::from_secs(300),
            max_moves: 1000,
            think: Duration::from_secs(4),
            verbose: true,
        }
    }

    /// `base` with `SOAK_SEED`, `SOAK_DUELS`, `SOAK_MEROS`, `SOAK_PLAY_S`, `SOAK_OUTAGE_AT_S`,
    /// `SOAK_OUTAGE_S`, `SOAK_GATEWAY_EVERY_S`, `SOAK_KILLS`, `SOAK_DRAIN_S`, `SOAK_MAX_MOVES`,
    /// `SOAK_THINK_MS`,
    /// `SOAK_P500`, `SOAK_P429`, `SOAK_PAFTER`, `SOAK_PDROP` from the environment.
    pub fn from_env(mut base: Config) -> Config {
        fn var<T: std::str::FromStr>(name: &str) -> Option<T> {
            std::env::var(name).ok().and_then(|v| v.parse().ok())
        }
        let secs = |name: &str, d: &mut Duration| {
            if let Some(s) = var::<f64>(name) {
                *d = Duration::from_secs_f64(s);
            }
        };
        if let Some(v) = var("SOAK_SEED") {
            base.seed = v;
            base.chaos.seed = v;
        }
        base.duels = var("SOAK_DUELS").unwrap_or(base.duels);
        base.meros = var("SOAK_MEROS").unwrap_or(base.meros);
        secs("SOAK_PLAY_S", &mut base.play);
        secs("SOAK_OUTAGE_AT_S", &mut base.outage_at);
        secs("SOAK_OUTAGE_S", &mut base.outage);
        secs("SOAK_GATEWAY_EVERY_S", &mut base.gateway_every);
        secs("SOAK_DRAIN_S", &mut base.drain);
        base.kills = var("SOAK_KILLS").unwrap_or(base.kills);
        base.max_moves = var("SOAK_MAX_MOVES").unwrap_or(base.max_moves);
        if let Some(ms) = var::<u64>("SOAK_THINK_MS") {
            base.think = Duration::from_millis(ms);
        }
        base.chaos.p500 = var("SOAK_P500").unwrap_or(base.chaos.p500);
        base.chaos.p429 = var("SOAK_P429").unwrap_or(base.chaos.p429);
        base.chaos.p_after = var("SOAK_PAFTER").unwrap_or(base.chaos.p_after);
        base.chaos.p_drop = var("SOAK_PDROP").unwrap_or(base.chaos.p_drop);
        base
    }
}

/// The figures of one soak.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub games: usize,
    pub moves: usize,
    pub turn_messages: usize,
    /// Messages the fake made for outbox effects (distinct nonces).
    pub effects_delivered: usize,
    /// Outbox attempts that failed and were tried again (the outbox's own count).
    pub outbox_attempts: i64,
    /// REST calls the fake answered with a failure or dropped (each one retried).
    pub failed_calls: u64,
    /// Retried posts answered with the message already made (enforced nonce).
    pub nonce_answered: u64,
    pub duplicates: usize,
    pub lost: usize,
    /// Entries still in the outbox at the drain deadline (late, not known lost).
    pub undelivered: usize,
    pub dropped_entries: i64,
    pub challenge_questions: usize,
    pub token_pings: usize,
    pub kills: usize,
    pub gateway_drops: usize,
    pub outage_pending: usize,
    /// From the end of the outage to the last effect pending then being made.
    pub outage_recovery: Duration,
    pub drain_time: Duration,
    pub elapsed: Duration,
    pub problems: Vec<String>,
}

const T: Duration = Duration::from_secs(30);

/// The game as stored (a fresh host: nothing cached).
async fn state(store: &Store, game: i64) -> Option<GameState> {
    let host = GameHost::new(store.clone(), Arc::new(SystemClock));
    host.state(game).await.ok()
}

/// Wait until the outbox is empty, no bot is due and no game moved for half a second (an action
/// in flight is stored by then), at most `limit` from `start`; else what is left undelivered.
async fn drain(
    store: &Store,
    games: &[Game],
    start: Instant,
    limit: Duration,
    report: &mut Report,
) -> Result<(), String> {
    let mut versions = Vec::new();
    let mut quiet_since = Instant::now();
    loop {
        let s = store.outbox_stats().await.unwrap();
        let mut now_versions = Vec::new();
        for g in games {
            now_versions.push(store.version(g.id).await.unwrap_or_default());
        }
        if now_versions != versions {
            versions = now_versions;
            quiet_since = Instant::now();
        }
        // A bot plays its next turn once the previous one is delivered, so an empty outbox
        // between two bot turns is not the end.
        if s.pending == 0
            && !bots_due(store, games).await
            && quiet_since.elapsed() >= Duration::from_millis(500)
        {
            return Ok(());
        }
        if start.elapsed() > limit {
            let heads = store.outbox_pending().await.unwrap();
            report.undelivered = s.pending as usize;
            return Err(format!(
                "the outbox still holds {} entries after {:?} (or a bot is due): {:?}",
                s.pending,
                limit,
                heads
                    .iter()
                    .take(5)
                    .map(|e| (e.id, e.lane.as_str(), e.attempts, e.last_error.as_deref()))
                    .collect::<Vec<_>>()
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Whether any game waits on a bot (a move, an answer, a vote).
async fn bots_due(store: &Store, games: &[Game]) -> bool {
    for g in games {
        if state(store, g.id)
            .await
            .is_some_and(|st| st.bot_action().is_some())
        {
            return true;
        }
    }
    false
}

fn text_of(v: &Value) -> String {
    v["content"].as_str().unwrap_or_default().to_string()
}

/// Players may act (no outage, no restart under way).
#[derive(Default)]
struct Flags {
    hold: AtomicBool,
    stop: AtomicBool,
    actions: AtomicU64,
}

/// A started game.
#[derive(Clone, Debug)]
struct Game {
    id: i64,
    kind: GameKind,
    users: Vec<u64>,
}

/// Start a game: `/hexmeros start`, then everyone named joins the lobby. Retried until the game
/// exists (the lobby message may take a while under faults).
pub async fn start_game(fake: &F, store: &Store, users: &[u64], meros: bool) -> i64 {
    let mut opts: Vec<Value> = users
        .iter()
        .enumerate()
        .map(|(i, &p)| json!({"type": 6, "name": format!("p{}", i + 1), "value": p.to_string()}))
        .collect();
    if meros {
        opts.push(json!({"type": 4, "name": "game", "value": 0}));
        opts.push(json!({"type": 4, "name": "bots", "value": 4}));
        opts.push(json!({"type": 4, "name": "level", "value": 0}));
    } else {
        opts.push(json!({"type": 4, "name": "game", "value": 1}));
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    let i = loop {
        if let Some(i) = fake.try_slash(
            users[0],
            F::CHANNEL_ID,
            "hexmeros",
            json!([{"type": 1, "name": "start", "options": opts}]),
        ) {
            break i;
        }
        assert!(Instant::now() < deadline, "no bot to start a game with");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let reply = fake
        .wait_responses(&i, T, 1, |s| {
            s.method == "POST" && s.path.starts_with("/webhooks/") && s.status == 200
        })
        .await
        .unwrap();
    let text = reply[0].json.as_ref().map(text_of).unwrap_or_default();
    let lobby = lobby_number(&text).unwrap_or_else(|| panic!("no lobby in {text:?}"));
    let join = format!("{lobby}:ljoin:0");
    // The lobby message (an outbox effect or a direct post: it may need retries).
    let msg = loop {
        let found = fake.made().into_iter().find(|m| {
            m.channel == F::CHANNEL_ID
                && fake
                    .message(m.id)
                    .is_some_and(|j| custom_ids(&j).contains(&join))
        });
        if let Some(m) = found {
            break m.id;
        }
        assert!(Instant::now() < deadline, "no lobby message for #{lobby}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut game = None;
    for &u in &users[1..] {
        let i = loop {
            if let Some(i) = fake.try_button(u, F::CHANNEL_ID, msg, &join) {
                break i;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let r = fake
            .wait_responses(&i, T, 1, |s| {
                s.method == "POST" && s.path.starts_with("/webhooks/") && s.status == 200
            })
            .await
            .unwrap();
        let text = r[0].json.as_ref().map(text_of).unwrap_or_default();
        game = text
            .split_once(" started")
            .and_then(|(b, _)| b.rsplit('#').next()?.parse::<i64>().ok());
    }
    let game = game.unwrap_or_else(|| panic!("lobby #{lobby} started no game"));
    // Its thread, from the database (the game's channel once the thread is open).
    loop {
        if thread_of(store, game).await.is_some() {
            return game;
        }
        assert!(Instant::now() < deadline, "game #{game} has no thread");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub async fn thread_of(store: &Store, game: i64) -> Option<u64> {
    let row = store.game(game).await.ok()??;
    let ch: u64 = row.channel?.parse().ok()?;
    (ch != F::CHANNEL_ID).then_some(ch)
}

/// What a player does next in `st`, if anything: (user, channel action).
enum Act {
    Move(u64, String),
    Pass(u64),
    LetStand(u64),
}

fn next_act(g: &Game, st: &GameState, rng: &mut u64) -> Option<Act> {
    if !matches!(st.status(), Status::Playing | Status::HouseRules) {
        return None;
    }
    let mine = |p: i64| g.users.contains(&(p as u64));
    if let Some(staged) = st.staged() {
        for seat in staged.waiting() {
            let p = st.seats().get(seat.0 as usize).map(|s| s.player)?;
            if mine(p) {
                return Some(Act::LetStand(p as u64));
            }
        }
        if staged.waiting().is_empty()
            && let Some(p) = st.holder_player().filter(|&p| mine(p))
            && st.holder() == Some(staged.seat)
        {
            return Some(Act::Pass(p as u64));
        }
        return None;
    }
    let p = st.holder_player().filter(|&p| mine(p))? as u64;
    let mv = match st.rules() {
        AnyGame::HexiMeros(h) => {
            let moves = h.moves_respecting(st.declared_upon());
            if moves.is_empty() {
                return None;
            }
            // Mostly moves that open no challenge window, one in three that does when there
            // is one (its question is an effect the soak checks).
            let (quiet, asking): (Vec<_>, Vec<_>) =
                moves.iter().partition(|m| h.challengers(m).is_empty());
            let pick = if !asking.is_empty() && (quiet.is_empty() || next(rng).is_multiple_of(3)) {
                asking[(next(rng) as usize) % asking.len()]
            } else {
                quiet[(next(rng) as usize) % quiet.len()]
            };
            h.move_text(pick)
        }
        other => {
            let moves = other.legal_moves();
            if moves.is_empty() {
                return None;
            }
            moves[(next(rng) as usize) % moves.len()].clone()
        }
    };
    Some(Act::Move(p, mv))
}

fn next(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One game's players until told to stop, the game ends, or `max_moves` moves are recorded.
async fn players(
    fake: F,
    store: Store,
    g: Game,
    flags: Arc<Flags>,
    (max_moves, think): (usize, Duration),
    seed: u64,
) {
    let mut rng = seed;
    let Some(thread) = thread_of(&store, g.id).await else {
        return;
    };
    while !flags.stop.load(Ordering::Relaxed) {
        // Players act at random moments.
        let think_ms = (think.as_millis() as u64).max(1);
        tokio::time::sleep(Duration::from_millis(50 + next(&mut rng) % think_ms)).await;
        if flags.hold.load(Ordering::Relaxed) {
            continue;
        }
        let Some(st) = state(&store, g.id).await else {
            continue;
        };
        if st.status() == Status::Finished || st.record().len() >= max_moves {
            return;
        }
        // A player acts on what the thread shows: once everything the game's thread must show
        // is out (an approximation of "after reading the last board").
        if store
            .outbox_head(&format!("g{}", g.id))
            .await
            .ok()
            .is_none_or(|head| head.is_some())
        {
            continue;
        }
        let thread = thread_of(&store, g.id).await.unwrap_or(thread);
        let Some(act) = next_act(&g, &st, &mut rng) else {
            continue;
        };
        let sent = match &act {
            Act::Move(u, mv) => fake.try_slash(
                *u,
                thread,
                "hexmeros",
                json!([{"type": 1, "name": "move", "options": [
                    {"type": 3, "name": "from", "value": mv},
                    {"type": 5, "name": "pass", "value": true}]}]),
            ),
            Act::Pass(u) => fake.try_slash(
                *u,
                thread,
                "hexmeros",
                json!([{"type": 1, "name": "pass", "options": []}]),
            ),
            Act::LetStand(u) => {
                // The question, once it has been delivered: its "Let it stand" button.
                let ping = format!("<@{u}>");
                let q = fake.made().into_iter().rev().find(|m| {
                    m.channel == thread
                        && m.content.starts_with(&ping)
                        && m.content.contains("declare Check upon them")
                });
                let Some(q) = q else { continue };
                let Some(body) = fake.message(q.id) else {
                    continue;
                };
                let Some(id) = custom_ids(&body)
                    .into_iter()
                    .find(|id| id.contains(":chal") && id.ends_with(":n"))
                else {
                    continue;
                };
                fake.try_button(*u, thread, q.id, &id)
            }
        };
        if sent.is_none() {
            continue;
        }
        flags.actions.fetch_add(1, Ordering::Relaxed);
        // Wait (bounded) for the game to change; a lost or refused action is tried again.
        let v = st.version();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline && !flags.stop.load(Ordering::Relaxed) {
            if state(&store, g.id).await.is_some_and(|s| s.version() != v) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// The move text of a record line (`silver e3-e4` → `e3-e4`).
fn move_of(line: &str) -> Option<String> {
    line.split_once(' ').map(|(_, m)| m.to_string())
}

/// Entry id of a nonce `hx<id>.<n>`.
fn entry_of(nonce: &str) -> Option<i64> {
    nonce.strip_prefix("hx")?.split('.').next()?.parse().ok()
}

/// Run one soak; returns its figures (with `problems` listing every failed check).
pub async fn run(cfg: Config) -> Report {
    let t0 = Instant::now();
    let say = |s: String| {
        if cfg.verbose {
            eprintln!("[soak {:>6.1}s] {s}", t0.elapsed().as_secs_f64());
        }
    };
    let fake = F::start().await;
    fake.set_keep_files(false);
    let mut bot = Bot::start_with(
        &fake,
        Some("warn"),
        &[
            ("HEXMEROS_RATE_STARTS", "OFF"),
            ("HEXMEROS_RATE_BOT_SEATS", "OFF"),
            ("HEXMEROS_RATE_PICTURES", "OFF"),
            ("HEXMEROS_MAX_ACTIVE_GAMES", "100000"),
        ],
    )
    .await;
    let store = Store::open(&bot.db_url()).await.unwrap();
    let flags = Arc::new(Flags::default());
    fake.set_chaos(Some(cfg.chaos));

    // Games, started with the faults on, a few at a time.
    let mut games = Vec::new();
    let mut specs = Vec::new();
    for i in 0..cfg.duels {
        specs.push((
            vec![F::user(100 + 2 * i as u64), F::user(101 + 2 * i as u64)],
            false,
        ));
    }
    for j in 0..cfg.meros {
        specs.push((
            vec![
                F::user(10_000 + 2 * j as u64),
                F::user(10_001 + 2 * j as u64),
            ],
            true,
        ));
    }
    for chunk in specs.chunks(8) {
        let started = futures_util::future::join_all(
            chunk
                .iter()
                .map(|(users, meros)| start_game(&fake, &store, users, *meros)),
        )
        .await;
        for (id, (users, meros)) in started.into_iter().zip(chunk) {
            games.push(Game {
                id,
                kind: if *meros {
                    GameKind::HexiMeros
                } else {
                    GameKind::HexDame
                },
                users: users.clone(),
            });
        }
    }
    say(format!("{} games started", games.len()));

    // Players.
    let play_start = Instant::now();
    let mut tasks = Vec::new();
    for g in &games {
        tasks.push(tokio::spawn(players(
            fake.clone(),
            store.clone(),
            g.clone(),
            flags.clone(),
            (cfg.max_moves, cfg.think),
            cfg.seed ^ (g.id as u64).wrapping_mul(0x1234_5678_9ABC_DEF1),
        )));
    }

    // The schedule of faults: kills spread over the play (not during the outage), gateway drops.
    let kill_at: Vec<Duration> = (0..cfg.kills)
        .map(|k| cfg.play.mul_f64((k as f64 + 0.5) / cfg.kills as f64))
        .collect();
    let mut kills_done = 0;
    // Faults whose time passed during the outage or a restart come one after another, spaced.
    let kill_gap = cfg.play / (2 * cfg.kills.max(1) as u32);
    let mut next_kill_not_before = Duration::ZERO;
    let mut next_gateway = cfg.gateway_every;
    let mut gateway_drops = 0;
    let mut outage_started = false;
    let mut outage_end: Option<Instant> = None;
    let mut outage_pending: HashSet<i64> = HashSet::new();
    while play_start.elapsed() < cfg.play {
        let now = play_start.elapsed();
        let in_outage = outage_started && outage_end.is_none();
        if !outage_started && now >= cfg.outage_at && cfg.outage > Duration::ZERO {
            outage_started = true;
            flags.hold.store(true, Ordering::Relaxed);
            fake.set_outage(true);
            say("outage begins".into());
            tokio::time::sleep(cfg.outage).await;
            fake.set_outage(false);
            outage_pending = store
                .outbox_pending()
                .await
                .unwrap()
                .iter()
                .map(|e| e.id)
                .collect();
            outage_end = Some(Instant::now());
            flags.hold.store(false, Ordering::Relaxed);
            let now = play_start.elapsed();
            next_kill_not_before = now + kill_gap;
            next_gateway = next_gateway.max(now + cfg.gateway_every);
            say(format!(
                "outage ends with {} effects pending",
                outage_pending.len()
            ));
            continue;
        }
        if !in_outage
            && kills_done < kill_at.len()
            && now >= kill_at[kills_done].max(next_kill_not_before)
        {
            flags.hold.store(true, Ordering::Relaxed);
            bot.restart(&fake).await;
            flags.hold.store(false, Ordering::Relaxed);
            kills_done += 1;
            next_kill_not_before = play_start.elapsed() + kill_gap;
            say(format!("SIGKILL + restart {kills_done}"));
            continue;
        }
        if cfg.gateway_every > Duration::ZERO && now >= next_gateway {
            // Resumable closes and a reset without a close frame, in turn.
            match gateway_drops % 3 {
                0 => fake.close_gateway(4000).await,
                1 => fake.reset_gateway().await,
                _ => fake.close_gateway(1001).await,
            }
            gateway_drops += 1;
            next_gateway = (next_gateway + cfg.gateway_every).max(now + cfg.gateway_every / 2);
            let _ = fake.wait_ready(T).await;
            say(format!("gateway drop {gateway_drops}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    flags.stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    fake.set_chaos(None);
    say(format!(
        "play over: {} actions; draining the outbox",
        flags.actions.load(Ordering::Relaxed)
    ));

    // The outbox drains (bounded).
    let drain_start = Instant::now();
    let mut report = Report {
        kills: kills_done,
        gateway_drops,
        outage_pending: outage_pending.len(),
        ..Report::default()
    };
    if let Err(problem) = drain(&store, &games, drain_start, cfg.drain, &mut report).await {
        report.problems.push(problem);
    }
    report.drain_time = drain_start.elapsed();
    // What the bot said last (warnings and errors) is the first clue to a stalled lane.
    let log = bot.log();
    // Nothing more is being sent: the bot may go (its database stays until the end).
    bot.kill();
    // An action still in flight when play stopped may have been stored after the drain: a
    // restarted bot delivers it (as after any crash), and then the check is fair.
    if report.undelivered == 0 && store.outbox_stats().await.unwrap().pending > 0 {
        say("entries came after the drain; restarting the bot to deliver them".to_string());
        bot.restart(&fake).await;
        if let Err(problem) = drain(&store, &games, Instant::now(), cfg.drain, &mut report).await {
            report.problems.push(problem);
        }
        bot.kill();
    }

    check(
        &fake,
        &store,
        &games,
        outage_end,
        &outage_pending,
        &mut report,
    )
    .await;
    let stats = store.outbox_stats().await.unwrap();
    report.outbox_attempts = stats.retries;
    report.dropped_entries = stats.dropped;
    let cs = fake.chaos_stats();
    report.failed_calls = cs.e500 + cs.e429 + cs.after500 + cs.dropped + cs.outage503;
    report.nonce_answered = cs.nonce_answered;
    if report.dropped_entries > 0 {
        report.problems.push(format!(
            "{} outbox entries were dropped, not sent",
            report.dropped_entries
        ));
    }
    report.elapsed = t0.elapsed();
    say(format!("fake: {cs:?}"));
    if !report.problems.is_empty() {
        let tail: Vec<&str> = log.lines().rev().take(60).collect();
        eprintln!("soak: the bot's last log lines:");
        for line in tail.iter().rev() {
            eprintln!("  {line}");
        }
    }
    store.close().await;
    report
}

/// The checks, from the fake's records and the database.
async fn check(
    fake: &F,
    store: &Store,
    games: &[Game],
    outage_end: Option<Instant>,
    outage_pending: &HashSet<i64>,
    report: &mut Report,
) {
    let made = fake.made();
    report.games = games.len();
    // Effects: a nonce made into two messages is a duplicate.
    let mut by_nonce: BTreeMap<String, HashSet<u64>> = BTreeMap::new();
    for m in &made {
        if let Some(n) = m.nonce.as_ref().filter(|n| n.starts_with("hx")) {
            by_nonce.entry(n.clone()).or_default().insert(m.id);
        }
    }
    report.effects_delivered = by_nonce.len();
    for (n, ids) in &by_nonce {
        if ids.len() > 1 {
            report.duplicates += ids.len() - 1;
            report
                .problems
                .push(format!("effect {n} made {} messages: {ids:?}", ids.len()));
        }
    }
    // The longest wait, after the outage, for an effect pending at its end.
    if let Some(end) = outage_end {
        report.outage_recovery = made
            .iter()
            .filter(|m| {
                m.nonce
                    .as_deref()
                    .and_then(entry_of)
                    .is_some_and(|e| outage_pending.contains(&e))
            })
            .map(|m| m.at.saturating_duration_since(end))
            .max()
            .unwrap_or_default();
    }
    // Distinct messages by content kind (a repeated post answered by its nonce counts once).
    let mut seen: HashSet<u64> = HashSet::new();
    let mut by_channel: HashMap<u64, Vec<&crate::fake_discord::Made>> = HashMap::new();
    for m in &made {
        if seen.insert(m.id) {
            by_channel.entry(m.channel).or_default().push(m);
        }
    }
    let threads = fake.threads();
    for g in games {
        // One thread per game: a retried thread creation must not open a second one.
        let named: Vec<u64> = threads
            .iter()
            .filter(|(_, _, name)| name.ends_with(&format!("#{}", g.id)))
            .map(|(id, _, _)| *id)
            .collect();
        if named.len() > 1 {
            report.duplicates += named.len() - 1;
            report.problems.push(format!(
                "game #{}: {} threads opened for it: {named:?}",
                g.id,
                named.len()
            ));
        }
        let Some(st) = state(store, g.id).await else {
            report
                .problems
                .push(format!("game #{} does not replay", g.id));
            continue;
        };
        let Some(thread) = thread_of(store, g.id).await else {
            report
                .problems
                .push(format!("game #{} has no thread", g.id));
            continue;
        };
        let msgs = by_channel.get(&thread).cloned().unwrap_or_default();
        report.challenge_questions += msgs
            .iter()
            .filter(|m| m.content.contains("declare Check upon them"))
            .count();
        report.token_pings += msgs
            .iter()
            .filter(|m| m.content.starts_with("<@") && m.content.contains("Token"))
            .count();
        // Every committed move, one turn message each, in order.
        let moves: Vec<String> = st
            .record()
            .iter()
            .filter(|r| r.seat.is_some())
            .filter_map(|r| move_of(&r.line))
            .collect();
        let turns: Vec<String> = msgs
            .iter()
            .filter_map(|m| {
                // The caption: the first line, or the second after the next player's ping.
                let (_, after) = m
                    .content
                    .lines()
                    .take(2)
                    .find_map(|l| l.split_once(" played "))?;
                Some(after.split_whitespace().next()?.to_string())
            })
            .collect();
        report.moves += moves.len();
        report.turn_messages += turns.len();
        if turns != moves {
            // Missing turn messages are lost only if the outbox drained (else they may be late).
            if report.undelivered == 0 {
                report.lost += moves.len().saturating_sub(turns.len());
            }
            report.duplicates += turns.len().saturating_sub(moves.len());
            report.problems.push(format!(
                "game #{} ({:?}): moves {moves:?} but turn messages {turns:?}",
                g.id, g.kind
            ));
        }
        // The stored state equals the reference replay of its record.
        if let Ok(mut reference) = AnyGame::new(g.kind, None, None) {
            let mut ok = true;
            for mv in &moves {
                if reference.play(mv).is_err() {
                    ok = false;
                    break;
                }
            }
            if ok && reference.show() != st.rules().show() {
                report.problems.push(format!(
                    "game #{}: the stored position is not the replay of its record",
                    g.id
                ));
            }
        }
    }
}

impl Report {
    pub fn print(&self) {
        eprintln!(
            "soak: {} games, {} moves, {} turn messages, {} challenge questions, {} Token pings",
            self.games, self.moves, self.turn_messages, self.challenge_questions, self.token_pings
        );
        eprintln!(
            "soak: effects delivered {}, retries {} (failed calls at the fake, {} answered later from the enforced nonce; outbox attempts {}), duplicates {}, lost {}, dropped entries {}",
            self.effects_delivered,
            self.failed_calls,
            self.nonce_answered,
            self.outbox_attempts,
            self.duplicates,
            self.lost,
            self.dropped_entries
        );
        eprintln!(
            "soak: {} entries still pending at the drain deadline",
            self.undelivered
        );
        eprintln!(
            "soak: {} SIGKILLs, {} gateway drops, {} effects pending at the end of the outage, last of them delivered {:.1} s after it; outbox drained in {:.1} s; {:.1} s in all",
            self.kills,
            self.gateway_drops,
            self.outage_pending,
            self.outage_recovery.as_secs_f64(),
            self.drain_time.as_secs_f64(),
            self.elapsed.as_secs_f64()
        );
        for p in &self.problems {
            let short: String = p.chars().take(600).collect();
            eprintln!("soak problem: {short}");
        }
    }

    /// Panics with every problem found.
    pub fn assert_ok(&self) {
        assert!(
            self.problems.is_empty() && self.duplicates == 0 && self.lost == 0,
            "the soak found problems:\n{}",
            self.problems.join("\n")
        );
        assert!(self.moves > 0, "nobody moved");
    }
}
