#![allow(clippy::unwrap_used)]
//! Latency of the Discord bot under load: the real `hexmeros serve` (release build) against the
//! fake Discord of the tests. For 1 and for 100 HexDame games played at once, every game's Token holder
//! sends `/hexmeros move … pass:True` at the same moment; measured per interaction are the time
//! from the fake dispatching it to the bot's first callback (the acknowledgement), and to the new
//! board posted in the game's thread. Prints p50 / p99 / max. The 100 games also play a second
//! time with their moves spread evenly over two seconds instead of sent in one burst.
//!
//! `cargo bench --bench discord` (a harness of its own: criterion's repeated closures do not fit
//! a measurement that spans two processes).

use hexmeros_testkit::fake_discord;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fake_discord::FakeDiscord as F;
use hexmeros::games::{AnyGame, GameKind};
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(60);

fn sub(name: &str, options: Value) -> Value {
    json!([{ "type": 1, "name": name, "options": options }])
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(what: &str, mut v: Vec<Duration>) {
    v.sort();
    println!(
        "{what}: n={} p50={:.1} ms p99={:.1} ms max={:.1} ms",
        v.len(),
        percentile(&v, 0.5).as_secs_f64() * 1000.0,
        percentile(&v, 0.99).as_secs_f64() * 1000.0,
        v.last().copied().unwrap_or_default().as_secs_f64() * 1000.0
    );
}

struct Game {
    thread: u64,
    position: AnyGame,
    /// Seat order's players.
    players: Vec<u64>,
}

/// One move in game `g` by its Token holder: time to the first callback and to the new board.
async fn one_move(fake: &F, g: &mut Game) -> (Duration, Duration) {
    let seat = g.position.to_move().unwrap().index();
    let mv = g.position.legal_moves()[0].clone();
    g.position.play(&mv).unwrap();
    let i = fake
        .slash(
            g.players[seat],
            g.thread,
            "hexmeros",
            sub(
                "move",
                json!([
                    {"type": 3, "name": "from", "value": mv},
                    {"type": 5, "name": "pass", "value": true}
                ]),
            ),
        )
        .await;
    let cb = fake.first_response(&i, T).await.unwrap();
    let at = fake
        .wait_posted(g.thread, i.sent_at, &format!("played {mv}"), T)
        .await
        .unwrap();
    (cb.at - i.sent_at, at - i.sent_at)
}

/// The second player joins the lobby posted after the first `after` messages of the channel
/// (issue 17: a game starts once everyone joined).
async fn join_lobby(fake: &F, player: u64, after: usize) {
    let deadline = Instant::now() + T;
    loop {
        let newest = fake
            .messages(F::CHANNEL_ID)
            .into_iter()
            .skip(after)
            .find_map(|m| {
                let body = m.json?;
                let id = body["components"][0]["components"][0]["custom_id"].as_str()?;
                id.ends_with(":ljoin:0")
                    .then(|| (m.response["id"].clone(), id.to_string()))
            });
        if let Some((msg, id)) = newest {
            let msg: u64 = msg.as_str().unwrap().parse().unwrap();
            fake.button(player, F::CHANNEL_ID, msg, &id).await;
            return;
        }
        assert!(Instant::now() < deadline, "no lobby message");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

async fn run(games: usize, rounds: usize, spread: Duration) {
    let fake = F::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .arg("serve")
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", fake.api_base())
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.path().join("bench.db").display()),
        )
        .env("DEV_GUILD_ID", F::GUILD_ID.to_string())
        // The bot's own latency: without its pace under Discord's global limit, which spreads
        // a burst at 45 calls a second (`BENCH_PACE=45/1s` to see it).
        .env(
            "HEXMEROS_RATE_DISCORD",
            std::env::var("BENCH_PACE").unwrap_or_else(|_| "off".into()),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    fake.wait_ready(T).await.unwrap();

    // Start the games (not measured).
    let mut all = Vec::new();
    for g in 0..games {
        let players: Vec<u64> = (1..=2).map(|n| F::user((g as u64) * 2 + n)).collect();
        let mut opts: Vec<Value> = players
            .iter()
            .enumerate()
            .map(|(i, p)| json!({"type": 6, "name": format!("p{}", i + 1), "value": p.to_string()}))
            .collect();
        // HexDame (choice 1): no challenge window can hold a pass back, so every move is a turn.
        opts.push(json!({"type": 4, "name": "game", "value": 1}));
        let before = fake.threads().len();
        let lobbies = fake.messages(F::CHANNEL_ID).len();
        fake.slash(
            players[0],
            F::CHANNEL_ID,
            "hexmeros",
            sub("start", json!(opts)),
        )
        .await;
        let deadline = Instant::now() + T;
        join_lobby(&fake, players[1], lobbies).await;
        while fake.threads().len() == before {
            assert!(Instant::now() < deadline, "no thread for game {g}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let thread = fake.threads().into_iter().map(|t| t.0).max().unwrap();
        all.push(Game {
            thread,
            position: AnyGame::new(GameKind::HexDame, None, None).unwrap(),
            players,
        });
    }
    // Let the start boards land.
    tokio::time::sleep(Duration::from_millis(500)).await;

    let mut first = Vec::new();
    let mut board = Vec::new();
    for _ in 0..rounds {
        // Each game's move leaves at its own offset within `spread` (all at once when zero).
        let n = all.len() as u32;
        let moves = all.iter_mut().enumerate().map(|(k, g)| {
            let offset = spread * k as u32 / n.max(1);
            let fake = &fake;
            async move {
                tokio::time::sleep(offset).await;
                one_move(fake, g).await
            }
        });
        for (cb, posted) in futures_util::future::join_all(moves).await {
            first.push(cb);
            board.push(posted);
        }
    }
    assert!(fake.late_callbacks().is_empty());
    let how = if spread.is_zero() {
        format!("{games} game(s), all at once")
    } else {
        format!("{games} game(s), spread over {} ms", spread.as_millis())
    };
    report(&format!("{how}: first callback"), first);
    report(&format!("{how}: board posted"), board);
    let _ = child.kill();
    let _ = child.wait();
}

fn main() {
    // `cargo test --benches` runs benches once with `--bench` absent: keep that quick.
    let full = std::env::args().any(|a| a == "--bench");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        if full {
            run(1, 50, Duration::ZERO).await;
            run(100, 3, Duration::ZERO).await;
            // A hundred games do not all move in the same millisecond: the same moves, each
            // game's at its own moment within two seconds (50 moves a second).
            run(100, 3, Duration::from_secs(2)).await;
        } else {
            run(1, 2, Duration::ZERO).await;
        }
    });
}
