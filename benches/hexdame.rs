//! HexDame move generation benchmarks: perft from the start (the target is perft(4) under
//! 50 ms in release) and single generations in a king middle game and a long king capture.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::Rules;
use hexmeros::games::hexdame::{HexDame, HouseRules};

const KINGS: &str = include_str!("../tests/data/positions/hexdame_kings.json");
const SWEEP: &str = include_str!("../tests/data/positions/hexdame_sweep.json");

fn position(json: &str) -> HexDame {
    HexDame::from_json(json).unwrap_or_else(|e| panic!("bench position: {e}"))
}

fn benches(c: &mut Criterion) {
    let start = HexDame::new_game(2, HouseRules::default())
        .unwrap_or_else(|e| panic!("start position: {e}"));
    let kings = position(KINGS);
    let sweep = position(SWEEP);

    c.bench_function("hexdame perft 4 start", |b| {
        b.iter(|| black_box(&start).perft(4))
    });
    c.bench_function("hexdame perft 5 start", |b| {
        b.iter(|| black_box(&start).perft(5))
    });
    c.bench_function("hexdame perft 4 kings middle game", |b| {
        b.iter(|| black_box(&kings).perft(4))
    });
    c.bench_function("hexdame legal_moves start", |b| {
        b.iter(|| black_box(&start).legal_moves())
    });
    c.bench_function("hexdame legal_moves kings middle game", |b| {
        b.iter(|| black_box(&kings).legal_moves())
    });
    c.bench_function("hexdame legal_moves seven-piece king capture", |b| {
        b.iter(|| black_box(&sweep).legal_moves())
    });
}

criterion_group!(hexdame, benches);
criterion_main!(hexdame);
