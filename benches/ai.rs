//! Bot search time (issue 8: `normal` within 1 s, `hard` within 5 s): one search of each level
//! in each game's slowest stored middle games, with the level's default node budget (so the same
//! work every iteration), and, in the games of three or more seats, also with each search kind
//! (`…/paranoid`, `…/brs`, issue 21). `hexmeros ai budget` measures the same searches in CPU
//! time.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros::ai::{Level, Limits, SearchKind, choose_searching, choose_with};
use hexmeros::games::AnyGame;

const POSITIONS: [(&str, &str); 6] = [
    (
        "heximeros_mid4",
        include_str!("../tests/data/positions/heximeros_mid4.json"),
    ),
    // A Check in force on a seat that does not reply: Best-Reply Search+ asks at every leaf which
    // capture that seat may make under its relief duty (12.8 s for hard before `best_capture`).
    (
        "heximeros_check",
        include_str!("../tests/data/positions/heximeros_check.json"),
    ),
    (
        "hexdame_men",
        include_str!("../tests/data/positions/hexdame_men.json"),
    ),
    (
        "hexmeister_mid1",
        include_str!("../tests/data/positions/hexmeister_mid1.json"),
    ),
    (
        "hexaequo_mid1",
        include_str!("../tests/data/positions/hexaequo_mid1.json"),
    ),
    (
        "harmegedo_mid6",
        include_str!("../tests/data/positions/harmegedo_mid6.json"),
    ),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (name, json) in POSITIONS {
        let g = AnyGame::from_json(json).expect("a stored position");
        for level in [Level::Normal, Level::Hard] {
            group.bench_function(format!("{name}/{level}"), |b| {
                b.iter(|| choose_with(black_box(&g), level, 1, Limits::default()).expect("a move"))
            });
            if g.seat_count() > 2 {
                for kind in SearchKind::ALL {
                    group.bench_function(format!("{name}/{level}/{kind}"), |b| {
                        b.iter(|| {
                            choose_searching(black_box(&g), level, kind, 1, Limits::default())
                                .expect("a move")
                        })
                    });
                }
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
