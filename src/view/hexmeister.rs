//! Hexmeister's picture (`docs/rules/hexmeister.md` §2): the 91-cell pointy-topped board with its
//! lanes (pale), moat rings (blue-grey) and the 13 gates (red) drawn differently, each player's
//! base entry row tinted, the stones, and trays of stones in reserve and stones lost.

use hexmeros_render::{Glyph, Hex, HexPoint, Marker, Orientation, Rgba, Shape, Tile};

use super::common::{BLACK, GameView, Pic, WHITE, rim_labels, title_case, tray};
use crate::games::hexmeister::{self, CellRole, Hexmeister, STONES};
use crate::games::{Rules, Seat};
use crate::hex::Cell;

pub struct View<'a>(pub &'a Hexmeister);

const LANE: Rgba = Rgba::rgb(240, 234, 220);
const RING: Rgba = Rgba::rgb(170, 186, 200);
const GATE: Rgba = Rgba::rgb(214, 92, 80);
/// South plays light stones, North dark ones; their moves are highlighted in these accents.
const ACCENTS: [Rgba; 2] = [Rgba::rgb(36, 110, 230), Rgba::rgb(226, 150, 0)];

fn stone(seat: Seat) -> Rgba {
    if seat.0 == 0 { WHITE } else { BLACK }
}

/// The scene hex of a cell: the spec's map is pointy-topped with North's base row on top
/// (`hexmeister::map_position`, doubled-width x 0…20, rows y 0…10 downward).
fn scene_hex(c: Cell) -> Hex {
    let (x, y) = hexmeister::map_position(c);
    let r = 5 - y;
    Hex::new((x - 10 - r).div_euclid(2), r)
}

impl GameView for View<'_> {
    fn pic(&self) -> Pic {
        let g = self.0;
        let geo = hexmeister::geometry();
        let tiles = hexmeister::cells()
            .map(|(c, role)| {
                let mut fill = match role {
                    CellRole::Lane => LANE,
                    CellRole::Ring => RING,
                    CellRole::Gate => GATE,
                };
                if let Some(owner) = hexmeister::base_owner(c) {
                    fill = fill.mix(ACCENTS[owner.index() & 1], 0.25);
                }
                let mut tile = Tile::new(scene_hex(c), fill);
                if role == CellRole::Gate {
                    tile.markers
                        .push(Marker::Ring(Rgba::rgb(120, 30, 24).with_alpha(150)));
                }
                if let Some(s) = g.stone_at(c) {
                    tile.glyph = Some(Glyph::new(Shape::Stone, stone(s)));
                }
                tile
            })
            .collect();
        let mut pic = Pic::new(Orientation::PointyTop, tiles);
        let named: Vec<(Hex, String)> = geo
            .cells()
            .map(|c| (scene_hex(c), geo.name(c).to_string()))
            .collect();
        // In the spec's map a letter file runs up to the right, a number file up to the left.
        let letter_dir = scene_hex_step(geo, "a1", "a2");
        let number_dir = scene_hex_step(geo, "a1", "b1");
        pic.rim = rim_labels(Orientation::PointyTop, &named, letter_dir, number_dir, 0.95);
        for seat in [Seat(0), Seat(1)] {
            let on_board = g.stones_of(seat).len() as u16;
            let reserve = u16::from(g.reserve(seat));
            let lost = u16::from(STONES).saturating_sub(on_board + reserve);
            let name = title_case(g.seat_name(seat));
            pic.trays.push(tray(
                format!("{name}: {reserve} in reserve, {lost} lost"),
                Some(stone(seat)),
                vec![
                    (Glyph::new(Shape::Stone, stone(seat)), reserve),
                    (
                        Glyph::new(Shape::Stone, stone(seat))
                            .with_state(hexmeros_render::GlyphState::Frozen),
                        lost,
                    ),
                ],
            ));
        }
        pic
    }

    fn locate(&self, name: &str) -> Option<Hex> {
        hexmeister::geometry()
            .parse(&name.to_ascii_lowercase())
            .map(scene_hex)
    }

    fn name_at(&self, h: Hex) -> Option<String> {
        let geo = hexmeister::geometry();
        geo.cells()
            .find(|&c| scene_hex(c) == h)
            .map(|c| geo.name(c).to_string())
    }

    fn owner_at(&self, h: Hex) -> Option<Seat> {
        hexmeister::cells()
            .find(|&(c, _)| scene_hex(c) == h)
            .and_then(|(c, _)| self.0.stone_at(c))
    }

    fn previous_seat(&self, seat: Seat) -> Seat {
        Seat(1 - seat.0.min(1))
    }

    fn swatch(&self, seat: Seat) -> Rgba {
        stone(seat)
    }

    fn accent(&self, seat: Seat) -> Rgba {
        ACCENTS[seat.index() & 1]
    }

    fn home(&self, seat: Seat) -> Option<HexPoint> {
        let cells = hexmeister::base_row(seat);
        let n = cells.len().max(1) as f32;
        let (q, r) = cells.iter().fold((0.0, 0.0), |(q, r), c| {
            let h = scene_hex(c);
            (q + h.q as f32, r + h.r as f32)
        });
        Some(HexPoint::new(q / n, r / n))
    }

    fn status(&self) -> Vec<String> {
        if self.0.bonus_pending() {
            vec!["bonus action".into()]
        } else {
            Vec::new()
        }
    }
}

/// The scene step from cell `a` to cell `b` (both named on the board).
fn scene_hex_step(geo: &crate::hex::Geometry, a: &str, b: &str) -> Hex {
    match (geo.parse(a), geo.parse(b)) {
        (Some(a), Some(b)) => {
            let (ha, hb) = (scene_hex(a), scene_hex(b));
            Hex::new(hb.q - ha.q, hb.r - ha.r)
        }
        _ => Hex::new(1, 0),
    }
}
