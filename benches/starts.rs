#![allow(clippy::unwrap_used)]
//! Starts at a steady rate (issue 48): `cargo bench --profile test --bench starts`. Against the
//! real `hexmeros serve` behind the fake Discord (no network delay, Discord's global limit not
//! enforced, as the issue measured), a new two-player HexDame lobby is opened every
//! 1/`STARTS_RATE` s for `STARTS_SECS` s (20 a second for 60 s by default): `/hexmeros start
//! @a @b game:HexDame`, then, once the lobby message is up, `b`'s Join, the last. Each start is
//! followed to its first board in its thread (the turn message pinging `a`). Prints the last
//! Join → board latency (p50/p99/max), the starts whose board never came (within
//! `STARTS_GRACE` s after the last Join, 30 by default) or came twice, where a start's time goes
//! (Join → the thread asked for → the board), the bot's CPU per start and its requests per start
//! that count on Discord's global limit. On PostgreSQL when `HEXMEROS_TEST_POSTGRES` is set (the
//! testkit's database), else on SQLite. `STARTS_SETUP=pg2` runs two processes on PostgreSQL
//! (shards 0-1 and 2-3 of 4, each at half the global limit's pace, `HEXMEROS_RATE_DISCORD=22/1s`
//! unless set), the starts spread over a server of each shard.

use hexmeros_testkit::{bot, fake_discord, scale};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bot::{Bot, content, lobby_number, sub, u, user_opt};
use fake_discord::{FakeDiscord as F, Sent};
use scale::Quantiles;
use serde_json::json;

/// What the fake's tap showed of the starts.
#[derive(Default)]
struct Book {
    /// The lobby message of each lobby (by its Join's custom id).
    lobby_messages: HashMap<String, u64>,
    /// When each thread was asked for (by the thread's id, from Discord's answer).
    threads: HashMap<u64, Instant>,
    /// The first boards (turn messages that give the Token) by the player they ping: when, in
    /// which thread.
    boards: HashMap<u64, Vec<(Instant, u64)>>,
    /// Requests that count on Discord's global limit (not interaction answers).
    global: u64,
    /// Every request by route (ids left out).
    routes: HashMap<String, u64>,
}

