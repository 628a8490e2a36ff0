//! Painting a [`Scene`] onto a laid-out [`Page`]: background, tiles, grid, rim and labels (the
//! base layer, kept between pictures: see `base`), then header, markers, pieces, arrows and
//! trays, in that order (later is on top).

use std::collections::HashMap;

use tiny_skia::{
    FillRule, GradientStop, IntSize, Path, PathBuilder, Pixmap, Point, RadialGradient, SpreadMode,
    Stroke, StrokeDash, Transform,
};

use crate::RenderError;
use crate::base::{BaseKey, Bases};
use crate::layout::{LINE, Page, TRAY_ADVANCE, corners, hex_to_world, label_size};
use crate::scene::{Arrow, HeaderLine, Marker, Rgba, Scene, Tag};
use crate::sprite::{Sprite, Sprites, TileKey, blit, paint, round_stroke, to_color};
use crate::text::{CAP_HEIGHT_EM, Face, Fonts};
use crate::theme::Theme;

/// Largest piece sprite, in pixels: beyond this a piece is no clearer, only heavier to cache.
const MAX_SPRITE_PX: f32 = 512.0;

/// Everything a paint needs besides the scene.
pub(crate) struct Ctx<'a> {
    pub fonts: &'a Fonts,
    pub sprites: &'a Sprites,
    pub bases: &'a Bases,
    pub theme: &'a Theme,
    pub page: &'a Page,
}

pub(crate) fn paint_scene(ctx: &Ctx, scene: &Scene) -> Result<Pixmap, RenderError> {
    let key = BaseKey::new(scene, ctx.theme, ctx.page);
    let base = ctx.bases.get_or_paint(key, || paint_base(ctx, scene))?;
    let mut pm = (*base).clone();
    paint_header(ctx, &mut pm, &scene.header);
    paint_board(ctx, &mut pm, scene);
    paint_trays(ctx, &mut pm, scene);
    Ok(pm)
}

/// The layer that stays from turn to turn: background, cells, grid, rim and rim labels.
fn paint_base(ctx: &Ctx, scene: &Scene) -> Result<Pixmap, RenderError> {
    let page = ctx.page;
    // The background is opaque, so the page stays opaque and its premultiplied pixels are
    // also straight RGBA. Filled by repetition: one pass instead of zeroing then filling.
    let bg = ctx.theme.background;
    let size = IntSize::from_wh(page.width, page.height);
    let pm = size.and_then(|size| {
        let bytes = [bg.r, bg.g, bg.b, 255].repeat(page.width as usize * page.height as usize);
        Pixmap::from_vec(bytes, size)
    });
    let mut pm = pm.ok_or(RenderError::BadSize {
        size: ctx.theme.size,
        min: crate::theme::MIN_SIZE,
        max: crate::theme::MAX_SIZE,
    })?;
    paint_cells(ctx, &mut pm, scene);
    Ok(pm)
}

/// The hex outline around `(cx, cy)` with corners scaled by `(rx, ry)` pixels.
fn push_hex(
    b: &mut PathBuilder,
    corners: &[(f32, f32); 6],
    (cx, cy): (f32, f32),
    (rx, ry): (f32, f32),
) {
    for (i, &(x, y)) in corners.iter().enumerate() {
        let (px, py) = (cx + x * rx, cy + y * ry);
        if i == 0 {
            b.move_to(px, py);
        } else {
            b.line_to(px, py);
        }
    }
    b.close();
}

fn hex_path(corners: &[(f32, f32); 6], c: (f32, f32), radii: (f32, f32)) -> Option<Path> {
    let mut b = PathBuilder::new();
    push_hex(&mut b, corners, c, radii);
    b.finish()
}

fn fill(pm: &mut Pixmap, path: &Path, colour: Rgba) {
    pm.fill_path(
        path,
        &paint(colour),
        FillRule::Winding,
        Transform::identity(),
        None,
    );
}

fn stroke(pm: &mut Pixmap, path: &Path, colour: Rgba, stroke: &Stroke) {
    pm.stroke_path(path, &paint(colour), stroke, Transform::identity(), None);
}

/// Copies a sprite so that its anchor lands on `(x, y)` (whole pixels).
fn place(pm: &mut Pixmap, sprite: &Sprite, (x, y): (f32, f32)) {
    blit(
        pm,
        &sprite.pixmap,
        &sprite.runs,
        (x - sprite.cx).round() as i32,
        (y - sprite.cy).round() as i32,
    );
}

