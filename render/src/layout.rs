//! Geometry: hex coordinates to "world" units (hex radius 1, y down) and back, hex corners, and
//! the page layout that fits a scene's board, header and trays into the requested picture size.
//! [`BoardLayout`] is where a board's cells land in pixels: the PNG painter and the SVG writer
//! both place everything through it, so the two pictures cannot disagree.

use crate::scene::{Hex, HexPoint, Orientation, Scene};
use crate::text::{CAP_HEIGHT_EM, Face, Fonts};
use crate::theme::Theme;

pub const SQRT3: f32 = 1.732_050_8;

/// The centre of `p` in world units: hex radius 1, x to the right, y **down** (pixel
/// convention), after turning the board `rotation` sixths of a turn clockwise about `(0, 0)`.
pub fn hex_to_world(orientation: Orientation, rotation: u8, p: HexPoint) -> (f32, f32) {
    let (x, y_up) = match orientation {
        Orientation::FlatTop => (1.5 * p.q, SQRT3 * (p.r + p.q / 2.0)),
        Orientation::PointyTop => (SQRT3 * (p.q + p.r / 2.0), 1.5 * p.r),
    };
    rotate((x, -y_up), rotation)
}

/// The inverse of [`hex_to_world`]: fractional axial coordinates of a world point.
pub fn world_to_hex(orientation: Orientation, rotation: u8, world: (f32, f32)) -> HexPoint {
    let (x, y) = rotate(world, (6 - rotation % 6) % 6);
    let y_up = -y;
    match orientation {
        Orientation::FlatTop => {
            let q = x / 1.5;
            HexPoint::new(q, y_up / SQRT3 - q / 2.0)
        }
        Orientation::PointyTop => {
            let r = y_up / 1.5;
            HexPoint::new(x / SQRT3 - r / 2.0, r)
        }
    }
}

