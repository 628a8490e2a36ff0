//! The board pictures of the `view` module: one golden picture per game, every HexiMeros piece
//! look distinct, rotation to a seat, highlights, staged previews, checks, trays, replays and
//! bad input.
//!
//! Golden pictures live in `tests/data/golden/<game>.png`. After an intended change of look,
//! look at the new pictures and regenerate them with
//! `UPDATE_GOLDEN=1 cargo test --test rules view_golden::`. The docs' pictures (`docs/board-*.png`)
//! show the same positions and are written by `cargo run --release --example docs_pictures`.

#![allow(clippy::unwrap_used)]

use hexmeros_testkit::golden;

use golden::{decode, differing, golden_position, playout};
use hexmeros::games::{AnyGame, GameKind, Seat};
use hexmeros::view::{self, ViewOptions};
use hexmeros_render::layout::hex_to_world;
use hexmeros_render::{Glyph, HexPoint, Marker, Scene, Theme, Tile, render_rgba};

const GOLDEN_SIZE: u32 = 640;

#[test]
fn every_game_matches_its_golden_picture() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
    let mut failures = Vec::new();
    for kind in GameKind::ALL {
        let (game, mut opts) = golden_position(kind);
        opts.size = Some(GOLDEN_SIZE);
        let png = view::render_png(&game, &opts).unwrap();
        let ours = decode(&png);
        assert_eq!(ours.width().max(ours.height()), GOLDEN_SIZE, "{kind}");
        let path = format!("{dir}/{}.png", kind.key());
        failures.extend(golden::compare(&png, &path, &kind.to_string()));
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn the_golden_comparison_notices_one_more_highlighted_move() {
    let (game, mut opts) = golden_position(GameKind::HexDame);
    opts.size = Some(GOLDEN_SIZE);
    let a = view::render_png(&game, &opts).unwrap();
    opts.last_moves.remove(0);
    let b = view::render_png(&game, &opts).unwrap();
    assert!(differing(decode(&a).as_raw(), decode(&b).as_raw(), 24) > 0.001);
}

/// The rim labels of a scene: the coordinate labels in the rim colour.
fn rim_labels(scene: &Scene) -> Vec<&hexmeros_render::Label> {
    let rim = hexmeros_render::Rgba::rgb(214, 210, 200);
    scene.labels.iter().filter(|l| l.colour == rim).collect()
}

#[test]
fn rim_labels_are_readable_on_a_phone() {
    for kind in GameKind::ALL {
        let (game, opts) = golden_position(kind);
        // The picture as the bot posts it: its default size.
        let png = view::render_png(&game, &opts).unwrap();
        let img = decode(&png);
        let (width, long) = (img.width(), img.width().max(img.height()));
        let scene = view::scene(&game, &opts).unwrap();
        let theme = view::theme(long);
        // A label drawn in capitals, digits or tall lower-case letters only.
        let i = scene
            .labels
            .iter()
            .position(|l| {
                l.colour == hexmeros_render::Rgba::rgb(214, 210, 200)
                    && l.text
                        .chars()
                        .all(|c| c.is_ascii_digit() || "ABCDEFGHIKLMNOPRSTUVWXYZbdhk".contains(c))
            })
            .unwrap_or_else(|| panic!("{kind}: no rim label to measure"));
        let mut hidden = scene.clone();
        hidden.labels[i].colour = theme.background;
        let a = render_rgba(&scene, &theme).unwrap();
        let b = render_rgba(&hidden, &theme).unwrap();
        assert_eq!((a.width, a.height), (img.width(), img.height()), "{kind}");
        let (mut top, mut bottom) = (u32::MAX, 0);
        for (n, (p, q)) in a
            .rgba
            .chunks_exact(4)
            .zip(b.rgba.chunks_exact(4))
            .enumerate()
        {
            if p.iter().zip(q).any(|(x, y)| x.abs_diff(*y) > 40) {
                let y = n as u32 / a.width;
                top = top.min(y);
                bottom = bottom.max(y);
            }
        }
        assert!(
            top <= bottom,
            "{kind}: the label {:?} is not drawn",
            scene.labels[i].text
        );
        // The picture opened on a phone fills about 400 dp of width.
        let dp = (bottom - top + 1) as f32 * 400.0 / width as f32;
        // HexiMeros has 51 rows and 33 columns round a rim of about 90 cells, Harmegedo 66
        // files round its ring: set one label a line, each right at its line's end and none
        // staggered behind another, a label can be about a cell wide, so their labels are
        // smaller than the other boards' (the close-up is the phone's picture of those boards).
        let least = match kind {
            GameKind::HexiMeros => 5.5,
            GameKind::Harmegedo => 6.0,
            _ => 7.8,
        };
        assert!(
            dp >= least,
            "{kind}: the rim label {:?} is {dp:.1} dp tall on a phone",
            scene.labels[i].text
        );
    }
}

#[test]
fn every_board_line_has_one_rim_label_and_none_crowds_another() {
    for kind in GameKind::ALL {
        let (game, opts) = golden_position(kind);
        let scene = view::scene(&game, &opts).unwrap();
        let labels = rim_labels(&scene);
        let mut texts: Vec<&str> = labels.iter().map(|l| l.text.as_str()).collect();
        let expected = match kind {
            // 33 columns A … AG, 51 rows 1 … 51.
            GameKind::HexiMeros => 33 + 51,
            // Files a … i, rows 1 … 9.
            GameKind::HexDame => 9 + 9,
            // Files a … k, rows 1 … 11.
            GameKind::Hexmeister => 11 + 11,
            // 66 files round the ring (a … k in each of 6 sectors, the corner files j, k too),
            // and beside each kingdom the numbers of its 2 outer ranks, set in the rim's gap
            // (the corner file that carries the other rank numbers is void there).
            GameKind::Harmegedo => 66 + 6 * 2,
            // The lines of the tiles laid so far.
            GameKind::HexaEquo => texts.len(),
        };
        assert_eq!(labels.len(), expected, "{kind}: {texts:?}");
        if kind != GameKind::Harmegedo {
            texts.sort();
            texts.dedup();
            assert_eq!(texts.len(), expected, "{kind}: a line labelled twice");
        }
        let boxes: Vec<[f32; 4]> = labels
            .iter()
            .map(|l| {
                let (x, y) = hex_to_world(scene.orientation, scene.rotation, l.at);
                let w = hexmeros_render::label_width(&l.text, l.size).unwrap() / 2.0;
                let h = l.size / 2.0;
                [x - w, y - h, x + w, y + h]
            })
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                let overlap = a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
                assert!(
                    !overlap,
                    "{kind}: rim labels {:?} and {:?} overlap",
                    labels[i].text, labels[j].text
                );
            }
        }
    }
}

