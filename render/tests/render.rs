//! Whole pictures: sizes, decoding, a golden image, replays, rotation and bad input.
//!
//! The golden picture is `tests/golden/small.png`. After an intended change of look, look at
//! the new picture and regenerate it with
//! `UPDATE_GOLDEN=1 cargo test -p hexmeros-render --test render`.

#![allow(clippy::unwrap_used)]

use hexmeros_render::{
    Arrow, Badges, Glyph, GlyphState, HeaderLine, Hex, HexPoint, Label, Marker, Orientation,
    Picture, Plate, RenderError, Renderer, Rgba, Scene, Shape, Tag, Theme, Tile, Tray, render_png,
    render_rgba, replay_gif, sample,
};

/// A 19-cell hexagon with one of everything a scene can hold.
fn small_scene() -> Scene {
    let mut tiles = Vec::new();
    for q in -2i32..=2 {
        for r in -2i32..=2 {
            if (q + r).abs() <= 2 {
                let tone = sample::TONES[(q - r).rem_euclid(3) as usize];
                tiles.push(Tile::new((q, r), tone));
            }
        }
    }
    fn at(tiles: &mut [Tile], q: i32, r: i32) -> &mut Tile {
        tiles.iter_mut().find(|t| t.hex == Hex::new(q, r)).unwrap()
    }
    at(&mut tiles, 0, 0).glyph = Some(Glyph::new(Shape::Crown, sample::PLAYERS[2]));
    at(&mut tiles, 0, 0).markers.push(Marker::Check);
    at(&mut tiles, 1, 0).glyph = Some(Glyph::new(Shape::Horse, sample::PLAYERS[1]));
    at(&mut tiles, -1, 1).glyph = Some(Glyph::new(Shape::Pawn, sample::PLAYERS[5]).with_badges(
        Badges {
            hat: true,
            star: true,
            count: None,
            mark: None,
            plate: None,
        },
    ));
    at(&mut tiles, 0, -2).glyph =
        Some(Glyph::new(Shape::Tower, sample::PLAYERS[4]).with_state(GlyphState::Frozen));
    at(&mut tiles, 0, 2).glyph =
        Some(Glyph::new(Shape::ChessKnight, sample::PLAYERS[0]).with_state(GlyphState::Ghost));
    at(&mut tiles, 2, -2)
        .markers
        .push(Marker::Outline(sample::PLAYERS[3]));
    at(&mut tiles, 2, -1)
        .markers
        .push(Marker::Tint(Rgba::new(250, 230, 80, 120)));
    at(&mut tiles, -2, 0)
        .markers
        .push(Marker::Dot(Rgba::new(40, 40, 40, 160)));
    at(&mut tiles, -2, 2)
        .markers
        .push(Marker::Ring(Rgba::new(200, 30, 30, 200)));
    Scene {
        orientation: Orientation::FlatTop,
        rotation: 0,
        header: vec![
            HeaderLine::new("Golden"),
            HeaderLine::with_swatch("Yellow to move", sample::PLAYERS[2]),
        ],
        tiles,
        arrows: vec![Arrow {
            from: Hex::new(-1, -1),
            to: Hex::new(1, -1),
            colour: sample::PLAYERS[1].with_alpha(210),
            dashed: false,
            number: None,
        }],
        labels: vec![Label {
            at: HexPoint::new(0.0, -3.1),
            text: "Q1".into(),
            size: 0.45,
            colour: Rgba::rgb(220, 220, 210),
        }],
        tags: Vec::new(),
        trays: vec![Tray {
            caption: "Yellow took".into(),
            swatch: Some(sample::PLAYERS[2]),
            mark: None,
            plate: None,
            items: vec![Glyph::new(Shape::Mitre, sample::PLAYERS[3])],
        }],
    }
}

fn decode(png: &[u8]) -> image::RgbaImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .unwrap()
        .to_rgba8()
}