/// The nearest hex to a fractional position (cube rounding).
pub fn round_hex(p: HexPoint) -> Hex {
    let s = -p.q - p.r;
    let (mut q, mut r, rs) = (p.q.round(), p.r.round(), s.round());
    let (dq, dr, ds) = ((q - p.q).abs(), (r - p.r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        q = -r - rs;
    } else if dr > ds {
        r = -q - rs;
    }
    Hex::new(q as i32, r as i32)
}

/// Rotates a y-down world point clockwise on screen by `sixths` × 60°.
fn rotate((x, y): (f32, f32), sixths: u8) -> (f32, f32) {
    // Exact table instead of sin/cos so a rotated board lands on exactly the same pixels.
    const H: f32 = SQRT3 / 2.0;
    let (c, s) = match sixths % 6 {
        0 => return (x, y),
        1 => (0.5, H),
        2 => (-0.5, H),
        3 => (-1.0, 0.0),
        4 => (-0.5, -H),
        _ => (0.5, -H),
    };
    (x * c - y * s, x * s + y * c)
}

/// The six corners of a hex of radius 1 around `(0, 0)`, clockwise from the right (flat-topped)
/// or the upper right (pointy-topped). A rotation by sixths maps this set onto itself, so the
/// corners do not depend on [`Scene::rotation`].
pub fn corners(orientation: Orientation) -> [(f32, f32); 6] {
    const H: f32 = SQRT3 / 2.0;
    match orientation {
        Orientation::FlatTop => [
            (1.0, 0.0),
            (0.5, H),
            (-0.5, H),
            (-1.0, 0.0),
            (-0.5, -H),
            (0.5, -H),
        ],
        Orientation::PointyTop => [
            (H, -0.5),
            (H, 0.5),
            (0.0, 1.0),
            (-H, 0.5),
            (-H, -0.5),
            (0.0, -1.0),
        ],
    }
}

/// Half the width and height of one hex in world units.
fn half_extent(orientation: Orientation) -> (f32, f32) {
    match orientation {
        Orientation::FlatTop => (1.0, SQRT3 / 2.0),
        Orientation::PointyTop => (SQRT3 / 2.0, 1.0),
    }
}

/// What a scene asks of the page; several scenes (a replay) are merged so every frame shares one
/// layout and nothing jumps between frames.
#[derive(Clone, Debug, Default)]
pub(crate) struct Needs {
    /// World bounding box of tiles and labels, if there is any.
    pub bounds: Option<[f32; 4]>,
    pub header_lines: usize,
    /// Item count of each tray.
    pub trays: Vec<usize>,
    /// The first scene's orientation (a replay does not change it).
    pub orientation: Orientation,
}

impl Needs {
    pub(crate) fn of(scene: &Scene, fonts: &Fonts) -> Needs {
        let mut b: Option<[f32; 4]> = None;
        let mut add = |x0: f32, y0: f32, x1: f32, y1: f32| {
            if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
                return;
            }
            b = Some(match b {
                None => [x0, y0, x1, y1],
                Some([a, c, d, e]) => [a.min(x0), c.min(y0), d.max(x1), e.max(y1)],
            });
        };
        let (hw, hh) = half_extent(scene.orientation);
        for t in &scene.tiles {
            let (x, y) = hex_to_world(scene.orientation, scene.rotation, t.hex.into());
            add(x - hw, y - hh, x + hw, y + hh);
        }
        for l in &scene.labels {
            let size = label_size(l.size);
            if size <= 0.0 {
                continue;
            }
            let (x, y) = hex_to_world(scene.orientation, scene.rotation, l.at);
            let half_w = fonts.measure_em(Face::Bold, &l.text) * size / CAP_HEIGHT_EM / 2.0;
            add(x - half_w, y - size * 0.6, x + half_w, y + size * 0.6);
        }
        Needs {
            bounds: b,
            header_lines: scene.header.len(),
            trays: scene.trays.iter().map(|t| t.items.len()).collect(),
            orientation: scene.orientation,
        }
    }

    pub(crate) fn merge(mut self, other: Needs) -> Needs {
        self.bounds = match (self.bounds, other.bounds) {
            (Some(a), Some(b)) => Some([
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[2].max(b[2]),
                a[3].max(b[3]),
            ]),
            (a, b) => a.or(b),
        };
        self.header_lines = self.header_lines.max(other.header_lines);
        if other.trays.len() > self.trays.len() {
            self.trays.resize(other.trays.len(), 0);
        }
        for (mine, theirs) in self.trays.iter_mut().zip(other.trays) {
            *mine = (*mine).max(theirs);
        }
        self
    }
}

/// A label's cap height in world units, with nonsense (negative, NaN) treated as "no label".
pub(crate) fn label_size(size: f32) -> f32 {
    if size.is_finite() && size > 0.0 {
        size
    } else {
        0.0
    }
}

/// Where one tray goes on the page, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TraySlot {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    /// Pieces per row.
    pub per_row: usize,
}

/// The page: picture size, where world units land, and the header and tray areas.
///
/// Hex centres are snapped to a pixel lattice: the step between columns and between half-rows
/// is a whole number of pixels, so every cell of one colour is the same pixels and can be drawn
/// as one prepared sprite. That stretches the hexes by at most a pixel per cell (a few percent on
/// a small picture), which nobody sees, and makes the board several times cheaper to draw.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Page {
    pub width: u32,
    pub height: u32,
    /// Pixels per world unit, horizontally and vertically (nearly equal; see above).
    pub sx: f32,
    pub sy: f32,
    /// Pixel position of world `(0, 0)`, whole pixels.
    pub origin: (f32, f32),
    /// World bounding box of the tiles and labels laid out, if there were any.
    pub bounds: Option<[f32; 4]>,
    pub trays: Vec<TraySlot>,
}

impl Page {
    /// Pixels per hex radius, for sizes that are not positions (line widths, glyphs, arrows).
    pub(crate) fn scale(&self) -> f32 {
        (self.sx + self.sy) / 2.0
    }