/// Where a scene's cells land on the page.
struct Grid {
    /// Pixels per hex radius.
    r: f32,
    sx: f32,
    sy: f32,
    corners: [(f32, f32); 6],
    /// Pixel centre of each tile, in the scene's order.
    centres: Vec<(f32, f32)>,
    /// Width of the lines between cells.
    grid_w: f32,
}

impl Grid {
    fn of(ctx: &Ctx, scene: &Scene) -> Option<Grid> {
        let page = ctx.page;
        let r = page.scale();
        if !(r.is_finite() && r > 0.0) {
            return None;
        }
        Some(Grid {
            r,
            sx: page.sx,
            sy: page.sy,
            corners: corners(scene.orientation),
            centres: scene
                .tiles
                .iter()
                .map(|t| page.hex_px(scene.orientation, scene.rotation, t.hex))
                .collect(),
            grid_w: (ctx.theme.grid_width * r).max(1.0),
        })
    }
}

/// Cells with their grid lines, the rim and the rim labels.
fn paint_cells(ctx: &Ctx, pm: &mut Pixmap, scene: &Scene) {
    let (page, theme) = (ctx.page, ctx.theme);
    let Some(Grid {
        r,
        sx,
        sy,
        corners,
        centres,
        grid_w,
    }) = Grid::of(ctx, scene)
    else {
        return;
    };

    for (t, &c) in scene.tiles.iter().zip(&centres) {
        let key = TileKey::new(t.fill, theme.grid, scene.orientation, sx, sy, grid_w);
        if let Some(sprite) = ctx.sprites.tile(key) {
            place(pm, &sprite, c);
        }
    }

    paint_rim(pm, &centres, &corners, (sx, sy), grid_w, theme);

    for label in &scene.labels {
        let size = label_size(label.size);
        if size <= 0.0 {
            continue;
        }
        let cap = (size * r).min(theme.label_px_max);
        let (x, y) = page.to_px(hex_to_world(scene.orientation, scene.rotation, label.at));
        let line = ctx.fonts.line(Face::Bold, &label.text, cap / CAP_HEIGHT_EM);
        if let Some(path) = line.path {
            let ts = Transform::from_translate(x - line.width / 2.0, y + cap / 2.0);
            pm.fill_path(&path, &paint(label.colour), FillRule::Winding, ts, None);
        }
    }
}

fn paint_board(ctx: &Ctx, pm: &mut Pixmap, scene: &Scene) {
    let (page, theme) = (ctx.page, ctx.theme);
    let Some(Grid {
        r,
        sx,
        sy,
        corners,
        centres,
        grid_w,
    }) = Grid::of(ctx, scene)
    else {
        return;
    };

    let outline_w = (0.13 * r).max(1.5);
    for (t, &c) in scene.tiles.iter().zip(&centres) {
        let mut nth = 0.0;
        for m in &t.markers {
            match *m {
                Marker::Tint(colour) => {
                    // Inside the cell's lines, so the grid stays crisp.
                    let k = 1.0 - grid_w / 2.0 / r;
                    if let Some(path) = hex_path(&corners, c, (sx * k, sy * k)) {
                        fill(pm, &path, colour);
                    }
                }
                Marker::Outline(colour) => {
                    let inset = grid_w / 2.0 + outline_w * (nth + 0.5) * 1.15;
                    let k = 1.0 - inset / r;
                    if k > 0.0
                        && let Some(path) = hex_path(&corners, c, (sx * k, sy * k))
                    {
                        stroke(pm, &path, colour, &round_stroke(outline_w));
                    }
                    nth += 1.0;
                }
                Marker::Check => paint_check(pm, &corners, c, (sx, sy)),
                Marker::Dot(_) | Marker::Ring(_) => {}
            }
        }
    }

    let px = (theme.glyph_scale * r).round().clamp(1.0, MAX_SPRITE_PX) as u16;
    for (t, &c) in scene.tiles.iter().zip(&centres) {
        if let Some(glyph) = &t.glyph
            && let Some(sprite) = ctx.sprites.get(glyph, px, ctx.fonts)
        {
            place(pm, &sprite, c);
        }
    }

    for (t, &(cx, cy)) in scene.tiles.iter().zip(&centres) {
        for m in &t.markers {
            match *m {
                Marker::Dot(colour) => {
                    if let Some(dot) = PathBuilder::from_circle(cx, cy, (0.2 * r).max(2.0)) {
                        let edge = colour.contrasting_outline().with_alpha(colour.a / 2);
                        stroke(pm, &dot, edge, &round_stroke((0.05 * r).max(1.0)));
                        fill(pm, &dot, colour);
                    }
                }
                Marker::Ring(colour) => {
                    if let Some(ring) = PathBuilder::from_circle(cx, cy, 0.72 * r) {
                        stroke(pm, &ring, colour, &round_stroke((0.1 * r).max(1.5)));
                    }
                }
                Marker::Check => paint_check_badge(pm, (cx, cy), r),
                _ => {}
            }
        }
    }

    for arrow in &scene.arrows {
        paint_arrow(pm, scene, page, arrow);
    }
    // Badges after every arrow, so a later shaft never hides an earlier number.
    for arrow in &scene.arrows {
        if let Some(n) = arrow.number {
            paint_badge(ctx, pm, scene, arrow, n);
        }
    }
    for tag in &scene.tags {
        paint_tag(ctx, pm, scene, tag, r);
    }
}