#[test]
fn a_png_decodes_with_the_long_side_asked_for() {
    for size in [200, 777, 1600] {
        let png = render_png(&small_scene(), &Theme::new(size)).unwrap();
        let img = decode(&png);
        assert_eq!(img.width().max(img.height()), size, "size {size}");
        assert!(img.width().min(img.height()) > size / 3);
    }
    let big = decode(&render_png(&sample::big_board(), &Theme::new(1600)).unwrap());
    assert_eq!(big.width().max(big.height()), 1600);
}

#[test]
fn rgba_matches_the_png() {
    let theme = Theme::new(300);
    let scene = small_scene();
    let Picture {
        width,
        height,
        rgba,
    } = render_rgba(&scene, &theme).unwrap();
    let img = decode(&render_png(&scene, &theme).unwrap());
    assert_eq!((img.width(), img.height()), (width, height));
    assert_eq!(img.into_raw(), rgba);
}

/// Share of pixels whose colour differs by more than `tolerance` in any channel.
fn differing(a: &image::RgbaImage, b: &image::RgbaImage, tolerance: u8) -> f64 {
    let n = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > tolerance))
        .count();
    n as f64 / f64::from(a.width() * a.height())
}

#[test]
fn the_small_scene_matches_its_golden_picture() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/small.png");
    let png = render_png(&small_scene(), &Theme::new(320)).unwrap();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &png).unwrap();
    }
    let golden = image::open(path)
        .expect("tests/golden/small.png is missing: run with UPDATE_GOLDEN=1")
        .to_rgba8();
    let ours = decode(&png);
    assert_eq!(
        (ours.width(), ours.height()),
        (golden.width(), golden.height())
    );
    // Anti-aliasing may move by a shade between CPUs or library versions; a change of look
    // (a colour, a shape, a moved label) touches far more than 0.5 % of the pixels.
    let share = differing(&ours, &golden, 24);
    assert!(
        share < 0.005,
        "{:.2} % of pixels differ from the golden picture",
        share * 100.0
    );
}

#[test]
fn the_golden_comparison_notices_a_change() {
    // Guards the test above: a small visible change must exceed its tolerance.
    let theme = Theme::new(320);
    let a = decode(&render_png(&small_scene(), &theme).unwrap());
    let mut scene = small_scene();
    scene.tiles[3].glyph = Some(Glyph::new(Shape::Bow, sample::PLAYERS[4]));
    let b = decode(&render_png(&scene, &theme).unwrap());
    assert!(differing(&a, &b, 24) > 0.005);
}

#[test]
fn a_seat_mark_is_drawn_on_the_piece_and_on_the_swatch() {
    let theme = Theme::new(320);
    let plain = small_scene();
    let a = decode(&render_png(&plain, &theme).unwrap());
    // On a piece: its owner's initial on a disc at the lower left.
    let mut marked = plain.clone();
    let g = Glyph::new(Shape::Horse, sample::PLAYERS[1]);
    let i = marked.tiles.iter().position(|t| t.glyph.is_some()).unwrap();
    marked.tiles[i].glyph = Some(g.with_badges(Badges {
        mark: Some('B'),
        ..Badges::default()
    }));
    let mut unmarked = plain.clone();
    unmarked.tiles[i].glyph = Some(g);
    let b = decode(&render_png(&marked, &theme).unwrap());
    let c = decode(&render_png(&unmarked, &theme).unwrap());
    assert!(differing(&b, &c, 24) > 0.0005);
    // Two letters look different.
    let mut other = marked.clone();
    other.tiles[i].glyph = Some(g.with_badges(Badges {
        mark: Some('G'),
        ..Badges::default()
    }));
    let d = decode(&render_png(&other, &theme).unwrap());
    assert!(differing(&b, &d, 24) > 0.0001);
    // On the header's swatch.
    let mut swatched = plain.clone();
    swatched.header[1] = HeaderLine::with_swatch("Blue holds the Token", sample::PLAYERS[1]);
    let e = decode(&render_png(&swatched, &theme).unwrap());
    swatched.header[1] = swatched.header[1].clone().with_mark(Some('B'));
    let f = decode(&render_png(&swatched, &theme).unwrap());
    assert!(differing(&e, &f, 24) > 0.0001);
    assert!(differing(&a, &e, 24) > 0.0);
}