    /// Where `scene`'s board lands on this page.
    pub(crate) fn board(&self, scene: &Scene) -> BoardLayout {
        let mut board = BoardLayout {
            width: self.width,
            height: self.height,
            radius: self.scale(),
            sx: self.sx,
            sy: self.sy,
            origin: self.origin,
            orientation: scene.orientation,
            rotation: scene.rotation,
            bounds: None,
        };
        board.bounds = self.bounds.map(|[x0, y0, x1, y1]| {
            let (a, b) = board.to_px((x0, y0));
            let (c, d) = board.to_px((x1, y1));
            [a, b, c, d]
        });
        board
    }

    /// Lays out a page of `theme.size` pixels on its long side.
    pub(crate) fn fit(needs: &Needs, theme: &Theme) -> Page {
        let size = theme.size as f32;
        let m = theme.margin;
        let header_h = header_height(needs.header_lines, theme);
        let (bw, bh) = match needs.bounds {
            Some([x0, y0, x1, y1]) => ((x1 - x0).max(1e-3), (y1 - y0).max(1e-3)),
            None => (0.0, 0.0),
        };
        let trays_h = |w: f32| tray_band(&needs.trays, w, theme).0;

        // Landscape first: the width is the long side.
        let mut width = size;
        let mut scale = if bw > 0.0 {
            (width - 2.0 * m) / bw
        } else {
            0.0
        };
        if header_h + bh * scale + trays_h(width) + 2.0 * m > size && bh > 0.0 {
            // Portrait: the height is the long side. The tray band depends on the width, which
            // depends on the scale; a few rounds settle it (the band only changes by whole rows).
            for _ in 0..4 {
                let room = size - header_h - trays_h(width) - 2.0 * m;
                scale = (room / bh).max(0.0);
                width = (bw * scale + 2.0 * m).clamp(size * 0.25, size);
            }
            scale = scale.min((width - 2.0 * m) / bw).max(0.0);
        }
        // The page is sized from the exact scale, so its long side is exactly `theme.size`;
        // the snapped board, a hair smaller, is centred in its area.
        let (sx, sy) = snap(scale, needs.orientation);
        let height = header_h + bh * scale + trays_h(width) + 2.0 * m;
        let width_px = (width.round() as u32).clamp(1, theme.size);
        let height_px = (height.round() as u32).clamp(1, theme.size);
        let (x0, y0) = match needs.bounds {
            Some([x0, y0, ..]) => (x0, y0),
            None => (0.0, 0.0),
        };
        let board_top = m + header_h;
        let origin = (
            ((width_px as f32 - bw * sx) / 2.0 - x0 * sx).round(),
            (board_top + bh * (scale - sy) / 2.0 - y0 * sy).round(),
        );
        let (_, slots) = tray_band(&needs.trays, width_px as f32, theme);
        let band_top = board_top + bh * scale;
        Page {
            width: width_px,
            height: height_px,
            sx,
            sy,
            origin,
            bounds: needs.bounds,
            trays: slots
                .into_iter()
                .map(|s| TraySlot {
                    y: s.y + band_top,
                    ..s
                })
                .collect(),
        }
    }
}

/// Where a scene's board lands on its PNG page, in pixels (x right, y down, the page's top-left
/// corner at `(0, 0)`): what [`crate::Renderer::board_layout`] returns. The PNG is painted
/// through it, so a position it gives is the PNG's pixel position, and the SVG of the board
/// ([`crate::render_svg`]) uses the same coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardLayout {
    /// The PNG page's size in pixels.
    pub width: u32,
    pub height: u32,
    /// Pixels per hex radius ([`crate::hex_radius_px`]): the size of everything that is not a
    /// position (line widths, pieces, arrows). Zero for a scene with no tiles or labels.
    pub radius: f32,
    /// Pixels per world unit across and down. They differ from `radius` by a hair because cell
    /// centres are snapped to whole pixels (see the page layout); a cell's corners are
    /// [`corners`] scaled by `(sx, sy)` about its centre.
    pub sx: f32,
    pub sy: f32,
    /// Pixel position of world `(0, 0)` (the hex `(0, 0)` before rotation), whole pixels.
    pub origin: (f32, f32),
    pub orientation: Orientation,
    /// The scene's rotation, sixths of a turn clockwise.
    pub rotation: u8,
    /// Pixel bounding box `[x0, y0, x1, y1]` of the tiles (their corners) and labels (their
    /// text), as the page was fitted to them; `None` when the scene has neither.
    pub bounds: Option<[f32; 4]>,
}

