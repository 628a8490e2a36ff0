//! HexaEquo's picture (`docs/rules/hexaequo.md`): only the tiles laid so far, so the picture grows
//! with the board; black and white tiles, discs and rings on them, and trays of what each side
//! has in hand and the prisoners it holds.

use hexmeros_render::{Glyph, Hex, HexPoint, Orientation, Rgba, Shape, Theme, Tile};

use super::common::{
    BLACK, BLACK_ACCENT, GameView, Pic, WHITE, WHITE_ACCENT, rim_labels, title_case, tray,
};
use crate::games::Seat;
use crate::games::hexaequo::{Colour, HexaEquo, Kind, cell_name, parse_cell};
use crate::hex;

pub struct View<'a>(pub &'a HexaEquo);

/// The rules' Black and White (Black moves first): black and white tiles under black and white
/// pieces, each piece outlined in the other colour so it reads on a tile of its own colour.
const BLACK_TILE: Rgba = Rgba::rgb(56, 56, 62);
const WHITE_TILE: Rgba = Rgba::rgb(244, 242, 236);
/// The board's edge and the lines between tiles: light, so black tiles stand out from the dark
/// page and from each other.
const RIM: Rgba = Rgba::rgb(200, 196, 188);
const GRID: Rgba = Rgba::rgb(132, 128, 122);
/// The light band round the marks' casing (`Theme::mark_halo`).
const HALO: Rgba = Rgba::rgb(236, 234, 228);

/// The spec's pointy-topped `(q, r)` has `r` growing downward; the scene's grows upward.
fn scene_hex(h: hex::Hex) -> Hex {
    Hex::new(h.q + h.r, -h.r)
}

fn engine_hex(h: Hex) -> hex::Hex {
    hex::Hex::new(h.q + h.r, -h.r)
}

fn colour_of(seat: Seat) -> Colour {
    if seat.0 == 0 {
        Colour::Black
    } else {
        Colour::White
    }
}

fn piece_fill(c: Colour) -> Rgba {
    match c {
        Colour::Black => BLACK,
        Colour::White => WHITE,
    }
}

fn glyph(c: Colour, k: Kind) -> Glyph {
    let shape = match k {
        Kind::Disc => Shape::Disc,
        Kind::Ring => Shape::Ring,
    };
    Glyph::new(shape, piece_fill(c)).with_outline(other_ink(c))
}

/// The outline of a piece or tile of colour `c`: the other colour.
fn other_ink(c: Colour) -> Rgba {
    match c {
        Colour::Black => Rgba::rgb(236, 234, 228),
        Colour::White => Rgba::rgb(30, 30, 34),
    }
}

fn tile_glyph(c: Colour) -> Glyph {
    Glyph::new(Shape::Letter('⬢'), tile_fill(c)).with_outline(other_ink(c))
}

fn tile_fill(c: Colour) -> Rgba {
    match c {
        Colour::Black => BLACK_TILE,
        Colour::White => WHITE_TILE,
    }
}

impl GameView for View<'_> {
    fn pic(&self) -> Pic {
        let g = self.0;
        let tiles = g
            .tiles()
            .iter()
            .map(|t| {
                let mut tile = Tile::new(scene_hex(t.cell), tile_fill(t.owner));
                tile.glyph = t.piece.map(|p| glyph(p.owner, p.kind));
                tile
            })
            .collect();
        let mut pic = Pic::new(Orientation::PointyTop, tiles);
        let named: Vec<(Hex, String)> = g
            .tiles()
            .iter()
            .filter_map(|t| Some((scene_hex(t.cell), cell_name(t.cell)?)))
            .collect();
        // A letter (q) file runs up-left in the scene (labels under it), a number (r) file to
        // the right (labels on the left).
        pic.rim = rim_labels(
            Orientation::PointyTop,
            &named,
            Hex::new(-1, 1),
            Hex::new(1, 0),
            0.9,
        );
        for c in Colour::BOTH {
            let r = g.reserve(c);
            let name = title_case(c.name());
            pic.trays.push(tray(
                format!("{name} in hand"),
                Some(piece_fill(c)),
                vec![
                    (tile_glyph(c), u16::from(r.tile)),
                    (glyph(c, Kind::Disc), u16::from(r.disc)),
                    (glyph(c, Kind::Ring), u16::from(r.ring)),
                ],
            ));
        }
        for c in Colour::BOTH {
            let p = g.prisoners(c);
            let name = title_case(c.name());
            pic.trays.push(tray(
                format!("{name} holds"),
                Some(piece_fill(c)),
                vec![
                    (glyph(c.other(), Kind::Disc), u16::from(p.discs)),
                    (glyph(c.other(), Kind::Ring), u16::from(p.rings)),
                ],
            ));
        }
        pic
    }

    fn adjust_theme(&self, theme: &mut Theme) {
        theme.rim = RIM;
        theme.grid = GRID;
        // Black tiles beside white ones: the marks' near-black casing is lost on the black
        // ones, so a light band goes round it.
        theme.mark_halo = Some(HALO);
    }

    fn preferred_size(&self) -> Option<u32> {
        // About 130 px a cell across the board's span (plus the rim), so a young board is not
        // drawn with plate-sized pieces; full size once the board is wide.
        let b = self.0.bounds()?;
        let span = (b.max_x - b.min_x).max(2 * (b.max_r - b.min_r)) as u32 + 6;
        Some((span * 65).clamp(560, super::DEFAULT_SIZE))
    }

    fn locate(&self, name: &str) -> Option<Hex> {
        parse_cell(&name.to_ascii_uppercase()).map(scene_hex)
    }

    fn name_at(&self, h: Hex) -> Option<String> {
        cell_name(engine_hex(h))
    }

    fn owner_at(&self, h: Hex) -> Option<Seat> {
        self.0
            .tile(engine_hex(h))
            .and_then(|t| t.piece)
            .map(|p| p.owner.seat())
    }

    fn previous_seat(&self, seat: Seat) -> Seat {
        Seat(1 - seat.0.min(1))
    }

    fn swatch(&self, seat: Seat) -> Rgba {
        piece_fill(colour_of(seat))
    }

    fn accent(&self, seat: Seat) -> Rgba {
        if seat.0 == 0 {
            BLACK_ACCENT
        } else {
            WHITE_ACCENT
        }
    }

    fn home(&self, seat: Seat) -> Option<HexPoint> {
        // No fixed sides: Black looks from the bottom, White from the top.
        let tiles = self.0.tiles();
        let n = tiles.len().max(1) as f32;
        let (q, r) = tiles.iter().fold((0.0, 0.0), |(q, r), t| {
            let h = scene_hex(t.cell);
            (q + h.q as f32, r + h.r as f32)
        });
        let (cq, cr) = (q / n, r / n);
        let dr = if seat.0 == 0 { -3.0 } else { 3.0 };
        Some(HexPoint::new(cq - dr / 2.0, cr + dr))
    }
}
