//! Board pictures: the HexiMeros start position and a HexDame position rendered and encoded at
//! their default sizes (HexDame also at 1600 px), the HexiMeros close-ups (`view::focus`) and
//! a 300-move HexiMeros replay GIF. PNG and GIF sizes are printed once.
//! `cargo bench --bench view`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::{AnyGame, GameKind};
use hexmeros::view::{self, ViewOptions};

/// A seeded playout of `plies` moves (an LCG over the sorted legal moves).
fn playout(kind: GameKind, plies: usize, seed: u64) -> (AnyGame, Vec<String>) {
    let mut game = AnyGame::new(kind, None, None).expect("start position");
    let mut played = Vec::new();
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
        played.push(game.play(&m).expect("legal move"));
    }
    (game, played)
}

fn bench(c: &mut Criterion) {
    let start = AnyGame::new(GameKind::HexiMeros, None, None).expect("start position");
    let opts = ViewOptions::default();
    let png = view::render_png(&start, &opts).expect("png");
    println!(
        "HexiMeros start PNG at {} px: {} bytes",
        view::DEFAULT_SIZE,
        png.len()
    );
    c.bench_function("heximeros start render+encode 1600px", |b| {
        b.iter(|| view::render_png(black_box(&start), &opts).expect("png"))
    });

    let (mid, played) = playout(GameKind::HexiMeros, 60, 11);
    let mid_opts = ViewOptions {
        last_moves: played[played.len() - 5..].to_vec(),
        ..ViewOptions::default()
    };
    let png = view::render_png(&mid, &mid_opts).expect("png");
    println!(
        "HexiMeros mid-game PNG (5 moves highlighted): {} bytes",
        png.len()
    );
    c.bench_function("heximeros mid-game render+encode 1600px", |b| {
        b.iter(|| view::render_png(black_box(&mid), &mid_opts).expect("png"))
    });

    // Issue 45: the close-up posted before the full board (the round's five moves), the
    // preview's close-up of a staged move, and the whole turn's pictures (both).
    let focus = view::focus::focus_png(&mid, &mid_opts, None)
        .expect("png")
        .expect("a close-up");
    println!("HexiMeros close-up PNG: {} bytes", focus.len());
    c.bench_function("heximeros focus crop 720px (5 round moves)", |b| {
        b.iter(|| view::focus::focus_png(black_box(&mid), &mid_opts, None).expect("png"))
    });
    let staged = ViewOptions {
        staged: Some(mid.legal_moves()[0].clone()),
        ..ViewOptions::default()
    };
    c.bench_function("heximeros preview focus 720px", |b| {
        b.iter(|| view::focus::focus_png(black_box(&mid), &staged, None).expect("png"))
    });
    c.bench_function("heximeros whole turn pictures (focus + full)", |b| {
        b.iter(|| {
            (
                view::focus::focus_png(black_box(&mid), &mid_opts, None).expect("png"),
                view::render_png(black_box(&mid), &mid_opts).expect("png"),
            )
        })
    });

    let (dame, played) = playout(GameKind::HexDame, 20, 3);
    let dame_opts = ViewOptions {
        last_moves: played[played.len() - 2..].to_vec(),
        ..ViewOptions::default()
    };
    let png = view::render_png(&dame, &dame_opts).expect("png");
    println!("HexDame PNG at its default size: {} bytes", png.len());
    c.bench_function("hexdame render+encode default size", |b| {
        b.iter(|| view::render_png(black_box(&dame), &dame_opts).expect("png"))
    });
    let dame_big = ViewOptions {
        size: Some(view::DEFAULT_SIZE),
        ..dame_opts.clone()
    };
    c.bench_function("hexdame render+encode 1600px", |b| {
        b.iter(|| view::render_png(black_box(&dame), &dame_big).expect("png"))
    });

    let (_, moves) = playout(GameKind::HexiMeros, 300, 5);
    let start = AnyGame::new(GameKind::HexiMeros, None, None).expect("start position");
    let gif = view::replay_gif(&start, &moves, &ViewOptions::default()).expect("gif");
    println!(
        "HexiMeros replay GIF, {} moves at {} px: {} bytes",
        moves.len(),
        view::REPLAY_SIZE,
        gif.len()
    );
    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    group.bench_function("heximeros 300-move replay gif", |b| {
        b.iter(|| {
            view::replay_gif(black_box(&start), &moves, &ViewOptions::default()).expect("gif")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