/// A tag: its text on a pill of its fill, edged in a colour that contrasts with the fill, over
/// everything else on the board.
fn paint_tag(ctx: &Ctx, pm: &mut Pixmap, scene: &Scene, tag: &Tag, r: f32) {
    let theme = ctx.theme;
    let floor = if tag.floor { theme.tag_px_min } else { 1.0 };
    let cap = (tag.size * r).min(theme.label_px_max).max(floor);
    let line = ctx.fonts.line(Face::Bold, &tag.text, cap / CAP_HEIGHT_EM);
    let Some(text) = line.path else {
        return;
    };
    let (x, y) = ctx
        .page
        .to_px(hex_to_world(scene.orientation, scene.rotation, tag.at));
    let h = cap * 1.9;
    let w = (line.width + cap * 1.1).max(h);
    let edge = tag.fill.contrasting_outline();
    let edge_w = (cap * 0.14).max(1.0);
    if let Some(shape) = pill(x, y, w, h) {
        // The edge first, then the fill over it: the lines where the pill's parts overlap are
        // covered, its outline keeps the outer half of the edge.
        stroke(pm, &shape, edge, &round_stroke(edge_w));
        fill(pm, &shape, tag.fill);
    }
    let ts = Transform::from_translate(x - line.width / 2.0, y + cap / 2.0);
    pm.fill_path(&text, &paint(tag.ink), FillRule::Winding, ts, None);
}

/// A pill `w` × `h` centred on (x, y) as one path of its parts (a disc at each end and the
/// rectangle between; one disc when it is no wider than tall), filled as their union.
fn pill(x: f32, y: f32, w: f32, h: f32) -> Option<Path> {
    let half = (w - h).max(0.0) / 2.0;
    let mut pb = PathBuilder::new();
    pb.push_circle(x - half, y, h / 2.0);
    if half > 0.0 {
        pb.push_circle(x + half, y, h / 2.0);
        if let Some(rect) = tiny_skia::Rect::from_xywh(x - half, y - h / 2.0, 2.0 * half, h) {
            pb.push_rect(rect);
        }
    }
    pb.finish()
}

/// A numbered disc in the arrow's colour (opaque) where the arrow starts: its place in move
/// order.
fn paint_badge(ctx: &Ctx, pm: &mut Pixmap, scene: &Scene, arrow: &Arrow, n: u16) {
    let page = ctx.page;
    let r = page.scale();
    let (ax, ay) = page.hex_px(scene.orientation, scene.rotation, arrow.from);
    let (bx, by) = page.hex_px(scene.orientation, scene.rotation, arrow.to);
    let (dx, dy) = (bx - ax, by - ay);
    let len = (dx * dx + dy * dy).sqrt();
    if !(len.is_finite() && len > 1.0 && r.is_finite()) {
        return;
    }
    // On the shaft, a little past the start: the piece that left is gone, a piece that arrived
    // on the start cell since (a later move) keeps its centre visible.
    let k = (0.55 * r).min(len / 2.0) / len;
    let (cx, cy) = (ax + dx * k, ay + dy * k);
    let radius = (0.36 * r).max(5.0);
    let colour = arrow.colour.with_alpha(255);
    let ink = colour.contrasting_outline();
    let Some(disc) = PathBuilder::from_circle(cx, cy, radius) else {
        return;
    };
    fill(pm, &disc, colour);
    stroke(pm, &disc, ink, &round_stroke((0.05 * r).max(1.0)));
    let text = n.to_string();
    let cap = radius * if text.len() > 1 { 0.8 } else { 1.0 };
    let line = ctx.fonts.line(Face::Bold, &text, cap / CAP_HEIGHT_EM);
    if let Some(path) = line.path {
        let ts = Transform::from_translate(cx - line.width / 2.0, cy + cap / 2.0);
        pm.fill_path(&path, &paint(ink), FillRule::Winding, ts, None);
    }
}

