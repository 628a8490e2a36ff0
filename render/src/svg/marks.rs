//! The SVG board around its pieces: the cell groups with their tints and outlines, the check
//! glows, the rim labels, and what lies over the pieces (dots, rings, check badges, arrows and
//! their numbers, tags).

use super::{ART, ID, Out, PX, Tools};
use crate::draw::{
    ArrowBadge, ArrowShape, CHECK_RING, CHECK_SCALE, CheckBadge, Grid, TagShape, check_widths,
    dot_look, label_place, ring_look,
};
use crate::scene::{MARK_CASING, Marker, Rgba, Scene, Tile, mark_casing_px};
use crate::theme::Theme;

impl Out {
    /// One group per tile: its hex and the markers that stay inside it.
    pub(super) fn cells(&mut self, t: &Tools, scene: &Scene, grid: &Grid) {
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
            self.inside(tile, grid, c, t.theme.mark_halo);
            self.s("</g>");
        }
        self.s("</g>");
    }

    /// A tile's tints and outlines, in their order.
    fn inside(&mut self, tile: &Tile, grid: &Grid, c: (f32, f32), halo: Option<Rgba>) {
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
                    let casing = grid.outline_casing_width();
                    let halo_w = casing + 2.0 * mark_casing_px(grid.r);
                    for (paint, width) in casings(halo, casing, halo_w) {
                        self.s("<polygon class=\"outline-casing\"");
                        self.hex_points(&grid.corners, c, (sx * k, sy * k));
                        self.s(" fill=\"none\"");
                        self.paint("stroke", paint);
                        self.num("stroke-width", width, ART);
                        self.s(" stroke-linejoin=\"round\"/>");
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
    pub(super) fn check(&mut self, grid: &Grid, tile: &Tile, (cx, cy): (f32, f32)) {
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
    fn above(&mut self, tile: &Tile, r: f32, (cx, cy): (f32, f32), theme: &Theme) {
        let least = theme.badge_px_min;
        for m in &tile.markers {
            match *m {
                Marker::Dot(colour) => {
                    let (radius, edge_w, edge) = dot_look(r);
                    if let Some(halo) = theme.mark_halo {
                        self.s("<circle class=\"dot-halo\"");
                        self.num("cx", cx, PX);
                        self.num("cy", cy, PX);
                        self.num("r", radius, ART);
                        self.paint("fill", halo);
                        self.paint("stroke", halo);
                        self.num("stroke-width", 2.0 * edge_w, ART);
                        self.s("/>");
                    }
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
                    let (radius, width, casing) = ring_look(r);
                    let halo_w = casing + 2.0 * mark_casing_px(r);
                    for (paint, w) in casings(theme.mark_halo, casing, halo_w) {
                        self.s("<circle class=\"ring-casing\"");
                        self.num("cx", cx, PX);
                        self.num("cy", cy, PX);
                        self.num("r", radius, ART);
                        self.s(" fill=\"none\"");
                        self.paint("stroke", paint);
                        self.num("stroke-width", w, ART);
                        self.s("/>");
                    }
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
                Marker::Check => self.check_badge(tile, &CheckBadge::at((cx, cy), r, least)),
                Marker::Tint(_) | Marker::Outline(_) => {}
            }
        }
    }

    pub(super) fn labels(&mut self, t: &Tools, scene: &Scene, r: f32) {
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
    pub(super) fn over(&mut self, t: &Tools, scene: &Scene, grid: &Grid) {
        self.s("<g class=\"over\" pointer-events=\"none\"");
        self.s(" stroke-linecap=\"round\" stroke-linejoin=\"round\">");
        for (tile, &c) in scene.tiles.iter().zip(&grid.centres) {
            if c.0.is_finite() && c.1.is_finite() {
                self.above(tile, grid.r, c, t.theme);
            }
        }
        for arrow in &scene.arrows {
            if let Some(shape) = ArrowShape::of(t.board, arrow) {
                self.arrow(&shape, arrow.colour, t.theme.mark_halo);
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

    fn arrow(&mut self, a: &ArrowShape, colour: Rgba, halo: Option<Rgba>) {
        if let Some(d) = &a.dashed {
            // The casing's dashes under the colour's, wider by the casing (the halo's wider
            // again).
            let mut layers = casings(halo, d.width + a.edge_w, d.width + 2.0 * a.edge_w);
            layers.push((colour, d.width));
            for (paint, width) in layers {
                self.s("<line");
                self.num("x1", d.from.0, PX);
                self.num("y1", d.from.1, PX);
                self.num("x2", d.to.0, PX);
                self.num("y2", d.to.1, PX);
                self.paint("stroke", paint);
                self.num("stroke-width", width, ART);
                self.s(" stroke-dasharray=\"");
                self.n(d.on, ART);
                self.s(" ");
                self.n(d.off, ART);
                self.s("\" stroke-linecap=\"butt\"/>");
            }
        }
        if let Some(halo) = halo {
            self.s("<polygon");
            self.points(&a.outline);
            self.paint("fill", halo);
            self.paint("stroke", halo);
            self.num("stroke-width", 2.0 * a.edge_w, ART);
            self.s("/>");
        }
        self.s("<polygon");
        self.points(&a.outline);
        self.paint("fill", colour);
        self.paint("stroke", a.edge);
        self.num("stroke-width", a.edge_w, ART);
        self.s(" paint-order=\"stroke\"/>");
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

/// The strokes of a mark's casing, outermost first: the theme's light `halo` (if any) at
/// `halo_w`, then the near-black casing at `casing_w`.
fn casings(halo: Option<Rgba>, casing_w: f32, halo_w: f32) -> Vec<(Rgba, f32)> {
    let mut out: Vec<(Rgba, f32)> = halo.map(|h| (h, halo_w)).into_iter().collect();
    out.push((MARK_CASING, casing_w));
    out
}