impl BoardLayout {
    fn to_px(&self, (x, y): (f32, f32)) -> (f32, f32) {
        (self.origin.0 + x * self.sx, self.origin.1 + y * self.sy)
    }

    /// The pixel centre of the tile at `hex`: whole pixels, on the page's lattice (world
    /// positions of hexes are lattice points up to rounding error).
    pub fn centre(&self, hex: Hex) -> (f32, f32) {
        let (x, y) = self.to_px(hex_to_world(self.orientation, self.rotation, hex.into()));
        (x.round(), y.round())
    }

    /// The pixel position of a fractional hex position (a label's, a tag's), not snapped.
    pub fn point(&self, p: HexPoint) -> (f32, f32) {
        self.to_px(hex_to_world(self.orientation, self.rotation, p))
    }

    /// A cell's six corners in pixels relative to its centre, clockwise (see [`corners`]).
    pub fn corners(&self) -> [(f32, f32); 6] {
        corners(self.orientation).map(|(x, y)| (x * self.sx, y * self.sy))
    }
}

/// Horizontal and vertical pixels per world unit once the lattice steps are whole pixels,
/// never larger than `scale` so the board still fits.
fn snap(scale: f32, orientation: Orientation) -> (f32, f32) {
    if !(scale.is_finite() && scale > 0.0) {
        return (0.0, 0.0);
    }
    // Flat-topped: columns 3/2 apart, half-rows √3/2 apart; pointy-topped the other way round.
    let (step_x, step_y) = match orientation {
        Orientation::FlatTop => (1.5, SQRT3 / 2.0),
        Orientation::PointyTop => (SQRT3 / 2.0, 1.5),
    };
    let px = |step: f32| (step * scale).floor().max(1.0) / step;
    (px(step_x), px(step_y))
}

pub(crate) fn header_height(lines: usize, theme: &Theme) -> f32 {
    if lines == 0 {
        0.0
    } else {
        theme.title_px * LINE + (lines - 1) as f32 * theme.text_px * LINE + theme.margin * 0.5
    }
}

/// Line height as a multiple of the cap height.
pub(crate) const LINE: f32 = 1.9;
/// Trays per row of the tray band.
const TRAY_COLUMNS: usize = 3;

/// The tray band's height and each tray's slot (y relative to the band's top) for a page `width`
/// pixels wide. A tray keeps at least one row of room even when empty, so the first capture does
/// not resize the board.
fn tray_band(trays: &[usize], width: f32, theme: &Theme) -> (f32, Vec<TraySlot>) {
    if trays.is_empty() {
        return (0.0, Vec::new());
    }
    let m = theme.margin;
    let cols = trays.len().min(TRAY_COLUMNS);
    let gap = m;
    let col_w = ((width - 2.0 * m - (cols - 1) as f32 * gap) / cols as f32).max(1.0);
    let advance = theme.tray_px * TRAY_ADVANCE;
    let per_row = ((col_w / advance).floor() as usize).max(1);
    let caption_h = theme.text_px * LINE;
    let mut slots = Vec::with_capacity(trays.len());
    let mut y = m * 0.5;
    for row in trays.chunks(cols) {
        let mut row_h: f32 = 0.0;
        for (i, &n) in row.iter().enumerate() {
            let rows = n.div_ceil(per_row).max(1);
            row_h = row_h.max(caption_h + rows as f32 * theme.tray_px * TRAY_ADVANCE);
            slots.push(TraySlot {
                x: m + i as f32 * (col_w + gap),
                y,
                width: col_w,
                per_row,
            });
        }
        y += row_h + gap * 0.5;
    }
    (y, slots)
}

