#![allow(clippy::unwrap_used)]
//! The load benchmark of issue 20: `cargo bench --bench scale`. Seeds 45,000 HexDame and 5,000
//! HexiMeros games (HexiMeros logs of 300+ events) into the bot's database, then sends moves at
//! 20 a second for 5 minutes over random games against the real `hexmeros serve` behind the
//! fake Discord (enforcing Discord's global limit of 50 calls a second), and prints first
//! callback and board latency, peak resident memory per process, restart to first answer, and
//! global-limited calls per committed move. Setups: `SCALE_SETUP=sqlite1` (one process on
//! SQLite, the default) or `pg2` (two processes, `--shards 0-1` and `2-3` of 4, on the
//! PostgreSQL server `HEXMEROS_TEST_POSTGRES` names). Sizes from `SCALE_*` variables
//! (`tests/support/scale.rs`, `Config::from_env`), e.g.
//! `SCALE_DUELS=2000 SCALE_MEROS=200 SCALE_SECS=60 cargo bench --profile test --bench scale`
//! (under `--profile dev` the opt-level-0 bot overflowed a worker's 2 MiB stack: set
//! `RUST_MIN_STACK=33554432` there);
//! `SCALE_STARTS=20` starts the games for real through the lobby at 20 a second instead of
//! seeding them (issue 48: 50,000 games take 42 minutes that way), each at its start position;
//! `SCALE_RAMP=1` then steps the rate up (×`SCALE_RAMP_FACTOR`, 1.25 by default, each
//! `SCALE_RAMP_SECS`) to find the highest rate
//! with board p99 under 1 s.

use hexmeros_testkit::{bot, db, fake_discord, scale, starts};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bot::Bot;
use fake_discord::FakeDiscord as F;
use scale::{Config, Driver, Peaks, Rng, Seeded, Setup};

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