#[test]
fn no_rim_label_stands_behind_another_of_its_kind() {
    for kind in GameKind::ALL {
        let (game, opts) = golden_position(kind);
        let scene = view::scene(&game, &opts).unwrap();
        let world = |p: HexPoint| hex_to_world(scene.orientation, scene.rotation, p);
        let centres: Vec<(f32, f32)> = scene
            .tiles
            .iter()
            .map(|t| world(HexPoint::from(t.hex)))
            .collect();
        let labels = rim_labels(&scene);
        let boxes: Vec<[f32; 4]> = labels
            .iter()
            .map(|l| {
                let (x, y) = world(l.at);
                let w = hexmeros_render::label_width(&l.text, l.size).unwrap() / 2.0;
                let h = l.size / 2.0;
                [x - w, y - h, x + w, y + h]
            })
            .collect();
        let mut worst = 0.0f32;
        for (i, l) in labels.iter().enumerate() {
            let (x, y) = world(l.at);
            let (cx, cy) = centres
                .iter()
                .copied()
                .min_by(|a, b| {
                    let da = (a.0 - x).hypot(a.1 - y);
                    let db = (b.0 - x).hypot(b.1 - y);
                    da.total_cmp(&db)
                })
                .unwrap();
            let b = boxes[i];
            worst = worst.max((cx - cx.clamp(b[0], b[2])).hypot(cy - cy.clamp(b[1], b[3])));
            // The straight way from the label to the board's nearest cell crosses no other
            // label of its kind (numbers, letters): each kind stands in one row round the
            // board, not staggered in two or more.
            let digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
            for k in 0..=40 {
                let t = k as f32 / 40.0;
                let (px, py) = (x + t * (cx - x), y + t * (cy - y));
                for (j, b) in boxes.iter().enumerate() {
                    let kin = digits(&labels[j].text) == digits(&l.text);
                    assert!(
                        j == i || !kin || !(b[0] < px && px < b[2] && b[1] < py && py < b[3]),
                        "{kind}: the rim label {:?} stands behind {:?}",
                        l.text,
                        labels[j].text
                    );
                }
            }
        }
        // And none is far out: within a few hex radii of a cell.
        assert!(
            worst < 3.0,
            "{kind}: a rim label {worst:.1} hex radii from the board"
        );
    }
}