#[test]
fn a_replay_gif_has_one_frame_per_scene() {
    let mut frames = Vec::new();
    for i in 0..7 {
        let mut s = small_scene();
        s.header[1].text = format!("Move {i}");
        s.tiles[i].glyph = Some(Glyph::new(Shape::Disc, Rgba::rgb(30, 30, 30)));
        frames.push(s);
    }
    // A frame equal to the previous one still counts.
    frames.push(frames[6].clone());
    let gif = replay_gif(&frames, &Theme::new(240), 100).unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(gif.as_slice()).unwrap();
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    assert_eq!(w.max(h), 240);
    let mut count = 0;
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        count += 1;
        delays.push(frame.delay);
    }
    assert_eq!(count, frames.len());
    assert_eq!(delays[0], 10);
    assert!(*delays.last().unwrap() >= 250, "the last frame is held");
}

#[test]
fn six_sixths_of_a_turn_change_nothing() {
    let theme = Theme::new(256);
    let plain = render_rgba(&small_scene(), &theme).unwrap();
    let mut turned = small_scene();
    turned.rotation = 6;
    assert_eq!(render_rgba(&turned, &theme).unwrap(), plain);
    turned.rotation = 3;
    assert_ne!(render_rgba(&turned, &theme).unwrap(), plain);
}

#[test]
fn pointy_topped_boards_render() {
    let png = render_png(&sample::small_board(), &Theme::new(400)).unwrap();
    assert_eq!(decode(&png).width().max(decode(&png).height()), 400);
}

#[test]
fn bad_sizes_and_themes_are_errors() {
    let scene = small_scene();
    for size in [0, 10, 63, 8193, u32::MAX] {
        assert!(matches!(
            render_png(&scene, &Theme::new(size)),
            Err(RenderError::BadSize { .. })
        ));
    }
    let mut theme = Theme::new(400);
    theme.grid_width = f32::NAN;
    assert_eq!(
        render_png(&scene, &theme),
        Err(RenderError::BadTheme("grid_width"))
    );
    theme = Theme::new(400);
    theme.tray_px = -3.0;
    assert_eq!(
        render_png(&scene, &theme),
        Err(RenderError::BadTheme("tray_px"))
    );
    assert_eq!(
        replay_gif(&[], &Theme::new(400), 100),
        Err(RenderError::NoFrames)
    );
}

#[test]
fn odd_scenes_render_without_panicking() {
    let theme = Theme::new(200);
    // Nothing at all.
    render_png(&Scene::default(), &theme).unwrap();
    // Only a header; only trays; only a label.
    let mut s = Scene::default();
    s.header.push(HeaderLine::new("x".repeat(500)));
    render_png(&s, &theme).unwrap();
    s.trays.push(Tray {
        caption: String::new(),
        swatch: None,
        mark: None,
        plate: None,
        items: vec![Glyph::new(Shape::Letter('\u{10FFFF}'), Rgba::WHITE); 300],
    });
    render_png(&s, &theme).unwrap();
    // Far-apart, duplicated and extreme coordinates, nonsense sizes and rotations.
    let mut s = small_scene();
    s.rotation = 255;
    s.tiles
        .push(Tile::new((i32::MAX, i32::MIN), Rgba::TRANSPARENT));
    s.tiles.push(s.tiles[0].clone());
    s.arrows.push(Arrow {
        from: Hex::new(0, 0),
        to: Hex::new(0, 0),
        colour: Rgba::BLACK,
        dashed: true,
        number: None,
    });
    for size in [f32::NAN, f32::INFINITY, -1.0, 0.0, 1e30] {
        s.labels.push(Label {
            at: HexPoint::new(f32::NAN, 1e30),
            text: "?".into(),
            size,
            colour: Rgba::BLACK,
        });
    }
    render_png(&s, &theme).unwrap();
    let mut theme = Theme::new(64);
    theme.glyph_scale = 64.0;
    theme.tray_px = 64.0;
    render_png(&s, &theme).unwrap();
}

