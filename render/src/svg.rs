//! The board as an SVG document, for a web page that shows it and lets a player tap its cells:
//! [`crate::render_svg`] / [`crate::Renderer::render_svg`].
//!
//! Only the board is written: tiles with their markers and pieces, arrows, rim labels and tags.
//! The header lines and the trays are not (the page shows those as HTML).
//!
//! # Coordinates
//!
//! Every coordinate is a pixel of the PNG that [`crate::render_png`] draws of the same scene and
//! theme: x to the right, y down, the PNG's top-left corner at `(0, 0)`. Both pictures are laid
//! out by the one [`crate::BoardLayout`] ([`crate::board_layout`]): same hex radius, same
//! rotation, same (whole-pixel) cell centres. The root's `viewBox="x y w h"` is cropped to the
//! board: the tiles' and labels' bounding box ([`crate::BoardLayout::bounds`]) grown by
//! `theme.margin` on every side and out to whole pixels, so `(x, y)` is where the SVG's top-left
//! corner lies in the PNG (shown at its size, the SVG has the PNG's pixel grid). Its `width`
//! and `height` are `w` and `h`; a page may scale it freely.
//!
//! # Structure
//!
//! ```text
//! <svg class="hexmeros-board" viewBox=… width=… height=… data-radius=…>   hex radius in px
//!   <defs>              each piece shape used, once (<g id="hxm-…">); the badges; the check glow
//!   <rect class="bg">   the PNG's background under the board
//!   <g class="cells">
//!     <g class="cell" data-q data-r data-x data-y>   one per tile, in the scene's order
//!       <polygon>       the hex (the group's first child): its fill and its grid line
//!       tints and outlines (class tint, outline), which stay inside the cell
//!   <path class="rim">  the board's outer edge
//!   <g class="labels">  rim coordinates, <text>
//!   <g class="marks">   check glows (class check)           each of these carries its
//!   <g class="pieces">  pieces (class piece)                tile's data-q and data-r
//!   <g class="over">    dots, rings, check badges; arrows, their numbers; tags
//! ```
//!
//! `data-x`/`data-y` are the cell's centre. Everything after the cells has
//! `pointer-events="none"`, so a tap anywhere on a cell, on its piece or under an arrow too,
//! reaches the cell's group. Pieces, check glows and dots are not inside the cell groups because
//! they reach over the neighbouring cells (a piece's rim and shadow, its count badge, a check's
//! halo and badge), which a later cell group would cover; in these layers everything is drawn
//! in the PNG's order (later tiles over earlier ones, a hex listed twice drawn twice), so the
//! SVG shows what the PNG shows. (One hair of difference: the rim is drawn over the tints and
//! outlines of the cells along it, where the PNG draws them over the rim.)
//!
//! A piece is a `<use>` (or a `<g>` with a `<use>` and its badges) of its shape's definition,
//! which is built from the same vector paths as the PNG's sprites. Its colours come by SVG paint
//! inheritance: the `<use>` sets `fill` to the piece's fill colour and `color` to its outline
//! colour; inside the definition, fill-coloured parts inherit `fill` and outline-coloured parts
//! are painted `currentColor`. Translucent piece colours are rare: the fill's alpha goes to
//! `fill-opacity` and the outline's to `stroke-opacity`, so an outline-coloured area (not line)
//! takes the fill's alpha. A frozen piece is written in the greyed colours the PNG uses, a ghost
//! with `opacity="0.5"`.
//!
//! Text is `<text>` in DejaVu Sans Bold (falling back to Verdana, then any sans-serif), sized
//! and placed as the PNG's; with DejaVu Sans installed it matches the PNG. Colours are
//! `#rrggbb`, with `fill-opacity`/`stroke-opacity` where alpha is below 255. Positions are
//! rounded to 0.1 px, artwork to 0.01 of its 100-unit box. The same scene and theme always give
//! the same bytes.

use std::fmt::Write as _;
use std::sync::Arc;

use tiny_skia::{FillRule, Path, PathSegment};

use crate::draw::{
    ArrowBadge, ArrowShape, CHECK_GLOW, CHECK_RING, CHECK_SCALE, CheckBadge, Grid, TagShape,
    check_widths, dot_look, glyph_px, label_place, rim_path, ring_look,
};
use crate::layout::BoardLayout;
use crate::scene::{Glyph, GlyphState, Marker, Rgba, Scene, Shape, Tile};
use crate::shapes::{self, Art, Ink, Paint};
use crate::sprite::{self, Sprites};
use crate::text::{CAP_HEIGHT_EM, Fonts};
use crate::theme::Theme;

