//! The artwork of every [`Shape`]: vector paths in a 100 × 100 box (y down, the piece standing on
//! y ≈ 90), built once per renderer and scaled into sprites.
//!
//! A piece is drawn in three steps so that it reads at 30 px on any tile: its silhouette is
//! stroked wide in the outline colour (a contrasting rim that separates it from the board), then
//! filled, then inner details are drawn in the outline colour. The chess set comes from DejaVu
//! Sans' solid chess figures (U+265A–265F): their outer contours make the silhouette and their
//! holes become the inner lines.

use ab_glyph::{Font as _, OutlineCurve};
use tiny_skia::{FillRule, Path, PathBuilder, Rect, Transform};

use crate::scene::{Plate, Shape};
use crate::text::{Face, Fonts, outline_to_path};

/// Short names for the inks most parts are painted in, in the shapes' literals below.
use Ink::{Fill as F, Outline as O};

/// Which colour a layer uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ink {
    /// The glyph's fill colour.
    Fill,
    /// The glyph's outline colour.
    Outline,
    /// A translucent white sheen (a stone's highlight).
    Sheen,
    /// Near-black, whatever the piece's colours: a top hat.
    Hat,
}

/// How a layer is painted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Paint {
    Fill(FillRule),
    /// A stroke of this width in box units, round joins and caps.
    Stroke(f32),
}

#[derive(Clone, Debug)]
pub(crate) struct Layer {
    pub path: Path,
    pub ink: Ink,
    pub paint: Paint,
}

/// One shape's artwork.
#[derive(Clone, Debug)]
pub(crate) struct Art {
    /// Stroked wide in the outline colour (and offset as a shadow) before any layer.
    pub silhouette: Vec<(Path, FillRule)>,
    pub layers: Vec<Layer>,
}

/// A tiny path language for the artwork below; every method takes box units.
struct P(PathBuilder);

