//! The web board under a flood without a link (issue 60, finding 5), over loopback: a player's
//! tap (a piece's targets, with their link) timed alone and while 16 clients without a link
//! hammer `GET /` from the same address as fast as they are answered (the per-address limit
//! soon answers them 429). Prints the player's p50/p99 both ways, the share of the player's
//! requests refused (none: their link has its own bucket) and the flood's rate and refusals.
//! Run: `cargo bench --profile test --bench web_flood`.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::GameKind;
use hexmeros::host::{GameHost, SystemClock};
use hexmeros::store::Store;
use hexmeros::web::{self, Links};

/// Flooding clients at once.
const FLOOD: usize = 16;

/// The player's requests timed each way.
const SAMPLES: usize = 400;

struct Served {
    base: String,
    token: String,
    origin: String,
    _running: web::Running,
    _dir: tempfile::TempDir,
}

/// A board served with the default per-address limit (the flood's), the player's own bucket
/// opened wide so the measurement never spends it.
async fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let host = Arc::new(GameHost::new(
        Store::open(&url).await.unwrap(),
        Arc::new(SystemClock),
    ));
    let keys = web::keys(&host).await.unwrap();
    let front = Arc::new(web::standalone::Standalone::new(host.clone()));
    let limits = web::WebLimits {
        per_link: web::quota((1_000_000, 1_000_000)),
        per_player: web::quota((1_000_000, 1_000_000)),
        ..web::WebLimits::default()
    };
    let running = web::start_with(
        host.clone(),
        keys.clone(),
        "127.0.0.1:0".parse().unwrap(),
        front,
        limits,
    )
    .await
    .unwrap();
    let base = format!("http://{}", running.addr);
    let players: Vec<i64> = (1..=6).collect();
    for &p in &players {
        host.ensure_player(p, &format!("p{p}")).await.unwrap();
    }
    let (id, _) = host
        .create(GameKind::HexiMeros, &players, None, None)
        .await
        .unwrap();
    let link = Links::new(keys, &base).player(id, 1, host.now());
    let token = link.split_once("#t=").unwrap().1.to_string();
    let http = reqwest::Client::new();
    let board: serde_json::Value = http
        .get(format!("{base}/api/board"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let origin = board["pieces"][0]["origin"].as_str().unwrap().to_string();
    Served {
        base,
        token,
        origin,
        _running: running,
        _dir: dir,
    }
}

/// One tap: how long, and whether it was answered 200.
async fn tap(http: &reqwest::Client, s: &Served) -> (Duration, bool) {
    let t = Instant::now();
    let r = http
        .get(format!("{}/api/targets?origin={}", s.base, s.origin))
        .bearer_auth(&s.token)
        .send()
        .await
        .unwrap();
    let ok = r.status().as_u16() == 200;
    r.bytes().await.unwrap();
    (t.elapsed(), ok)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// `SAMPLES` taps: (p50, p99, refused).
async fn taps(http: &reqwest::Client, s: &Served) -> (Duration, Duration, usize) {
    let mut times = Vec::with_capacity(SAMPLES);
    let mut refused = 0;
    for _ in 0..SAMPLES {
        let (t, ok) = tap(http, s).await;
        times.push(t);
        refused += usize::from(!ok);
    }
    times.sort();
    (percentile(&times, 0.5), percentile(&times, 0.99), refused)
}

/// Start the flood: `FLOOD` clients without a link on `GET /` until `stop`; counts of
/// (requests, 429s).
fn flood(base: &str, stop: Arc<AtomicBool>) -> Arc<(AtomicU64, AtomicU64)> {
    let counts = Arc::new((AtomicU64::new(0), AtomicU64::new(0)));
    for _ in 0..FLOOD {
        let (base, stop, counts) = (base.to_string(), stop.clone(), counts.clone());
        tokio::spawn(async move {
            let http = reqwest::Client::new();
            while !stop.load(Ordering::Relaxed) {
                if let Ok(r) = http.get(format!("{base}/")).send().await {
                    counts.0.fetch_add(1, Ordering::Relaxed);
                    if r.status().as_u16() == 429 {
                        counts.1.fetch_add(1, Ordering::Relaxed);
                    }
                    let _ = r.bytes().await;
                }
            }
        });
    }
    counts
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let s = rt.block_on(serve());
    let http = reqwest::Client::new();
    let (p50, p99, refused) = rt.block_on(taps(&http, &s));
    println!("web flood: a player's tap alone: p50 {p50:?} p99 {p99:?}, {refused} refused");
    c.bench_function("web tap alone", |b| b.iter(|| rt.block_on(tap(&http, &s))));

    let stop = Arc::new(AtomicBool::new(false));
    let counts = {
        let _guard = rt.enter();
        flood(&s.base, stop.clone())
    };
    let began = Instant::now();
    let (p50, p99, refused) = rt.block_on(taps(&http, &s));
    c.bench_function("web tap under a flood without a link", |b| {
        b.iter(|| rt.block_on(tap(&http, &s)))
    });
    let secs = began.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let (sent, limited) = (
        counts.0.load(Ordering::Relaxed),
        counts.1.load(Ordering::Relaxed),
    );
    println!(
        "web flood: a player's tap under a flood of {FLOOD} clients without a link: p50 {p50:?} \
         p99 {p99:?}, {refused} of {SAMPLES} refused; the flood sent {:.0} requests a second, \
         {:.1}% answered 429",
        sent as f64 / secs,
        100.0 * limited as f64 / sent.max(1) as f64
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(5));
    targets = bench
}
criterion_main!(benches);