#[test]
fn a_renderer_is_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Renderer>();
    let renderer = std::sync::Arc::new(Renderer::new().unwrap());
    let handles: Vec<_> = (0..2)
        .map(|i| {
            let r = renderer.clone();
            std::thread::spawn(move || {
                let mut s = small_scene();
                s.rotation = i;
                r.render_png(&s, &Theme::new(200)).unwrap().len()
            })
        })
        .collect();
    for h in handles {
        assert!(h.join().unwrap() > 0);
    }
}

#[test]
fn a_busy_picture_stays_under_a_mebibyte() {
    // Noise-like content defeats the fast level; the encoder must then compress harder. A
    // 1600 px page of one-pixel-apart labels and tiny cells is about the worst a scene can do.
    let mut s = Scene::default();
    for q in -60i32..=60 {
        for r in -60i32..=60 {
            if (q + r).abs() <= 60 {
                let c = ((q * 7 + r * 13).rem_euclid(251)) as u8;
                s.tiles
                    .push(Tile::new((q, r), Rgba::rgb(c, 255 - c, c / 2)));
            }
        }
    }
    let png = render_png(&s, &Theme::new(1600)).unwrap();
    assert!(png.len() <= 1 << 20, "{} bytes", png.len());
    decode(&png);
}

#[test]
fn a_label_is_as_wide_as_its_text_and_size() {
    let w = |t: &str, size: f32| hexmeros_render::label_width(t, size).unwrap();
    assert!(w("WWWW", 0.5) > w("iiii", 0.5));
    assert!((w("Regent", 1.0) - 2.0 * w("Regent", 0.5)).abs() < 1e-4);
    assert!(w("Regent Regent", 0.5) > 2.0 * w("Regent", 0.5));
    // Nonsense sizes are no label, as the page layout counts them.
    assert_eq!(w("Regent", f32::NAN), 0.0);
    assert_eq!(w("", 0.5), 0.0);
}

/// Pixels of exactly `colour` in a picture.
fn count_of(rgba: &[u8], colour: Rgba) -> usize {
    rgba.chunks_exact(4)
        .filter(|p| p[..3] == [colour.r, colour.g, colour.b])
        .count()
}

/// Hexagons of radius `radius` around the origin, plain, with a crown on the middle one when
/// `piece`, and a tag there.
fn tagged(radius: i32, piece: bool, floor: bool) -> Scene {
    let mut tiles = Vec::new();
    for q in -radius..=radius {
        for r in (-radius).max(-q - radius)..=radius.min(-q + radius) {
            tiles.push(Tile::new((q, r), Rgba::rgb(220, 212, 196)));
        }
    }
    if piece && let Some(t) = tiles.iter_mut().find(|t| t.hex == Hex::new(0, 0)) {
        t.glyph = Some(Glyph::new(Shape::Crown, Rgba::rgb(20, 20, 20)));
    }
    Scene {
        tiles,
        tags: vec![Tag {
            at: HexPoint::new(0.0, 0.3),
            text: "7".into(),
            size: 0.3,
            floor,
            fill: TAG_FILL,
            ink: Rgba::WHITE,
        }],
        ..Scene::default()
    }
}

const TAG_FILL: Rgba = Rgba::rgb(0, 201, 3);