/// Distance between tray pieces as a multiple of their box size (the art leaves some room).
pub(crate) const TRAY_ADVANCE: f32 = 0.8;

#[cfg(test)]
mod tests {
    use super::*;

    const BOTH: [Orientation; 2] = [Orientation::FlatTop, Orientation::PointyTop];

    fn close(a: (f32, f32), b: (f32, f32)) -> bool {
        (a.0 - b.0).abs() < 1e-3 && (a.1 - b.1).abs() < 1e-3
    }

    #[test]
    fn world_and_hex_coordinates_round_trip() {
        for o in BOTH {
            for rot in 0..6 {
                for (q, r) in [(0, 0), (3, -7), (-25, 12), (1, 1)] {
                    let h = Hex::new(q, r);
                    let w = hex_to_world(o, rot, h.into());
                    assert_eq!(round_hex(world_to_hex(o, rot, w)), h, "{o:?} {rot} {h:?}");
                }
            }
        }
    }

    #[test]
    fn neighbours_are_root_three_apart_and_north_is_up() {
        let dirs = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];
        for o in BOTH {
            for (q, r) in dirs {
                let (x, y) = hex_to_world(o, 0, Hex::new(q, r).into());
                assert!(((x * x + y * y).sqrt() - SQRT3).abs() < 1e-4);
            }
        }
        // Flat-topped, (0, 1) is straight above the origin (y grows downward on the page).
        assert!(close(
            hex_to_world(Orientation::FlatTop, 0, Hex::new(0, 1).into()),
            (0.0, -SQRT3)
        ));
    }

    #[test]
    fn a_sixth_of_a_turn_is_the_bots_hex_rotation() {
        // The bot's `Hex::rotate` sends (q, r) to (q + r, -q) and calls it clockwise.
        for o in BOTH {
            for (q, r) in [(0, 1), (2, -5), (-3, 1)] {
                let turned = hex_to_world(o, 1, Hex::new(q, r).into());
                let moved = hex_to_world(o, 0, Hex::new(q + r, -q).into());
                assert!(close(turned, moved), "{o:?} ({q}, {r})");
            }
            for rot in 0..6 {
                let p = HexPoint::new(1.3, -0.4);
                assert!(close(hex_to_world(o, rot, p), hex_to_world(o, rot + 6, p)));
            }
        }
    }

    #[test]
    fn corners_are_shared_by_neighbours() {
        for o in BOTH {
            let c = corners(o);
            let (nx, ny) = hex_to_world(o, 0, Hex::new(1, 0).into());
            let shared = c
                .iter()
                .filter(|&&a| c.iter().any(|&b| close(a, (b.0 + nx, b.1 + ny))))
                .count();
            assert_eq!(shared, 2, "{o:?}");
            assert!(
                c.iter()
                    .all(|&(x, y)| ((x * x + y * y).sqrt() - 1.0).abs() < 1e-5)
            );
        }
    }

    #[test]
    fn snapped_lattice_steps_are_whole_pixels_and_never_larger() {
        for o in BOTH {
            for scale in [3.3, 17.0, 28.9, 100.2] {
                let (sx, sy) = snap(scale, o);
                assert!(sx <= scale + 1e-4 && sy <= scale + 1e-4);
                for h in [Hex::new(1, 0), Hex::new(0, 1), Hex::new(-4, 9)] {
                    let (x, y) = hex_to_world(o, 0, h.into());
                    for v in [x * sx, y * sy] {
                        assert!((v - v.round()).abs() < 1e-3, "{o:?} {scale} {h:?} {v}");
                    }
                }
            }
        }
    }
}