/// A heavier line along every cell edge that has no neighbour: the board's outline (and the
/// outline of holes and islands on a board like HexaEquo's).
fn paint_rim(
    pm: &mut Pixmap,
    centres: &[(f32, f32)],
    corners: &[(f32, f32); 6],
    (sx, sy): (f32, f32),
    grid_w: f32,
    theme: &Theme,
) {
    // Points are keyed in half pixels: neighbouring cells compute their shared corners from
    // lattice centres, so the keys agree, and distinct corners are many pixels apart.
    type Key = (i64, i64);
    let key = |(x, y): (f32, f32)| ((x * 2.0).round() as i64, (y * 2.0).round() as i64);
    // Each cell's edges run clockwise, so an edge shared by two cells appears once each way.
    let mut edges: HashMap<(Key, Key), (f32, f32)> = HashMap::with_capacity(centres.len() * 6);
    for &(cx, cy) in centres {
        for i in 0..6 {
            let (ax, ay) = corners[i];
            let (bx, by) = corners[(i + 1) % 6];
            let a = (cx + ax * sx, cy + ay * sy);
            let b = (cx + bx * sx, cy + by * sy);
            edges.insert((key(a), key(b)), a);
        }
    }
    // The rim is the edges whose reverse is missing. Chained into closed loops, it strokes with
    // joins instead of hundreds of separate caps.
    // From a corner: the rim edges leaving it, as (far corner, this corner's position).
    type Out = Vec<(Key, (f32, f32))>;
    let mut next: HashMap<Key, Out> = HashMap::new();
    for (&(a, b), &pa) in &edges {
        if !edges.contains_key(&(b, a)) {
            next.entry(a).or_default().push((b, pa));
        }
    }
    let mut starts: Vec<Key> = next.keys().copied().collect();
    starts.sort_unstable();
    let mut rim = PathBuilder::new();
    for start in starts {
        let mut at = start;
        let mut first = true;
        // Each step uses up one edge, so the walk ends; pinch points (two loops touching at a
        // corner) just continue along whichever loop comes first.
        while let Some((to, p)) = next.get_mut(&at).and_then(Vec::pop) {
            if first {
                rim.move_to(p.0, p.1);
                first = false;
            } else {
                rim.line_to(p.0, p.1);
            }
            at = to;
        }
        if !first {
            rim.close();
        }
    }
    if let Some(path) = rim.finish() {
        stroke(pm, &path, theme.rim, &round_stroke(grid_w * 2.2));
    }
}

/// A red glow filling the cell, brightest at the centre, and a red ring: a piece in check.
fn paint_check(
    pm: &mut Pixmap,
    corners: &[(f32, f32); 6],
    (cx, cy): (f32, f32),
    (sx, sy): (f32, f32),
) {
    let r = (sx + sy) / 2.0;
    let Some(path) = hex_path(corners, (cx, cy), (sx * 0.97, sy * 0.97)) else {
        return;
    };
    let stops = vec![
        GradientStop::new(0.0, to_color(Rgba::new(255, 40, 30, 255))),
        GradientStop::new(0.55, to_color(Rgba::new(235, 20, 20, 200))),
        GradientStop::new(1.0, to_color(Rgba::new(190, 0, 0, 40))),
    ];
    let centre = Point::from_xy(cx, cy);
    if let Some(shader) = RadialGradient::new(
        centre,
        0.0,
        centre,
        r,
        stops,
        SpreadMode::Pad,
        Transform::identity(),
    ) {
        let mut p = paint(Rgba::BLACK);
        p.shader = shader;
        pm.fill_path(&path, &p, FillRule::Winding, Transform::identity(), None);
    }
    // A black halo under a bright ring: it stands out on any cell, Red's red ones too.
    stroke(pm, &path, Rgba::BLACK, &round_stroke((0.2 * r).max(3.0)));
    stroke(
        pm,
        &path,
        Rgba::rgb(255, 48, 36),
        &round_stroke((0.1 * r).max(1.5)),
    );
}