fn see(book: &Mutex<Book>, s: &Sent) {
    let mut b = book.lock().unwrap();
    if !s.path.starts_with("/interactions/") && !s.path.starts_with("/webhooks/") {
        b.global += 1;
    }
    *b.routes.entry(scale::route_of(s)).or_insert(0) += 1;
    if !(200..300).contains(&s.status) || s.method != "POST" {
        return;
    }
    // The lobby message: a public followup of `/hexmeros start` (or a channel message).
    let json = s.json.clone().unwrap_or_default();
    for id in bot::custom_ids(&json) {
        if id.ends_with(":ljoin:0")
            && let Some(m) = s.response["id"].as_str().and_then(|m| m.parse().ok())
        {
            b.lobby_messages.insert(id, m);
        }
    }
    let parts: Vec<&str> = s.path.trim_start_matches('/').split('/').collect();
    match parts.as_slice() {
        ["channels", _, "threads"] => {
            if let Some(t) = s.response["id"].as_str().and_then(|t| t.parse().ok()) {
                b.threads.insert(t, s.at);
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

/// User time plus system time of a process so far (`/proc/<pid>/stat`, in clock ticks of 10 ms).
fn cpu(pid: u32) -> Duration {
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

/// One start in `channel`: the lobby opened by `a`, then `b`'s Join once the lobby message is
/// up. Returns when the Join was sent (the last Join), or why there was none.
async fn start(
    fake: Arc<F>,
    book: Arc<Mutex<Book>>,
    channel: u64,
    (a, b): (u64, u64),
) -> Result<Instant, String> {
    let opts = json!([
        user_opt("p1", a),
        user_opt("p2", b),
        {"type": 4, "name": "game", "value": 1},
    ]);
    let i = fake.slash(a, channel, "hexmeros", sub("start", opts)).await;
    let answered = |s: &Sent| s.method == "POST" && s.path.starts_with("/webhooks/");
    let answer = fake
        .wait_responses(&i, Duration::from_secs(60), 1, answered)
        .await
        .map_err(|e| {
            format!(
                "no answer to start: {}",
                e.to_string().lines().next().unwrap_or("")
            )
        })?;
    let text = content(&answer[0]);
    let lobby = lobby_number(&text).ok_or_else(|| format!("no lobby: {text}"))?;
    let join = format!("{lobby}:ljoin:0");
    let deadline = Instant::now() + Duration::from_secs(30);
    let message = loop {
        if let Some(&m) = book.lock().unwrap().lobby_messages.get(&join) {
            break m;
        }
        if Instant::now() > deadline {
            return Err(format!("lobby #{lobby}: no lobby message"));
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let at = Instant::now();
    fake.button(b, channel, message, &join).await;
    Ok(at)
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

async fn run(rate: f64, secs: f64, grace: Duration, two: bool) {
    let fake = Arc::new(F::start().await);
    fake.set_keep_files(false);
    // A server on each of four shards (before any process connects), or the fake's own.
    let channels: Vec<u64> = match two {
        true => scale::servers(&fake).into_iter().map(|(_, c)| c).collect(),
        false => vec![F::CHANNEL_ID],
    };
    let bots = match two {
        true => {
            let a = Bot::start_shards(&fake, "proc-a", 0, 1, 4).await;
            let b = a.start_beside(&fake, "proc-b", 2, 3, 4).await;
            vec![a, b]
        }
        false => vec![Bot::start(&fake).await],
    };
    let pids: Vec<u32> = bots.iter().map(|b| b.pid().unwrap()).collect();
    let cpu_of = |pids: &[u32]| pids.iter().map(|&p| cpu(p)).sum::<Duration>();
    let book = Arc::new(Mutex::new(Book::default()));
    let mut tap = fake.tap();
    let follow = book.clone();
    tokio::spawn(async move {
        while let Some(s) = tap.recv().await {
            see(&follow, &s);
        }
    });
    let backend = match std::env::var(hexmeros_testkit::db::POSTGRES_VAR) {
        Ok(_) => "PostgreSQL",
        Err(_) => "SQLite",
    };
    let processes = match two {
        true => "two processes",
        false => "one process",
    };
    println!("starts: {rate}/s for {secs} s, {processes} on {backend}");

    let cpu_before = cpu_of(&pids);
    let global_before = book.lock().unwrap().global;
    let began = Instant::now();
    let n = (rate * secs).round() as usize;
    let mut tasks = Vec::with_capacity(n);
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    for k in 0..n as u64 {
        tick.tick().await;
        let (a, b) = (u(100_000 + 2 * k), u(100_001 + 2 * k));
        let channel = channels[k as usize % channels.len()];
        let t = tokio::spawn(start(fake.clone(), book.clone(), channel, (a, b)));
        tasks.push((a, t));
    }
    let sent_in = began.elapsed();
    let mut joins = Vec::with_capacity(n);
    let mut failed = Vec::new();
    for (a, t) in tasks {
        match t.await.unwrap() {
            Ok(at) => joins.push((a, at)),
            Err(e) => failed.push(e),
        }
    }
    // Every board, or the grace after the last Join.
    let last = joins.iter().map(|(_, at)| *at).max().unwrap_or(began);
    loop {
        let done = {
            let b = book.lock().unwrap();
            joins.iter().all(|(a, _)| b.boards.contains_key(a))
        };
        if done || last.elapsed() > grace {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A second board would come right after the first: a moment to see one.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let cpu_used = cpu_of(&pids).saturating_sub(cpu_before);

    let b = book.lock().unwrap();
    let mut to_board = Vec::new();
    let mut to_thread = Vec::new();
    let mut thread_to_board = Vec::new();
    let (mut missing, mut twice) = (0, 0);
    for (a, at) in &joins {
        match b.boards.get(a).map(Vec::as_slice) {
            None | Some([]) => missing += 1,
            Some(boards) => {
                if boards.len() > 1 {
                    twice += 1;
                }
                let (board, thread) = boards[0];
                to_board.push(board.saturating_duration_since(*at));
                if let Some(&t) = b.threads.get(&thread) {
                    to_thread.push(t.saturating_duration_since(*at));
                    thread_to_board.push(board.saturating_duration_since(t));
                }
            }
        }
    }
    for v in [&mut to_board, &mut to_thread, &mut thread_to_board] {
        v.sort();
    }
    let started = joins.len() - missing;
    println!(
        "  {} starts sent in {:.1} s ({:.1}/s); {} lobbies not joined{}",
        n,
        sent_in.as_secs_f64(),
        n as f64 / sent_in.as_secs_f64(),
        failed.len(),
        failed
            .first()
            .map(|e| format!(" (first: {e})"))
            .unwrap_or_default()
    );
    println!(
        "  boards: {started} of {} joined starts, {missing} missing after {} s, {twice} twice",
        joins.len(),
        grace.as_secs()
    );
    println!("  last Join -> board        {}", Quantiles::of(&to_board));
    println!("  last Join -> thread asked {}", Quantiles::of(&to_thread));
    println!(
        "  thread -> board           {}",
        Quantiles::of(&thread_to_board)
    );
    println!(
        "  bot CPU {} in all, {} per start; {:.1} requests per start on the global limit",
        ms(cpu_used),
        ms(cpu_used / started.max(1) as u32),
        (b.global - global_before) as f64 / started.max(1) as f64
    );
    let mut routes: Vec<_> = b.routes.iter().collect();
    routes.sort_by(|x, y| y.1.cmp(x.1));
    for (r, n) in routes.into_iter().take(16) {
        println!("    {n:>7} {r}");
    }
}

fn var(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; criterion's filters do not apply here.
    let rate = var("STARTS_RATE", 20.0);
    let secs = var("STARTS_SECS", 60.0);
    let grace = Duration::from_secs_f64(var("STARTS_GRACE", 30.0));
    let two = std::env::var("STARTS_SETUP").is_ok_and(|s| s == "pg2");
    if two {
        assert!(
            std::env::var(hexmeros_testkit::db::POSTGRES_VAR).is_ok(),
            "STARTS_SETUP=pg2 needs {} (eval \"$(bash .ci/postgres.sh start)\")",
            hexmeros_testkit::db::POSTGRES_VAR
        );
        if std::env::var("HEXMEROS_RATE_DISCORD").is_err() {
            // Two processes share one token's global limit: each gets its half.
            // SAFETY: no other thread runs yet (the runtime is built below).
            unsafe { std::env::set_var("HEXMEROS_RATE_DISCORD", "22/1s") };
        }
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run(rate, secs, grace, two));
}
