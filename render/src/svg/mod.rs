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

use tiny_skia::{Path, PathSegment};

use crate::draw::{Grid, rim_path};
use crate::layout::BoardLayout;
use crate::scene::{Rgba, Scene, Tile};
use crate::sprite::Sprites;
use crate::text::{CAP_HEIGHT_EM, Fonts};
use crate::theme::Theme;

use pieces::Defs;

mod marks;
mod pieces;

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

    /// ` data-q="…" data-r="…"`: the tile an element belongs to.
    fn qr(&mut self, tile: &Tile) {
        let _ = write!(
            self.0,
            " data-q=\"{}\" data-r=\"{}\"",
            tile.hex.q, tile.hex.r
        );
    }
}

#[cfg(test)]
mod tests;