/// The Check badge over a checked piece: a red disc edged in black with a white "+" (the check
/// sign of chess notation) at the cell's upper right, drawn after the pieces so none hides it.
fn paint_check_badge(pm: &mut Pixmap, (cx, cy): (f32, f32), r: f32) {
    let (bx, by, br) = (cx + 0.5 * r, cy - 0.55 * r, (0.3 * r).max(4.0));
    let Some(disc) = PathBuilder::from_circle(bx, by, br) else {
        return;
    };
    fill(pm, &disc, Rgba::rgb(230, 30, 24));
    stroke(pm, &disc, Rgba::BLACK, &round_stroke((0.07 * br).max(1.0)));
    let arm = 0.55 * br;
    let mut plus = PathBuilder::new();
    plus.move_to(bx - arm, by);
    plus.line_to(bx + arm, by);
    plus.move_to(bx, by - arm);
    plus.line_to(bx, by + arm);
    if let Some(plus) = plus.finish() {
        stroke(pm, &plus, Rgba::WHITE, &round_stroke((0.3 * br).max(1.5)));
    }
}

fn paint_arrow(pm: &mut Pixmap, scene: &Scene, page: &Page, arrow: &Arrow) {
    let r = page.scale();
    let at = |h| page.hex_px(scene.orientation, scene.rotation, h);
    let (ax, ay) = at(arrow.from);
    let (bx, by) = at(arrow.to);
    let (dx, dy) = (bx - ax, by - ay);
    let len = (dx * dx + dy * dy).sqrt();
    if !(len.is_finite() && len > 1.0) {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let (nx, ny) = (-uy, ux);
    // The tip stops short of the target's centre so the piece there stays visible.
    let tip_back = 0.3 * r;
    let shaft = (0.13 * r).max(1.5);
    let head_len = (0.62 * r).min((len - tip_back) * 0.6);
    let head_w = (0.38 * r).max(shaft * 2.0);
    let start = (ax + ux * 0.15 * r, ay + uy * 0.15 * r);
    let tip = (bx - ux * tip_back, by - uy * tip_back);
    let neck = (tip.0 - ux * head_len, tip.1 - uy * head_len);
    let off = |p: (f32, f32), k: f32| (p.0 + nx * k, p.1 + ny * k);
    let edge = arrow
        .colour
        .contrasting_outline()
        .with_alpha((f32::from(arrow.colour.a) * 0.8) as u8);
    let edge_w = (0.035 * r).max(1.0);

    let mut head = PathBuilder::new();
    let pts: Vec<(f32, f32)> = if arrow.dashed {
        vec![off(neck, head_w), tip, off(neck, -head_w)]
    } else {
        vec![
            off(start, shaft),
            off(neck, shaft),
            off(neck, head_w),
            tip,
            off(neck, -head_w),
            off(neck, -shaft),
            off(start, -shaft),
        ]
    };
    for (i, &(x, y)) in pts.iter().enumerate() {
        if i == 0 {
            head.move_to(x, y);
        } else {
            head.line_to(x, y);
        }
    }
    head.close();
    let Some(head) = head.finish() else {
        return;
    };
    if arrow.dashed {
        let mut line = PathBuilder::new();
        line.move_to(start.0, start.1);
        line.line_to(neck.0, neck.1);
        if let Some(line) = line.finish() {
            let dashes = StrokeDash::new(vec![shaft * 3.0, shaft * 2.2], 0.0);
            let s = Stroke {
                width: shaft * 2.0,
                dash: dashes,
                ..Stroke::default()
            };
            stroke(pm, &line, arrow.colour, &s);
        }
    } else {
        stroke(pm, &head, edge, &round_stroke(edge_w));
    }
    fill(pm, &head, arrow.colour);
}

/// A line of page text (header, tray caption).
struct Text<'a> {
    text: &'a str,
    face: Face,
    /// Capital height in pixels.
    cap: f32,
    colour: Rgba,
    /// A disc of this colour before the text.
    swatch: Option<Rgba>,
    /// A letter on the disc.
    mark: Option<char>,
}

