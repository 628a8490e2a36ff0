//! HexaEquo engine speed: move generation in the opening and in the three mid-game positions of
//! the perft data, perft from the start, position JSON, and whole seeded random games.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::games::Rules;
use hexmeros::games::hexaequo::{HexaEquo, HouseRules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MID: [(&str, &str); 3] = [
    (
        "mid1",
        include_str!("../tests/data/positions/hexaequo_mid1.json"),
    ),
    (
        "mid2",
        include_str!("../tests/data/positions/hexaequo_mid2.json"),
    ),
    (
        "mid3",
        include_str!("../tests/data/positions/hexaequo_mid3.json"),
    ),
];

fn start() -> HexaEquo {
    HexaEquo::new_game(2, HouseRules::default()).expect("the opening")
}

fn bench(c: &mut Criterion) {
    let opening = start();
    c.bench_function("hexaequo/legal_moves/start", |b| {
        b.iter(|| black_box(&opening).legal_moves())
    });
    for (name, json) in MID {
        let g = HexaEquo::from_json(json).expect("perft data position");
        c.bench_function(&format!("hexaequo/legal_moves/{name}"), |b| {
            b.iter(|| black_box(&g).legal_moves())
        });
    }
    c.bench_function("hexaequo/perft/start/4", |b| {
        b.iter(|| black_box(&opening).perft(4))
    });
    let (_, mid2) = MID[1];
    let g = HexaEquo::from_json(mid2).expect("mid2");
    c.bench_function("hexaequo/perft/mid2/3", |b| {
        b.iter(|| black_box(&g).perft(3))
    });
    c.bench_function("hexaequo/json/round_trip/mid2", |b| {
        b.iter(|| HexaEquo::from_json(&black_box(&g).to_json()).expect("round trip"))
    });
    c.bench_function("hexaequo/playout/random_game", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut g = start();
            let mut plies = 0u32;
            loop {
                let moves = g.legal_moves();
                if moves.is_empty() {
                    break;
                }
                g.play_unchecked(&moves[rng.random_range(0..moves.len())]);
                plies += 1;
            }
            plies
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