#[test]
fn six_colour_games_mark_each_piece_and_swatch_with_its_seats_initial() {
    use hexmeros::view::{PLAYER_COLOURS, SEAT_MARKS};
    let mut marks = SEAT_MARKS.to_vec();
    marks.sort();
    marks.dedup();
    assert_eq!(marks.len(), 6, "one initial per seat");
    for kind in [GameKind::HexiMeros, GameKind::Harmegedo] {
        let (game, opts) = golden_position(kind);
        let scene = view::scene(&game, &opts).unwrap();
        let mut seen = 0;
        for t in &scene.tiles {
            let Some(g) = t.glyph else { continue };
            seen += 1;
            // A frozen piece is grey; its letter still says whose it was.
            let mark = g
                .badges
                .mark
                .unwrap_or_else(|| panic!("{kind}: a piece without a mark"));
            if g.state == hexmeros_render::GlyphState::Normal {
                let seat = PLAYER_COLOURS.iter().position(|&c| c == g.fill).unwrap();
                assert_eq!(mark, SEAT_MARKS[seat], "{kind}: a piece of seat {seat}");
            }
        }
        assert!(seen > 20, "{kind}");
        let holder = &scene.header[1];
        let seat = PLAYER_COLOURS
            .iter()
            .position(|&c| Some(c) == holder.swatch)
            .unwrap();
        assert_eq!(holder.mark, Some(SEAT_MARKS[seat]), "{kind}: {holder:?}");
        for tray in &scene.trays {
            let seat = PLAYER_COLOURS
                .iter()
                .position(|&c| Some(c) == tray.swatch)
                .unwrap();
            assert_eq!(
                tray.mark,
                Some(SEAT_MARKS[seat]),
                "{kind}: {}",
                tray.caption
            );
        }
    }
    // Two-colour games need none.
    let (game, opts) = golden_position(GameKind::HexDame);
    let scene = view::scene(&game, &opts).unwrap();
    assert!(
        scene
            .tiles
            .iter()
            .filter_map(|t| t.glyph)
            .all(|g| g.badges.mark.is_none())
    );
}