/// Draws a line with its baseline-left at `(x, y)`, shrunk to `max_w` pixels if it is wider.
fn paint_text(ctx: &Ctx, pm: &mut Pixmap, (x, y): (f32, f32), max_w: f32, t: &Text) {
    let Text {
        text,
        face,
        cap,
        colour,
        swatch,
        mark,
    } = *t;
    let mut x = x;
    let mut max_w = max_w;
    if let Some(s) = swatch {
        // A little larger when it carries a letter.
        let rad = if mark.is_some() {
            cap * 0.78
        } else {
            cap * 0.62
        };
        if let Some(disc) = PathBuilder::from_circle(x + rad, y - cap / 2.0, rad) {
            stroke(
                pm,
                &disc,
                s.contrasting_outline(),
                &round_stroke((cap * 0.12).max(1.0)),
            );
            fill(pm, &disc, s.with_alpha(255));
        }
        if let Some(c) = mark {
            let letter = c.to_string();
            let em = cap * 0.85 / CAP_HEIGHT_EM;
            let line = ctx.fonts.line(Face::Bold, &letter, em);
            if let Some(path) = line.path {
                // Centred on the disc: the baseline half the letter's height below its centre.
                let at = Transform::from_translate(
                    x + rad - line.width / 2.0,
                    y - cap / 2.0 + cap * 0.425,
                );
                pm.fill_path(
                    &path,
                    &paint(s.contrasting_outline()),
                    FillRule::Winding,
                    at,
                    None,
                );
            }
        }
        x += rad * 2.0 + cap * 0.55;
        max_w -= rad * 2.0 + cap * 0.55;
    }
    let mut em = cap / CAP_HEIGHT_EM;
    let width = ctx.fonts.measure_em(face, text) * em;
    if width > max_w && max_w > 0.0 {
        em *= max_w / width;
    }
    let line = ctx.fonts.line(face, text, em);
    if let Some(path) = line.path {
        pm.fill_path(
            &path,
            &paint(colour),
            FillRule::Winding,
            Transform::from_translate(x, y),
            None,
        );
    }
}

fn paint_header(ctx: &Ctx, pm: &mut Pixmap, header: &[HeaderLine]) {
    let theme = ctx.theme;
    let m = theme.margin;
    let max_w = pm.width() as f32 - 2.0 * m;
    let mut y = m;
    for (i, line) in header.iter().enumerate() {
        let (cap, face) = if i == 0 {
            (theme.title_px, Face::Bold)
        } else {
            (theme.text_px, Face::Regular)
        };
        y += if i == 0 { cap * 1.25 } else { cap * LINE };
        let text = Text {
            text: &line.text,
            face,
            cap,
            colour: theme.text,
            swatch: line.swatch,
            mark: line.mark,
        };
        paint_text(ctx, pm, (m, y), max_w, &text);
    }
}

fn paint_trays(ctx: &Ctx, pm: &mut Pixmap, scene: &Scene) {
    let theme = ctx.theme;
    let px = theme.tray_px.round().clamp(1.0, MAX_SPRITE_PX) as u16;
    let advance = theme.tray_px * TRAY_ADVANCE;
    for (tray, slot) in scene.trays.iter().zip(&ctx.page.trays) {
        let cap = theme.text_px;
        let base = slot.y + cap * 1.4;
        let caption = Text {
            text: &tray.caption,
            face: Face::Regular,
            cap,
            colour: theme.text,
            swatch: tray.swatch,
            mark: tray.mark,
        };
        paint_text(ctx, pm, (slot.x, base), slot.width, &caption);
        let top = slot.y + cap * LINE;
        for (i, glyph) in tray.items.iter().enumerate() {
            let (row, col) = (i / slot.per_row.max(1), i % slot.per_row.max(1));
            let cx = slot.x + advance * (col as f32 + 0.5);
            let cy = top + advance * (row as f32 + 0.5);
            if let Some(sprite) = ctx.sprites.get(glyph, px, ctx.fonts) {
                place(pm, &sprite, (cx, cy));
            }
        }
    }
}
