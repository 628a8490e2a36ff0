//! Harmegedo rules speed: move generation, playing a move, perft, and the check filter.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::Rules;
use hexmeros::games::harmegedo::{Harmegedo, HouseRules};

fn mid6() -> Harmegedo {
    Harmegedo::from_json(include_str!("../tests/data/positions/harmegedo_mid6.json"))
        .expect("mid-game position")
}

fn bench(c: &mut Criterion) {
    let start = Harmegedo::new_game(6, HouseRules::default()).expect("start");
    let mid = mid6();
    let mut setup = mid.to_setup();
    setup.house_rules.check_rules = true;
    let checked = Harmegedo::from_setup(setup).expect("mid-game position with check rules");
    c.bench_function("harmegedo legal_moves start (6 kingdoms)", |b| {
        b.iter(|| black_box(&start).legal_moves())
    });
    c.bench_function("harmegedo legal_moves mid-game (112 moves)", |b| {
        b.iter(|| black_box(&mid).legal_moves())
    });
    c.bench_function("harmegedo legal_moves mid-game, check_rules", |b| {
        b.iter(|| black_box(&checked).legal_moves())
    });
    let moves = mid.legal_moves();
    c.bench_function("harmegedo clone + play_unchecked (mid-game)", |b| {
        let mut i = 0;
        b.iter(|| {
            let mut g = mid.clone();
            g.play_unchecked(&moves[i % moves.len()]);
            i += 1;
            g
        })
    });
    c.bench_function("harmegedo parse_move (mid-game)", |b| {
        b.iter(|| mid.parse_move(black_box("0.e4-0.e5")))
    });
    c.bench_function("harmegedo perft 3 mid-game (168264 leaves)", |b| {
        b.iter(|| black_box(&mid).perft(3))
    });
    c.bench_function("harmegedo perft 4 start, 2 kingdoms (476100 leaves)", |b| {
        let two = Harmegedo::new_game(2, HouseRules::default()).expect("start");
        b.iter(|| black_box(&two).perft(4))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