async fn run(cfg: Config) {
    let t0 = Instant::now();
    if cfg.setup == Setup::Pg2 {
        assert!(
            std::env::var(db::POSTGRES_VAR).is_ok(),
            "SCALE_SETUP=pg2 needs {} (eval \"$(bash .ci/postgres.sh start)\")",
            db::POSTGRES_VAR
        );
    }
    let (duels, meros) = match cfg.starts {
        None => scale::templates(cfg.templates, cfg.seed).await.unwrap(),
        Some(_) => (Vec::new(), Vec::new()),
    };
    println!(
        "templates: {} HexDame ({:?} events), {} HexiMeros ({:?} events) in {:.1?}",
        duels.len(),
        duels.iter().map(|t| t.events()).collect::<Vec<_>>(),
        meros.len(),
        meros.iter().map(|t| t.events()).collect::<Vec<_>>(),
        t0.elapsed()
    );

    let fake = Arc::new(F::start().await);
    fake.set_keep_files(false);
    // Real starts leave hundreds of thousands of requests: the drivers follow them through
    // the tap.
    fake.set_keep_requests(cfg.starts.is_none());
    let servers = scale::servers(&fake);
    let n = cfg.duels + cfg.meros;
    let t = Instant::now();
    // Real starts make their own threads.
    let threads = match cfg.starts {
        None => scale::make_threads(&fake, &servers, n),
        Some(_) => Vec::new(),
    };
    println!("{n} threads at the fake in {:.1?}", t.elapsed());

    // The processes (connected before the games are seeded: their GUILD_CREATEs carry every
    // thread, as Discord's do).
    let mut bots: Vec<(String, Bot)> = match cfg.setup {
        Setup::Sqlite1 => vec![(
            "sqlite".into(),
            Bot::start_logging(&fake, std::env::var("SCALE_BOT_LOG").ok().as_deref()).await,
        )],
        Setup::Pg2 => {
            let a = Bot::start_shards(&fake, "proc-a", 0, 1, 4).await;
            let b = a.start_beside(&fake, "proc-b", 2, 3, 4).await;
            vec![("pg shards 0-1".into(), a), ("pg shards 2-3".into(), b)]
        }
    };
    let url = bots[0].1.db_url();
    let t = Instant::now();
    let games = match cfg.starts {
        Some(rate) => {
            let counts = (cfg.duels, cfg.meros);
            starts::start_many(fake.clone(), &servers, counts, rate).await
        }
        None => scale::seed(
            &url,
            &servers,
            &threads,
            &duels,
            &meros,
            (cfg.duels, cfg.meros),
        )
        .await
        .unwrap(),
    };
    if cfg.starts.is_none() {
        let events: usize = cfg.duels * duels.iter().map(|t| t.events()).sum::<usize>()
            / duels.len()
            + cfg.meros * meros.iter().map(|t| t.events()).sum::<usize>() / meros.len();
        println!(
            "seeded {} HexDame + {} HexiMeros games (~{events} events) in {:.1?}",
            cfg.duels,
            cfg.meros,
            t.elapsed()
        );
    }
    drop(threads);

    let stop = Arc::new(AtomicBool::new(false));
    let peaks = Peaks::default();
    let pids: Vec<Arc<Mutex<Option<u32>>>> = bots
        .iter()
        .map(|(name, b)| {
            let pid = Arc::new(Mutex::new(b.pid()));
            peaks.sample(name, pid.clone(), stop.clone());
            pid
        })
        .collect();
    let baseline: Vec<u64> = bots
        .iter()
        .map(|(_, b)| b.pid().and_then(scale::rss_kib).unwrap_or(0))
        .collect();

    fake.set_global_limit(Some(cfg.global_limit));
    let driver = Driver::new(&fake, games);
    let mut rng = Rng::new(cfg.seed ^ 0x5ca1e);
    let all = |_: &Seeded| true;
    let (w, skipped) = scale::run_window(&fake, &driver, &mut rng, cfg.rate, cfg.secs, &all).await;
    println!(
        "\n== {:?}: {} games, {} moves/s for {:.0} s ==",
        cfg.setup, n, cfg.rate, cfg.secs
    );
    w.print("steady");
    for (name, kib) in peaks.peaks() {
        println!("  peak resident {name} so far: {:.1} MiB", mib(kib));
    }
    if skipped > 0 {
        println!("  ({skipped} moves not sent: no idle game found or no connection)");
    }

    let total_sent = driver.counters().2.max(1);
    println!("  REST calls per move sent, by route (whole run so far):");
    for (route, n) in driver.routes().into_iter().take(10) {
        println!("    {:.2}  {route}", n as f64 / total_sent as f64);
    }

    let mut ramp_best = None;
    if cfg.ramp {
        let store = hexmeros::store::Store::open(&url).await.unwrap();
        let mut rate = cfg.rate * cfg.ramp_factor;
        loop {
            let (w, _) =
                scale::run_window(&fake, &driver, &mut rng, rate, cfg.ramp_secs, &all).await;
            w.print(&format!("ramp {rate:.1} moves/s"));
            // Held: boards in time, and the bot keeps up with the rest too (the status panel
            // edits, less urgent than boards, would otherwise pile up in the outbox unseen).
            let waiting = store.outbox_stats().await.map_or(i64::MAX, |s| s.pending);
            println!("  outbox entries waiting at the step's end: {waiting}");
            let held = w.board.p99 < Duration::from_secs(1)
                && w.committed as f64 >= 0.9 * w.sent as f64
                && w.sent > 0
                && (waiting as f64) <= 2.0 * rate;
            if !held {
                break;
            }
            ramp_best = Some((rate, w));
            rate *= cfg.ramp_factor;
        }
    }

    // Restart to first answer: the first process is killed and started again; a move in one
    // of its servers' games (cold: not in the new process's cache) is sent as soon as it
    // connects.
    let shards_of_first: &(dyn Fn(&Seeded) -> bool + Sync) = match cfg.setup {
        Setup::Sqlite1 => &all,
        Setup::Pg2 => &|g: &Seeded| g.shard < 2,
    };
    let restart = {
        let (_, first) = &mut bots[0];
        let r =
            scale::restart_to_first_answer(&fake, first, &driver, &mut rng, shards_of_first).await;
        *pids[0].lock().unwrap() = first.pid();
        r
    };
    driver.settle(Duration::from_secs(30)).await;
    let untold = driver.untold();
    if !untold.is_empty() {
        let made = fake.made();
        println!("{} moves neither told nor refused, e.g.:", untold.len());
        for (game, meros, mv, thread) in untold.iter().take(5) {
            let last: Vec<String> = made
                .iter()
                .filter(|m| m.channel == *thread)
                .rev()
                .take(2)
                .map(|m| m.content.chars().take(100).collect())
                .collect();
            let kind = if *meros { "HexiMeros" } else { "HexDame" };
            println!("  {kind} #{game} {mv}: its thread's last messages {last:?}");
        }
    }
    stop.store(true, Ordering::Relaxed);

    println!("\n== summary ({:?}) ==", cfg.setup);
    for ((name, kib), base) in peaks.peaks().into_iter().zip(&baseline) {
        println!(
            "peak resident {name}: {:.1} MiB (after seeding, before moves: {:.1} MiB)",
            mib(kib),
            mib(*base)
        );
    }
    match restart {
        Some(d) => println!("restart to first answer: {:.0} ms", d.as_secs_f64() * 1e3),
        None => println!("restart to first answer: no answer within the deadline"),
    }
    println!(
        "moves committed {} of {} sent; first callback p99 {:.1} ms; board p99 {:.1} ms; \
         global 429s per committed move {:.2}; REST calls {:.1}/s",
        w.committed,
        w.sent,
        w.callback.p99.as_secs_f64() * 1e3,
        w.board.p99.as_secs_f64() * 1e3,
        w.global_per_move(),
        w.requests as f64 / w.secs.max(1e-9)
    );
    if cfg.ramp {
        match ramp_best {
            Some((rate, w)) => println!(
                "highest rate held (board p99 under 1 s, outbox keeping up): {rate:.1} moves/s \
                 (board p99 {:.1} ms, \
                 global 429s per move {:.2}, REST calls {:.1}/s)",
                w.board.p99.as_secs_f64() * 1e3,
                w.global_per_move(),
                w.requests as f64 / w.secs.max(1e-9)
            ),
            None => println!(
                "highest rate held (board p99 under 1 s, outbox keeping up): {} moves/s (no \
                 higher step held)",
                cfg.rate
            ),
        }
    }
    for (name, b) in &bots {
        let log = b.log();
        let bad: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("ERROR") || l.contains("WARN") || l.contains("panicked"))
            .collect();
        println!("{name}: {} warnings or errors in its log", bad.len());
        if std::env::var("SCALE_BOT_LOG").is_ok() {
            for l in log.lines().take(400) {
                println!("  | {l}");
            }
        }
        for l in bad.iter().rev().take(5).rev() {
            println!("  {l}");
        }
    }
    println!("total {:.1?}", t0.elapsed());
    drop(bots);
}

fn main() {
    let cfg = Config::from_env(Config::full());
    eprintln!("scale config: {cfg:?}");
    if cfg.setup == Setup::Pg2 && std::env::var("HEXMEROS_RATE_DISCORD").is_err() {
        // Two processes share one token's global limit: each gets its half, as docs/running.md's
        // "Running at scale" says (45/P a second).
        // SAFETY: no other thread runs yet (the runtime is built below).
        unsafe { std::env::set_var("HEXMEROS_RATE_DISCORD", "22/1s") };
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(run(cfg));
}
