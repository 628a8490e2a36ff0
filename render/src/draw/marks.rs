//! The marks painted over the board's cells: tags, arrows with their number badges, and a
//! checked cell's glow and badge. Each is laid out first (the shapes the SVG writer uses too),
//! then painted onto the pixmap.

use tiny_skia::{
    FillRule, GradientStop, Path, PathBuilder, Pixmap, Point, RadialGradient, SpreadMode, Stroke,
    StrokeDash, Transform,
};

use super::{Ctx, fill, hex_path, stroke};
use crate::layout::BoardLayout;
use crate::scene::{Arrow, MARK_CASING, Rgba, Tag, mark_casing_px};
use crate::sprite::{paint, round_stroke, to_color};
use crate::text::{CAP_HEIGHT_EM, Face, Fonts, Line};
use crate::theme::Theme;

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
pub(super) fn paint_tag(pm: &mut Pixmap, t: &TagShape, tag: &Tag) {
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

pub(super) fn paint_badge(ctx: &Ctx, pm: &mut Pixmap, b: &ArrowBadge) {
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
pub(super) fn paint_check(
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

    /// The badge of a checked cell centred on `(cx, cy)`, hex radius `r`, at least `least`
    /// pixels across (`Theme::badge_px_min`: readable on a phone on the full board too, where
    /// it then reaches over the cell's upper right).
    pub(crate) fn at((cx, cy): (f32, f32), r: f32, least: f32) -> CheckBadge {
        let br = (0.3 * r).max(least / 2.0).max(4.0);
        let (bx, by) = (cx + 0.5 * r, cy - 0.55 * r);
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

pub(super) fn paint_check_badge(pm: &mut Pixmap, b: &CheckBadge) {
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
    /// The casing's colour and width, stroked (round) under the outline's fill (and, dashed,
    /// under the shaft's dashes, wider than them by the same).
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
    // The casing: opaque, half of it outside the arrow's fill (the stroke is centred on it).
    let edge = MARK_CASING;
    let edge_w = 2.0 * mark_casing_px(r);
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

/// `shape` in `colour` on its casing (and `halo`, a light band round the casing, if any).
pub(super) fn paint_arrow(pm: &mut Pixmap, shape: &ArrowShape, colour: Rgba, halo: Option<Rgba>) {
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
            let dashed = |width: f32| Stroke {
                width,
                dash: StrokeDash::new(vec![d.on, d.off], 0.0),
                ..Stroke::default()
            };
            if let Some(halo) = halo {
                stroke(pm, &line, halo, &dashed(d.width + 2.0 * shape.edge_w));
            }
            stroke(pm, &line, shape.edge, &dashed(d.width + shape.edge_w));
            stroke(pm, &line, colour, &dashed(d.width));
        }
    }
    if let Some(halo) = halo {
        stroke(pm, &head, halo, &round_stroke(2.0 * shape.edge_w));
    }
    stroke(pm, &head, shape.edge, &round_stroke(shape.edge_w));
    fill(pm, &head, colour);
}