#[test]
fn harmegedo_shows_rank_numbers_and_names_kingdoms_in_words() {
    let (game, opts) = golden_position(GameKind::Harmegedo);
    let scene = view::scene(&game, &opts).unwrap();
    // Every rank number, once beside each of the six kingdoms.
    for rank in 1..=8 {
        let n = scene
            .labels
            .iter()
            .filter(|l| l.text == rank.to_string())
            .count();
        assert_eq!(n, 6, "rank {rank}");
    }
    let texts: Vec<String> = scene
        .header
        .iter()
        .map(|h| h.text.clone())
        .chain(scene.trays.iter().map(|t| t.caption.clone()))
        .chain(scene.labels.iter().map(|l| l.text.clone()))
        .collect();
    assert!(
        texts
            .iter()
            .all(|t| !t.to_lowercase().contains("kingdom0")
                && !t.to_lowercase().contains("kingdom 0")),
        "{texts:?}"
    );
    assert_eq!(scene.header[1].text, "Kingdom of Silver holds the Token");
    assert!(texts.iter().any(|t| t == "0. Silver"), "{texts:?}");
    assert!(
        scene
            .trays
            .iter()
            .all(|t| t.caption.starts_with("Kingdom of ")),
        "{texts:?}"
    );
    // The notation is unchanged: the highlighted moves still name `kingdom0`'s cells.
    assert!(game.seat_name(hexmeros::games::Seat(0)) == "kingdom0");
}

#[test]
fn the_players_names_appear_in_the_header() {
    let (game, mut opts) = golden_position(GameKind::HexDame);
    opts.size = Some(GOLDEN_SIZE);
    let plain = decode(&view::render_png(&game, &opts).unwrap());
    opts.players = vec!["Alice Wonder".into(), "Bob the Builder".into()];
    let named = decode(&view::render_png(&game, &opts).unwrap());
    // The header: the title, the holder's line and the players' line, above a sixth of the
    // picture.
    let top = |img: &image::RgbaImage| {
        let row = (img.width() * 4) as usize;
        img.as_raw()[..row * (img.height() / 6) as usize].to_vec()
    };
    assert!(
        plain.dimensions() != named.dimensions()
            || differing(&top(&plain), &top(&named), 24) > 0.005,
        "no names"
    );
    let scene = view::scene(&game, &opts).unwrap();
    assert!(
        scene.header[1]
            .text
            .starts_with("Alice Wonder (White) holds the Token")
    );
    assert_eq!(
        scene.header[2].text,
        "White: Alice Wonder · Black: Bob the Builder"
    );
    // Six players: three a line.
    let (game, mut opts) = golden_position(GameKind::HexiMeros);
    opts.players = (1..=6).map(|n| format!("p{n}")).collect();
    let scene = view::scene(&game, &opts).unwrap();
    let lines: Vec<&str> = scene.header.iter().map(|h| h.text.as_str()).collect();
    assert_eq!(
        lines[2..],
        [
            "Silver: p1 · Blue: p2 · Yellow: p3",
            "Orange: p4 · Green: p5 · Red: p6"
        ]
    );
    // No names: no players' line.
    opts.players.clear();
    assert_eq!(view::scene(&game, &opts).unwrap().header.len(), 2);
}

#[test]
fn hexaequo_is_black_and_white_and_both_read_on_the_page() {
    let (game, opts) = golden_position(GameKind::HexaEquo);
    let scene = view::scene(&game, &opts).unwrap();
    let (mut black, mut white) = (0, 0);
    for t in &scene.tiles {
        let l = t.fill.luminance();
        if l < 0.3 {
            black += 1;
        } else if l > 0.85 {
            white += 1;
        } else if t.markers.is_empty() {
            panic!("a tile neither black nor white: {:?}", t.fill);
        }
        if let Some(g) = t.glyph {
            let (f, o) = (g.fill.luminance(), g.outline.luminance());
            assert!(
                !(0.3..=0.85).contains(&f),
                "a piece neither black nor white: {:?}",
                g.fill
            );
            assert!(
                (f - o).abs() > 0.6,
                "a piece outlined in its own colour: {g:?}"
            );
        }
    }
    assert!(
        black > 0 && white > 0,
        "{black} black and {white} white tiles"
    );
    // The board's edge is light, so black tiles show against the dark page.
    let theme = view::game_theme(&game, 640);
    assert!(theme.rim.luminance() > 0.5);
    assert!(theme.rim.luminance() - theme.background.luminance() > 0.4);
    // Black moves first, and is called Black.
    let first = AnyGame::new(GameKind::HexaEquo, None, None).unwrap();
    let scene = view::scene(&first, &ViewOptions::default()).unwrap();
    assert!(
        scene.header[1].text.starts_with("Black holds the Token"),
        "{}",
        scene.header[1].text
    );
}