/// Decimals of a page position or size (0.1 px) and of a piece's artwork (0.01 box units).
const PX: usize = 1;
const ART: usize = 2;
/// The fonts asked for: the PNG's, then common look-alikes.
const FONT: &str = "DejaVu Sans,Verdana,sans-serif";
/// Prefix of every `id`, so the document can be inlined in a page with ids of its own.
const ID: &str = "hxm-";

/// What writing needs besides the scene.
pub(crate) struct Tools<'a> {
    pub fonts: &'a Fonts,
    pub sprites: &'a Sprites,
    pub theme: &'a Theme,
    pub board: &'a BoardLayout,
}

/// The SVG document of `scene`'s board.
pub(crate) fn write(t: &Tools, scene: &Scene) -> String {
    let mut out = Out(String::with_capacity(32 * 1024 + scene.tiles.len() * 200));
    let grid = Grid::of(t.board, t.theme, scene);
    let r = grid.as_ref().map_or(0.0, |g| g.r);
    let view = view_box(t.board, t.theme);
    out.open(view, r);
    let defs = Defs::of(t, scene);
    out.defs(&defs, r);
    out.s("<rect class=\"bg\"");
    out.num("x", view[0], PX);
    out.num("y", view[1], PX);
    out.num("width", view[2], PX);
    out.num("height", view[3], PX);
    out.paint("fill", t.theme.background);
    out.s("/>");
    let Some(grid) = &grid else {
        // No board (no tiles, no labels): nothing but the background.
        out.s("</svg>");
        return out.0;
    };
    out.cells(t, scene, grid);
    if let Some(rim) = rim_path(&grid.centres, &grid.corners, (grid.sx, grid.sy)) {
        out.s("<path class=\"rim\" pointer-events=\"none\" fill=\"none\"");
        out.paint("stroke", t.theme.rim);
        out.num("stroke-width", grid.rim_width(), ART);
        out.s(" stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"");
        out.path(&rim, PX);
        out.s("\"/>");
    }
    out.labels(t, scene, r);
    out.pieces(t, scene, grid, &defs);
    out.over(t, scene, grid);
    out.s("</svg>");
    out.0
}

/// `[x, y, width, height]`: the board's bounds grown by the margin and out to whole pixels (so
/// the SVG shown at its size has the PNG's pixel grid), or the whole page when there is no
/// board.
fn view_box(board: &BoardLayout, theme: &Theme) -> [f32; 4] {
    let m = theme.margin;
    match board.bounds {
        Some([x0, y0, x1, y1]) if [x0, y0, x1, y1].iter().all(|v| v.is_finite()) => {
            let (left, top) = ((x0 - m).floor(), (y0 - m).floor());
            [left, top, (x1 + m).ceil() - left, (y1 + m).ceil() - top]
        }
        _ => [0.0, 0.0, board.width as f32, board.height as f32],
    }
}

/// The shapes a scene's pieces use, in order of first use, with their artwork, and which
/// shared pieces of drawing it needs.
struct Defs {
    shapes: Vec<(Shape, Arc<Art>)>,
    star: bool,
    hat: bool,
    check: bool,
}

impl Defs {
    fn of(t: &Tools, scene: &Scene) -> Defs {
        let mut defs = Defs {
            shapes: Vec::new(),
            star: false,
            hat: false,
            check: false,
        };
        for tile in &scene.tiles {
            defs.check |= tile.markers.contains(&Marker::Check);
            let Some(g) = &tile.glyph else {
                continue;
            };
            if defs.art(g.shape).is_none()
                && let Some(art) = t.sprites.art(g.shape, t.fonts)
            {
                defs.shapes.push((g.shape, art));
            }
            defs.star |= g.badges.star;
            defs.hat |= g.badges.hat;
        }
        defs
    }

    fn art(&self, shape: Shape) -> Option<&Art> {
        self.shapes
            .iter()
            .find(|(s, _)| *s == shape)
            .map(|(_, a)| &**a)
    }
}

/// The `id` of a shape's definition (without the `#`).
fn shape_id(shape: Shape) -> String {
    match shape {
        Shape::Letter(c) => format!("{ID}letter-{:x}", u32::from(c)),
        other => format!("{ID}{}", format!("{other:?}").to_lowercase()),
    }
}

/// Whether `art` has lines in the fill colour, which take their colour from the `<use>`'s
/// `stroke` (none of the built-in shapes has one today).
fn strokes_in_fill(art: &Art) -> bool {
    art.layers
        .iter()
        .any(|l| l.ink == Ink::Fill && matches!(l.paint, Paint::Stroke(_)))
}

/// The document being written.
struct Out(String);

impl Out {
    fn s(&mut self, text: &str) {
        self.0.push_str(text);
    }

    /// A number with at most `decimals` decimals, trailing zeros dropped; non-finite as 0.
    fn n(&mut self, v: f32, decimals: usize) {
        let v = if v.is_finite() { v } else { 0.0 };
        let start = self.0.len();
        let _ = write!(self.0, "{v:.decimals$}");
        if self.0[start..].contains('.') {
            while self.0.ends_with('0') {
                self.0.pop();
            }
            if self.0.ends_with('.') {
                self.0.pop();
            }
        }
        if &self.0[start..] == "-0" {
            self.0.truncate(start);
            self.0.push('0');
        }
    }

    /// ` name="number"`.
    fn num(&mut self, name: &str, v: f32, decimals: usize) {
        self.s(" ");
        self.s(name);
        self.s("=\"");
        self.n(v, decimals);
        self.s("\"");
    }

    /// Text content or an attribute value, escaped for XML.
    fn text(&mut self, text: &str) {
        for c in text.chars() {
            match c {
                '&' => self.s("&amp;"),
                '<' => self.s("&lt;"),
                '>' => self.s("&gt;"),
                '"' => self.s("&quot;"),
                '\'' => self.s("&apos;"),
                // Characters XML 1.0 cannot hold at all (most control characters).
                c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
                '\u{FFFE}' | '\u{FFFF}' => {}
                c => self.0.push(c),
            }
        }
    }

    /// ` fill="#rrggbb"` (or stroke, stop-color…), and its opacity when not opaque.
    fn paint(&mut self, prop: &str, c: Rgba) {
        self.colour(prop, c);
        if c.a < 255 {
            self.opacity(prop, c.a);
        }
    }

    /// ` fill="#rrggbb"`: the colour without its alpha.
    fn colour(&mut self, prop: &str, c: Rgba) {
        let _ = write!(self.0, " {prop}=\"#{:02x}{:02x}{:02x}\"", c.r, c.g, c.b);
    }

    /// ` fill-opacity="…"` (stroke-opacity, stop-opacity) for alpha `a`.
    fn opacity(&mut self, prop: &str, a: u8) {
        let name = match prop {
            "stop-color" => "stop-opacity",
            "stroke" => "stroke-opacity",
            _ => "fill-opacity",
        };
        self.num(name, f32::from(a) / 255.0, 3);
    }

    /// An explicit colour inside a piece's definition: its opacity is always written, so a
    /// translucent piece's inherited opacity does not reach it.
    fn fixed(&mut self, prop: &str, c: Rgba) {
        self.colour(prop, c);
        self.opacity(prop, c.a);
    }

    /// Path data for `path`.
    fn path(&mut self, path: &Path, decimals: usize) {
        let mut first = true;
        let mut pt = |out: &mut Out, cmd: &str, pts: &[tiny_skia::Point]| {
            if !first {
                out.s(" ");
            }
            first = false;
            out.s(cmd);
            for (i, p) in pts.iter().enumerate() {
                if i > 0 {
                    out.s(" ");
                }
                out.n(p.x, decimals);
                out.s(" ");
                out.n(p.y, decimals);
            }
        };
        for seg in path.segments() {
            match seg {
                PathSegment::MoveTo(p) => pt(self, "M", &[p]),
                PathSegment::LineTo(p) => pt(self, "L", &[p]),
                PathSegment::QuadTo(a, p) => pt(self, "Q", &[a, p]),
                PathSegment::CubicTo(a, b, p) => pt(self, "C", &[a, b, p]),
                PathSegment::Close => pt(self, "Z", &[]),
            }
        }
    }

    /// ` points="…"` of a hex around `c` with corners scaled by `k`.
    fn hex_points(&mut self, corners: &[(f32, f32); 6], c: (f32, f32), (kx, ky): (f32, f32)) {
        self.s(" points=\"");
        for (i, &(x, y)) in corners.iter().enumerate() {
            if i > 0 {
                self.s(" ");
            }
            self.n(c.0 + x * kx, PX);
            self.s(",");
            self.n(c.1 + y * ky, PX);
        }
        self.s("\"");
    }

    /// ` points="…"` of a polygon.
    fn points(&mut self, pts: &[(f32, f32)]) {
        self.s(" points=\"");
        for (i, &(x, y)) in pts.iter().enumerate() {
            if i > 0 {
                self.s(" ");
            }
            self.n(x, PX);
            self.s(",");
            self.n(y, PX);
        }
        self.s("\"");
    }

    /// `<text>` centred on `x` with its baseline at `baseline` and capitals `cap` high.
    fn text_at(&mut self, (x, baseline): (f32, f32), cap: f32, colour: Rgba, text: &str) {
        self.s("<text");
        self.num("x", x, PX);
        self.num("y", baseline, PX);
        self.num("font-size", cap / CAP_HEIGHT_EM, ART);
        self.paint("fill", colour);
        self.s(">");
        self.text(text);
        self.s("</text>");
    }

    fn open(&mut self, view: [f32; 4], r: f32) {
        self.s("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"hexmeros-board\" viewBox=\"");
        for (i, v) in view.iter().enumerate() {
            if i > 0 {
                self.s(" ");
            }
            self.n(*v, PX);
        }
        self.s("\"");
        self.num("width", view[2], PX);
        self.num("height", view[3], PX);
        self.num("data-radius", r, 3);
        self.s(" font-family=\"");
        self.s(FONT);
        self.s("\" font-weight=\"bold\" text-anchor=\"middle\">");
    }

    fn defs(&mut self, defs: &Defs, r: f32) {
        self.s("<defs>");
        for (shape, art) in &defs.shapes {
            self.shape_def(*shape, art);
        }
        if defs.star {
            self.star_def();
        }
        if defs.hat {
            self.hat_def();
        }
        if defs.check {
            // In the user space of a group moved to the checked cell's centre.
            self.s("<radialGradient id=\"");
            self.s(ID);
            self.s("check\" gradientUnits=\"userSpaceOnUse\" cx=\"0\" cy=\"0\"");
            self.num("r", r, ART);
            self.s(">");
            for (at, c) in CHECK_GLOW {
                self.s("<stop");
                self.num("offset", at, 3);
                self.colour("stop-color", c);
                self.opacity("stop-color", c.a);
                self.s("/>");
            }
            self.s("</radialGradient>");
        }
        self.s("</defs>");
    }

    /// A shape's definition in its 100-unit box: the shadow, the rim, then the layers, as
    /// the PNG's sprites paint them.
    fn shape_def(&mut self, shape: Shape, art: &Art) {
        self.s("<g id=\"");
        self.s(&shape_id(shape));
        self.s("\" stroke-linecap=\"round\" stroke-linejoin=\"round\">");
        // The shadow: each silhouette stroked wide, then filled, in translucent black.
        let (dx, dy) = sprite::SHADOW_OFFSET;
        self.s("<g transform=\"translate(");
        self.n(dx, ART);
        self.s(" ");
        self.n(dy, ART);
        self.s(")\"");
        self.fixed("fill", sprite::SHADOW);
        self.fixed("stroke", sprite::SHADOW);
        self.num("stroke-width", sprite::RIM, ART);
        self.s(" paint-order=\"stroke\">");
        for (path, rule) in &art.silhouette {
            self.art_path(path, *rule, "");
        }
        self.s("</g><g fill=\"none\" stroke=\"currentColor\"");
        self.num("stroke-width", sprite::RIM, ART);
        self.s(">");
        for (path, _) in &art.silhouette {
            self.art_path(path, FillRule::Winding, "");
        }
        self.s("</g>");
        for layer in &art.layers {
            let mut attrs = Out(String::new());
            let rule = match layer.paint {
                Paint::Fill(rule) => {
                    attrs.ink("fill", layer.ink);
                    attrs.s(" stroke=\"none\"");
                    rule
                }
                Paint::Stroke(w) => {
                    attrs.s(" fill=\"none\"");
                    attrs.ink("stroke", layer.ink);
                    attrs.num("stroke-width", w, ART);
                    FillRule::Winding
                }
            };
            self.art_path(&layer.path, rule, &attrs.0);
        }
        self.s("</g>");
    }

    /// The paint of a layer in ink `ink` inside a piece's definition: the fill colour is
    /// inherited (nothing written), the outline colour is `currentColor`, the others are fixed.
    fn ink(&mut self, prop: &str, ink: Ink) {
        match ink {
            Ink::Fill => {}
            Ink::Outline => {
                self.s(" ");
                self.s(prop);
                self.s("=\"currentColor\"");
            }
            Ink::Sheen => self.fixed(prop, sprite::SHEEN),
            Ink::Hat => self.fixed(prop, sprite::HAT),
        }
    }

    /// `<path>` of artwork with extra attributes `attrs`.
    fn art_path(&mut self, path: &Path, rule: FillRule, attrs: &str) {
        self.s("<path");
        if rule == FillRule::EvenOdd {
            self.s(" fill-rule=\"evenodd\"");
        }
        self.s(attrs);
        self.s(" d=\"");
        self.path(path, ART);
        self.s("\"/>");
    }

    /// The star badge, in a piece's box.
    fn star_def(&mut self) {
        let Some(star) = sprite::star_path() else {
            return;
        };
        let (tx, ty, k) = sprite::STAR_AT;
        self.s("<g id=\"");
        self.s(ID);
        self.s("star\" transform=\"matrix(");
        for (i, v) in [k, 0.0, 0.0, k, tx, ty].into_iter().enumerate() {
            if i > 0 {
                self.s(" ");
            }
            self.n(v, 3);
        }
        self.s(")\">");
        let mut attrs = Out(String::new());
        attrs.fixed("fill", sprite::STAR_FILL);
        attrs.fixed("stroke", sprite::STAR_EDGE);
        attrs.num("stroke-width", sprite::STAR_EDGE_W, ART);
        attrs.s(" stroke-linejoin=\"round\" paint-order=\"stroke\"");
        self.art_path(&star, FillRule::Winding, &attrs.0);
        self.s("</g>");
    }

    /// The hat badge, in a piece's box: its crown edged in the outline colour (`color`), its
    /// band in the fill colour (`fill`).
    fn hat_def(&mut self) {
        let (x, bottom, k) = sprite::HAT_BADGE;
        let (crown, band) = shapes::hat(x, bottom, k);
        self.s("<g id=\"");
        self.s(ID);
        self.s("hat\">");
        if let Some(crown) = crown {
            let mut attrs = Out(String::new());
            attrs.fixed("fill", sprite::HAT);
            attrs.s(" stroke=\"currentColor\"");
            attrs.num("stroke-width", sprite::HAT_RIM, ART);
            attrs.s(" stroke-linejoin=\"round\" paint-order=\"stroke\"");
            self.art_path(&crown, FillRule::Winding, &attrs.0);
        }
        if let Some(band) = band {
            self.art_path(&band, FillRule::Winding, " stroke=\"none\"");
        }
        self.s("</g>");
    }

    /// ` data-q="…" data-r="…"`: the tile an element belongs to.
    fn qr(&mut self, tile: &Tile) {
        let _ = write!(
            self.0,
            " data-q=\"{}\" data-r=\"{}\"",
            tile.hex.q, tile.hex.r
        );
    }

    /// One group per tile: its hex and the markers that stay inside it.
    fn cells(&mut self, t: &Tools, scene: &Scene, grid: &Grid) {
        self.s("<g class=\"cells\"");
        self.num("stroke-width", grid.grid_w, ART);
        self.s(">");
        for (tile, &c) in scene.tiles.iter().zip(&grid.centres) {
            if !(c.0.is_finite() && c.1.is_finite()) {
                continue;
            }
            self.s("<g class=\"cell\"");
            self.qr(tile);
            self.num("data-x", c.0, 2);
            self.num("data-y", c.1, 2);
            self.s("><polygon");
            self.hex_points(&grid.corners, c, (grid.sx, grid.sy));
            self.paint("fill", tile.fill);
            self.paint("stroke", t.theme.grid);
            self.s("/>");
            self.inside(tile, grid, c);
            self.s("</g>");
        }
        self.s("</g>");
    }

    /// Check glows, then pieces, in the tiles' order, each with its tile's `data-q`/`data-r`.
    fn pieces(&mut self, t: &Tools, scene: &Scene, grid: &Grid, defs: &Defs) {
        self.s("<g class=\"marks\" pointer-events=\"none\">");
        for (tile, &c) in scene.tiles.iter().zip(&grid.centres) {
            for m in &tile.markers {
                if *m == Marker::Check && c.0.is_finite() && c.1.is_finite() {
                    self.check(grid, tile, c);
                }
            }
        }
        self.s("</g><g class=\"pieces\" pointer-events=\"none\">");
        let px = glyph_px(t.theme, grid.r);
        for (tile, &c) in scene.tiles.iter().zip(&grid.centres) {
            if let Some(g) = &tile.glyph
                && let Some(art) = defs.art(g.shape)
                && c.0.is_finite()
                && c.1.is_finite()
            {
                self.piece(tile, g, art, c, px);
            }
        }
        self.s("</g>");
    }

    /// A tile's tints and outlines, in their order.
    fn inside(&mut self, tile: &Tile, grid: &Grid, c: (f32, f32)) {
        let (sx, sy) = (grid.sx, grid.sy);
        let mut nth = 0.0;
        for m in &tile.markers {
            match *m {
                Marker::Tint(colour) => {
                    let k = grid.tint_scale();
                    self.s("<polygon class=\"tint\"");
                    self.hex_points(&grid.corners, c, (sx * k, sy * k));
                    self.paint("fill", colour);
                    self.s(" stroke=\"none\"/>");
                }
                Marker::Outline(colour) => {
                    let k = grid.outline_scale(nth);
                    nth += 1.0;
                    if k <= 0.0 {
                        continue;
                    }
                    self.s("<polygon class=\"outline\"");
                    self.hex_points(&grid.corners, c, (sx * k, sy * k));
                    self.s(" fill=\"none\"");
                    self.paint("stroke", colour);
                    self.num("stroke-width", grid.outline_width(), ART);
                    self.s(" stroke-linejoin=\"round\"/>");
                }
                Marker::Check | Marker::Dot(_) | Marker::Ring(_) => {}
            }
        }
    }

    /// A check's glow filling the cell, a black halo and a red ring.
    fn check(&mut self, grid: &Grid, tile: &Tile, (cx, cy): (f32, f32)) {
        let r = (grid.sx + grid.sy) / 2.0;
        let k = (grid.sx * CHECK_SCALE, grid.sy * CHECK_SCALE);
        let (halo, ring) = check_widths(r);
        self.s("<g class=\"check\"");
        self.qr(tile);
        self.s(" transform=\"translate(");
        self.n(cx, PX);
        self.s(" ");
        self.n(cy, PX);
        self.s(")\" stroke-linejoin=\"round\"><polygon");
        self.hex_points(&grid.corners, (0.0, 0.0), k);
        self.s(" fill=\"url(#");
        self.s(ID);
        self.s("check)\" stroke=\"none\"/><polygon");
        self.hex_points(&grid.corners, (0.0, 0.0), k);
        self.s(" fill=\"none\"");
        self.paint("stroke", Rgba::BLACK);
        self.num("stroke-width", halo, ART);
        self.s("/><polygon");
        self.hex_points(&grid.corners, (0.0, 0.0), k);
        self.s(" fill=\"none\"");
        self.paint("stroke", CHECK_RING);
        self.num("stroke-width", ring, ART);
        self.s("/></g>");
    }

    /// A tile's dots, rings and check badges, in their order: over the pieces.
    fn above(&mut self, tile: &Tile, r: f32, (cx, cy): (f32, f32)) {
        for m in &tile.markers {
            match *m {
                Marker::Dot(colour) => {
                    let (radius, edge_w, edge) = dot_look(r, colour);
                    self.s("<circle class=\"dot\"");
                    self.qr(tile);
                    self.num("cx", cx, PX);
                    self.num("cy", cy, PX);
                    self.num("r", radius, ART);
                    self.paint("fill", colour);
                    self.paint("stroke", edge);
                    self.num("stroke-width", edge_w, ART);
                    self.s(" paint-order=\"stroke\"/>");
                }
                Marker::Ring(colour) => {
                    let (radius, width) = ring_look(r);
                    self.s("<circle class=\"ring\"");
                    self.qr(tile);
                    self.num("cx", cx, PX);
                    self.num("cy", cy, PX);
                    self.num("r", radius, ART);
                    self.s(" fill=\"none\"");
                    self.paint("stroke", colour);
                    self.num("stroke-width", width, ART);
                    self.s("/>");
                }
                Marker::Check => self.check_badge(tile, &CheckBadge::at((cx, cy), r)),
                Marker::Tint(_) | Marker::Outline(_) => {}
            }
        }
    }

    /// A piece whose box is `px` pixels, on the pixels where the PNG places its sprite.
    fn piece(&mut self, tile: &Tile, g: &Glyph, art: &Art, c: (f32, f32), px: u16) {
        let (fill, outline) = sprite::colours(g);
        let k = f32::from(px) / 100.0;
        let (ox, oy) = sprite::box_origin(c, px);
        let badges = g.badges.star
            || g.badges.hat
            || g.badges.count.is_some_and(|n| n > 1)
            || g.badges.mark.is_some();
        let mut at = Out(String::from(" transform=\"matrix("));
        for (i, v) in [k, 0.0, 0.0, k, ox, oy].into_iter().enumerate() {
            if i > 0 {
                at.s(" ");
            }
            at.n(v, 3);
        }
        at.s(")\"");
        if g.state == GlyphState::Ghost {
            at.s(" opacity=\"0.5\"");
        }
        if badges {
            self.s("<g class=\"piece\"");
            self.qr(tile);
            self.s(&at.0);
            self.s("><use");
        } else {
            self.s("<use class=\"piece\"");
            self.qr(tile);
            self.s(&at.0);
        }
        self.s(" href=\"#");
        self.s(&shape_id(g.shape));
        self.s("\"");
        self.piece_paint(fill, outline, strokes_in_fill(art));
        self.s("/>");
        if badges {
            self.badges(g, fill, outline);
            self.s("</g>");
        }
    }

    /// The colours a piece's definition inherits.
    fn piece_paint(&mut self, fill: Rgba, outline: Rgba, stroke: bool) {
        self.colour("fill", fill);
        self.colour("color", outline);
        if stroke {
            self.colour("stroke", fill);
        }
        if fill.a < 255 {
            self.opacity("fill", fill.a);
        }
        if outline.a < 255 {
            self.opacity("stroke", outline.a);
        }
    }

    /// Star, hat, count and mark, in the piece's box, as the PNG's sprites draw them.
    fn badges(&mut self, g: &Glyph, fill: Rgba, outline: Rgba) {
        if g.badges.star {
            self.s("<use href=\"#");
            self.s(ID);
            self.s("star\"/>");
        }
        if g.badges.hat {
            self.s("<use href=\"#");
            self.s(ID);
            self.s("hat\"");
            self.piece_paint(fill, outline, false);
            self.s("/>");
        }
        if let Some(n) = g.badges.count.filter(|&n| n > 1) {
            let text = n.to_string();
            let (cx, cy, r) = sprite::count_disc(text.len());
            self.s("<circle");
            self.num("cx", cx, ART);
            self.num("cy", cy, ART);
            self.num("r", r, ART);
            self.paint("fill", sprite::COUNT_FILL);
            self.paint("stroke", Rgba::WHITE);
            self.num("stroke-width", sprite::COUNT_EDGE_W, ART);
            self.s(" paint-order=\"stroke\"/>");
            self.text_at(
                (cx, cy + sprite::COUNT_DROP),
                sprite::COUNT_CAP,
                Rgba::WHITE,
                &text,
            );
        }
        if let Some(c) = g.badges.mark {
            let (cx, cy, r) = sprite::MARK_DISC;
            self.s("<circle");
            self.num("cx", cx, ART);
            self.num("cy", cy, ART);
            self.num("r", r, ART);
            self.paint("fill", fill);
            self.paint("stroke", outline);
            self.num("stroke-width", sprite::MARK_EDGE_W, ART);
            self.s(" paint-order=\"stroke\"/>");
            let letter = c.to_string();
            self.text_at(
                (cx, cy + sprite::MARK_DROP),
                sprite::MARK_CAP,
                outline,
                &letter,
            );
        }
    }

    fn labels(&mut self, t: &Tools, scene: &Scene, r: f32) {
        self.s("<g class=\"labels\" pointer-events=\"none\">");
        for label in &scene.labels {
            let Some(at) = label_place(t.board, t.theme, label, r) else {
                continue;
            };
            if [at.x, at.baseline, at.cap].iter().all(|v| v.is_finite()) {
                self.text_at((at.x, at.baseline), at.cap, label.colour, &label.text);
            }
        }
        self.s("</g>");
    }

    /// Everything drawn over the pieces: dots, rings and check badges, arrows, their numbers,
    /// tags.
    fn over(&mut self, t: &Tools, scene: &Scene, grid: &Grid) {
        self.s("<g class=\"over\" pointer-events=\"none\"");
        self.s(" stroke-linecap=\"round\" stroke-linejoin=\"round\">");
        for (tile, &c) in scene.tiles.iter().zip(&grid.centres) {
            if c.0.is_finite() && c.1.is_finite() {
                self.above(tile, grid.r, c);
            }
        }
        for arrow in &scene.arrows {
            if let Some(shape) = ArrowShape::of(t.board, arrow) {
                self.arrow(&shape, arrow.colour);
            }
        }
        // Numbers after every arrow, so a later shaft never hides an earlier number.
        for arrow in &scene.arrows {
            if let Some(b) = ArrowBadge::of(t.board, arrow) {
                self.arrow_badge(&b);
            }
        }
        for tag in &scene.tags {
            if let Some(shape) = TagShape::of(t.fonts, t.theme, t.board, tag, grid.r) {
                self.tag(&shape, tag.fill, tag.ink, &tag.text);
            }
        }
        self.s("</g>");
    }

    fn check_badge(&mut self, tile: &Tile, b: &CheckBadge) {
        self.s("<circle class=\"check\"");
        self.qr(tile);
        self.num("cx", b.cx, PX);
        self.num("cy", b.cy, PX);
        self.num("r", b.radius, ART);
        self.paint("fill", CheckBadge::FILL);
        self.paint("stroke", Rgba::BLACK);
        self.num("stroke-width", b.edge_w, ART);
        self.s("/><path fill=\"none\"");
        self.paint("stroke", Rgba::WHITE);
        self.num("stroke-width", b.plus_w, ART);
        self.s(" d=\"M");
        self.n(b.cx - b.arm, PX);
        self.s(" ");
        self.n(b.cy, PX);
        self.s("H");
        self.n(b.cx + b.arm, PX);
        self.s("M");
        self.n(b.cx, PX);
        self.s(" ");
        self.n(b.cy - b.arm, PX);
        self.s("V");
        self.n(b.cy + b.arm, PX);
        self.s("\"/>");
    }

    fn arrow(&mut self, a: &ArrowShape, colour: Rgba) {
        if let Some(d) = &a.dashed {
            self.s("<line");
            self.num("x1", d.from.0, PX);
            self.num("y1", d.from.1, PX);
            self.num("x2", d.to.0, PX);
            self.num("y2", d.to.1, PX);
            self.paint("stroke", colour);
            self.num("stroke-width", d.width, ART);
            self.s(" stroke-dasharray=\"");
            self.n(d.on, ART);
            self.s(" ");
            self.n(d.off, ART);
            self.s("\" stroke-linecap=\"butt\"/><polygon");
            self.points(&a.outline);
            self.paint("fill", colour);
            self.s("/>");
        } else {
            self.s("<polygon");
            self.points(&a.outline);
            self.paint("fill", colour);
            self.paint("stroke", a.edge);
            self.num("stroke-width", a.edge_w, ART);
            self.s(" paint-order=\"stroke\"/>");
        }
    }

    fn arrow_badge(&mut self, b: &ArrowBadge) {
        self.s("<circle");
        self.num("cx", b.cx, PX);
        self.num("cy", b.cy, PX);
        self.num("r", b.radius, ART);
        self.paint("fill", b.colour);
        self.paint("stroke", b.ink);
        self.num("stroke-width", b.edge_w, ART);
        self.s("/>");
        self.text_at((b.cx, b.cy + b.cap / 2.0), b.cap, b.ink, &b.text);
    }

    /// A tag's pill (a rounded rectangle: a disc when it is no wider than tall), edge under
    /// fill, and its text.
    fn tag(&mut self, s: &TagShape, fill: Rgba, ink: Rgba, text: &str) {
        if ![s.x, s.y, s.w, s.h].iter().all(|v| v.is_finite()) {
            return;
        }
        self.s("<rect class=\"tag\"");
        self.num("x", s.x - s.w / 2.0, PX);
        self.num("y", s.y - s.h / 2.0, PX);
        self.num("width", s.w, PX);
        self.num("height", s.h, PX);
        self.num("rx", s.h / 2.0, ART);
        self.paint("fill", fill);
        self.paint("stroke", s.edge);
        self.num("stroke-width", s.edge_w, ART);
        self.s(" paint-order=\"stroke\"/>");
        self.text_at((s.x, s.y + s.cap / 2.0), s.cap, ink, text);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use roxmltree::{Document, Node};

    use super::*;
    use crate::scene::{Arrow, Badges, Hex, HexPoint, Label, Orientation, Tag};
    use crate::{Renderer, sample};

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
        let [normal, ghost, frozen, badged] =
            [0, 1, 2, 3].map(|i| piece_at(&doc, scene.tiles[i].hex));
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
            doc.descendants().filter(|n| n.has_tag_name("line")).count(),
            1
        );
        let dashes = doc
            .descendants()
            .filter_map(|n| n.attribute("stroke-dasharray"));
        assert_eq!(dashes.count(), 1);
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
}
