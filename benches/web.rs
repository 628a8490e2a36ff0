//! The web board over loopback (issue 46): what a first paint waits for (the page, its script
//! and style, and the board's JSON with its SVG), a tap's round trip (a piece's targets), and a
//! committed move reaching every open board (100 live streams on one game: p50/p99 of the time
//! until the last of them has the new version), with the memory one open board costs.
//! HexiMeros (649 cells, the largest board) and HexDame (61). Run:
//! `cargo bench --bench web`.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host::RulesOf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use futures_util::StreamExt as _;
use hexmeros::games::GameKind;
use hexmeros::host::{Actor, Command, GameHost, GameId, SystemClock};
use hexmeros::store::Store;
use hexmeros::web::{self, Links};

struct Served {
    host: Arc<GameHost>,
    base: String,
    links: Links,
    _dir: tempfile::TempDir,
}

async fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let host = Arc::new(GameHost::new(
        Store::open(&url).await.unwrap(),
        Arc::new(SystemClock),
    ));
    let keys = web::keys(&host).await.unwrap();
    let front = Arc::new(web::standalone::Standalone::new(host.clone()));
    // No rate limit in the way of the measurement.
    let open = web::WebLimits {
        per_address: web::quota((1_000_000, 1_000_000)),
        per_link: web::quota((1_000_000, 1_000_000)),
        pictures: web::quota((1_000_000, 1_000_000)),
        per_player: web::quota((1_000_000, 1_000_000)),
        ..web::WebLimits::default()
    };
    let running = web::start_with(
        host.clone(),
        keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
        open,
    )
    .await
    .unwrap();
    let base = format!("http://{}", running.addr);
    Served {
        host,
        links: Links::new(keys, &base),
        base,
        _dir: dir,
    }
}

async fn game(s: &Served, kind: GameKind) -> (GameId, String) {
    let players: Vec<i64> = (1..=kind.players().1 as i64).collect();
    for &p in &players {
        s.host.ensure_player(p, &format!("p{p}")).await.unwrap();
    }
    let (id, _) = s.host.create(kind, &players, None, None).await.unwrap();
    let link = s.links.player(id, 1, s.host.now());
    (id, link.split_once("#t=").unwrap().1.to_string())
}

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let s = rt.block_on(serve());
    let http = reqwest::Client::new();
    for kind in [GameKind::HexiMeros, GameKind::HexDame] {
        let (_, token) = rt.block_on(game(&s, kind));
        let name = kind.key();
        c.bench_function(&format!("web first paint {name}"), |b| {
            b.iter(|| {
                rt.block_on(async {
                    for path in ["/board", "/assets/board.js", "/assets/board.css"] {
                        let r = http.get(format!("{}{path}", s.base)).send().await.unwrap();
                        r.bytes().await.unwrap();
                    }
                    let r = http
                        .get(format!("{}/api/board", s.base))
                        .bearer_auth(&token)
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(r.status().as_u16(), 200);
                    r.bytes().await.unwrap()
                })
            })
        });
        let body: serde_json::Value = rt.block_on(async {
            http.get(format!("{}/api/board", s.base))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap()
        });
        println!(
            "web board {name}: board JSON {} bytes (SVG {} bytes)",
            body.to_string().len(),
            body["svg"].as_str().unwrap().len()
        );
        let origin = body["pieces"][0]["origin"].as_str().unwrap().to_string();
        c.bench_function(&format!("web tap targets {name}"), |b| {
            b.iter(|| {
                rt.block_on(async {
                    let r = http
                        .get(format!("{}/api/targets?origin={origin}", s.base))
                        .bearer_auth(&token)
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(r.status().as_u16(), 200);
                    r.bytes().await.unwrap()
                })
            })
        });
    }
    rt.block_on(fan_out(&s, &http));
    in_the_browser(c, &rt, &s);
}

