//! HexiMeros move generation and perft. Target (issue 2): perft(3) from the start position in
//! under 0.3 s in release on the 2-core CI machine.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::Rules;
use hexmeros::games::heximeros::{HexiMeros, HouseRules};

fn position(name: &str) -> HexiMeros {
    let path = format!(
        "{}/tests/data/positions/heximeros_{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let json = std::fs::read_to_string(path).expect("position file");
    HexiMeros::from_json(&json).expect("valid position")
}

fn bench(c: &mut Criterion) {
    let start = HexiMeros::start(HouseRules::default());
    let mid = position("mid1");
    c.bench_function("heximeros legal_moves start", |b| {
        b.iter(|| black_box(&start).legal_moves())
    });
    c.bench_function("heximeros legal_moves mid1", |b| {
        b.iter(|| black_box(&mid).legal_moves())
    });
    c.bench_function("heximeros play+undo-by-clone mid1", |b| {
        let m = mid.legal_moves()[0];
        b.iter(|| {
            let mut g = black_box(&mid).clone();
            g.play_unchecked(&m);
            g
        })
    });
    c.bench_function("heximeros check_targets+challengers mid1", |b| {
        let moves = mid.legal_moves();
        b.iter(|| {
            let m = &moves[moves.len() / 2];
            (mid.check_targets(m), mid.challengers(m))
        })
    });
    let mut g = c.benchmark_group("heximeros perft");
    g.sample_size(10);
    g.bench_function("perft(3) start", |b| b.iter(|| black_box(&start).perft(3)));
    g.bench_function("perft(2) mid1", |b| b.iter(|| black_box(&mid).perft(2)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