/// One glyph alone on a plain tile.
fn glyph_pixels(glyph: Glyph) -> Vec<u8> {
    let scene = Scene {
        tiles: vec![Tile::new((0, 0), hexmeros_render::Rgba::rgb(220, 212, 196)).with_glyph(glyph)],
        ..Scene::default()
    };
    render_rgba(&scene, &Theme::new(96)).unwrap().rgba
}

#[test]
fn every_heximeros_piece_look_is_distinct() {
    let looks = view::heximeros_piece_glyphs();
    // 6 colours × (10 kinds + the 7 that take the Ground Zero bonus).
    assert_eq!(looks.len(), 6 * 17);
    let pixels: Vec<Vec<u8>> = looks.iter().map(|(_, g)| glyph_pixels(*g)).collect();
    for i in 0..looks.len() {
        for j in i + 1..looks.len() {
            let d = differing(&pixels[i], &pixels[j], 24);
            assert!(
                d > 0.01,
                "{} and {} look alike ({:.2} % of pixels differ)",
                looks[i].0,
                looks[j].0,
                d * 100.0
            );
        }
    }
}

/// The page position (y grows downward) of a hex in a scene.
fn page_y(scene: &Scene, h: hexmeros_render::Hex) -> f32 {
    hex_to_world(scene.orientation, scene.rotation, HexPoint::from(h)).1
}

#[test]
fn each_seat_sees_its_own_side_at_the_bottom() {
    let game = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    let AnyGame::HexiMeros(g) = &game else {
        unreachable!()
    };
    let mut seen = Vec::new();
    for seat in 0..6u8 {
        let opts = ViewOptions {
            as_seat: Some(Seat(seat)),
            ..ViewOptions::default()
        };
        let scene = view::scene(&game, &opts).unwrap();
        // The viewer's Sovereign is lower on the page than every other Sovereign.
        let y_of = |s: u8| {
            let c = g.sovereigns_of(Seat(s))[0];
            let h = hexmeros::games::heximeros::BOARD.geometry.hex(c);
            page_y(&scene, hexmeros_render::Hex::new(h.q, h.r))
        };
        let mine = y_of(seat);
        for other in (0..6u8).filter(|&o| o != seat) {
            assert!(mine > y_of(other) + 1.0, "seat {seat} vs {other}");
        }
        seen.push(scene.rotation);
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 6, "six different rotations");
    // Two-player boards: the second seat sees the board upside down.
    for kind in [GameKind::HexDame, GameKind::Hexmeister, GameKind::HexaEquo] {
        let game = AnyGame::new(kind, None, None).unwrap();
        let r = |s| {
            let opts = ViewOptions {
                as_seat: Some(Seat(s)),
                ..ViewOptions::default()
            };
            view::scene(&game, &opts).unwrap().rotation
        };
        assert_eq!((r(1) + 6 - r(0)) % 6, 3, "{kind}");
    }
}

fn tile<'a>(scene: &'a Scene, game: &AnyGame, name: &str) -> &'a Tile {
    let h = match game {
        AnyGame::HexiMeros(_) => {
            let geo = &hexmeros::games::heximeros::BOARD.geometry;
            geo.hex(geo.parse(name).unwrap())
        }
        AnyGame::HexDame(_) => {
            let geo = hexmeros::games::hexdame::HexDame::geometry();
            geo.hex(geo.parse(name).unwrap())
        }
        _ => unreachable!(),
    };
    scene
        .tiles
        .iter()
        .find(|t| t.hex == hexmeros_render::Hex::new(h.q, h.r))
        .unwrap()
}

