//! The game as one viewer sees it (issue 62): `GameState::seen_by` (the movable pieces, what is
//! forced, the stuck pieces and why, the round) and `targets_seen_by` (a piece's targets, each
//! labelled), on a HexiMeros mid-game position, for the Token holder and for a spectator.
//! `cargo bench --bench seen`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::host::{GameHost, GameState, SystemClock};
use hexmeros::store::Store;

/// A seeded playout of `plies` moves (an LCG over the sorted legal moves).
fn playout(plies: usize, seed: u64) -> AnyGame {
    let mut game = AnyGame::new(GameKind::HexiMeros, None, None).expect("start position");
    let mut s = seed;
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let m = moves[(s >> 33) as usize % moves.len()].clone();
        game.play(&m).expect("legal move");
    }
    game
}

/// The game at that position, as the host holds it.
fn state() -> GameState {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let store = Store::open("sqlite::memory:").await.expect("store");
        let host = GameHost::new(store, Arc::new(SystemClock));
        let players: Vec<i64> = (1..=6).collect();
        for &p in &players {
            host.ensure_player(p, &format!("p{p}"))
                .await
                .expect("player");
        }
        let json = playout(60, 11).to_json();
        let (g, _) = host
            .create_from_position(&players, &json, None)
            .await
            .expect("game");
        host.state(g).await.expect("state")
    })
}

fn bench(c: &mut Criterion) {
    let st = state();
    let holder = st.holder_player().expect("a holder");
    let seen = st.seen_by(Some(holder));
    let busiest = seen
        .pieces
        .iter()
        .max_by_key(|p| p.moves)
        .expect("a movable piece")
        .origin
        .clone();
    println!(
        "{} pieces can move, {} cannot; the busiest, {busiest}, has {} targets",
        seen.pieces.len(),
        seen.stuck.len(),
        st.targets_seen_by(Some(holder), &busiest)
            .map(|t| t.len())
            .unwrap_or(0)
    );
    c.bench_function("seen_by, the Token holder", |b| {
        b.iter(|| black_box(&st).seen_by(Some(holder)))
    });
    c.bench_function("seen_by, a spectator", |b| {
        b.iter(|| black_box(&st).seen_by(None))
    });
    c.bench_function("targets_seen_by, the busiest piece", |b| {
        b.iter(|| black_box(&st).targets_seen_by(Some(holder), &busiest))
    });
    // The words every posted picture carries (the holder's side: their attacked pieces too).
    println!(
        "alt text: {} characters",
        st.alt_text(Some(holder)).chars().count()
    );
    c.bench_function("alt_text, the Token holder", |b| {
        b.iter(|| black_box(&st).alt_text(Some(holder)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
