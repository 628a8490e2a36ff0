//! The daily digest at scale (issue 49): `cargo bench --bench daily_digest`. A SQLite file (or the
//! testkit's PostgreSQL when `HEXMEROS_TEST_POSTGRES` is set) holding `DIGEST_USERS` people
//! (10,000 by default), each seated in 5 HexiMeros games: four under way (three plies played,
//! so a game loads from a log, not from nothing), one in five games finished since the last
//! digest (five seats resigned: places and rating changes to tell), and 100 open lobbies
//! inviting 500 of them. Prints:
//!
//! * the query plans of the digest's reads (no table scanned per person);
//! * building every person's digest (`GameHost::digest_of`): wall and process CPU time, per
//!   person, and how much of it the database's own query for the person's games takes;
//! * a whole day's digests due at once (everyone chose the same hour): the timer's `digests`
//!   passes until none is due, claims and outbox writes included, per person.
//!
//! The bench is not called `digest`: `.ci/run` cleans this workspace's targets by name before a
//! build, which would take the `digest` crate's (RustCrypto) artifacts along and rebuild sqlx,
//! serenity and what depends on them on every run.
//!
//! Criterion then measures one person's digest (the mean, across the people in turn). The host's
//! game cache holds 4,096 games: with more games than that, most loads read the log.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use cpu_time::ProcessTime;
use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::host::{Actor, Command, GameHost, LobbySpec, ManualClock, SettingsChange};
use hexmeros::store::Store;
use hexmeros_testkit::db::TestDb;

/// Seats a person holds.
const GAMES_EACH: usize = 5;
const SEATS: usize = 6;
const LOBBIES: usize = 100;
/// 2026-01-01 00:00 UTC.
const T0: i64 = 1_767_225_600_000;
const HOUR: i64 = 3_600_000;

fn users() -> usize {
    std::env::var("DIGEST_USERS").map_or(10_000, |v| v.parse().unwrap())
}

/// Three plies of HexiMeros that open no challenge window.
fn opening() -> Vec<String> {
    let mut g = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    let mut out = Vec::new();
    for _ in 0..3 {
        let mv = (g.legal_moves().into_iter())
            .find(|m| g.challengers(m).unwrap().is_empty())
            .unwrap();
        g.play(&mv).unwrap();
        out.push(mv);
    }
    out
}

async fn setup(url: &str, clock: &Arc<ManualClock>, users: usize) -> GameHost {
    let host = GameHost::new(Store::open(url).await.unwrap(), clock.clone()).with_outbox();
    let t = Instant::now();
    for p in 1..=users as i64 {
        host.store()
            .ensure_player(p, &format!("p{p}"), T0)
            .await
            .unwrap();
        let digest = SettingsChange {
            time_zone: Some("UTC".into()),
            digest: Some("08:00".into()),
            ..Default::default()
        };
        host.set_settings(p, &digest).await.unwrap();
    }
    clock.set(T0 + HOUR);
    let moves = opening();
    let games = users * GAMES_EACH / SEATS;
    for g in 0..games {
        let players: Vec<i64> = (0..SEATS)
            .map(|s| ((g * SEATS + s) % users) as i64 + 1)
            .collect();
        let (id, _) = host
            .create(GameKind::HexiMeros, &players, None, None)
            .await
            .unwrap();
        if g % 5 == 4 {
            for &p in &players[1..] {
                let resign = Command::Resign { replacement: None };
                host.handle(id, Actor::player(p), resign, None)
                    .await
                    .unwrap();
            }
            continue;
        }
        for (i, mv) in moves.iter().enumerate() {
            let cmd = Command::Move {
                text: mv.clone(),
                commit: true,
            };
            host.handle(id, Actor::player(players[i]), cmd, None)
                .await
                .unwrap();
        }
    }
    for l in 0..LOBBIES {
        let people: Vec<i64> = (0..6)
            .map(|s| ((l * 97 + s * 13) % users) as i64 + 1)
            .collect();
        let spec = LobbySpec {
            kind: GameKind::HexiMeros,
            starter: Actor::player(people[0]),
            people,
            bots: vec![],
            open: false,
            seats: None,
            house_rules: None,
            timers: None,
            hours: 72,
            origin: None,
        };
        // Two lobbies may name one person twice: such a lobby is refused, and left out.
        let _ = host.open_lobby(spec).await;
    }
    println!(
        "digest bench: {users} people, {games} HexiMeros games ({} finished), {LOBBIES} lobbies: \
         set up in {:.1?}",
        games / 5,
        t.elapsed()
    );
    host
}

