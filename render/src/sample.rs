//! Synthetic scenes for the benchmarks, tests and the `sample` example: boards shaped like the
//! bot's, filled with made-up pieces. They follow no game's rules; they exist to measure and to
//! look at. They also show a view author one way to build a scene.

use crate::scene::{
    Arrow, Badges, Glyph, GlyphState, HeaderLine, Hex, HexPoint, Label, Marker, Orientation, Rgba,
    Scene, Shape, Tile, Tray,
};

/// Six player colours in seat order (Silver, Blue, Yellow, Orange, Green, Red).
pub const PLAYERS: [Rgba; 6] = [
    Rgba::rgb(206, 210, 218),
    Rgba::rgb(44, 98, 222),
    Rgba::rgb(250, 208, 44),
    Rgba::rgb(246, 128, 28),
    Rgba::rgb(38, 160, 72),
    Rgba::rgb(214, 38, 40),
];

/// Three cell tones, so the three classes of "line" cells (`(q - r) mod 3`) are told apart.
pub const TONES: [Rgba; 3] = [
    Rgba::rgb(238, 232, 218),
    Rgba::rgb(206, 198, 180),
    Rgba::rgb(172, 162, 142),
];

/// The 649 cells with `max(|q - r|, |r - s|, |s - q|) <= 25` (a hexagon with zig-zag sides on a
/// flat-topped grid), in a fixed order.
pub fn big_board_cells() -> Vec<Hex> {
    let mut cells = Vec::new();
    for q in -25i32..=25 {
        for r in -25..=25 {
            let s = -q - r;
            if (q - r).abs().max((r - s).abs()).max((s - q).abs()) <= 25 {
                cells.push(Hex::new(q, r));
            }
        }
    }
    cells
}

/// The 61 cells of a hexagon of radius 4.
pub fn small_board_cells() -> Vec<Hex> {
    let mut cells = Vec::new();
    for q in -4i32..=4 {
        for r in -4i32..=4 {
            if (q + r).abs() <= 4 {
                cells.push(Hex::new(q, r));
            }
        }
    }
    cells
}

fn from_doubled(x: i32, y: i32) -> Hex {
    Hex::new(x, (y - x).div_euclid(2))
}

/// Rotates 60° clockwise on the display: `(q, r, s) -> (-s, -q, -r)`.
fn rotate(h: Hex) -> Hex {
    Hex::new(h.q + h.r, -h.q)
}

/// One army's layout in display coordinates `(x, y)` with the shape standing there: the
/// HexiMeros proposal of `rules/heximeros.md` §3.3, used here only as a plausible picture.
const ARMY: [(i32, i32, Shape); 22] = [
    (-5, -25, Shape::Tower),
    (-3, -25, Shape::Bow),
    (-1, -25, Shape::Diadem),
    (1, -25, Shape::Dagger),
    (3, -25, Shape::Bow),
    (5, -25, Shape::Tower),
    (-6, -24, Shape::Horse),
    (-4, -24, Shape::Ship),
    (-2, -24, Shape::Mitre),
    (0, -24, Shape::Crown),
    (2, -24, Shape::Mitre),
    (4, -24, Shape::Ship),
    (6, -24, Shape::Horse),
    (-2, -22, Shape::Pawn),
    (0, -22, Shape::Pawn),
    (2, -22, Shape::HattedPawn),
    (-5, -21, Shape::Pawn),
    (-3, -21, Shape::Pawn),
    (-1, -21, Shape::Pawn),
    (1, -21, Shape::Pawn),
    (3, -21, Shape::Pawn),
    (5, -21, Shape::Pawn),
];

/// Column letters A … Z, AA … AG for display column `x` (−16 … 16).
fn column_name(x: i32) -> String {
    let i = x + 16;
    if i < 26 {
        char::from(b'A' + i as u8).to_string()
    } else {
        format!("A{}", char::from(b'A' + (i - 26) as u8))
    }
}