#[test]
fn last_moves_are_outlined_in_their_movers_colours() {
    let mut game = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    let first = game.legal_moves()[0].clone();
    game.play(&first).unwrap();
    let second = game.legal_moves()[0].clone();
    game.play(&second).unwrap();
    let opts = ViewOptions {
        last_moves: vec![first.clone(), second.clone()],
        ..ViewOptions::default()
    };
    let scene = view::scene(&game, &opts).unwrap();
    assert_eq!(scene.arrows.len(), 2);
    let outline = |t: &Tile| {
        t.markers
            .iter()
            .find_map(|m| match m {
                Marker::Outline(c) => Some(*c),
                _ => None,
            })
            .unwrap()
    };
    let (f1, t1) = first.split_once('-').unwrap();
    let (f2, t2) = second.split_once('-').unwrap();
    let c1 = outline(tile(&scene, &game, f1));
    assert_eq!(c1, outline(tile(&scene, &game, t1)));
    let c2 = outline(tile(&scene, &game, f2));
    assert_eq!(c2, outline(tile(&scene, &game, t2)));
    assert_ne!(c1, c2, "Silver's and Blue's moves in different colours");
    assert_eq!(scene.arrows[0].colour.with_alpha(255), c1);

    // And the pixels change where the moves are.
    let plain = render_rgba(
        &view::scene(&game, &ViewOptions::default()).unwrap(),
        &Theme::new(400),
    )
    .unwrap();
    let marked = render_rgba(&scene, &Theme::new(400)).unwrap();
    assert!(differing(&plain.rgba, &marked.rgba, 24) > 0.0005);
}

#[test]
fn a_rounds_arrows_are_numbered_in_move_order_in_each_movers_colour() {
    // Six seats, five moves since Green's previous turn: five movers, five colours, 1 to 5.
    let (game, opts) = golden_position(GameKind::HexiMeros);
    let scene = view::scene(&game, &opts).unwrap();
    let numbered: Vec<_> = scene.arrows.iter().filter(|a| a.number.is_some()).collect();
    let numbers: Vec<u16> = numbered.iter().filter_map(|a| a.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
    let mut colours: Vec<_> = numbered.iter().map(|a| a.colour.with_alpha(255)).collect();
    // Each move's arrow has the colour its cells are outlined in: the mover's.
    for (a, text) in numbered.iter().zip(&opts.last_moves) {
        let from = text.split(['-', 'x', '*']).next().unwrap();
        let t = tile(&scene, &game, from);
        assert!(
            t.markers
                .contains(&Marker::Outline(a.colour.with_alpha(255))),
            "{text}: {:?}",
            t.markers
        );
    }
    colours.dedup();
    assert_eq!(colours.len(), 5, "one colour per mover");
    // One move alone needs no number.
    let one = ViewOptions {
        last_moves: opts.last_moves[4..].to_vec(),
        ..opts.clone()
    };
    let scene = view::scene(&game, &one).unwrap();
    assert!(scene.arrows.iter().all(|a| a.number.is_none()));

    // The golden of a round on a small board, where the badges are big enough to check by eye.
    let (game, played) = playout(GameKind::HexDame, None, 24, 7);
    let opts = ViewOptions {
        last_moves: played[played.len() - 4..].to_vec(),
        turn: Some(25),
        size: Some(GOLDEN_SIZE),
        ..ViewOptions::default()
    };
    let png = view::render_png(&game, &opts).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden/round.png");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &png).unwrap();
    }
    let golden = image::open(path)
        .unwrap_or_else(|_| panic!("{path} is missing: run with UPDATE_GOLDEN=1"))
        .to_rgba8();
    let ours = decode(&png);
    assert_eq!(ours.dimensions(), golden.dimensions());
    let share = differing(ours.as_raw(), golden.as_raw(), 24);
    assert!(share < 0.005, "{:.2} % of pixels differ", share * 100.0);
}

