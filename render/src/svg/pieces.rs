//! The pieces of the SVG board: the `<defs>` (each piece shape used, the star and hat badges,
//! the check glow's gradient), the `<use>` of a shape for each piece with its inherited colours,
//! and a piece's count and mark badges.

use std::sync::Arc;

use tiny_skia::{FillRule, Path};

use super::{ART, ID, Out, Tools};
use crate::draw::{CHECK_GLOW, Grid, glyph_px};
use crate::scene::{Glyph, GlyphState, Marker, Plate, Rgba, Scene, Shape, Tile};
use crate::shapes::{self, Art, Ink, Paint};
use crate::sprite;

/// shared pieces of drawing it needs.
pub(super) struct Defs {
    shapes: Vec<(Shape, Arc<Art>)>,
    star: bool,
    hat: bool,
    check: bool,
}

impl Defs {
    pub(super) fn of(t: &Tools, scene: &Scene) -> Defs {
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
pub(super) fn shape_id(shape: Shape) -> String {
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

impl Out {
    pub(super) fn defs(&mut self, defs: &Defs, r: f32) {
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

    /// Check glows, then pieces, in the tiles' order, each with its tile's `data-q`/`data-r`.
    pub(super) fn pieces(&mut self, t: &Tools, scene: &Scene, grid: &Grid, defs: &Defs) {
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

    /// A piece whose box is `px` pixels, on the pixels where the PNG places its sprite.
    fn piece(&mut self, tile: &Tile, g: &Glyph, art: &Art, c: (f32, f32), px: u16) {
        let (fill, outline) = sprite::colours(g);
        let k = f32::from(px) / 100.0;
        let (ox, oy) = sprite::box_origin(c, px);
        let badges = g.badges.star
            || g.badges.hat
            || g.badges.count.is_some_and(|n| n > 1)
            || g.badges.mark.is_some()
            || g.badges.plate.is_some();
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
            self.s(">");
            if let Some(plate) = g.badges.plate {
                self.plate_of(plate, fill, outline);
            }
            self.s("<use");
            if g.badges.plate.is_some() {
                // The piece on a plate is shrunk about its box's centre (`sprite::plated`).
                let k = sprite::PLATE_PIECE;
                self.s(" transform=\"matrix(");
                for (i, v) in [k, 0.0, 0.0, k, 50.0 * (1.0 - k), 50.0 * (1.0 - k)]
                    .into_iter()
                    .enumerate()
                {
                    if i > 0 {
                        self.s(" ");
                    }
                    self.n(v, 3);
                }
                self.s(")\"");
            }
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

    /// The owner's shape under the piece, as the PNG's sprites draw it.
    fn plate_of(&mut self, plate: Plate, fill: Rgba, outline: Rgba) {
        let (cx, cy, r) = sprite::PLATE_AT;
        let Some(path) = shapes::plate(plate, (cx, cy), r) else {
            return;
        };
        let (pale, edge) = sprite::plate_colours(fill, outline);
        self.s("<path class=\"plate\" d=\"");
        self.path(&path, ART);
        self.s("\"");
        self.paint("fill", pale);
        self.paint("stroke", edge);
        self.num("stroke-width", sprite::PLATE_EDGE_W, ART);
        self.s(" paint-order=\"stroke\"/>");
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
}