/// A 649-cell flat-topped board with 132 pieces, rim labels, a header, highlighted moves, a
/// check, a staged preview, frozen pieces and six trays.
pub fn big_board() -> Scene {
    let cells = big_board_cells();
    let mut tiles: Vec<Tile> = cells
        .iter()
        .map(|&h| {
            let tone = TONES[(h.q - h.r).rem_euclid(3) as usize];
            Tile::new(h, tone)
        })
        .collect();
    let index = |h: Hex| cells.iter().position(|&c| c == h);
    // Tinted base lines: each army's two back half-rows.
    for (k, colour) in PLAYERS.iter().enumerate() {
        for x in -8..=8 {
            for y in [-25, -24] {
                if (x + y) % 2 != 0 {
                    continue;
                }
                let mut h = from_doubled(x, y);
                for _ in 0..k {
                    h = rotate(h);
                }
                if let Some(i) = index(h) {
                    tiles[i].fill = tiles[i].fill.mix(*colour, 0.3);
                }
            }
        }
    }
    if let Some(gz) = index(Hex::new(0, 0)) {
        tiles[gz].fill = Rgba::rgb(232, 184, 60);
    }
    for (k, &colour) in PLAYERS.iter().enumerate() {
        for &(x, y, shape) in &ARMY {
            let mut h = from_doubled(x, y);
            for _ in 0..k {
                h = rotate(h);
            }
            let mut glyph = Glyph::new(shape, colour);
            if k == 4 {
                glyph.state = GlyphState::Frozen;
            }
            if let Some(i) = index(h) {
                tiles[i].glyph = Some(glyph);
            }
        }
    }
    // A piece on Ground Zero with its bonus, a hatted piece, a check, a staged preview.
    if let Some(gz) = index(Hex::new(0, 0)) {
        tiles[gz].glyph = Some(Glyph::new(Shape::Horse, PLAYERS[1]).with_badges(Badges {
            star: true,
            ..Badges::default()
        }));
    }
    if let Some(i) = index(from_doubled(0, -24)) {
        tiles[i].markers.push(Marker::Check);
    }
    let mut arrows = Vec::new();
    for (k, &colour) in PLAYERS.iter().enumerate().take(4) {
        let mut from = from_doubled(-2 + k as i32, -12);
        let mut to = from_doubled(-2 + k as i32, -6);
        for _ in 0..k {
            from = rotate(from);
            to = rotate(to);
        }
        for h in [from, to] {
            if let Some(i) = index(h) {
                tiles[i].markers.push(Marker::Outline(colour));
            }
        }
        arrows.push(Arrow {
            from,
            to,
            colour: colour.with_alpha(210),
            dashed: false,
            number: None,
        });
    }
    let (from, to) = (from_doubled(0, -22), from_doubled(0, -16));
    if let Some(i) = index(to) {
        tiles[i].glyph = Some(Glyph::new(Shape::Pawn, PLAYERS[0]).with_state(GlyphState::Ghost));
        tiles[i].markers.push(Marker::Outline(PLAYERS[0]));
    }
    arrows.push(Arrow {
        from,
        to,
        colour: PLAYERS[0].with_alpha(220),
        dashed: true,
        number: None,
    });

    let labels = big_board_labels();
    let trays = big_board_trays();
    Scene {
        orientation: Orientation::FlatTop,
        rotation: 0,
        header: vec![
            HeaderLine::new("HexiMeros · game 12"),
            HeaderLine::with_swatch(
                "Move 57 · Blue holds the Token · Green eliminated",
                PLAYERS[1],
            ),
        ],
        tiles,
        arrows,
        labels,
        tags: Vec::new(),
        trays,
    }
}

/// The big board's coordinates on the rim like a chart's axes: column letters in a line above
/// and below the board, row numbers in a column on each side (every column and row meets one
/// of them).
fn big_board_labels() -> Vec<Label> {
    let mut labels = Vec::new();
    let colour = Rgba::rgb(214, 210, 200);
    for x in -16i32..=16 {
        for y in [-27.4, 27.4] {
            labels.push(Label {
                at: doubled_point(x as f32, y),
                text: column_name(x),
                size: 0.52,
                colour,
            });
        }
    }
    for y in -25i32..=25 {
        for x in [-17.5, 17.5] {
            labels.push(Label {
                at: doubled_point(x, y as f32),
                text: (y + 26).to_string(),
                size: 0.52,
                colour,
            });
        }
    }
    labels
}

/// The big board's six trays: each player's captures.
fn big_board_trays() -> Vec<Tray> {
    let names = ["Silver", "Blue", "Yellow", "Orange", "Green", "Red"];
    (0..6)
        .map(|k| Tray {
            caption: format!("{} took", names[k]),
            swatch: Some(PLAYERS[k]),
            mark: None,
            plate: None,
            items: (0..(k * 3) % 7)
                .map(|i| Glyph::new(ARMY[(i * 5 + k) % 22].2, PLAYERS[(k + 1 + i % 5) % 6]))
                .collect(),
        })
        .collect()
}

