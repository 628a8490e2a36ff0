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

use hexmeros_testkit::{bot, fake_discord, scale, starts};

use std::sync::Arc;
use std::time::{Duration, Instant};

use bot::{Bot, u};
use fake_discord::FakeDiscord as F;
use scale::Quantiles;
use starts::Starter;

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
    let cpu_of = |pids: &[u32]| pids.iter().map(|&p| scale::cpu_time(p)).sum::<Duration>();
    let starter = Starter::new(fake.clone());
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
    let global_before = starter.global();
    let began = Instant::now();
    let n = (rate * secs).round() as usize;
    let mut tasks = Vec::with_capacity(n);
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    for k in 0..n as u64 {
        tick.tick().await;
        let players = [u(100_000 + 2 * k), u(100_001 + 2 * k)];
        let channel = channels[k as usize % channels.len()];
        let s = starter.clone();
        let t = tokio::spawn(async move { s.start(channel, &players, 1).await });
        tasks.push((players[0], t));
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
    while !joins.iter().all(|(a, _)| starter.has_board(*a)) && last.elapsed() < grace {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A second board would come right after the first: a moment to see one.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let cpu_used = cpu_of(&pids).saturating_sub(cpu_before);

    let done: Vec<_> = joins
        .iter()
        .filter_map(|&(a, at)| starter.started(a, at))
        .collect();
    let missing = joins.len() - done.len();
    let twice = done.iter().filter(|s| s.boards > 1).count();
    let mut to_board: Vec<Duration> = done.iter().map(|s| s.board_at - s.joined).collect();
    let mut to_thread: Vec<Duration> = done
        .iter()
        .map(|s| s.thread_at.saturating_duration_since(s.joined))
        .collect();
    let mut thread_to_board: Vec<Duration> = done
        .iter()
        .map(|s| s.board_at.saturating_duration_since(s.thread_at))
        .collect();
    for v in [&mut to_board, &mut to_thread, &mut thread_to_board] {
        v.sort();
    }
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
        "  boards: {} of {} joined starts, {missing} missing after {} s, {twice} twice",
        done.len(),
        joins.len(),
        grace.as_secs()
    );
    println!("  last Join -> board        {}", Quantiles::of(&to_board));
    println!("  last Join -> thread asked {}", Quantiles::of(&to_thread));
    println!(
        "  thread -> board           {}",
        Quantiles::of(&thread_to_board)
    );
    let started = done.len().max(1);
    println!(
        "  bot CPU {} in all, {} per start; {:.1} requests per start on the global limit",
        ms(cpu_used),
        ms(cpu_used / started as u32),
        (starter.global() - global_before) as f64 / started as f64
    );
    for (r, n) in starter.routes().into_iter().take(16) {
        println!("    {n:>7} {r}");
    }
    drop(bots);
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
