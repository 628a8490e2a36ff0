//! Unit tests of the SVG board: well-formed XML, one cell group per tile in the PNG's
//! coordinates, the definitions and colours of pieces, markers, arrows and tags, and the same
//! bytes for the same scene.

use std::collections::HashSet;

use roxmltree::{Document, Node};

use super::pieces::shape_id;
use super::*;
use crate::scene::{
    Arrow, Badges, Glyph, GlyphState, Hex, HexPoint, Label, Marker, Orientation, Plate, Shape, Tag,
};
use crate::{Renderer, sample, sprite};

fn renderer() -> Renderer {
    Renderer::new().expect("the embedded fonts load")
}

fn parse(svg: &str) -> Document<'_> {
    Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"))
}

fn has_class(n: &Node, class: &str) -> bool {
    n.attribute("class") == Some(class)
}

fn cells<'a>(doc: &'a Document<'a>) -> Vec<Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && has_class(n, "cell"))
        .collect()
}

fn float(n: &Node, name: &str) -> f32 {
    n.attribute(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {name} on {n:?}"))
}

fn int(n: &Node, name: &str) -> i32 {
    n.attribute(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no integer {name} on {n:?}"))
}

/// Every tile, in order, has its cell group with its coordinates; nothing of the header or
/// the trays is written.
#[test]
fn one_cell_group_per_tile_with_its_coordinates() {
    let r = renderer();
    let theme = Theme::new(1600);
    for scene in [sample::big_board(), sample::small_board()] {
        let svg = r.render_svg(&scene, &theme).expect("svg");
        let doc = parse(&svg);
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let cells = cells(&doc);
        assert_eq!(cells.len(), scene.tiles.len());
        for (cell, tile) in cells.iter().zip(&scene.tiles) {
            assert_eq!(
                (int(cell, "data-q"), int(cell, "data-r")),
                (tile.hex.q, tile.hex.r)
            );
            let hex = cell.first_element_child().expect("a hex");
            assert!(hex.has_tag_name("polygon"));
            let fill = &format!("#{:02x}{:02x}{:02x}", tile.fill.r, tile.fill.g, tile.fill.b);
            assert_eq!(hex.attribute("fill"), Some(fill.as_str()));
        }
        for line in &scene.header {
            assert!(
                !svg.contains(&line.text),
                "the header is drawn: {}",
                line.text
            );
        }
        for tray in &scene.trays {
            assert!(
                !svg.contains(&tray.caption),
                "a tray is drawn: {}",
                tray.caption
            );
        }
    }
}

/// A hexagon of radius 3 whose tiles have distinct colours and no pieces.
fn coloured(orientation: Orientation, rotation: u8) -> Scene {
    let mut scene = Scene {
        orientation,
        rotation,
        ..Scene::default()
    };
    for q in -3i32..=3 {
        for r in (-3).max(-q - 3)..=3.min(-q + 3) {
            let k = scene.tiles.len() as u8;
            let fill = Rgba::rgb(40 + k * 5, 250 - k * 3, 100 + (k % 7) * 20);
            scene.tiles.push(Tile::new((q, r), fill));
        }
    }
    scene.labels.push(Label {
        at: HexPoint::new(0.0, 4.0),
        text: "N".into(),
        size: 0.5,
        colour: Rgba::WHITE,
    });
    scene
}

/// Each cell's `data-x`/`data-y` is the centre the PNG's layout gives its tile, its hex's
/// corners are the layout's corners about it, and in the PNG that pixel is the tile's
/// colour: for every rotation and both orientations.
#[test]
fn cell_centres_are_the_pngs_for_every_rotation_and_orientation() {
    let r = renderer();
    let theme = Theme::new(320);
    for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
        for rotation in 0..6 {
            let mut big = sample::small_board();
            (big.orientation, big.rotation) = (orientation, rotation);
            for scene in [coloured(orientation, rotation), big] {
                let layout = r.board_layout(&scene, &theme).expect("layout");
                let corner = layout.corners()[0];
                let svg = r.render_svg(&scene, &theme).expect("svg");
                let doc = parse(&svg);
                let png = r.render_rgba(&scene, &theme).expect("png");
                for (cell, tile) in cells(&doc).iter().zip(&scene.tiles) {
                    let (x, y) = (float(cell, "data-x"), float(cell, "data-y"));
                    let (cx, cy) = layout.centre(tile.hex);
                    let at = format!("{orientation:?} rotation {rotation} {:?}", tile.hex);
                    assert!((x - cx).abs() <= 0.05 && (y - cy).abs() <= 0.05, "{at}");
                    let points = cell
                        .first_element_child()
                        .and_then(|p| p.attribute("points"))
                        .expect("points");
                    let first: Vec<f32> = points
                        .split(' ')
                        .next()
                        .map(|p| p.split(',').filter_map(|v| v.parse().ok()).collect())
                        .unwrap_or_default();
                    assert!((first[0] - (cx + corner.0)).abs() <= 0.05, "{at}");
                    assert!((first[1] - (cy + corner.1)).abs() <= 0.05, "{at}");
                    if tile.glyph.is_none() && tile.markers.is_empty() {
                        let i = 4 * (y as usize * png.width as usize + x as usize);
                        let f = tile.fill;
                        assert_eq!(png.rgba[i..i + 3], [f.r, f.g, f.b], "{at}");
                    }
                }
            }
        }
    }
}

/// The `viewBox` holds every cell and label, in whole pixels inside the PNG's page.
#[test]
fn the_view_box_is_the_board_in_png_pixels() {
    let r = renderer();
    let theme = Theme::new(600);
    for scene in [sample::big_board(), sample::small_board()] {
        let layout = r.board_layout(&scene, &theme).expect("layout");
        let svg = r.render_svg(&scene, &theme).expect("svg");
        let doc = parse(&svg);
        let view: Vec<f32> = doc
            .root_element()
            .attribute("viewBox")
            .map(|v| v.split(' ').filter_map(|n| n.parse().ok()).collect())
            .unwrap_or_default();
        let [x, y, w, h] = view[..] else {
            panic!("viewBox {view:?}");
        };
        assert!(view.iter().all(|v| v.fract() == 0.0), "{view:?}");
        assert!(x >= 0.0 && y >= 0.0, "{view:?}");
        assert!(x + w <= layout.width as f32 && y + h <= layout.height as f32);
        let [x0, y0, x1, y1] = layout.bounds.expect("a board");
        assert!(x <= x0 && y <= y0 && x + w >= x1 && y + h >= y1);
        for cell in cells(&doc) {
            let (cx, cy) = (float(&cell, "data-x"), float(&cell, "data-y"));
            assert!(cx > x && cx < x + w && cy > y && cy < y + h);
        }
    }
}

/// Every shape (and letter) is defined once, whatever its colours, badges and states, and
/// every `<use>` refers to a definition.
#[test]
fn every_use_refers_to_a_definition_made_once() {
    let mut scene = coloured(Orientation::FlatTop, 0);
    let shapes: Vec<Shape> = Shape::ALL
        .iter()
        .copied()
        .chain([Shape::Letter('Q'), Shape::Letter('<'), Shape::Letter('é')])
        .collect();
    for (i, tile) in scene.tiles.iter_mut().enumerate() {
        let shape = shapes[i % shapes.len()];
        let badges = Badges {
            hat: i % 3 == 0,
            star: i % 4 == 0,
            count: Some(i as u16 % 5),
            mark: (i % 2 == 0).then_some('B'),
            plate: (i % 7 != 6).then(|| Plate::ALL[i % Plate::ALL.len()]),
        };
        let state = [GlyphState::Normal, GlyphState::Frozen, GlyphState::Ghost][i % 3];
        let colour = sample::PLAYERS[i % 6];
        tile.glyph = Some(
            Glyph::new(shape, colour)
                .with_badges(badges)
                .with_state(state),
        );
    }
    let svg = renderer()
        .render_svg(&scene, &Theme::new(800))
        .expect("svg");
    let doc = parse(&svg);
    let defs = doc
        .descendants()
        .find(|n| n.has_tag_name("defs"))
        .expect("defs");
    let ids: Vec<&str> = defs
        .descendants()
        .filter_map(|n| n.attribute("id"))
        .collect();
    let unique: HashSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "an id is defined twice: {ids:?}");
    for shape in &shapes {
        assert!(
            unique.contains(shape_id(*shape).as_str()),
            "{shape:?} undefined"
        );
    }
    let defined_shapes = ids.iter().filter(|id| !id.ends_with("star")).count();
    // The shapes, the star, the hat and no check glow.
    assert_eq!(defined_shapes, shapes.len() + 1);
    let uses: Vec<Node> = doc
        .descendants()
        .filter(|n| n.has_tag_name("use"))
        .collect();
    assert!(uses.len() >= scene.tiles.len());
    for u in uses {
        let href = u.attribute("href").expect("href");
        let id = href.strip_prefix('#').expect("a local reference");
        assert!(unique.contains(id), "{href} is not defined");
    }
    let pieces = doc.descendants().filter(|n| has_class(n, "piece")).count();
    assert_eq!(pieces, scene.tiles.len());
}

