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
use crate::layout::{BoardLayout, LINE, Page, TRAY_ADVANCE, corners, label_size};
use crate::scene::{Arrow, HeaderLine, Label, Marker, Rgba, Scene, Tag};
use crate::sprite::{Sprite, Sprites, TileKey, blit, paint, round_stroke, to_color};
use crate::text::{CAP_HEIGHT_EM, Face, Fonts, Line};
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

    /// The hex scale of a cell's `nth` outline (they nest inward); not positive when it no
    /// longer fits.
    pub(crate) fn outline_scale(&self, nth: f32) -> f32 {
        let inset = self.grid_w / 2.0 + self.outline_width() * (nth + 0.5) * 1.15;
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

/// A [`Marker::Dot`]'s radius and edge width, and its edge colour.
pub(crate) fn dot_look(r: f32, colour: Rgba) -> (f32, f32, Rgba) {
    let edge = colour.contrasting_outline().with_alpha(colour.a / 2);
    ((0.2 * r).max(2.0), (0.05 * r).max(1.0), edge)
}

/// A [`Marker::Ring`]'s radius and line width.
pub(crate) fn ring_look(r: f32) -> (f32, f32) {
    (0.72 * r, (0.1 * r).max(1.5))
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
                    let (radius, edge_w, edge) = dot_look(r, colour);
                    if let Some(dot) = PathBuilder::from_circle(cx, cy, radius) {
                        stroke(pm, &dot, edge, &round_stroke(edge_w));
                        fill(pm, &dot, colour);
                    }
                }
                Marker::Ring(colour) => {
                    let (radius, width) = ring_look(r);
                    if let Some(ring) = PathBuilder::from_circle(cx, cy, radius) {
                        stroke(pm, &ring, colour, &round_stroke(width));
                    }
                }
                Marker::Check => paint_check_badge(pm, &CheckBadge::at((cx, cy), r)),
                _ => {}
            }
        }
    }

    for arrow in &scene.arrows {
        if let Some(shape) = ArrowShape::of(&board, arrow) {
            paint_arrow(pm, &shape, arrow.colour);
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

/// A tag laid out: its text on a pill of its fill, `w` × `h` pixels centred on `(x, y)`, edged
/// in a colour that contrasts with the fill.
pub(crate) struct TagShape {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    pub edge: Rgba,
    pub edge_w: f32,
    /// Capital height of the text, pixels; its baseline is `cap / 2` below `y`.
    pub cap: f32,
    pub line: Line,
}

impl TagShape {
    /// `tag` on a board of hex radius `r` pixels; `None` when its text draws nothing.
    pub(crate) fn of(
        fonts: &Fonts,
        theme: &Theme,
        board: &BoardLayout,
        tag: &Tag,
        r: f32,
    ) -> Option<TagShape> {
        let floor = if tag.floor { theme.tag_px_min } else { 1.0 };
        let cap = (tag.size * r).min(theme.label_px_max).max(floor);
        let line = fonts.line(Face::Bold, &tag.text, cap / CAP_HEIGHT_EM);
        line.path.as_ref()?;
        let (x, y) = board.point(tag.at);
        let h = cap * 1.9;
        let w = (line.width + cap * 1.1).max(h);
        Some(TagShape {
            x,
            y,
            w,
            h,
            edge: tag.fill.contrasting_outline(),
            edge_w: (cap * 0.14).max(1.0),
            cap,
            line,
        })
    }
}

/// A tag: its text on a pill of its fill, over everything else on the board.
fn paint_tag(pm: &mut Pixmap, t: &TagShape, tag: &Tag) {
    let Some(text) = &t.line.path else {
        return;
    };
    let (x, y) = (t.x, t.y);
    if let Some(shape) = pill(x, y, t.w, t.h) {
        // The edge first, then the fill over it: the lines where the pill's parts overlap are
        // covered, its outline keeps the outer half of the edge.
        stroke(pm, &shape, t.edge, &round_stroke(t.edge_w));
        fill(pm, &shape, tag.fill);
    }
    let ts = Transform::from_translate(x - t.line.width / 2.0, y + t.cap / 2.0);
    pm.fill_path(text, &paint(tag.ink), FillRule::Winding, ts, None);
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

/// A numbered disc in the arrow's colour (opaque) where the arrow starts, its place in move
/// order: centred on `(cx, cy)`, edged and lettered in `ink`, the number's capitals `cap` px.
pub(crate) struct ArrowBadge {
    pub cx: f32,
    pub cy: f32,
    pub radius: f32,
    pub colour: Rgba,
    pub ink: Rgba,
    pub edge_w: f32,
    pub text: String,
    pub cap: f32,
}

impl ArrowBadge {
    /// The badge of `arrow`; `None` when it has no number or no length.
    pub(crate) fn of(board: &BoardLayout, arrow: &Arrow) -> Option<ArrowBadge> {
        let n = arrow.number?;
        let r = board.radius;
        let (ax, ay) = board.centre(arrow.from);
        let (bx, by) = board.centre(arrow.to);
        let (dx, dy) = (bx - ax, by - ay);
        let len = (dx * dx + dy * dy).sqrt();
        if !(len.is_finite() && len > 1.0 && r.is_finite()) {
            return None;
        }
        // On the shaft, a little past the start: the piece that left is gone, a piece that
        // arrived on the start cell since (a later move) keeps its centre visible.
        let k = (0.55 * r).min(len / 2.0) / len;
        let radius = (0.36 * r).max(5.0);
        let colour = arrow.colour.with_alpha(255);
        let text = n.to_string();
        let cap = radius * if text.len() > 1 { 0.8 } else { 1.0 };
        Some(ArrowBadge {
            cx: ax + dx * k,
            cy: ay + dy * k,
            radius,
            colour,
            ink: colour.contrasting_outline(),
            edge_w: (0.05 * r).max(1.0),
            text,
            cap,
        })
    }
}

fn paint_badge(ctx: &Ctx, pm: &mut Pixmap, b: &ArrowBadge) {
    let (cx, cy) = (b.cx, b.cy);
    let Some(disc) = PathBuilder::from_circle(cx, cy, b.radius) else {
        return;
    };
    fill(pm, &disc, b.colour);
    stroke(pm, &disc, b.ink, &round_stroke(b.edge_w));
    let line = ctx.fonts.line(Face::Bold, &b.text, b.cap / CAP_HEIGHT_EM);
    if let Some(path) = line.path {
        let ts = Transform::from_translate(cx - line.width / 2.0, cy + b.cap / 2.0);
        pm.fill_path(&path, &paint(b.ink), FillRule::Winding, ts, None);
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

/// The hex scale of a check's glow and ring.
pub(crate) const CHECK_SCALE: f32 = 0.97;
/// The check glow's colour stops, from the centre out to one hex radius.
pub(crate) const CHECK_GLOW: [(f32, Rgba); 3] = [
    (0.0, Rgba::new(255, 40, 30, 255)),
    (0.55, Rgba::new(235, 20, 20, 200)),
    (1.0, Rgba::new(190, 0, 0, 40)),
];
/// The check ring's colour (over a black halo).
pub(crate) const CHECK_RING: Rgba = Rgba::rgb(255, 48, 36);

/// The widths of a check's black halo and of its ring over it, for hex radius `r`.
pub(crate) fn check_widths(r: f32) -> (f32, f32) {
    ((0.2 * r).max(3.0), (0.1 * r).max(1.5))
}

/// A red glow filling the cell, brightest at the centre, and a red ring: a piece in check.
fn paint_check(
    pm: &mut Pixmap,
    corners: &[(f32, f32); 6],
    (cx, cy): (f32, f32),
    (sx, sy): (f32, f32),
) {
    let r = (sx + sy) / 2.0;
    let k = CHECK_SCALE;
    let Some(path) = hex_path(corners, (cx, cy), (sx * k, sy * k)) else {
        return;
    };
    let stops = CHECK_GLOW
        .iter()
        .map(|&(at, c)| GradientStop::new(at, to_color(c)))
        .collect();
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
    let (halo, ring) = check_widths(r);
    stroke(pm, &path, Rgba::BLACK, &round_stroke(halo));
    stroke(pm, &path, CHECK_RING, &round_stroke(ring));
}

/// The Check badge over a checked piece: a red disc edged in black with a white "+" (the check
/// sign of chess notation) at the cell's upper right, drawn after the pieces so none hides it.
pub(crate) struct CheckBadge {
    pub cx: f32,
    pub cy: f32,
    pub radius: f32,
    pub edge_w: f32,
    /// Half the length of each bar of the "+".
    pub arm: f32,
    pub plus_w: f32,
}

impl CheckBadge {
    /// The disc's fill (edged in black, the "+" in white).
    pub(crate) const FILL: Rgba = Rgba::rgb(230, 30, 24);

    /// The badge of a checked cell centred on `(cx, cy)`, hex radius `r`.
    pub(crate) fn at((cx, cy): (f32, f32), r: f32) -> CheckBadge {
        let (bx, by, br) = (cx + 0.5 * r, cy - 0.55 * r, (0.3 * r).max(4.0));
        CheckBadge {
            cx: bx,
            cy: by,
            radius: br,
            edge_w: (0.07 * br).max(1.0),
            arm: 0.55 * br,
            plus_w: (0.3 * br).max(1.5),
        }
    }
}

fn paint_check_badge(pm: &mut Pixmap, b: &CheckBadge) {
    let (bx, by) = (b.cx, b.cy);
    let Some(disc) = PathBuilder::from_circle(bx, by, b.radius) else {
        return;
    };
    fill(pm, &disc, CheckBadge::FILL);
    stroke(pm, &disc, Rgba::BLACK, &round_stroke(b.edge_w));
    let arm = b.arm;
    let mut plus = PathBuilder::new();
    plus.move_to(bx - arm, by);
    plus.line_to(bx + arm, by);
    plus.move_to(bx, by - arm);
    plus.line_to(bx, by + arm);
    if let Some(plus) = plus.finish() {
        stroke(pm, &plus, Rgba::WHITE, &round_stroke(b.plus_w));
    }
}

/// A dashed arrow's shaft: from `from` to `to`, `width` wide, dashes `on` long with gaps `off`
/// long (butt ends, starting with a dash).
#[derive(Clone, Copy)]
pub(crate) struct Dashes {
    pub from: (f32, f32),
    pub to: (f32, f32),
    pub width: f32,
    pub on: f32,
    pub off: f32,
}

/// An arrow laid out in pixels.
pub(crate) struct ArrowShape {
    /// A closed polygon filled in the arrow's colour: the whole arrow, or only its head when
    /// dashed.
    pub outline: Vec<(f32, f32)>,
    /// Dashed: the shaft, under the head.
    pub dashed: Option<Dashes>,
    /// Solid: the outline's edge colour and width, stroked (round) under its fill.
    pub edge: Rgba,
    pub edge_w: f32,
}

impl ArrowShape {
    /// `arrow` on `board`; `None` when it has no length.
    pub(crate) fn of(board: &BoardLayout, arrow: &Arrow) -> Option<ArrowShape> {
        let r = board.radius;
        let (ax, ay) = board.centre(arrow.from);
        let (bx, by) = board.centre(arrow.to);
        let (dx, dy) = (bx - ax, by - ay);
        let len = (dx * dx + dy * dy).sqrt();
        if !(len.is_finite() && len > 1.0) {
            return None;
        }
        Some(arrow_geometry(arrow, r, (ax, ay), (bx, by), (dx, dy, len)))
    }
}

fn arrow_geometry(
    arrow: &Arrow,
    r: f32,
    (ax, ay): (f32, f32),
    (bx, by): (f32, f32),
    (dx, dy, len): (f32, f32, f32),
) -> ArrowShape {
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
    let outline: Vec<(f32, f32)> = if arrow.dashed {
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
    ArrowShape {
        outline,
        dashed: arrow.dashed.then_some(Dashes {
            from: start,
            to: neck,
            width: shaft * 2.0,
            on: shaft * 3.0,
            off: shaft * 2.2,
        }),
        edge,
        edge_w,
    }
}

fn paint_arrow(pm: &mut Pixmap, shape: &ArrowShape, colour: Rgba) {
    let mut head = PathBuilder::new();
    for (i, &(x, y)) in shape.outline.iter().enumerate() {
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
    if let Some(d) = shape.dashed {
        let mut line = PathBuilder::new();
        line.move_to(d.from.0, d.from.1);
        line.line_to(d.to.0, d.to.1);
        if let Some(line) = line.finish() {
            let dashes = StrokeDash::new(vec![d.on, d.off], 0.0);
            let s = Stroke {
                width: d.width,
                dash: dashes,
                ..Stroke::default()
            };
            stroke(pm, &line, colour, &s);
        }
    } else {
        stroke(pm, &head, shape.edge, &round_stroke(shape.edge_w));
    }
    fill(pm, &head, colour);
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
