//! Piece sprites: a [`Glyph`] rasterised once at a pixel size and kept, then copied onto every
//! picture that shows it. A 649-cell board shows 132 pieces of at most 60 distinct looks, so a
//! render is mostly copies.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint as SkPaint, Pixmap, PremultipliedColorU8, Stroke,
    Transform,
};

use crate::layout::corners;
use crate::scene::{Glyph, GlyphState, Orientation, Plate, Rgba, Shape};
use crate::shapes::{self, Art, Ink, Paint};
use crate::text::{Face, Fonts};

/// Width of the contrasting rim around a silhouette, in box units (half of it shows outside).
pub(crate) const RIM: f32 = 11.0;
/// A top hat's colour.
pub(crate) const HAT: Rgba = Rgba::rgb(24, 24, 28);
/// The drop shadow's colour and its offset from the piece, in box units.
pub(crate) const SHADOW: Rgba = Rgba::new(0, 0, 0, 70);
pub(crate) const SHADOW_OFFSET: (f32, f32) = (2.0, 3.5);
/// The sheen's colour ([`Ink::Sheen`]).
pub(crate) const SHEEN: Rgba = Rgba::new(255, 255, 255, 150);
/// Room around the 100-unit box for the rim and the shadow, in box units per side.
const PAD: f32 = 9.0;

/// The star badge: [`star_path`] scaled by `.2` and moved by `(.0, .1)` in box units, filled
/// gold over a dark edge.
pub(crate) const STAR_AT: (f32, f32, f32) = (-6.0, -4.0, 0.36);
pub(crate) const STAR_FILL: Rgba = Rgba::rgb(255, 200, 40);
pub(crate) const STAR_EDGE: Rgba = Rgba::rgb(60, 40, 0);
pub(crate) const STAR_EDGE_W: f32 = 16.0;
/// The hat badge: [`shapes::hat`] standing on `(.0, .1)` at `.2` times its size, its crown
/// edged in the outline colour this wide.
pub(crate) const HAT_BADGE: (f32, f32, f32) = (82.0, 30.0, 0.8);
pub(crate) const HAT_RIM: f32 = RIM * 0.6;
/// The count badge: a disc of this colour edged in white, the number in white with capitals
/// `COUNT_CAP` high and its baseline `COUNT_DROP` below the disc's centre (box units).
pub(crate) const COUNT_FILL: Rgba = Rgba::rgb(30, 30, 36);
pub(crate) const COUNT_EDGE_W: f32 = 4.0;
pub(crate) const COUNT_CAP: f32 = 19.0;
pub(crate) const COUNT_DROP: f32 = 9.5;
/// The mark badge: a disc `(x, y, radius)` in the fill colour edged in the outline colour, the
/// letter in the outline colour (box units, as for the count).
pub(crate) const MARK_DISC: (f32, f32, f32) = (18.0, 82.0, 17.0);
pub(crate) const MARK_EDGE_W: f32 = 5.0;
pub(crate) const MARK_CAP: f32 = 22.0;
pub(crate) const MARK_DROP: f32 = 11.0;
/// The plate a piece stands on: its shape's centre `(x, y)` and radius in box units, filled
/// in the piece's colour darkened by [`PLATE_DARK`] and edged in its outline colour this
/// wide; the piece on it is drawn [`PLATE_PIECE`] times its size (about the box's centre), so
/// that the shape shows round it.
pub(crate) const PLATE_AT: (f32, f32, f32) = (50.0, 52.0, 49.0);
pub(crate) const PLATE_EDGE_W: f32 = 5.0;
pub(crate) const PLATE_DARK: f32 = 0.5;
pub(crate) const PLATE_PIECE: f32 = 0.8;
/// Bound on cached sprites: a long-running bot sees few distinct looks, but a caller could vary
/// colours freely; past this many the cache starts over rather than growing without end.
const MAX_SPRITES: usize = 4096;