fn per(d: Duration, n: usize) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6 / n as f64)
}

async fn measure(host: &GameHost, clock: &ManualClock, users: usize) {
    for (name, lines) in host.store().digest_query_plans().await.unwrap() {
        println!("plan of {name}: {}", lines.join(" | "));
    }
    let since = T0;
    let lobbies = host.open_lobbies().await.unwrap();
    // Every digest, built (the games' reads and the states' loads included).
    let (t, cpu) = (Instant::now(), ProcessTime::now());
    let mut said = 0;
    for p in 1..=users as i64 {
        let d = host.digest_of(p, since, &lobbies).await.unwrap();
        said += usize::from(!d.is_empty());
    }
    let (wall, cpu) = (t.elapsed(), cpu.elapsed());
    println!(
        "digest_of, {users} people: {wall:.2?} wall ({} each), {cpu:.2?} CPU of the process \
         ({} each); {said} with something to say",
        per(wall, users),
        per(cpu, users)
    );
    // The database's part: the query for each person's games alone.
    let t = Instant::now();
    let mut rows = 0;
    for p in 1..=users as i64 {
        rows += host.store().digest_games(p, since).await.unwrap().len();
    }
    let db = t.elapsed();
    println!(
        "digest_games query, {users} people: {db:.2?} ({} each, {:.1} games each)",
        per(db, users),
        rows as f64 / users as f64
    );
    // Where a digest's time goes: a game's state (from the cache, or its log), a finished
    // game's results (always from its log, with its rating changes).
    let ids: Vec<_> = host.store().digest_games(1, since).await.unwrap();
    let (live, over): (Vec<_>, Vec<_>) = ids.iter().partition(|g| g.status != 50);
    for (what, list) in [
        ("a game's state", &live),
        ("a finished game's results", &over),
    ] {
        let Some(g) = list.first() else { continue };
        let t = Instant::now();
        for _ in 0..200 {
            if g.status == 50 {
                host.results(g.id).await.unwrap();
            } else {
                host.state(g.id).await.unwrap();
            }
        }
        println!("{what}: {}", per(t.elapsed(), 200));
    }
    // Everyone's digest due at one hour: the timer's passes, claims and outbox included.
    clock.set(T0 + 32 * HOUR);
    let (t, cpu) = (Instant::now(), ProcessTime::now());
    let mut queued = 0;
    loop {
        let fx = host.digests().await.unwrap();
        if fx.is_empty() {
            break;
        }
        queued += fx.len();
    }
    let (wall, cpu) = (t.elapsed(), cpu.elapsed());
    println!(
        "digests due at once, {users} people: {wall:.2?} wall ({} each), {cpu:.2?} CPU ({} \
         each); {queued} queued",
        per(wall, users),
        per(cpu, users)
    );
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let users = users();
    let db = rt.block_on(TestDb::new());
    let clock = Arc::new(ManualClock::new(T0));
    let host = rt.block_on(setup(&db.url, &clock, users));
    rt.block_on(measure(&host, &clock, users));
    let lobbies = rt.block_on(host.open_lobbies()).unwrap();
    let mut next = 0usize;
    let mut group = c.benchmark_group("digest");
    group.sample_size(20);
    group.bench_function("one_person_of_10000", |b| {
        b.iter(|| {
            next += 1;
            let p = (next % users) as i64 + 1;
            rt.block_on(host.digest_of(p, T0, &lobbies)).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