/// Issue 45: a number is never hidden under a piece. A tag over a piece shows exactly as many
/// of its pixels as the same tag on an empty cell.
#[test]
fn a_tag_is_drawn_over_the_piece_under_it() {
    let theme = Theme::new(300);
    let over = render_rgba(&tagged(1, true, true), &theme).unwrap().rgba;
    let alone = render_rgba(&tagged(1, false, true), &theme).unwrap().rgba;
    let (n_over, n_alone) = (count_of(&over, TAG_FILL), count_of(&alone, TAG_FILL));
    assert!(n_alone > 100, "the tag shows {n_alone} pixels");
    assert_eq!(n_over, n_alone, "the piece covers part of the tag");
    assert_ne!(over, alone, "the piece is drawn");
}

/// A tag with a floor keeps `Theme::tag_px_min` on a board of small cells; without one it
/// shrinks with its cell.
#[test]
fn a_floored_tag_keeps_its_size_on_small_cells() {
    let theme = Theme::new(300);
    let big = render_rgba(&tagged(9, false, true), &theme).unwrap().rgba;
    let small = render_rgba(&tagged(9, false, false), &theme).unwrap().rgba;
    let (n_big, n_small) = (count_of(&big, TAG_FILL), count_of(&small, TAG_FILL));
    assert!(n_big > 2 * n_small, "{n_big} against {n_small}");
    // A disc 1.9 × tag_px_min across, less its edge.
    let d = 1.9 * theme.tag_px_min - 2.0 * (0.14 * theme.tag_px_min).max(1.0);
    let least = (std::f32::consts::PI * d * d / 4.0 * 0.6) as usize;
    assert!(n_big >= least, "{n_big} pixels, at least {least}");
}

/// The pixels on the line from `a` across to `b` (both in pixels), one per pixel step.
fn across(pic: &Picture, a: (f32, f32), b: (f32, f32)) -> Vec<[u8; 3]> {
    let n = ((b.0 - a.0).hypot(b.1 - a.1)).ceil() as usize;
    (0..=n)
        .map(|i| {
            let t = i as f32 / n.max(1) as f32;
            let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            let at = (y.round() as usize * pic.width as usize + x.round() as usize) * 4;
            [pic.rgba[at], pic.rgba[at + 1], pic.rgba[at + 2]]
        })
        .collect()
}

/// How many of `line`'s pixels are the marks' casing (within a little rounding).
fn casing_pixels(line: &[[u8; 3]]) -> usize {
    let c = hexmeros_render::MARK_CASING;
    line.iter()
        .filter(|p| {
            p.iter()
                .zip([c.r, c.g, c.b])
                .all(|(&v, w)| v.abs_diff(w) <= 6)
        })
        .count()
}

