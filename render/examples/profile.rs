//! Renders the big sample board in a loop, for `perf`:
//! `cargo run --release -p hexmeros-render --example profile [iterations] [png|rgba]`.

use hexmeros_render::{Renderer, Theme, sample};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let png = std::env::args().nth(2).is_none_or(|m| m == "png");
    let renderer = Renderer::new()?;
    let theme = Theme::new(1600);
    let scene = sample::big_board();
    let mut bytes = 0;
    for _ in 0..n {
        bytes += if png {
            renderer.render_png(&scene, &theme)?.len()
        } else {
            renderer.render_rgba(&scene, &theme)?.rgba.len()
        };
    }
    println!("{} bytes per picture", bytes / n.max(1));
    Ok(())
}
