//! Quick figures without criterion: median and best time of `render_png` for the sample boards,
//! their PNG sizes, and the 300-frame replay GIF's size and time.
//! `cargo run --release -p hexmeros-render --example timing [runs]` (also handy under `perf`).

use std::time::Instant;

use hexmeros_render::{Renderer, Theme, sample};

/// (best, median) in milliseconds of `runs` calls.
fn time(runs: usize, mut f: impl FnMut()) -> (f64, f64) {
    let mut ms: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    (ms[0], ms[ms.len() / 2])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(41);
    let renderer = Renderer::new()?;
    let big = sample::big_board();
    let small = sample::small_board();
    for (name, scene, size) in [
        ("649 cells", &big, 1600),
        ("61 cells", &small, 1600),
        ("61 cells", &small, 1024),
    ] {
        let theme = Theme::new(size);
        let bytes = renderer.render_png(scene, &theme)?.len();
        let (best, median) = time(runs, || {
            let _ = std::hint::black_box(renderer.render_png(scene, &theme));
        });
        println!(
            "{name} at {size} px: PNG {bytes} bytes, median {median:.2} ms, best {best:.2} ms"
        );
    }
    let frames = sample::replay(300);
    let t = Instant::now();
    let gif = renderer.replay_gif(&frames, &Theme::replay(), 500)?;
    println!(
        "300-frame replay at {} px: GIF {} bytes in {:.2} s",
        Theme::replay().size,
        gif.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