/// Issue 62: a pale Yellow arrow and outline on the pale cells keep a near-black casing at
/// least 2 px wide on each side (half a point on a phone showing 1600 px 390 points wide), in
/// the PNG and in the SVG alike.
#[test]
fn a_yellow_mark_on_a_pale_cell_is_cased_in_near_black() {
    let yellow = Rgba::rgb(230, 190, 0);
    let pale = sample::TONES[0];
    let tiles: Vec<Tile> = (-2i32..=2)
        .map(|q| {
            let mut t = Tile::new((q, 0), pale);
            if q == 2 {
                t.markers.push(Marker::Outline(yellow));
            }
            t
        })
        .collect();
    let scene = Scene {
        orientation: Orientation::FlatTop,
        rotation: 0,
        header: Vec::new(),
        tiles,
        arrows: vec![Arrow {
            from: Hex::new(-2, 0),
            to: Hex::new(1, 0),
            colour: yellow.with_alpha(205),
            dashed: false,
            number: None,
        }],
        labels: Vec::new(),
        tags: Vec::new(),
        trays: Vec::new(),
    };
    let theme = Theme::new(1600);
    let pic = render_rgba(&scene, &theme).unwrap();
    let board = hexmeros_render::board_layout(&scene, &theme).unwrap();
    let r = board.radius;
    // Across the arrow's shaft, halfway along it, from one cell's middle to the other side.
    let (ax, ay) = board.centre(Hex::new(-1, 0));
    let (bx, by) = board.centre(Hex::new(0, 0));
    let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
    let (ux, uy) = ((bx - ax) / r, (by - ay) / r);
    let (nx, ny) = (-uy, ux);
    let (nx, ny) = (nx / nx.hypot(ny), ny / nx.hypot(ny));
    let side = |k: f32| (mx + nx * k * r, my + ny * k * r);
    let (top, bottom) = (
        across(&pic, (mx, my), side(0.6)),
        across(&pic, (mx, my), side(-0.6)),
    );
    assert!(casing_pixels(&top) >= 2, "{top:?}");
    assert!(casing_pixels(&bottom) >= 2, "{bottom:?}");
    // Across the outlined cell, from its middle out to its edge.
    let (cx, cy) = board.centre(Hex::new(2, 0));
    let out = across(&pic, (cx, cy), (cx, cy - 0.85 * r));
    assert!(casing_pixels(&out) >= 3, "{out:?}");
    // The SVG draws the same casings.
    let svg = hexmeros_render::render_svg(&scene, &theme).unwrap();
    assert!(svg.contains("class=\"outline-casing\""));
    assert!(svg.contains("#1c1c22"), "the casing's colour");
}

/// Issue 62: a piece stands on its owner's shape, which shows round the piece in its colour
/// darkened, edged in its outline; six shapes, six pictures; the header's swatch takes the shape.
#[test]
fn a_seat_plate_shows_round_the_piece_and_on_the_swatch() {
    let theme = Theme::new(400);
    let tone = sample::TONES[0];
    let one = |plate: Option<Plate>| Scene {
        orientation: Orientation::FlatTop,
        rotation: 0,
        header: vec![
            HeaderLine::new("Plates"),
            HeaderLine::with_swatch("Blue holds the Token", sample::PLAYERS[1])
                .with_mark(Some('B'))
                .with_plate(plate),
        ],
        tiles: vec![Tile::new((0, 0), tone).with_glyph(
            Glyph::new(Shape::Pawn, sample::PLAYERS[1]).with_badges(Badges {
                plate,
                ..Badges::default()
            }),
        )],
        ..Scene::default()
    };
    let pics: Vec<Picture> = std::iter::once(None)
        .chain(Plate::ALL.map(Some))
        .map(|p| render_rgba(&one(p), &theme).unwrap())
        .collect();
    for (i, a) in pics.iter().enumerate() {
        for b in &pics[i + 1..] {
            assert_ne!(a.rgba, b.rgba, "two plates look alike");
        }
    }
    let board = hexmeros_render::board_layout(&one(None), &theme).unwrap();
    let (cx, cy) = board.centre(Hex::new(0, 0));
    let k = (theme.glyph_scale * board.radius).round() / 100.0;
    // Near the box's top left corner (box units (14, 18)): inside a square, outside a circle.
    let (x, y) = (
        (cx - 36.0 * k).round() as u32,
        (cy - 32.0 * k).round() as u32,
    );
    let px = |p: &Picture| {
        let i = ((y * p.width + x) * 4) as usize;
        [p.rgba[i], p.rgba[i + 1], p.rgba[i + 2]]
    };
    let cell = [tone.r, tone.g, tone.b];
    assert_eq!(px(&pics[0]), cell, "no plate: the cell");
    assert_eq!(px(&pics[1]), cell, "a circle leaves the corner");
    let dark = sample::PLAYERS[1].mix(Rgba::BLACK, 0.5);
    let square = px(&pics[2]);
    assert!(
        square
            .iter()
            .zip([dark.r, dark.g, dark.b])
            .all(|(&v, w)| v.abs_diff(w) <= 8),
        "a square's darkened corner: {square:?} against {dark:?}"
    );
}
