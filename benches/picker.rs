//! The move picker (issue 19): the zoomed picture of a piece with its numbered targets
//! (`view::zoom`, 720 px, rendered and PNG-encoded), and the lists behind its menus
//! (`view::picker`), on a HexiMeros mid-game position. The issue asks the zoomed picture for
//! under 10 ms. `cargo bench --bench picker`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::view::{picker, zoom};

/// A seeded playout of `plies` moves (an LCG over the sorted legal moves).
fn playout(kind: GameKind, plies: usize, seed: u64) -> AnyGame {
    let mut game = AnyGame::new(kind, None, None).expect("start position");
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

fn bench(c: &mut Criterion) {
    let game = playout(GameKind::HexiMeros, 60, 11);
    let pieces = picker::pieces(&game);
    let all: Vec<_> = pieces
        .iter()
        .map(|p| (p.clone(), picker::targets(&game, &p.origin)))
        .collect();
    let (busiest, targets) = all
        .iter()
        .max_by_key(|(_, t)| t.len())
        .expect("a movable piece");
    let png = zoom::zoom_png(&game, None, busiest, targets, None).expect("png");
    println!(
        "{} pieces can move; the busiest, {}, has {} targets; its zoomed PNG is {} bytes",
        pieces.len(),
        busiest.label(),
        targets.len(),
        png.len()
    );
    c.bench_function(
        "zoom render+encode 720px, same piece (base layer kept)",
        |b| b.iter(|| zoom::zoom_png(black_box(&game), None, busiest, targets, None).expect("png")),
    );
    // A different piece each time: more than the renderer keeps, so no base layer is reused.
    let mut k = 0;
    c.bench_function(
        "zoom render+encode 720px, a different piece each time",
        |b| {
            b.iter(|| {
                k = (k + 1) % all.len();
                let (p, t) = &all[k];
                zoom::zoom_png(black_box(&game), None, p, t, None).expect("png")
            })
        },
    );
    c.bench_function("picker pieces (step 1 list)", |b| {
        b.iter(|| picker::pieces(black_box(&game)))
    });
    c.bench_function("picker targets of the busiest piece (step 2 list)", |b| {
        b.iter(|| picker::targets(black_box(&game), &busiest.origin))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