/// Text is escaped, so the document parses and the text reads back as it was.
#[test]
fn text_is_escaped_and_reads_back() {
    let text = "<&\"'> A&B <b>";
    let mut scene = coloured(Orientation::PointyTop, 1);
    scene.labels.push(Label {
        at: HexPoint::new(-4.0, 0.0),
        text: text.into(),
        size: 0.5,
        colour: Rgba::rgb(200, 200, 200),
    });
    scene.tags.push(Tag {
        at: HexPoint::new(0.0, 0.0),
        text: text.into(),
        size: 0.4,
        floor: true,
        fill: Rgba::BLACK,
        ink: Rgba::WHITE,
    });
    let svg = renderer()
        .render_svg(&scene, &Theme::new(500))
        .expect("svg");
    assert!(!svg.contains(text));
    let doc = parse(&svg);
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(texts.iter().filter(|t| **t == text).count(), 2, "{texts:?}");
    assert!(texts.contains(&"N"));
}

/// The same scene gives the same bytes, from one renderer or another.
#[test]
fn the_same_scene_gives_the_same_bytes() {
    let theme = Theme::new(1000);
    let mut scene = sample::big_board();
    scene.rotation = 4;
    scene.arrows[0].number = Some(7);
    let a = renderer().render_svg(&scene, &theme).expect("svg");
    let warm = renderer();
    let b = warm.render_svg(&scene, &theme).expect("svg");
    let c = warm.render_svg(&scene.clone(), &theme).expect("svg");
    assert_eq!(a, b);
    assert_eq!(b, c);
}