/// A rasterised glyph; `(cx, cy)` is where the centre of the artwork's box lies in the pixmap.
pub(crate) struct Sprite {
    pub pixmap: Pixmap,
    pub cx: f32,
    pub cy: f32,
    /// Per row, the opaque run a blit may copy without blending.
    pub runs: Vec<(u32, u32)>,
}

impl Sprite {
    fn new(pixmap: Pixmap, cx: f32, cy: f32) -> Sprite {
        let runs = opaque_runs(&pixmap);
        Sprite {
            pixmap,
            cx,
            cy,
            runs,
        }
    }
}

/// Artwork per shape, sprites per (glyph, size) and cell sprites per (colours, lattice), shared
/// by every render of a renderer.
pub(crate) struct Sprites {
    arts: Mutex<HashMap<Shape, Option<Arc<Art>>>>,
    sprites: Mutex<HashMap<(Glyph, u16), Arc<Sprite>>>,
    tiles: Mutex<HashMap<TileKey, Arc<Sprite>>>,
}

/// A cell's look: fill, line colour, orientation, and the lattice's pixels per world unit and
/// line width (as bits, so the key can be hashed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TileKey {
    pub fill: Rgba,
    pub line: Rgba,
    pub orientation: Orientation,
    pub sx: u32,
    pub sy: u32,
    pub width: u32,
}

impl TileKey {
    pub(crate) fn new(fill: Rgba, line: Rgba, o: Orientation, sx: f32, sy: f32, w: f32) -> TileKey {
        TileKey {
            fill,
            line,
            orientation: o,
            sx: sx.to_bits(),
            sy: sy.to_bits(),
            width: w.to_bits(),
        }
    }
}

pub(crate) fn to_color(c: Rgba) -> Color {
    Color::from_rgba8(c.r, c.g, c.b, c.a)
}

pub(crate) fn paint(c: Rgba) -> SkPaint<'static> {
    let mut p = SkPaint::default();
    p.set_color(to_color(c));
    p
}

pub(crate) fn round_stroke(width: f32) -> Stroke {
    Stroke {
        width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Stroke::default()
    }
}

impl Sprites {
    pub(crate) fn new() -> Sprites {
        Sprites {
            arts: Mutex::new(HashMap::new()),
            sprites: Mutex::new(HashMap::new()),
            tiles: Mutex::new(HashMap::new()),
        }
    }

    /// One cell, filled and edged with its half of the lines it shares with its neighbours
    /// (each neighbour draws the same line, so cells can be drawn in any order).
    pub(crate) fn tile(&self, key: TileKey) -> Option<Arc<Sprite>> {
        let mut cache = self.tiles.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(s) = cache.get(&key) {
            return Some(s.clone());
        }
        if cache.len() >= MAX_SPRITES {
            cache.clear();
        }
        let sprite = Arc::new(tile_sprite(key)?);
        cache.insert(key, sprite.clone());
        Some(sprite)
    }

    /// The artwork of `shape`, built once per renderer.
    pub(crate) fn art(&self, shape: Shape, fonts: &Fonts) -> Option<Arc<Art>> {
        let mut arts = self.arts.lock().unwrap_or_else(PoisonError::into_inner);
        arts.entry(shape)
            .or_insert_with(|| shapes::build(shape, fonts).map(Arc::new))
            .clone()
    }

    /// The sprite of `glyph` whose 100-unit box is `px` pixels wide.
    pub(crate) fn get(&self, glyph: &Glyph, px: u16, fonts: &Fonts) -> Option<Arc<Sprite>> {
        let key = (*glyph, px);
        {
            let cache = self.sprites.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(s) = cache.get(&key) {
                return Some(s.clone());
            }
        }
        // Built outside the lock so two threads rendering different boards do not wait on each
        // other; a rare duplicate build is harmless.
        let art = self.art(glyph.shape, fonts)?;
        let sprite = Arc::new(rasterise(&art, glyph, f32::from(px), fonts)?);
        let mut cache = self.sprites.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() >= MAX_SPRITES {
            cache.clear();
        }
        cache.insert(key, sprite.clone());
        Some(sprite)
    }
}

