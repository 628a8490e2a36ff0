//! Writes sample pictures (PNG, GIF and the boards' SVG) to /tmp so a person can look at them,
//! and prints their sizes:
//! `cargo run --release -p hexmeros-render --example sample [frames]`.

use std::time::Instant;

use hexmeros_render::{
    Badges, Glyph, GlyphState, Plate, Renderer, Rgba, Scene, Shape, Theme, Tile, sample,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let frames: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let renderer = Renderer::new()?;
    let theme = Theme::new(1600);

    let big = sample::big_board();
    let t = Instant::now();
    let png = renderer.render_png(&big, &theme)?;
    println!(
        "big board: {} bytes, {:?} (first render)",
        png.len(),
        t.elapsed()
    );
    std::fs::write("/tmp/hexmeros-big.png", &png)?;
    let t = Instant::now();
    let png = renderer.render_png(&big, &theme)?;
    println!("big board: {} bytes, {:?} (warm)", png.len(), t.elapsed());

    let t = Instant::now();
    for _ in 0..5 {
        renderer.render_rgba(&big, &theme)?;
    }
    println!("big board rgba: {:?} each", t.elapsed() / 5);

    let small = sample::small_board();
    let png = renderer.render_png(&small, &theme)?;
    println!("small board: {} bytes", png.len());
    std::fs::write("/tmp/hexmeros-small.png", &png)?;

    // Enlarged crops, to judge pieces at their real size.
    let picture = renderer.render_rgba(&big, &theme)?;
    crop(
        &picture,
        560,
        1040,
        360,
        260,
        3,
        "/tmp/hexmeros-crop-bottom.png",
    )?;
    crop(&picture, 0, 0, 420, 260, 3, "/tmp/hexmeros-crop-corner.png")?;
    crop(&picture, 40, 640, 300, 200, 3, "/tmp/hexmeros-crop-rim.png")?;
    crop(
        &picture,
        600,
        640,
        300,
        220,
        3,
        "/tmp/hexmeros-crop-centre.png",
    )?;

    let mut rotated = big.clone();
    rotated.rotation = 2;
    std::fs::write(
        "/tmp/hexmeros-rotated.png",
        renderer.render_png(&rotated, &Theme::new(900))?,
    )?;

    // Every shape in every player colour, at about board size.
    let mut sheet = Scene::default();
    for (i, shape) in Shape::ALL.iter().chain(&[Shape::Letter('Q')]).enumerate() {
        for (k, &colour) in sample::PLAYERS.iter().enumerate() {
            let q = i as i32;
            let r = k as i32 - q / 2;
            let tone = sample::TONES[(q + k as i32) as usize % 3];
            sheet
                .tiles
                .push(Tile::new((q, r), tone).with_glyph(Glyph::new(*shape, colour)));
        }
        let q = i as i32;
        sheet.tiles.push(
            Tile::new((q, 6 - q / 2), Rgba::rgb(60, 60, 66))
                .with_glyph(Glyph::new(*shape, Rgba::rgb(40, 40, 46))),
        );
        // States and badges.
        let red = Glyph::new(*shape, sample::PLAYERS[5]);
        let looks = [
            red.with_state(GlyphState::Frozen),
            red.with_state(GlyphState::Ghost),
            red.with_badges(Badges {
                hat: true,
                star: true,
                count: None,
                mark: None,
                plate: None,
            }),
            red.with_badges(Badges {
                hat: false,
                star: false,
                count: Some(12),
                mark: Some('R'),
                plate: Some(Plate::Square),
            }),
        ];
        for (k, g) in looks.into_iter().enumerate() {
            let r = 7 + k as i32 - q / 2;
            sheet
                .tiles
                .push(Tile::new((q, r), sample::TONES[k % 3]).with_glyph(g));
        }
    }
    std::fs::write(
        "/tmp/hexmeros-shapes.png",
        renderer.render_png(&sheet, &Theme::new(1600))?,
    )?;
    // The same sheet at about the big board's cell size.
    std::fs::write(
        "/tmp/hexmeros-shapes-small.png",
        renderer.render_png(&sheet, &Theme::new(1000))?,
    )?;

    // One piece with every badge, large.
    let mut one = Scene::default();
    let tone = sample::TONES[0];
    let g = Glyph::new(Shape::Pawn, sample::PLAYERS[5]).with_badges(Badges {
        hat: true,
        star: true,
        count: Some(12),
        mark: Some('R'),
        plate: Some(Plate::Square),
    });
    one.tiles.push(Tile::new((0, 0), tone).with_glyph(g));
    one.tiles.push(Tile::new((1, 0), tone).with_glyph(
        Glyph::new(Shape::Tower, sample::PLAYERS[1]).with_badges(Badges {
            hat: true,
            star: false,
            count: Some(3),
            mark: None,
            plate: None,
        }),
    ));
    std::fs::write(
        "/tmp/hexmeros-badges.png",
        renderer.render_png(&one, &Theme::new(400))?,
    )?;

    // The boards as SVG, for the web page (board only: no header, no trays).
    for (name, scene) in [("big", &big), ("small", &small), ("shapes", &sheet)] {
        let svg = renderer.render_svg(scene, &theme)?;
        println!("{name} board svg: {} bytes", svg.len());
        std::fs::write(format!("/tmp/hexmeros-{name}.svg"), svg)?;
    }

    if frames > 0 {
        let scenes = sample::replay(frames);
        let t = Instant::now();
        let gif = renderer.replay_gif(&scenes, &Theme::replay(), 120)?;
        println!(
            "replay: {} frames, {} bytes, {:?}",
            frames,
            gif.len(),
            t.elapsed()
        );
        std::fs::write("/tmp/hexmeros-replay.gif", &gif)?;
        let (w, h, last) = last_gif_frame(&gif)?;
        image::RgbaImage::from_raw(w, h, last)
            .ok_or("bad frame")?
            .save("/tmp/hexmeros-replay-last.png")?;
    }
    Ok(())
}

/// Writes the `w × h` rectangle at `(x, y)` of a picture, each pixel enlarged `k` times.
fn crop(
    p: &hexmeros_render::Picture,
    x: u32,
    y: u32,
    w: u32,
    h: u32,
    k: u32,
    path: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut out = image::RgbaImage::new(w * k, h * k);
    for (ox, oy, px) in out.enumerate_pixels_mut() {
        let (sx, sy) = (
            (x + ox / k).min(p.width - 1),
            (y + oy / k).min(p.height - 1),
        );
        let i = ((sy * p.width + sx) * 4) as usize;
        *px = image::Rgba([p.rgba[i], p.rgba[i + 1], p.rgba[i + 2], p.rgba[i + 3]]);
    }
    out.save(path)?;
    Ok(())
}

/// Plays a GIF to its end and returns the final picture (width, height, RGBA).
fn last_gif_frame(gif: &[u8]) -> Result<(u32, u32, Vec<u8>), Box<dyn std::error::Error>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(gif)?;
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut canvas = vec![0u8; (w * h * 4) as usize];
    while let Some(frame) = decoder.read_next_frame()? {
        for y in 0..u32::from(frame.height) {
            for x in 0..u32::from(frame.width) {
                let s = ((y * u32::from(frame.width) + x) * 4) as usize;
                if frame.buffer[s + 3] == 0 {
                    continue;
                }
                let (cx, cy) = (x + u32::from(frame.left), y + u32::from(frame.top));
                let d = ((cy * w + cx) * 4) as usize;
                canvas[d..d + 4].copy_from_slice(&frame.buffer[s..s + 4]);
            }
        }
    }
    Ok((w, h, canvas))
}