impl P {
    fn new() -> P {
        P(PathBuilder::new())
    }
    fn m(mut self, x: f32, y: f32) -> P {
        self.0.move_to(x, y);
        self
    }
    fn l(mut self, x: f32, y: f32) -> P {
        self.0.line_to(x, y);
        self
    }
    fn q(mut self, cx: f32, cy: f32, x: f32, y: f32) -> P {
        self.0.quad_to(cx, cy, x, y);
        self
    }
    fn c(mut self, ax: f32, ay: f32, bx: f32, by: f32, x: f32, y: f32) -> P {
        self.0.cubic_to(ax, ay, bx, by, x, y);
        self
    }
    fn z(mut self) -> P {
        self.0.close();
        self
    }
    /// A closed polygon through `points`.
    fn poly(mut self, points: &[(f32, f32)]) -> P {
        for (i, &(x, y)) in points.iter().enumerate() {
            if i == 0 {
                self.0.move_to(x, y);
            } else {
                self.0.line_to(x, y);
            }
        }
        self.0.close();
        self
    }
    fn circle(mut self, x: f32, y: f32, r: f32) -> P {
        self.0.push_circle(x, y, r);
        self
    }
    fn rect(mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> P {
        if let Some(r) = Rect::from_ltrb(x0, y0, x1, y1) {
            self.0.push_rect(r);
        }
        self
    }
    /// A rectangle with corners rounded by `k`.
    fn rrect(self, x0: f32, y0: f32, x1: f32, y1: f32, k: f32) -> P {
        self.m(x0 + k, y0)
            .l(x1 - k, y0)
            .q(x1, y0, x1, y0 + k)
            .l(x1, y1 - k)
            .q(x1, y1, x1 - k, y1)
            .l(x0 + k, y1)
            .q(x0, y1, x0, y1 - k)
            .l(x0, y0 + k)
            .q(x0, y0, x0 + k, y0)
            .z()
    }
    fn done(self) -> Option<Path> {
        self.0.finish()
    }
}

fn fill(path: Option<Path>, ink: Ink) -> Option<Layer> {
    Some(Layer {
        path: path?,
        ink,
        paint: Paint::Fill(FillRule::Winding),
    })
}

fn stroke(path: Option<Path>, ink: Ink, width: f32) -> Option<Layer> {
    Some(Layer {
        path: path?,
        ink,
        paint: Paint::Stroke(width),
    })
}

/// A silhouette filled with the fill colour, plus details; `None` parts are skipped (a path
/// builder only fails on an empty path, which none of the literals below is).
fn art(body: Option<Path>, details: Vec<Option<Layer>>) -> Art {
    let mut layers: Vec<Layer> = Vec::new();
    let mut silhouette = Vec::new();
    if let Some(b) = body {
        layers.push(Layer {
            path: b.clone(),
            ink: Ink::Fill,
            paint: Paint::Fill(FillRule::Winding),
        });
        silhouette.push((b, FillRule::Winding));
    }
    layers.extend(details.into_iter().flatten());
    Art { silhouette, layers }
}

/// Builds the artwork of `shape`; `None` only if the font lacks a needed glyph.
pub(crate) fn build(shape: Shape, fonts: &Fonts) -> Option<Art> {
    Some(match shape {
        Shape::Crown => crown(),
        Shape::Diadem => diadem(),
        Shape::Dagger => dagger(),
        Shape::Bow => bow(),
        Shape::Mitre => mitre(),
        Shape::Tower => tower(),
        Shape::Horse => horse(),
        Shape::Ship => ship(),
        Shape::Pawn => art(pawn(28.0), vec![]),
        Shape::HattedPawn => hatted_pawn(),
        Shape::Disc => art(
            P::new().circle(50.0, 52.0, 40.0).done(),
            vec![stroke(P::new().circle(50.0, 52.0, 27.0).done(), O, 4.5)],
        ),
        Shape::KingDisc => king_disc(),
        Shape::Ring => ring()?,
        Shape::Stone => stone(),
        Shape::ChessKing => chess(fonts, '\u{265A}')?,
        Shape::ChessQueen => chess(fonts, '\u{265B}')?,
        Shape::ChessRook => chess(fonts, '\u{265C}')?,
        Shape::ChessBishop => chess(fonts, '\u{265D}')?,
        Shape::ChessKnight => chess(fonts, '\u{265E}')?,
        Shape::ChessPawn => chess(fonts, '\u{265F}')?,
        Shape::Letter(c) => letter(fonts, c)?,
    })
}

/// [`Shape::Crown`]: a wide three-pointed crown with a band.
fn crown() -> Art {
    art(
        P::new()
            .poly(&[
                (14.0, 84.0),
                (10.0, 34.0),
                (32.0, 56.0),
                (50.0, 26.0),
                (68.0, 56.0),
                (90.0, 34.0),
                (86.0, 84.0),
            ])
            .circle(10.0, 32.0, 7.0)
            .circle(90.0, 32.0, 7.0)
            .rect(46.0, 6.0, 54.0, 30.0)
            .rect(40.0, 12.0, 60.0, 19.0)
            .done(),
        vec![
            stroke(P::new().m(14.0, 70.0).l(86.0, 70.0).done(), O, 4.0),
            fill(P::new().circle(50.0, 77.0, 4.5).done(), O),
            fill(P::new().circle(30.0, 77.0, 3.5).done(), O),
            fill(P::new().circle(70.0, 77.0, 3.5).done(), O),
        ],
    )
}

/// [`Shape::Diadem`]: a tall five-pointed crown with orbs on the points.
fn diadem() -> Art {
    let tips = [
        (10.0, 32.0),
        (29.0, 20.0),
        (50.0, 12.0),
        (71.0, 20.0),
        (90.0, 32.0),
    ];
    let mut body = P::new().poly(&[
        (20.0, 86.0),
        (10.0, 34.0),
        (30.0, 58.0),
        (29.0, 22.0),
        (42.0, 54.0),
        (50.0, 14.0),
        (58.0, 54.0),
        (71.0, 22.0),
        (70.0, 58.0),
        (90.0, 34.0),
        (80.0, 86.0),
    ]);
    for (x, y) in tips {
        body = body.circle(x, y, 6.5);
    }
    art(
        body.done(),
        vec![stroke(
            P::new().m(19.0, 74.0).q(50.0, 66.0, 81.0, 74.0).done(),
            O,
            4.0,
        )],
    )
}

/// [`Shape::Dagger`]: an upright dagger.
fn dagger() -> Art {
    art(
        P::new()
            .poly(&[
                (50.0, 3.0),
                (64.0, 22.0),
                (62.0, 58.0),
                (38.0, 58.0),
                (36.0, 22.0),
            ])
            .rrect(16.0, 55.0, 84.0, 68.0, 6.0)
            .rect(42.0, 66.0, 58.0, 84.0)
            .circle(50.0, 88.0, 8.5)
            .done(),
        vec![stroke(P::new().m(50.0, 17.0).l(50.0, 52.0).done(), O, 4.5)],
    )
}

/// [`Shape::Bow`]: a drawn bow with its string and an arrow.
fn bow() -> Art {
    art(
        P::new()
            // The limbs: a thick crescent opening to the right.
            .m(46.0, 6.0)
            .c(14.0, 16.0, 4.0, 34.0, 4.0, 50.0)
            .c(4.0, 66.0, 14.0, 84.0, 46.0, 94.0)
            .l(48.0, 84.0)
            .c(24.0, 74.0, 17.0, 62.0, 17.0, 50.0)
            .c(17.0, 38.0, 24.0, 26.0, 48.0, 16.0)
            .z()
            // The arrow, nocked on the string and pointing right.
            .rect(26.0, 46.0, 80.0, 54.0)
            .poly(&[(74.0, 36.0), (96.0, 50.0), (74.0, 64.0)])
            .poly(&[
                (20.0, 40.0),
                (34.0, 46.0),
                (34.0, 54.0),
                (20.0, 60.0),
                (26.0, 50.0),
            ])
            .done(),
        vec![stroke(P::new().m(46.0, 12.0).l(46.0, 88.0).done(), O, 3.0)],
    )
}

/// [`Shape::Mitre`]: a bishop's mitre with a cross.
fn mitre() -> Art {
    art(
        P::new()
            .m(22.0, 90.0)
            .l(22.0, 46.0)
            .c(22.0, 28.0, 36.0, 14.0, 50.0, 4.0)
            .c(64.0, 14.0, 78.0, 28.0, 78.0, 46.0)
            .l(78.0, 90.0)
            .z()
            .done(),
        vec![
            stroke(P::new().m(50.0, 24.0).l(50.0, 66.0).done(), O, 7.0),
            stroke(P::new().m(37.0, 38.0).l(63.0, 38.0).done(), O, 7.0),
            stroke(P::new().m(22.0, 78.0).l(78.0, 78.0).done(), O, 4.0),
        ],
    )
}

/// [`Shape::Tower`]: a battlemented tower.
fn tower() -> Art {
    art(
        P::new()
            .poly(&[
                (16.0, 92.0),
                (16.0, 80.0),
                (26.0, 74.0),
                (28.0, 38.0),
                (18.0, 32.0),
                (18.0, 8.0),
                (32.0, 8.0),
                (32.0, 18.0),
                (43.0, 18.0),
                (43.0, 8.0),
                (57.0, 8.0),
                (57.0, 18.0),
                (68.0, 18.0),
                (68.0, 8.0),
                (82.0, 8.0),
                (82.0, 32.0),
                (72.0, 38.0),
                (74.0, 74.0),
                (84.0, 80.0),
                (84.0, 92.0),
            ])
            .done(),
        vec![
            stroke(P::new().m(22.0, 33.0).l(78.0, 33.0).done(), O, 4.0),
            fill(
                P::new()
                    .m(42.0, 74.0)
                    .l(42.0, 60.0)
                    .q(42.0, 50.0, 50.0, 50.0)
                    .q(58.0, 50.0, 58.0, 60.0)
                    .l(58.0, 74.0)
                    .z()
                    .done(),
                O,
            ),
        ],
    )
}

/// [`Shape::Horse`]: a horse's head.
fn horse() -> Art {
    art(
        P::new()
            .m(24.0, 92.0)
            .l(84.0, 92.0)
            .l(84.0, 80.0)
            .c(86.0, 56.0, 84.0, 30.0, 66.0, 16.0)
            .l(64.0, 4.0)
            .l(53.0, 13.0)
            .c(38.0, 14.0, 26.0, 26.0, 14.0, 44.0)
            .l(8.0, 56.0)
            .c(6.0, 64.0, 14.0, 70.0, 22.0, 66.0)
            .l(40.0, 57.0)
            .c(44.0, 66.0, 32.0, 74.0, 26.0, 80.0)
            .z()
            .done(),
        vec![
            fill(P::new().circle(40.0, 32.0, 5.0).done(), O),
            stroke(
                P::new()
                    .m(68.0, 22.0)
                    .c(80.0, 38.0, 80.0, 58.0, 76.0, 76.0)
                    .done(),
                O,
                4.0,
            ),
            stroke(P::new().m(26.0, 82.0).l(82.0, 82.0).done(), O, 4.0),
        ],
    )
}

/// [`Shape::Ship`]: a sailing warship's hull with a mast and sail.
fn ship() -> Art {
    art(
        P::new()
            .poly(&[(4.0, 60.0), (96.0, 60.0), (82.0, 86.0), (18.0, 86.0)])
            .rect(46.0, 8.0, 54.0, 62.0)
            .m(42.0, 16.0)
            .l(42.0, 54.0)
            .l(12.0, 54.0)
            .z()
            .m(58.0, 12.0)
            .c(80.0, 22.0, 88.0, 40.0, 88.0, 54.0)
            .l(58.0, 54.0)
            .z()
            .done(),
        vec![
            fill(P::new().circle(30.0, 72.0, 4.0).done(), O),
            fill(P::new().circle(50.0, 72.0, 4.0).done(), O),
            fill(P::new().circle(70.0, 72.0, 4.0).done(), O),
        ],
    )
}

/// [`Shape::HattedPawn`]: the pawn wearing a top hat.
fn hatted_pawn() -> Art {
    // The hat belongs to the silhouette, so the rim runs around pawn and hat together.
    let (crown, band) = hat(50.0, 33.0, 1.3);
    let mut a = art(pawn(44.0), vec![]);
    if let Some(crown) = crown {
        a.silhouette.push((crown.clone(), FillRule::Winding));
        a.layers.extend(fill(Some(crown), Ink::Hat));
    }
    a.layers.extend(fill(band, F));
    a
}

/// [`Shape::KingDisc`]: a draughts king, a disc with a crown on it.
fn king_disc() -> Art {
    art(
        P::new().circle(50.0, 52.0, 40.0).done(),
        vec![
            stroke(P::new().circle(50.0, 52.0, 33.0).done(), O, 3.5),
            fill(
                P::new()
                    .poly(&[
                        (28.0, 66.0),
                        (25.0, 38.0),
                        (39.0, 50.0),
                        (50.0, 32.0),
                        (61.0, 50.0),
                        (75.0, 38.0),
                        (72.0, 66.0),
                    ])
                    .done(),
                O,
            ),
        ],
    )
}

/// [`Shape::Ring`]: an open ring, filled even-odd around its hole.
fn ring() -> Option<Art> {
    let ring = P::new()
        .circle(50.0, 52.0, 40.0)
        .circle(50.0, 52.0, 22.0)
        .done()?;
    Some(Art {
        silhouette: vec![(ring.clone(), FillRule::EvenOdd)],
        layers: vec![Layer {
            path: ring,
            ink: F,
            paint: Paint::Fill(FillRule::EvenOdd),
        }],
    })
}

/// [`Shape::Stone`]: a smooth go-like stone with a highlight.
fn stone() -> Art {
    art(
        P::new().circle(50.0, 52.0, 42.0).done(),
        vec![fill(
            P::new()
                .m(26.0, 40.0)
                .c(28.0, 26.0, 42.0, 18.0, 54.0, 20.0)
                .c(44.0, 26.0, 36.0, 34.0, 26.0, 40.0)
                .z()
                .done(),
            Ink::Sheen,
        )],
    )
}

/// A pawn whose head is centred at `head_y` (lower when it wears a hat).
fn pawn(head_y: f32) -> Option<Path> {
    let r = if head_y < 30.0 { 17.5 } else { 13.5 };
    let neck = head_y + r - 2.0;
    P::new()
        .circle(50.0, head_y, r)
        .rrect(33.0, neck, 67.0, neck + 8.0, 3.0)
        .m(38.0, neck + 6.0)
        .c(40.0, 66.0, 34.0, 74.0, 24.0, 80.0)
        .l(76.0, 80.0)
        .c(66.0, 74.0, 60.0, 66.0, 62.0, neck + 6.0)
        .z()
        .rrect(16.0, 78.0, 84.0, 92.0, 4.0)
        .done()
}

/// A top hat standing on `(cx, bottom)`, `k` times the base size: its shape (brim and crown, to
/// be painted in [`Ink::Hat`]) and its band (in the fill colour).
pub(crate) fn hat(cx: f32, bottom: f32, k: f32) -> (Option<Path>, Option<Path>) {
    let shape = P::new()
        .rrect(
            cx - 22.0 * k,
            bottom - 6.0 * k,
            cx + 22.0 * k,
            bottom,
            2.5 * k,
        )
        .rrect(
            cx - 13.0 * k,
            bottom - 25.0 * k,
            cx + 13.0 * k,
            bottom - 4.0 * k,
            2.5 * k,
        )
        .done();
    let band = P::new()
        .rect(
            cx - 13.0 * k,
            bottom - 12.0 * k,
            cx + 13.0 * k,
            bottom - 7.5 * k,
        )
        .done();
    (shape, band)
}

/// A chess figure from the font: outer contours make the silhouette; the glyph itself (with its
/// holes) is painted in the fill colour over a silhouette painted in the outline colour, so the
/// holes read as inner lines.
fn chess(fonts: &Fonts, c: char) -> Option<Art> {
    let (glyph, outer) = glyph_in_box(fonts, Face::Regular, c, 92.0)?;
    Some(Art {
        silhouette: vec![(outer.clone(), FillRule::Winding)],
        layers: vec![
            Layer {
                path: outer,
                ink: Ink::Outline,
                paint: Paint::Fill(FillRule::Winding),
            },
            Layer {
                path: glyph,
                ink: Ink::Fill,
                paint: Paint::Fill(FillRule::Winding),
            },
        ],
    })
}

/// A bold character, centred, filled in the fill colour inside an outline.
fn letter(fonts: &Fonts, c: char) -> Option<Art> {
    let (glyph, _) = glyph_in_box(fonts, Face::Bold, c, 74.0)?;
    Some(Art {
        silhouette: vec![(glyph.clone(), FillRule::Winding)],
        layers: vec![Layer {
            path: glyph,
            ink: Ink::Fill,
            paint: Paint::Fill(FillRule::Winding),
        }],
    })
}

/// The glyph for `c` scaled so its larger side is `extent` box units, centred in the box (its
/// bottom near y = 92 for tall figures), plus the path of its outer contours only.
fn glyph_in_box(fonts: &Fonts, face: Face, c: char, extent: f32) -> Option<(Path, Path)> {
    let font = fonts.font_ref(face);
    let id = font.glyph_id(c);
    let outline = font.outline(id)?;
    let b = outline.bounds;
    // ab_glyph reports the bounds with min.y = yMax and max.y = yMin of the font (y up).
    let (x_lo, x_hi) = (b.min.x.min(b.max.x), b.min.x.max(b.max.x));
    let (y_lo, y_hi) = (b.min.y.min(b.max.y), b.min.y.max(b.max.y));
    let (w, h) = (x_hi - x_lo, y_hi - y_lo);
    if !(w > 0.0 && h > 0.0) {
        return None;
    }
    let k = extent / w.max(h);
    // outline_to_path flips y, so the glyph's centre lands at (x_mid * k, -y_mid * k).
    let tx = 50.0 - (x_lo + w / 2.0) * k;
    let ty = 50.0 + (y_lo + h / 2.0) * k;
    let ts = Transform::from_translate(tx, ty);
    let whole = outline_to_path(&outline.curves, k)?.transform(ts)?;
    let outer = outline_to_path(&outer_contours(&outline.curves), k)?.transform(ts)?;
    Some((whole, outer))
}

/// The contours of a glyph wound like its largest one (the outer boundary), dropping the holes.
fn outer_contours(curves: &[OutlineCurve]) -> Vec<OutlineCurve> {
    let mut contours: Vec<Vec<OutlineCurve>> = Vec::new();
    let mut last: Option<ab_glyph::Point> = None;
    for curve in curves {
        let (start, end) = ends(curve);
        if last != Some(start) || contours.is_empty() {
            contours.push(Vec::new());
        }
        if let Some(c) = contours.last_mut() {
            c.push(curve.clone());
        }
        last = Some(end);
    }
    let areas: Vec<f32> = contours.iter().map(|c| signed_area(c)).collect();
    let Some(largest) = areas
        .iter()
        .copied()
        .max_by(|a, b| a.abs().total_cmp(&b.abs()))
    else {
        return Vec::new();
    };
    contours
        .into_iter()
        .zip(areas)
        .filter(|(_, a)| a.signum() == largest.signum())
        .flat_map(|(c, _)| c)
        .collect()
}

fn ends(curve: &OutlineCurve) -> (ab_glyph::Point, ab_glyph::Point) {
    match *curve {
        OutlineCurve::Line(a, b)
        | OutlineCurve::Quad(a, _, b)
        | OutlineCurve::Cubic(a, _, _, b) => (a, b),
    }
}

/// Shoelace area over the curve end points and control points; the sign gives the winding.
fn signed_area(contour: &[OutlineCurve]) -> f32 {
    let mut pts = Vec::new();
    for c in contour {
        match *c {
            OutlineCurve::Line(a, _) => pts.push(a),
            OutlineCurve::Quad(a, b, _) => pts.extend([a, b]),
            OutlineCurve::Cubic(a, b, c, _) => pts.extend([a, b, c]),
        }
    }
    let n = pts.len();
    (0..n)
        .map(|i| {
            let (p, q) = (pts[i], pts[(i + 1) % n]);
            p.x * q.y - q.x * p.y
        })
        .sum::<f32>()
        / 2.0
}

/// A seat's [`Plate`] of "radius" `r` around `(cx, cy)`: each shape sized so that it looks as
/// large as a disc of radius `r` (a triangle reaches further than a square).
pub(crate) fn plate(plate: Plate, (cx, cy): (f32, f32), r: f32) -> Option<Path> {
    let corners = |n: usize, reach: f32, turn: f32, dy: f32| -> Vec<(f32, f32)> {
        (0..n)
            .map(|i| {
                let a = turn + std::f32::consts::TAU * i as f32 / n as f32;
                (cx + reach * r * a.cos(), cy + dy * r + reach * r * a.sin())
            })
            .collect()
    };
    let up = -std::f32::consts::FRAC_PI_2;
    let points = match plate {
        Plate::Circle => return PathBuilder::from_circle(cx, cy, r * 0.92),
        Plate::Square => {
            let h = r * 0.84;
            return Rect::from_ltrb(cx - h, cy - h, cx + h, cy + h).map(PathBuilder::from_rect);
        }
        Plate::Diamond => corners(4, 1.1, up, 0.0),
        Plate::TriangleUp => corners(3, 1.18, up, 0.16),
        Plate::TriangleDown => corners(3, 1.18, -up, -0.16),
        Plate::Star => {
            // Five points, their inner corners at half the reach, a little low so that the
            // points stand round the piece.
            let mut out = Vec::with_capacity(10);
            for (i, (x, y)) in corners(10, 1.0, up, 0.08).into_iter().enumerate() {
                let k = if i % 2 == 0 { 1.2 } else { 0.62 };
                let my = cy + 0.08 * r;
                out.push((cx + (x - cx) * k, my + (y - my) * k));
            }
            out
        }
    };
    polygon(points)
}

/// The closed polygon through `points`, in order.
pub(crate) fn polygon(points: impl IntoIterator<Item = (f32, f32)>) -> Option<Path> {
    let mut b = PathBuilder::new();
    for (i, (x, y)) in points.into_iter().enumerate() {
        if i == 0 {
            b.move_to(x, y);
        } else {
            b.line_to(x, y);
        }
    }
    b.close();
    b.finish()
}

/// How much larger than a disc a plate is drawn to hold a letter inside its outline, and where
/// that letter's centre lies below the plate's centre (in radii): a triangle's inner circle is
/// small and off its centre.
pub(crate) fn plate_room(plate: Plate) -> (f32, f32) {
    match plate {
        Plate::Circle | Plate::Square => (1.0, 0.0),
        Plate::Diamond => (1.15, 0.0),
        Plate::TriangleUp => (1.45, 0.16),
        Plate::TriangleDown => (1.45, -0.16),
        Plate::Star => (1.3, 0.0),
    }
}
