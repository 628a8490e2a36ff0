//! Picture speed: the 649-cell board (132 pieces, rim labels, header, trays) at 1600 px, the
//! 61-cell board (32 pieces), and a 300-frame replay GIF. Sizes in bytes are printed once.
//!
//! `cargo bench -p hexmeros-render --bench render`

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use hexmeros_render::{Renderer, Theme, sample};

fn boards(c: &mut Criterion) {
    let renderer = Renderer::new().expect("embedded fonts load");
    let big = sample::big_board();
    let small = sample::small_board();
    let pieces = |s: &hexmeros_render::Scene| s.tiles.iter().filter(|t| t.glyph.is_some()).count();
    for (name, scene, size) in [
        ("big_649_cells_1600px", &big, 1600),
        ("small_61_cells_1600px", &small, 1600),
        ("small_61_cells_1024px", &small, 1024),
    ] {
        let theme = Theme::new(size);
        let png = renderer.render_png(scene, &theme).expect("renders");
        eprintln!(
            "{name}: {} cells, {} pieces, {} labels, PNG {} bytes",
            scene.tiles.len(),
            pieces(scene),
            scene.labels.len(),
            png.len()
        );
        c.bench_function(&format!("png/{name}"), |b| {
            b.iter(|| renderer.render_png(black_box(scene), &theme))
        });
        c.bench_function(&format!("rgba/{name}"), |b| {
            b.iter(|| renderer.render_rgba(black_box(scene), &theme))
        });
    }
}

fn replay(c: &mut Criterion) {
    let renderer = Renderer::new().expect("embedded fonts load");
    let frames = sample::replay(300);
    let theme = Theme::replay();
    let gif = renderer.replay_gif(&frames, &theme, 500).expect("encodes");
    eprintln!(
        "replay_300_frames_{}px: GIF {} bytes",
        theme.size,
        gif.len()
    );
    let mut group = c.benchmark_group("gif");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("replay_300_frames", |b| {
        b.iter(|| renderer.replay_gif(black_box(&frames), &theme, 500))
    });
    group.finish();
}

criterion_group!(benches, boards, replay);
criterion_main!(benches);
