//! Painting a [`Scene`] onto a laid-out [`Page`]: background, tiles, grid, rim and labels (the
//! base layer, kept between pictures: see `base`), then header, markers, pieces, arrows and
//! trays, in that order (later is on top).

use std::collections::HashMap;

use tiny_skia::{FillRule, IntSize, Path, PathBuilder, Pixmap, Stroke, Transform};

use crate::RenderError;
use crate::base::{BaseKey, Bases};
use crate::layout::{BoardLayout, LINE, Page, TRAY_ADVANCE, corners, label_size};
use crate::scene::{HeaderLine, Label, MARK_CASING, Marker, Plate, Rgba, Scene, mark_casing_px};
use crate::sprite::{Sprite, Sprites, TileKey, blit, paint, round_stroke};
use crate::text::{CAP_HEIGHT_EM, Face, Fonts};
use crate::theme::Theme;

mod marks;

pub(crate) use marks::{
    ArrowBadge, ArrowShape, CHECK_GLOW, CHECK_RING, CHECK_SCALE, CheckBadge, TagShape, check_widths,
};
use marks::{paint_arrow, paint_badge, paint_check, paint_check_badge, paint_tag};

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

pub(crate) fn hex_path(
    corners: &[(f32, f32); 6],
    c: (f32, f32),
    radii: (f32, f32),
) -> Option<Path> {
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
pub(crate) struct Grid {
    /// Pixels per hex radius.
    pub r: f32,
    pub sx: f32,
    pub sy: f32,
    pub corners: [(f32, f32); 6],
    /// Pixel centre of each tile, in the scene's order.
    pub centres: Vec<(f32, f32)>,
    /// Width of the lines between cells.
    pub grid_w: f32,
}

impl Grid {
    /// The cells of `scene` laid out by `board`; `None` when there is no board to draw.
    pub(crate) fn of(board: &BoardLayout, theme: &Theme, scene: &Scene) -> Option<Grid> {
        let r = board.radius;
        if !(r.is_finite() && r > 0.0) {
            return None;
        }
        Some(Grid {
            r,
            sx: board.sx,
            sy: board.sy,
            corners: corners(scene.orientation),
            centres: scene.tiles.iter().map(|t| board.centre(t.hex)).collect(),
            grid_w: (theme.grid_width * r).max(1.0),
        })
    }

    /// A [`Marker::Tint`]'s hex scale: inside the cell's lines, so the grid stays crisp.
    pub(crate) fn tint_scale(&self) -> f32 {
        1.0 - self.grid_w / 2.0 / self.r
    }

    /// The width of a [`Marker::Outline`]'s line.
    pub(crate) fn outline_width(&self) -> f32 {
        (0.13 * self.r).max(1.5)
    }

    /// The width of the casing under a [`Marker::Outline`] (its line and the near-black
    /// showing on each side of it).
    pub(crate) fn outline_casing_width(&self) -> f32 {
        self.outline_width() + 2.0 * mark_casing_px(self.r)
    }

    /// The hex scale of a cell's `nth` outline (they nest inward, one casing between two);
    /// not positive when it no longer fits.
    pub(crate) fn outline_scale(&self, nth: f32) -> f32 {
        let (w, c) = (self.outline_width(), mark_casing_px(self.r));
        let inset = self.grid_w / 2.0 + c + w / 2.0 + nth * (w + c);
        1.0 - inset / self.r
    }

    /// The width of the board's rim line.
    pub(crate) fn rim_width(&self) -> f32 {
        self.grid_w * 2.2
    }
}

/// Box size in pixels of a piece on the board whose hex radius is `r` pixels.
pub(crate) fn glyph_px(theme: &Theme, r: f32) -> u16 {
    (theme.glyph_scale * r).round().clamp(1.0, MAX_SPRITE_PX) as u16
}

/// A mark's casing along `path`, `width` wide (centred on it), in near-black, with the
/// theme's light halo (if any) a casing wider on each side under it.
pub(crate) fn paint_casing(pm: &mut Pixmap, path: &Path, width: f32, r: f32, theme: &Theme) {
    if let Some(halo) = theme.mark_halo {
        stroke(
            pm,
            path,
            halo,
            &round_stroke(width + 2.0 * mark_casing_px(r)),
        );
    }
    stroke(pm, path, MARK_CASING, &round_stroke(width));
}

/// A [`Marker::Dot`]'s radius and edge width (centred on its rim), and its edge colour: the
/// marks' casing.
pub(crate) fn dot_look(r: f32) -> (f32, f32, Rgba) {
    ((0.2 * r).max(2.0), 2.0 * mark_casing_px(r), MARK_CASING)
}

/// A [`Marker::Ring`]'s radius, line width and the width of the casing under it.
pub(crate) fn ring_look(r: f32) -> (f32, f32, f32) {
    let width = (0.1 * r).max(1.5);
    (0.72 * r, width, width + 2.0 * mark_casing_px(r))
}

/// Where a label's text goes: centred on `x`, its baseline at `baseline`, capitals `cap` px.
pub(crate) struct LabelPlace {
    pub x: f32,
    pub baseline: f32,
    pub cap: f32,
}

/// The place of `label` on a board of hex radius `r` pixels; `None` when it has no size.
pub(crate) fn label_place(
    board: &BoardLayout,
    theme: &Theme,
    label: &Label,
    r: f32,
) -> Option<LabelPlace> {
    let size = label_size(label.size);
    if size <= 0.0 {
        return None;
    }
    let cap = (size * r).min(theme.label_px_max);
    let (x, y) = board.point(label.at);
    Some(LabelPlace {
        x,
        baseline: y + cap / 2.0,
        cap,
    })
}

/// Cells with their grid lines, the rim and the rim labels.
fn paint_cells(ctx: &Ctx, pm: &mut Pixmap, scene: &Scene) {
    let theme = ctx.theme;
    let board = ctx.page.board(scene);
    let Some(grid) = Grid::of(&board, theme, scene) else {
        return;
    };
    let Grid {
        r, sx, sy, grid_w, ..
    } = grid;

    for (t, &c) in scene.tiles.iter().zip(&grid.centres) {
        let key = TileKey::new(t.fill, theme.grid, scene.orientation, sx, sy, grid_w);
        if let Some(sprite) = ctx.sprites.tile(key) {
            place(pm, &sprite, c);
        }
    }

    if let Some(path) = rim_path(&grid.centres, &grid.corners, (sx, sy)) {
        stroke(pm, &path, theme.rim, &round_stroke(grid.rim_width()));
    }

    for label in &scene.labels {
        let Some(at) = label_place(&board, theme, label, r) else {
            continue;
        };
        let line = ctx
            .fonts
            .line(Face::Bold, &label.text, at.cap / CAP_HEIGHT_EM);
        if let Some(path) = line.path {
            let ts = Transform::from_translate(at.x - line.width / 2.0, at.baseline);
            pm.fill_path(&path, &paint(label.colour), FillRule::Winding, ts, None);
        }
    }
}

fn paint_board(ctx: &Ctx, pm: &mut Pixmap, scene: &Scene) {
    let board = ctx.page.board(scene);
    let Some(grid) = Grid::of(&board, ctx.theme, scene) else {
        return;
    };
    let Grid {
        r, sx, sy, corners, ..
    } = grid;

    let outline_w = grid.outline_width();
    for (t, &c) in scene.tiles.iter().zip(&grid.centres) {
        let mut nth = 0.0;
        for m in &t.markers {
            match *m {
                Marker::Tint(colour) => {
                    let k = grid.tint_scale();
                    if let Some(path) = hex_path(&corners, c, (sx * k, sy * k)) {
                        fill(pm, &path, colour);
                    }
                }
                Marker::Outline(colour) => {
                    let k = grid.outline_scale(nth);
                    if k > 0.0
                        && let Some(path) = hex_path(&corners, c, (sx * k, sy * k))
                    {
                        paint_casing(pm, &path, grid.outline_casing_width(), r, ctx.theme);
                        stroke(pm, &path, colour, &round_stroke(outline_w));
                    }
                    nth += 1.0;
                }
                Marker::Check => paint_check(pm, &corners, c, (sx, sy)),
                Marker::Dot(_) | Marker::Ring(_) => {}
            }
        }
    }

    let px = glyph_px(ctx.theme, r);
    for (t, &c) in scene.tiles.iter().zip(&grid.centres) {
        if let Some(glyph) = &t.glyph
            && let Some(sprite) = ctx.sprites.get(glyph, px, ctx.fonts)
        {
            place(pm, &sprite, c);
        }
    }

    for (t, &(cx, cy)) in scene.tiles.iter().zip(&grid.centres) {
        for m in &t.markers {
            match *m {
                Marker::Dot(colour) => {
                    let (radius, edge_w, edge) = dot_look(r);
                    if let Some(dot) = PathBuilder::from_circle(cx, cy, radius) {
                        if let Some(halo) = ctx.theme.mark_halo {
                            stroke(pm, &dot, halo, &round_stroke(2.0 * edge_w));
                        }
                        stroke(pm, &dot, edge, &round_stroke(edge_w));
                        fill(pm, &dot, colour);
                    }
                }
                Marker::Ring(colour) => {
                    let (radius, width, casing) = ring_look(r);
                    if let Some(ring) = PathBuilder::from_circle(cx, cy, radius) {
                        paint_casing(pm, &ring, casing, r, ctx.theme);
                        stroke(pm, &ring, colour, &round_stroke(width));
                    }
                }
                Marker::Check => {
                    let badge = CheckBadge::at((cx, cy), r, ctx.theme.badge_px_min);
                    paint_check_badge(pm, &badge);
                }
                _ => {}
            }
        }
    }

    for arrow in &scene.arrows {
        if let Some(shape) = ArrowShape::of(&board, arrow) {
            paint_arrow(pm, &shape, arrow.colour, ctx.theme.mark_halo);
        }
    }
    // Badges after every arrow, so a later shaft never hides an earlier number.
    for arrow in &scene.arrows {
        if let Some(badge) = ArrowBadge::of(&board, arrow) {
            paint_badge(ctx, pm, &badge);
        }
    }
    for tag in &scene.tags {
        if let Some(shape) = TagShape::of(ctx.fonts, ctx.theme, &board, tag, r) {
            paint_tag(pm, &shape, tag);
        }
    }
}

/// A heavier line along every cell edge that has no neighbour: the board's outline (and the
/// outline of holes and islands on a board like HexaEquo's), as closed loops.
pub(crate) fn rim_path(
    centres: &[(f32, f32)],
    corners: &[(f32, f32); 6],
    (sx, sy): (f32, f32),
) -> Option<Path> {
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
    // Sorted, so a pinch point is walked the same way every time (the map's order is random).
    for outs in next.values_mut() {
        outs.sort_unstable_by_key(|&(to, _)| to);
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
    rim.finish()
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
    /// The swatch in this shape rather than a disc.
    plate: Option<Plate>,
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
        plate,
    } = *t;
    let mut x = x;
    let mut max_w = max_w;
    if let Some(s) = swatch {
        // A little larger when it carries a letter.
        let (room, drop) = plate.map_or((1.0, 0.0), crate::shapes::plate_room);
        let rad = if mark.is_some() {
            cap * 0.78 * room
        } else {
            cap * 0.62
        };
        let centre = (x + rad, y - cap / 2.0 - drop * rad);
        let shape = match plate {
            Some(p) => crate::shapes::plate(p, centre, rad),
            None => PathBuilder::from_circle(centre.0, centre.1, rad),
        };
        if let Some(shape) = shape {
            let mut edge = round_stroke((cap * 0.12).max(1.0));
            edge.line_join = tiny_skia::LineJoin::Miter;
            stroke(pm, &shape, s.contrasting_outline(), &edge);
            fill(pm, &shape, s.with_alpha(255));
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
            plate: line.plate,
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
            plate: tray.plate,
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