/// What a player waits for in a real browser (Debian's headless Chromium at a phone's size,
/// through chromedriver, as the browser tests drive it), read from the page's own performance
/// entries: the first board on screen from the navigation's start (page, script, style, the
/// board's JSON, the SVG in place), and a tap on a piece until its targets are drawn.
/// Skipped, with a word, where the machine has no browser.
fn in_the_browser(c: &mut Criterion, rt: &tokio::runtime::Runtime, s: &Served) {
    use hexmeros_testkit::browser;
    let Some(driver) = rt.block_on(browser::driver()) else {
        println!("no chromium/chromedriver: the browser's figures are skipped");
        return;
    };
    let page = rt.block_on(driver.browser(390, 844));
    for kind in [GameKind::HexiMeros, GameKind::HexDame] {
        let name = kind.key();
        let (game, _) = rt.block_on(game(s, kind));
        let link = s.links.player(game, 1, s.host.now());
        let entry = |expr: &str| {
            let v = rt.block_on(browser::until(&page, expr));
            Duration::from_secs_f64(v.as_f64().unwrap() / 1000.0)
        };
        let mut fcp = Vec::new();
        c.bench_function(&format!("web browser first board {name}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    // A new document each time (the same address would only move its fragment).
                    rt.block_on(page.goto("about:blank")).unwrap();
                    rt.block_on(page.goto(&link)).unwrap();
                    total += entry("performance.getEntriesByName('board-shown')[0]?.startTime");
                    fcp.push(entry(
                        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime",
                    ));
                }
                total
            })
        });
        fcp.sort();
        println!(
            "web browser {name}: first contentful paint p50 {:?} p99 {:?} ({} loads)",
            percentile(&fcp, 0.5),
            percentile(&fcp, 0.99),
            fcp.len()
        );
        let (q, r) = rt.block_on(first_piece(s, game));
        c.bench_function(&format!("web browser tap targets {name}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    rt.block_on(page.execute("performance.clearMeasures('tap-targets');", vec![]))
                        .unwrap();
                    rt.block_on(browser::tap(&page, (q, r)));
                    total += entry("performance.getEntriesByName('tap-targets')[0]?.duration");
                }
                total
            })
        });
    }
    rt.block_on(page.close()).unwrap();
}

/// The board cell (`q`, `r`) of the first movable piece of player 1 in `game`.
async fn first_piece(s: &Served, game: GameId) -> (i32, i32) {
    let state = s.host.state(game).await.unwrap();
    let piece = state.pick_pieces().into_iter().next().unwrap();
    let cell = piece.cell.unwrap();
    let (h, _) = state
        .cell_names()
        .into_iter()
        .find(|(_, n)| *n == cell)
        .unwrap();
    (h.q, h.r)
}

/// 100 open boards on one HexDame game; 50 moves committed in turn; for each, the time until
/// every board's stream has the new version.
async fn fan_out(s: &Served, http: &reqwest::Client) {
    const BOARDS: usize = 100;
    const MOVES: usize = 50;
    let (game, token) = game(s, GameKind::HexDame).await;
    let before = resident_kib();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, u64)>();
    for i in 0..BOARDS {
        let res = http
            .get(format!("{}/api/live", s.base))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        let tx = tx.clone();
        tokio::spawn(async move {
            let mut body = res.bytes_stream();
            let mut buf = String::new();
            while let Some(Ok(chunk)) = body.next().await {
                buf.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(at) = buf.find("\n\n") {
                    let block: String = buf.drain(..at + 2).collect();
                    for l in block.lines() {
                        if let Some(v) = l.strip_prefix("data:") {
                            let _ = tx.send((i, v.trim().parse().unwrap()));
                        }
                    }
                }
            }
        });
    }
    // Every board has the current version before the clock starts.
    let mut seen = vec![0u64; BOARDS];
    let v0 = s.host.state(game).await.unwrap().version();
    while seen.iter().any(|&v| v < v0) {
        let (i, v) = rx.recv().await.unwrap();
        seen[i] = seen[i].max(v);
    }
    let open = resident_kib().saturating_sub(before);
    let mut took = Vec::new();
    for _ in 0..MOVES {
        let st = s.host.state(game).await.unwrap();
        let player = st.holder_player().unwrap();
        let text = st.rules().legal_moves()[0].clone();
        let t = Instant::now();
        s.host
            .handle(
                game,
                Actor::player(player),
                Command::Move { text, commit: true },
                None,
            )
            .await
            .unwrap();
        let want = st.version() + 1;
        while seen.iter().any(|&v| v < want) {
            let (i, v) = rx.recv().await.unwrap();
            seen[i] = seen[i].max(v);
        }
        took.push(t.elapsed());
    }
    took.sort();
    println!(
        "web fan-out: a commit to all {BOARDS} open boards: p50 {:?}, p99 {:?}, max {:?} \
         (the commit included); resident memory for {BOARDS} open boards {} KiB \
         ({:.1} KiB a board, client side included)",
        percentile(&took, 0.5),
        percentile(&took, 0.99),
        took[took.len() - 1],
        open,
        open as f64 / BOARDS as f64
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