/// The piece element of the tile at `hex`.
fn piece_at<'a>(doc: &'a Document<'a>, hex: Hex) -> Node<'a, 'a> {
    doc.descendants()
        .find(|n| {
            has_class(n, "piece")
                && n.attribute("data-q") == Some(&hex.q.to_string())
                && n.attribute("data-r") == Some(&hex.r.to_string())
        })
        .unwrap_or_else(|| panic!("no piece at {hex:?}"))
}

/// The colour of an attribute like `fill="#rrggbb"`.
fn colour(n: &Node, name: &str) -> Rgba {
    let hex = n
        .attribute(name)
        .and_then(|v| v.strip_prefix('#'))
        .unwrap_or_else(|| panic!("no colour {name} on {n:?}"));
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digits");
    Rgba::rgb(c(0), c(2), c(4))
}

/// A ghost is half transparent, a frozen piece greyed as in the PNG, a normal one neither.
#[test]
fn ghosts_are_translucent_and_frozen_pieces_grey() {
    let blue = sample::PLAYERS[1];
    let mut scene = coloured(Orientation::FlatTop, 0);
    let plain = Glyph::new(Shape::Horse, blue);
    for (i, state) in [GlyphState::Normal, GlyphState::Ghost, GlyphState::Frozen]
        .into_iter()
        .enumerate()
    {
        scene.tiles[i].glyph = Some(plain.with_state(state));
    }
    scene.tiles[3].glyph = Some(plain.with_state(GlyphState::Ghost).with_badges(Badges {
        count: Some(4),
        ..Badges::default()
    }));
    let svg = renderer()
        .render_svg(&scene, &Theme::new(500))
        .expect("svg");
    let doc = parse(&svg);
    let [normal, ghost, frozen, badged] = [0, 1, 2, 3].map(|i| piece_at(&doc, scene.tiles[i].hex));
    assert_eq!(normal.attribute("opacity"), None);
    assert_eq!(colour(&normal, "fill"), blue);
    assert_eq!(ghost.attribute("opacity"), Some("0.5"));
    assert_eq!(colour(&ghost, "fill"), blue);
    assert_eq!(badged.attribute("opacity"), Some("0.5"));
    assert!(badged.has_tag_name("g"), "a badged piece is a group");
    assert_eq!(frozen.attribute("opacity"), None);
    let grey = colour(&frozen, "fill");
    let (fill, outline) = sprite::colours(&plain.with_state(GlyphState::Frozen));
    assert_eq!(grey, fill.with_alpha(255));
    assert_eq!(colour(&frozen, "color"), outline.with_alpha(255));
    let spread = |c: Rgba| c.r.max(c.g).max(c.b) - c.r.min(c.g).min(c.b);
    assert!(spread(grey) * 3 < spread(blue), "{grey:?} is not grey");
}

