//! HexDame's picture (`docs/rules/hexdame.md`): the 61-cell flat-topped hexagon in three tones (so the
//! three-colouring of the cells shows), each side's back rank tinted, white and black men and
//! kings, and a tray per side of the men it has taken.

use hexmeros_render::{Glyph, Hex, HexPoint, Orientation, Rgba, Shape, Tile};

use super::common::{
    BLACK, BLACK_ACCENT, GameView, Pic, TONES, WHITE, WHITE_ACCENT, rim_labels, title_case, tray,
};
use crate::games::Seat;
use crate::games::hexdame::{Colour, HexDame, Kind};
use crate::hex;

pub struct View<'a>(pub &'a HexDame);

fn colour_of(seat: Seat) -> Colour {
    if seat.0 == 0 {
        Colour::White
    } else {
        Colour::Black
    }
}

fn fill(c: Colour) -> Rgba {
    match c {
        Colour::White => WHITE,
        Colour::Black => BLACK,
    }
}

/// The long side of a HexDame picture unless the caller chooses one.
pub const HEXDAME_SIZE: u32 = 1200;

/// Men a side starts with (§2.2).
const MEN: u16 = 16;

impl GameView for View<'_> {
    fn pic(&self) -> Pic {
        let g = self.0;
        let geo = HexDame::geometry();
        let backs = [
            HexDame::back_rank(Colour::White),
            HexDame::back_rank(Colour::Black),
        ];
        let tiles = geo
            .cells()
            .map(|c| {
                let h = geo.hex(c);
                let mut fill_c = TONES[(h.q - h.r).rem_euclid(3) as usize];
                if backs[0].contains(c) {
                    fill_c = fill_c.mix(WHITE_ACCENT, 0.18);
                } else if backs[1].contains(c) {
                    fill_c = fill_c.mix(BLACK_ACCENT, 0.18);
                }
                let mut tile = Tile::new(Hex::new(h.q, h.r), fill_c);
                if let Some(p) = g.piece_at(c) {
                    let shape = match p.kind {
                        Kind::Man => Shape::Disc,
                        Kind::King => Shape::KingDisc,
                    };
                    tile.glyph = Some(Glyph::new(shape, fill(p.colour)));
                }
                tile
            })
            .collect();
        let mut pic = Pic::new(Orientation::FlatTop, tiles);
        let named: Vec<(Hex, String)> = geo
            .cells()
            .map(|c| {
                let h = geo.hex(c);
                (Hex::new(h.q, h.r), geo.name(c).to_string())
            })
            .collect();
        // A letter file runs NW (x fixed, y growing), a number file NE.
        pic.rim = rim_labels(
            Orientation::FlatTop,
            &named,
            Hex::new(-1, 1),
            Hex::new(1, 0),
            0.95,
        );
        for side in [Colour::White, Colour::Black] {
            let enemy = side.opponent();
            let left = g.pieces().filter(|(_, p)| p.colour == enemy).count() as u16;
            pic.trays.push(tray(
                format!("{} took", title_case(side.name())),
                Some(fill(side)),
                vec![(
                    Glyph::new(Shape::Disc, fill(enemy)),
                    MEN.saturating_sub(left),
                )],
            ));
        }
        pic
    }

    fn locate(&self, name: &str) -> Option<Hex> {
        let geo = HexDame::geometry();
        geo.parse(&name.to_ascii_lowercase()).map(|c| {
            let h = geo.hex(c);
            Hex::new(h.q, h.r)
        })
    }

    fn name_at(&self, h: Hex) -> Option<String> {
        let geo = HexDame::geometry();
        geo.cell(hex::Hex::new(h.q, h.r))
            .map(|c| geo.name(c).to_string())
    }

    fn owner_at(&self, h: Hex) -> Option<Seat> {
        let c = HexDame::geometry().cell(hex::Hex::new(h.q, h.r))?;
        self.0.piece_at(c).map(|p| p.colour.seat())
    }

    fn previous_seat(&self, seat: Seat) -> Seat {
        Seat(1 - seat.0.min(1))
    }

    fn swatch(&self, seat: Seat) -> Rgba {
        fill(colour_of(seat))
    }

    fn accent(&self, seat: Seat) -> Rgba {
        if seat.0 == 0 {
            WHITE_ACCENT
        } else {
            BLACK_ACCENT
        }
    }

    fn home(&self, seat: Seat) -> Option<HexPoint> {
        let geo = HexDame::geometry();
        let cells = HexDame::back_rank(colour_of(seat));
        let n = cells.len().max(1) as f32;
        let (q, r) = cells.iter().fold((0.0, 0.0), |(q, r), c| {
            let h = geo.hex(c);
            (q + h.q as f32, r + h.r as f32)
        });
        Some(HexPoint::new(q / n, r / n))
    }

    fn preferred_size(&self) -> Option<u32> {
        // 61 cells: at 1200 px a cell is still ~115 px across (HexiMeros gets ~55 px at 1600),
        // and the picture costs half the pixels to draw, encode and download.
        Some(HEXDAME_SIZE)
    }
    fn status(&self) -> Vec<String> {
        let g = self.0;
        let n = |c: Colour| g.pieces().filter(|(_, p)| p.colour == c).count();
        vec![format!(
            "{} white, {} black",
            n(Colour::White),
            n(Colour::Black)
        )]
    }
}