#[test]
fn a_staged_move_is_a_dashed_preview_and_changes_nothing_else() {
    let game = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let staged = game.legal_moves()[0].clone();
    let opts = ViewOptions {
        staged: Some(staged.clone()),
        ..ViewOptions::default()
    };
    let scene = view::scene(&game, &opts).unwrap();
    assert_eq!(scene.arrows.len(), 1);
    assert!(scene.arrows[0].dashed);
    let (from, to) = staged.split_once('-').unwrap();
    let to_tile = tile(&scene, &game, to);
    assert_eq!(
        to_tile.glyph.unwrap().state,
        hexmeros_render::GlyphState::Ghost
    );
    assert!(
        tile(&scene, &game, from).glyph.is_some(),
        "the piece still shown where it stands"
    );
    let plain = view::scene(&game, &ViewOptions::default()).unwrap();
    let changed = plain
        .tiles
        .iter()
        .zip(&scene.tiles)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(changed, 2, "only the staged move's two cells");

    let bad = ViewOptions {
        staged: Some("a1-a9".into()),
        ..ViewOptions::default()
    };
    let err = view::scene(&game, &bad).unwrap_err().to_string();
    assert!(err.contains("a1-a9"), "{err}");
}

#[test]
fn declared_checks_are_marked_on_the_sovereign() {
    let start = AnyGame::new(GameKind::HexiMeros, None, None).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&start.to_json()).unwrap();
    json["checks"] = serde_json::json!([{"declarer": "blue", "target": "Q2"}]);
    let game = AnyGame::from_json(&json.to_string()).unwrap();
    let scene = view::scene(&game, &ViewOptions::default()).unwrap();
    assert!(tile(&scene, &game, "Q2").markers.contains(&Marker::Check));
    let marked = scene
        .tiles
        .iter()
        .filter(|t| t.markers.contains(&Marker::Check))
        .count();
    assert_eq!(marked, 1);
    let plain = view::scene(&start, &ViewOptions::default()).unwrap();
    let theme = Theme::new(400);
    assert!(
        differing(
            &render_rgba(&plain, &theme).unwrap().rgba,
            &render_rgba(&scene, &theme).unwrap().rgba,
            24
        ) > 0.0002
    );
}

/// Issue 45: a Check cannot be missed. The checked Sovereign carries a ring on a black halo and
/// a "+" badge (the golden picture `check-heximeros.png`, a stored position where Red has
/// declared Check), and the header says who is in Check, in words, in the checked colour.
#[test]
fn a_check_is_ringed_badged_and_said_in_the_header() {
    let json = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/positions/heximeros_check.json"
    ))
    .unwrap();
    let game = AnyGame::from_json(&json).unwrap();
    let opts = ViewOptions {
        size: Some(GOLDEN_SIZE),
        ..ViewOptions::default()
    };
    let scene = view::scene(&game, &opts).unwrap();
    assert!(tile(&scene, &game, "AD37").markers.contains(&Marker::Check));
    let said: Vec<&str> = scene
        .header
        .iter()
        .filter(|l| l.text.contains("in Check"))
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(
        said,
        ["Green is in Check (declared by Red)"],
        "{:?}",
        scene.header
    );
    let line = scene
        .header
        .iter()
        .find(|l| l.text.contains("in Check"))
        .unwrap();
    assert_eq!(line.swatch, Some(hexmeros::view::PLAYER_COLOURS[4]));
    let png = view::render_png(&game, &opts).unwrap();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
    let failed = golden::compare(&png, &format!("{dir}/check-heximeros.png"), "check");
    assert!(failed.is_none(), "{failed:?}");
}