/// The markers, the check, arrows (a dashed one), numbers and tags are all written, over
/// the pieces, and each tile's check glow is under its piece.
#[test]
fn markers_arrows_and_tags_are_drawn_in_the_pngs_order() {
    let mut scene = coloured(Orientation::FlatTop, 2);
    let t = &mut scene.tiles;
    t[0].glyph = Some(Glyph::new(Shape::Crown, sample::PLAYERS[2]));
    t[0].markers = vec![Marker::Check, Marker::Tint(Rgba::new(250, 230, 80, 120))];
    t[1].markers = vec![Marker::Outline(sample::PLAYERS[3]); 2];
    t[2].markers = vec![
        Marker::Dot(Rgba::new(0, 0, 0, 160)),
        Marker::Ring(Rgba::BLACK),
    ];
    scene.arrows = vec![
        Arrow {
            from: Hex::new(0, 0),
            to: Hex::new(2, -1),
            colour: Rgba::new(30, 90, 200, 200),
            dashed: true,
            number: Some(12),
        },
        Arrow {
            from: Hex::new(-2, 0),
            to: Hex::new(-2, 2),
            colour: Rgba::rgb(30, 90, 200),
            dashed: false,
            number: None,
        },
    ];
    scene.tags.push(Tag {
        at: HexPoint::new(1.0, 0.0),
        text: "7".into(),
        size: 0.3,
        floor: true,
        fill: Rgba::rgb(0, 200, 0),
        ink: Rgba::WHITE,
    });
    let svg = renderer()
        .render_svg(&scene, &Theme::new(500))
        .expect("svg");
    let doc = parse(&svg);
    let order: Vec<String> = doc
        .descendants()
        .filter_map(|n| {
            let class = n.attribute("class")?;
            Some(format!("{}.{class}", n.tag_name().name()))
        })
        .collect();
    let at = |name: &str| {
        order
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no {name} in {order:?}"))
    };
    assert!(at("polygon.tint") < at("g.check") && at("g.check") < at("use.piece"));
    assert!(at("use.piece") < at("circle.dot") && at("circle.dot") < at("circle.ring"));
    assert!(at("use.piece") < at("circle.check") && at("circle.check") < at("rect.tag"));
    assert_eq!(order.iter().filter(|c| *c == "polygon.outline").count(), 2);
    assert_eq!(
        order
            .iter()
            .filter(|c| *c == "polygon.outline-casing")
            .count(),
        2
    );
    assert!(at("polygon.outline-casing") < at("polygon.outline"));
    // The dashed shaft: its casing's dashes, then its colour's.
    let lines: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("line"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].attribute("stroke"), Some("#1c1c22"));
    let dashes = doc
        .descendants()
        .filter_map(|n| n.attribute("stroke-dasharray"));
    assert_eq!(dashes.count(), 2);
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert!(texts.contains(&"12") && texts.contains(&"7"), "{texts:?}");
    let gradient = doc
        .descendants()
        .find(|n| n.has_tag_name("radialGradient"))
        .expect("the check glow");
    assert_eq!(gradient.children().filter(|n| n.is_element()).count(), 3);
}

/// The sample boards stay well under 300 KB, and the big one's 132 pieces use a handful of
/// definitions.
#[test]
fn the_sample_boards_are_small() {
    let r = renderer();
    let theme = Theme::new(1600);
    let big = r.render_svg(&sample::big_board(), &theme).expect("svg");
    let small = r.render_svg(&sample::small_board(), &theme).expect("svg");
    assert!(big.len() < 220 * 1024, "{} bytes", big.len());
    assert!(small.len() < 40 * 1024, "{} bytes", small.len());
}

/// Scenes with nothing, or nonsense, still give a well-formed document.
#[test]
fn odd_scenes_give_well_formed_documents() {
    let r = renderer();
    let theme = Theme::new(200);
    let empty = r.render_svg(&Scene::default(), &theme).expect("svg");
    assert!(cells(&parse(&empty)).is_empty());
    let mut s = sample::small_board();
    s.rotation = 255;
    s.tiles
        .push(Tile::new((i32::MAX, i32::MIN), Rgba::TRANSPARENT));
    s.tiles.push(s.tiles[0].clone());
    s.tiles[1].glyph = Some(Glyph::new(Shape::Letter('\u{10FFFF}'), Rgba::WHITE));
    for size in [f32::NAN, f32::INFINITY, -1.0, 0.0, 1e30] {
        s.labels.push(Label {
            at: HexPoint::new(f32::NAN, 1e30),
            text: "\u{1}?".into(),
            size,
            colour: Rgba::BLACK,
        });
    }
    let svg = r.render_svg(&s, &theme).expect("svg");
    assert_eq!(cells(&parse(&svg)).len(), s.tiles.len());
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
    assert!(matches!(
        r.render_svg(&s, &Theme::new(10)),
        Err(crate::RenderError::BadSize { .. })
    ));
}

#[test]
fn numbers_are_short_and_never_negative_zero() {
    let mut out = Out(String::new());
    for (v, d) in [
        (1.0, 1),
        (-0.01, 1),
        (2.50, 2),
        (0.125, 3),
        (f32::NAN, 1),
        (-3.06, 1),
    ] {
        out.n(v, d);
        out.s(" ");
    }
    assert_eq!(out.0, "1 0 2.5 0.125 0 -3.1 ");
}