fn tile_sprite(key: TileKey) -> Option<Sprite> {
    let (sx, sy) = (f32::from_bits(key.sx), f32::from_bits(key.sy));
    let w = f32::from_bits(key.width);
    let corners = corners(key.orientation);
    let hw = corners.iter().map(|c| (c.0 * sx).abs()).fold(0.0, f32::max);
    let hh = corners.iter().map(|c| (c.1 * sy).abs()).fold(0.0, f32::max);
    let pad = w.ceil() + 2.0;
    let (cx, cy) = (hw.ceil() + pad, hh.ceil() + pad);
    let mut pm = Pixmap::new((2.0 * cx) as u32 + 1, (2.0 * cy) as u32 + 1)?;
    let mut b = tiny_skia::PathBuilder::new();
    for (i, &(x, y)) in corners.iter().enumerate() {
        let (px, py) = (cx + x * sx, cy + y * sy);
        if i == 0 {
            b.move_to(px, py);
        } else {
            b.line_to(px, py);
        }
    }
    b.close();
    let hex = b.finish()?;
    pm.fill_path(
        &hex,
        &paint(key.fill),
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    let line = Stroke {
        width: w,
        line_join: LineJoin::Miter,
        ..Stroke::default()
    };
    pm.stroke_path(&hex, &paint(key.line), &line, Transform::identity(), None);
    Some(Sprite::new(pm, cx, cy))
}

/// The colours (fill, outline) a glyph is drawn in once its state is applied.
pub(crate) fn colours(glyph: &Glyph) -> (Rgba, Rgba) {
    match glyph.state {
        GlyphState::Frozen => {
            // Keep a trace of the owner's colour so a frozen army is still attributable.
            let l = (glyph.fill.luminance() * 255.0 * 0.5 + 90.0).round() as u8;
            let grey = Rgba::rgb(l, l, l);
            (glyph.fill.mix(grey, 0.8), Rgba::rgb(96, 96, 100))
        }
        GlyphState::Normal | GlyphState::Ghost => (glyph.fill, glyph.outline),
    }
}

/// Where the 100-unit box starts inside a sprite whose box is scaled by `k` (pixels per unit).
fn box_inset(k: f32) -> f32 {
    (PAD * k).round() + 1.0
}

/// The page position of the top-left corner of a glyph's 100-unit box when its sprite of box
/// size `px` is placed at `centre` (as `draw::place` puts a sprite: on whole pixels).
pub(crate) fn box_origin((x, y): (f32, f32), px: u16) -> (f32, f32) {
    let k = f32::from(px) / 100.0;
    let inset = box_inset(k);
    let c = inset + 50.0 * k;
    ((x - c).round() + inset, (y - c).round() + inset)
}

fn rasterise(art: &Art, glyph: &Glyph, px: f32, fonts: &Fonts) -> Option<Sprite> {
    if !(px.is_finite() && px >= 1.0) {
        return None;
    }
    let k = px / 100.0;
    let side = ((100.0 + 2.0 * PAD) * k).ceil() as u32 + 2;
    let mut pm = Pixmap::new(side, side)?;
    let ts = Transform::from_row(k, 0.0, 0.0, k, box_inset(k), box_inset(k));
    let (fill, outline) = colours(glyph);

    let figure = match glyph.badges.plate {
        Some(plate) => {
            draw_plate(&mut pm, plate, fill, outline, ts);
            plated(ts)
        }
        None => ts,
    };
    // A soft drop shadow lifts the piece off the tile.
    let shadow = paint(SHADOW);
    let shadow_ts = figure.pre_translate(SHADOW_OFFSET.0, SHADOW_OFFSET.1);
    for (path, rule) in &art.silhouette {
        pm.stroke_path(path, &shadow, &round_stroke(RIM), shadow_ts, None);
        pm.fill_path(path, &shadow, *rule, shadow_ts, None);
    }
    let rim = paint(outline);
    for (path, _) in &art.silhouette {
        pm.stroke_path(path, &rim, &round_stroke(RIM), figure, None);
    }
    draw_layers(&mut pm, &art.layers, fill, outline, figure);
    if glyph.badges.star {
        let (tx, ty, k) = STAR_AT;
        draw_star(&mut pm, ts.pre_translate(tx, ty).pre_scale(k, k));
    }
    if glyph.badges.hat {
        let (x, bottom, k) = HAT_BADGE;
        let (crown, band) = shapes::hat(x, bottom, k);
        if let Some(crown) = crown {
            pm.stroke_path(&crown, &rim, &round_stroke(HAT_RIM), ts, None);
            pm.fill_path(&crown, &paint(HAT), FillRule::Winding, ts, None);
        }
        if let Some(band) = band {
            pm.fill_path(&band, &paint(fill), FillRule::Winding, ts, None);
        }
    }
    if let Some(n) = glyph.badges.count.filter(|&n| n > 1) {
        draw_count(&mut pm, n, ts, fonts);
    }
    if let Some(c) = glyph.badges.mark {
        draw_mark(&mut pm, c, fill, outline, ts, fonts);
    }
    if glyph.state == GlyphState::Ghost {
        fade(&mut pm, 0.5);
    }
    let (cx, cy) = (ts.tx + 50.0 * k, ts.ty + 50.0 * k);
    Some(Sprite::new(pm, cx, cy))
}

fn draw_layers(
    pm: &mut Pixmap,
    layers: &[shapes::Layer],
    fill: Rgba,
    outline: Rgba,
    ts: Transform,
) {
    for layer in layers {
        let colour = match layer.ink {
            Ink::Fill => fill,
            Ink::Outline => outline,
            Ink::Sheen => SHEEN,
            Ink::Hat => HAT,
        };
        let p = paint(colour);
        match layer.paint {
            Paint::Fill(rule) => pm.fill_path(&layer.path, &p, rule, ts, None),
            Paint::Stroke(w) => pm.stroke_path(&layer.path, &p, &round_stroke(w), ts, None),
        }
    }
}

/// A five-pointed star in a 100-unit box, centred at (50, 52).
pub(crate) fn star_path() -> Option<tiny_skia::Path> {
    shapes::polygon((0..10).map(|i| {
        let r = if i % 2 == 0 { 48.0 } else { 20.0 };
        let a = std::f32::consts::PI * (i as f32) / 5.0 - std::f32::consts::FRAC_PI_2;
        (50.0 + r * a.cos(), 52.0 + r * a.sin())
    }))
}

/// The gold star of [`star_path`], scaled by `ts`.
fn draw_star(pm: &mut Pixmap, ts: Transform) {
    if let Some(star) = star_path() {
        let edge = round_stroke(STAR_EDGE_W);
        pm.stroke_path(&star, &paint(STAR_EDGE), &edge, ts, None);
        pm.fill_path(&star, &paint(STAR_FILL), FillRule::Winding, ts, None);
    }
}

/// The count badge's disc `(x, y, radius)` in box units for a number of `digits` digits: at the
/// lower right, wider for longer numbers.
pub(crate) fn count_disc(digits: usize) -> (f32, f32, f32) {
    let r = 14.0 + 4.0 * (digits.saturating_sub(1) as f32);
    (96.0 - r, 84.0, r)
}

/// A dark disc at the lower right with the number in white.
fn draw_count(pm: &mut Pixmap, n: u16, ts: Transform, fonts: &Fonts) {
    let text = n.to_string();
    let (cx, cy, r) = count_disc(text.len());
    if let Some(disc) = tiny_skia::PathBuilder::from_circle(cx, cy, r) {
        let edge = round_stroke(COUNT_EDGE_W);
        pm.stroke_path(&disc, &paint(Rgba::WHITE), &edge, ts, None);
        pm.fill_path(&disc, &paint(COUNT_FILL), FillRule::Winding, ts, None);
    }
    let em = COUNT_CAP / crate::text::CAP_HEIGHT_EM;
    let line = fonts.line(Face::Bold, &text, em);
    if let Some(path) = line.path {
        let at = ts.pre_translate(cx - line.width / 2.0, cy + COUNT_DROP);
        pm.fill_path(&path, &paint(Rgba::WHITE), FillRule::Winding, at, None);
    }
}

/// A disc of the piece's colour at the lower left with the letter `c` in its outline colour.
fn draw_mark(pm: &mut Pixmap, c: char, fill: Rgba, outline: Rgba, ts: Transform, fonts: &Fonts) {
    let (cx, cy, r) = MARK_DISC;
    if let Some(disc) = tiny_skia::PathBuilder::from_circle(cx, cy, r) {
        pm.stroke_path(&disc, &paint(outline), &round_stroke(MARK_EDGE_W), ts, None);
        pm.fill_path(&disc, &paint(fill), FillRule::Winding, ts, None);
    }
    let em = MARK_CAP / crate::text::CAP_HEIGHT_EM;
    let line = fonts.line(Face::Bold, &c.to_string(), em);
    if let Some(path) = line.path {
        let at = ts.pre_translate(cx - line.width / 2.0, cy + MARK_DROP);
        pm.fill_path(&path, &paint(outline), FillRule::Winding, at, None);
    }
}

/// The plate's colours: its fill and its edge.
pub(crate) fn plate_colours(fill: Rgba, outline: Rgba) -> (Rgba, Rgba) {
    (fill.mix(Rgba::BLACK, PLATE_DARK).with_alpha(255), outline)
}

/// The box-unit transform of a piece standing on a plate: [`PLATE_PIECE`] times its size
/// about the box's centre.
pub(crate) fn plated(ts: Transform) -> Transform {
    let k = PLATE_PIECE;
    ts.pre_translate(50.0 * (1.0 - k), 50.0 * (1.0 - k))
        .pre_scale(k, k)
}

/// The owner's shape under the piece (see [`crate::scene::Plate`]).
fn draw_plate(pm: &mut Pixmap, plate: Plate, fill: Rgba, outline: Rgba, ts: Transform) {
    let (cx, cy, r) = PLATE_AT;
    if let Some(path) = shapes::plate(plate, (cx, cy), r) {
        let (pale, edge) = plate_colours(fill, outline);
        let mut stroke = round_stroke(PLATE_EDGE_W);
        stroke.line_join = LineJoin::Miter;
        pm.stroke_path(&path, &paint(edge), &stroke, ts, None);
        pm.fill_path(&path, &paint(pale), FillRule::Winding, ts, None);
    }
}

/// Scales every (premultiplied) pixel, i.e. makes the sprite translucent.
fn fade(pm: &mut Pixmap, k: f32) {
    for px in pm.pixels_mut() {
        let f = |v: u8| (f32::from(v) * k).round() as u8;
        if let Some(c) =
            PremultipliedColorU8::from_rgba(f(px.red()), f(px.green()), f(px.blue()), f(px.alpha()))
        {
            *px = c;
        }
    }
}

/// The longest run of opaque pixels in each row, `(start, end)`; a blit copies it outright.
pub(crate) fn opaque_runs(pm: &Pixmap) -> Vec<(u32, u32)> {
    let w = pm.width() as usize;
    if w == 0 {
        return Vec::new();
    }
    pm.pixels()
        .chunks_exact(w)
        .map(|row| {
            let (mut best, mut start) = ((0, 0), None);
            for (i, p) in row
                .iter()
                .chain(std::iter::once(&PremultipliedColorU8::TRANSPARENT))
                .enumerate()
            {
                match (p.alpha() == 255, start) {
                    (true, None) => start = Some(i),
                    (false, Some(s)) => {
                        if i - s > best.1 - best.0 {
                            best = (s, i);
                        }
                        start = None;
                    }
                    _ => {}
                }
            }
            (best.0 as u32, best.1 as u32)
        })
        .collect()
}

/// Copies `src` onto `dst` with its top-left corner at `(x, y)`, source-over, clipped to `dst`.
/// Both are premultiplied, so this is `dst = src + dst · (1 − src.alpha)`; done by hand because
/// `tiny-skia`'s `draw_pixmap` goes through its float pipeline and costs several times more.
/// `runs` (from [`opaque_runs`]) marks the part of each row that is simply copied.
pub(crate) fn blit(dst: &mut Pixmap, src: &Pixmap, runs: &[(u32, u32)], x: i32, y: i32) {
    let (dw, dh) = (i64::from(dst.width()), i64::from(dst.height()));
    let (sw, sh) = (i64::from(src.width()), i64::from(src.height()));
    let (x, y) = (i64::from(x), i64::from(y));
    // The visible part, in source coordinates.
    let sx0 = (-x).max(0);
    let sx1 = (dw - x).min(sw);
    let sy0 = (-y).max(0);
    let sy1 = (dh - y).min(sh);
    if sx0 >= sx1 || sy0 >= sy1 {
        return;
    }
    let (s_stride, d_stride) = (sw as usize * 4, dw as usize * 4);
    let src_bytes = src.data();
    let dst_bytes = dst.data_mut();
    for row in sy0..sy1 {
        let s_row = &src_bytes[row as usize * s_stride..][..s_stride];
        let d_row = &mut dst_bytes[(row + y) as usize * d_stride..][..d_stride];
        let (a, b) = runs
            .get(row as usize)
            .map_or((0, 0), |&(a, b)| (i64::from(a), i64::from(b)));
        // Copy the opaque run, blend what is left on either side of it.
        let (ca, cb) = (a.clamp(sx0, sx1), b.clamp(sx0, sx1).max(a.clamp(sx0, sx1)));
        let px = |v: i64| v as usize * 4;
        if ca < cb {
            d_row[px(ca + x)..px(cb + x)].copy_from_slice(&s_row[px(ca)..px(cb)]);
        }
        for (lo, hi) in [(sx0, ca), (cb, sx1)] {
            if lo < hi {
                blend_span(&mut d_row[px(lo + x)..px(hi + x)], &s_row[px(lo)..px(hi)]);
            }
        }
    }
}

/// Source-over of premultiplied RGBA bytes. Each channel stays at most its alpha, because the
/// same monotone rounding is applied to colour and alpha.
fn blend_span(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(4)) {
        let sa = s[3];
        if sa == 0 {
            continue;
        }
        if sa == 255 {
            d.copy_from_slice(s);
            continue;
        }
        let inv = 255 - u32::from(sa);
        for k in 0..4 {
            // s + d · inv / 255, rounded (exact for 8-bit values).
            let t = u32::from(d[k]) * inv + 128;
            d[k] = (u32::from(s[k]) + ((t + (t >> 8)) >> 8)).min(255) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pixels of every built-in shape at board size.
    fn looks(px: u16) -> Vec<(Shape, Vec<PremultipliedColorU8>)> {
        let fonts = Fonts::new().expect("embedded fonts load");
        let sprites = Sprites::new();
        Shape::ALL
            .iter()
            .chain(&[Shape::Letter('Q'), Shape::Letter('K')])
            .map(|&shape| {
                let glyph = Glyph::new(shape, Rgba::rgb(40, 98, 222));
                let sprite = sprites
                    .get(&glyph, px, &fonts)
                    .expect("every shape has art");
                (shape, sprite.pixmap.pixels().to_vec())
            })
            .collect()
    }

    #[test]
    fn every_shape_looks_different() {
        // At 40 px (a cell on the 649-cell board) any two shapes must differ clearly on at
        // least 4 % of the sprite: enough to tell them apart at a glance, not by a stray pixel.
        let looks = looks(40);
        let far = |p: &PremultipliedColorU8, q: &PremultipliedColorU8| {
            p.red().abs_diff(q.red()) > 96
                || p.green().abs_diff(q.green()) > 96
                || p.blue().abs_diff(q.blue()) > 96
                || p.alpha().abs_diff(q.alpha()) > 96
        };
        for (i, (a, ma)) in looks.iter().enumerate() {
            let opaque = ma.iter().filter(|p| p.alpha() > 128).count();
            assert!(opaque > ma.len() / 10, "{a:?} is blank");
            for (b, mb) in &looks[i + 1..] {
                assert_eq!(ma.len(), mb.len());
                let differ = ma.iter().zip(mb).filter(|(p, q)| far(p, q)).count();
                assert!(
                    differ * 25 > ma.len(),
                    "{a:?} and {b:?} differ on only {differ} of {} pixels",
                    ma.len()
                );
            }
        }
    }

    #[test]
    fn states_and_badges_change_the_sprite() {
        let fonts = Fonts::new().expect("embedded fonts load");
        let sprites = Sprites::new();
        let base = Glyph::new(Shape::Pawn, Rgba::rgb(214, 38, 40));
        let looks = [
            base,
            base.with_state(GlyphState::Frozen),
            base.with_state(GlyphState::Ghost),
            base.with_badges(crate::scene::Badges {
                hat: true,
                ..Default::default()
            }),
            base.with_badges(crate::scene::Badges {
                star: true,
                ..Default::default()
            }),
            base.with_badges(crate::scene::Badges {
                count: Some(3),
                ..Default::default()
            }),
        ];
        let pixels: Vec<Vec<u8>> = looks
            .iter()
            .map(|g| {
                let s = sprites.get(g, 48, &fonts).expect("sprite");
                s.pixmap.data().to_vec()
            })
            .collect();
        for i in 0..pixels.len() {
            for j in i + 1..pixels.len() {
                assert_ne!(
                    pixels[i], pixels[j],
                    "{:?} looks like {:?}",
                    looks[i], looks[j]
                );
            }
        }
    }

    /// `box_origin` is where a placed sprite's artwork box lands: the sprite's top-left corner
    /// as `draw::place` rounds it, plus the box's inset in the sprite.
    #[test]
    fn box_origin_is_where_a_placed_sprite_puts_its_box() {
        let fonts = Fonts::new().expect("embedded fonts load");
        let sprites = Sprites::new();
        let glyph = Glyph::new(Shape::Crown, Rgba::rgb(40, 98, 222));
        for px in [1u16, 7, 29, 40, 48, 81, 143, 512] {
            let s = sprites.get(&glyph, px, &fonts).expect("sprite");
            let k = f32::from(px) / 100.0;
            for centre in [(0.0, 0.0), (101.0, 57.0), (1433.0, 12.0), (-3.0, 9.0)] {
                let top_left = ((centre.0 - s.cx).round(), (centre.1 - s.cy).round());
                let (ox, oy) = box_origin(centre, px);
                assert!(
                    (top_left.0 + s.cx - 50.0 * k - ox).abs() < 1e-3,
                    "{px} {centre:?}"
                );
                assert!(
                    (top_left.1 + s.cy - 50.0 * k - oy).abs() < 1e-3,
                    "{px} {centre:?}"
                );
            }
        }
    }

    #[test]
    fn blit_composites_and_clips() {
        let mut dst = Pixmap::new(4, 4).expect("pixmap");
        dst.fill(Color::from_rgba8(0, 0, 255, 255));
        let mut src = Pixmap::new(2, 2).expect("pixmap");
        src.fill(Color::from_rgba8(255, 0, 0, 128));
        let runs = opaque_runs(&src);
        assert_eq!(runs, vec![(0, 0), (0, 0)]);
        // Partly outside on every side: nothing panics, the inside is blended.
        for (x, y) in [(-1, -1), (3, 3), (-5, 0), (10, 10)] {
            blit(&mut dst, &src, &runs, x, y);
        }
        let p = dst.pixel(0, 0).expect("pixel");
        assert_eq!(p.alpha(), 255);
        assert!(p.red() > 120 && p.blue() > 120, "{p:?}");
        let untouched = dst.pixel(1, 1).expect("pixel");
        assert_eq!((untouched.red(), untouched.blue()), (0, 255));
    }
}