/// A fractional display (doubled) coordinate as a hex point.
fn doubled_point(x: f32, y: f32) -> HexPoint {
    HexPoint::new(x, (y - x) / 2.0)
}

/// A 61-cell pointy-topped hexagon of radius 4 with 16 discs a side, two kings and labels.
pub fn small_board() -> Scene {
    let cells = small_board_cells();
    let white = Rgba::rgb(244, 240, 232);
    let black = Rgba::rgb(40, 40, 46);
    // Sixteen men a side on the rows nearest each player (bottom rows first), a king each.
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by_key(|&i| (cells[i].r, cells[i].q));
    let mut tiles: Vec<Tile> = cells
        .iter()
        .map(|&h| Tile::new(h, TONES[(h.q - h.r).rem_euclid(3) as usize]))
        .collect();
    for (n, &i) in order.iter().enumerate() {
        let colour = if n < 16 {
            white
        } else if n >= cells.len() - 16 {
            black
        } else {
            continue;
        };
        let shape = if n == 2 || n == cells.len() - 3 {
            Shape::KingDisc
        } else {
            Shape::Disc
        };
        tiles[i].glyph = Some(Glyph::new(shape, colour));
    }
    let mut labels = Vec::new();
    let colour = Rgba::rgb(210, 206, 196);
    for r in -4i32..=4 {
        let (lo, hi) = ((-4 - r).max(-4), (4 - r).min(4));
        for q in [lo as f32 - 0.9, hi as f32 + 0.9] {
            labels.push(Label {
                at: HexPoint::new(q, r as f32),
                text: (r + 5).to_string(),
                size: 0.4,
                colour,
            });
        }
    }
    let used = tiles.iter().filter(|t| t.glyph.is_some()).count();
    Scene {
        orientation: Orientation::PointyTop,
        rotation: 0,
        header: vec![
            HeaderLine::new("HexDame"),
            HeaderLine::with_swatch(format!("White to move · {used} men"), white),
        ],
        tiles,
        arrows: vec![Arrow {
            from: Hex::new(1, -2),
            to: Hex::new(1, -1),
            colour: Rgba::rgb(60, 130, 240).with_alpha(210),
            dashed: false,
            number: None,
        }],
        labels,
        tags: Vec::new(),
        trays: vec![
            Tray {
                caption: "White took".into(),
                swatch: Some(white),
                mark: None,
                plate: None,
                items: vec![Glyph::new(Shape::Disc, black)],
            },
            Tray {
                caption: "Black took".into(),
                swatch: Some(black),
                mark: None,
                plate: None,
                items: vec![],
            },
        ],
    }
}

/// `n` frames of the big board in which one piece after another steps to a free neighbouring
/// cell, with the move's arrow and a changing header: a stand-in for a game's replay.
pub fn replay(n: usize) -> Vec<Scene> {
    let mut scene = big_board();
    scene.arrows.clear();
    for t in &mut scene.tiles {
        t.markers.clear();
    }
    let index: std::collections::HashMap<Hex, usize> = scene
        .tiles
        .iter()
        .enumerate()
        .map(|(i, t)| (t.hex, i))
        .collect();
    const STEPS: [(i32, i32); 6] = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut frames = Vec::with_capacity(n);
    let mut last: Option<(Hex, Hex)> = None;
    for turn in 0..n {
        let mut next = scene.clone();
        if let Some((from, to)) = last {
            next.arrows = vec![Arrow {
                from,
                to,
                colour: PLAYERS[turn % 6].with_alpha(210),
                dashed: false,
                number: None,
            }];
        }
        next.header[1] = HeaderLine::with_swatch(
            format!("Move {} · {} to move", turn + 1, turn % 6),
            PLAYERS[turn % 6],
        );
        frames.push(next);
        // Pick a piece and a free neighbour, deterministically.
        let pieces: Vec<usize> = (0..scene.tiles.len())
            .filter(|&i| scene.tiles[i].glyph.is_some())
            .collect();
        for _ in 0..32 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let Some(&i) = pieces.get((seed >> 33) as usize % pieces.len().max(1)) else {
                break;
            };
            let (dq, dr) = STEPS[(seed >> 20) as usize % 6];
            let from = scene.tiles[i].hex;
            let to = Hex::new(from.q + dq, from.r + dr);
            if let Some(&j) = index.get(&to)
                && scene.tiles[j].glyph.is_none()
            {
                scene.tiles[j].glyph = scene.tiles[i].glyph.take();
                last = Some((from, to));
                break;
            }
        }
    }
    frames
}