#[test]
fn trays_count_what_was_taken() {
    // A HexDame game with captures: the trays hold exactly the men missing from the board.
    let (game, _) = playout(GameKind::HexDame, None, 60, 3);
    let AnyGame::HexDame(g) = &game else {
        unreachable!()
    };
    let scene = view::scene(&game, &ViewOptions::default()).unwrap();
    let taken = |t: &hexmeros_render::Tray| -> u16 {
        t.items.iter().map(|g| g.badges.count.unwrap_or(1)).sum()
    };
    let white_left = g
        .pieces()
        .filter(|(_, p)| p.colour == hexmeros::games::hexdame::Colour::White)
        .count() as u16;
    let black_left = g
        .pieces()
        .filter(|(_, p)| p.colour == hexmeros::games::hexdame::Colour::Black)
        .count() as u16;
    assert_eq!(taken(&scene.trays[0]), 16 - black_left);
    assert_eq!(taken(&scene.trays[1]), 16 - white_left);
    assert!(
        16 - black_left + 16 - white_left > 0,
        "the playout captured something"
    );
}

#[test]
fn random_games_of_every_kind_draw_without_error() {
    for (kind, players) in [
        (GameKind::HexiMeros, None),
        (GameKind::HexDame, None),
        (GameKind::Hexmeister, None),
        (GameKind::HexaEquo, None),
        (GameKind::Harmegedo, Some(2)),
        (GameKind::Harmegedo, Some(6)),
    ] {
        for seed in 0..3u64 {
            let (end, played) = playout(kind, players, 80, seed);
            // Replay, drawing a scene after every move with the last three highlighted, from
            // every seat's side, and a staged move where there is one.
            let mut game = AnyGame::new(kind, players, None).unwrap();
            for (i, m) in played.iter().enumerate() {
                game.play(m).unwrap();
                let opts = ViewOptions {
                    as_seat: Some(Seat((i % game.seat_count()) as u8)),
                    last_moves: played[i.saturating_sub(2)..=i].to_vec(),
                    staged: game.legal_moves().first().cloned(),
                    ..ViewOptions::default()
                };
                view::scene(&game, &opts).unwrap_or_else(|e| panic!("{kind} move {i}: {e}"));
            }
            let png = view::render_png(
                &end,
                &ViewOptions {
                    size: Some(300),
                    ..ViewOptions::default()
                },
            )
            .unwrap();
            assert_eq!(decode(&png).width().max(decode(&png).height()), 300);
        }
    }
}

#[test]
fn a_replay_gif_has_a_frame_per_move() {
    let (_, played) = playout(GameKind::HexDame, None, 12, 5);
    let mut text = String::from("# hexmeros game export\ngame hexdame\nseats 2\nhouse {}\n");
    let mut g = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    for m in &played {
        let seat = g.to_move().unwrap();
        text.push_str(&format!("{} {m}\n", g.seat_name(seat)));
        g.play(m).unwrap();
    }
    let gif = view::replay_gif_from_export(&text).unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(gif.as_slice()).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, played.len() + 1);

    let bad = text.replace("game hexdame", "game chess");
    assert!(view::replay_gif_from_export(&bad).is_err());
    let illegal = format!("{text}white a1-a9\n");
    let err = view::replay_gif_from_export(&illegal)
        .unwrap_err()
        .to_string();
    assert!(err.contains("a1-a9"), "{err}");
}

#[test]
fn bad_options_are_errors() {
    let game = AnyGame::new(GameKind::HexDame, None, None).unwrap();
    let seat = ViewOptions {
        as_seat: Some(Seat(4)),
        ..ViewOptions::default()
    };
    assert!(view::scene(&game, &seat).is_err());
    let nonsense = ViewOptions {
        last_moves: vec!["hello".into()],
        ..ViewOptions::default()
    };
    assert!(view::scene(&game, &nonsense).is_err());
    let size = ViewOptions {
        size: Some(10),
        ..ViewOptions::default()
    };
    assert!(view::render_png(&game, &size).is_err());
}
