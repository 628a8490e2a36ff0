//! Hexmeister move generation (free path and straight line), playing an action, and perft.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::Rules;
use hexmeros::games::hexmeister::{Hexmeister, HouseRules};

fn position(name: &str) -> Hexmeister {
    let path = format!(
        "{}/tests/data/positions/hexmeister_{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let json = std::fs::read_to_string(path).expect("position file");
    Hexmeister::from_json(&json).expect("valid position")
}

fn bench(c: &mut Criterion) {
    let start = Hexmeister::new_game(2, HouseRules::default()).expect("start");
    let mid = position("mid1");
    let centre = position("hm9");
    let straight = position("straight");
    for (name, g) in [
        ("start", &start),
        ("mid1", &mid),
        ("hm9", &centre),
        ("straight", &straight),
    ] {
        c.bench_function(&format!("hexmeister legal_moves {name}"), |b| {
            b.iter(|| black_box(g).legal_moves())
        });
    }
    c.bench_function("hexmeister play_unchecked mid1 (clone + play)", |b| {
        let moves = mid.legal_moves();
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % moves.len();
            let mut g = black_box(&mid).clone();
            g.play_unchecked(&moves[i]);
            g
        })
    });
    let mut g = c.benchmark_group("hexmeister perft");
    g.sample_size(10);
    g.bench_function("perft(4) start", |b| b.iter(|| black_box(&start).perft(4)));
    g.bench_function("perft(2) mid1", |b| b.iter(|| black_box(&mid).perft(2)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
