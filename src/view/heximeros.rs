//! HexiMeros' picture (`docs/rules/heximeros.md` §2.5 "cell colours"): the 649 flat-topped cells shaded
//! by line class `(q − r) mod 3` so line moves can be followed, each hextant faintly and each Base
//! Line clearly tinted in its colour, Ground Zero in gold, the nine piece shapes plus the Hat and
//! the Ground-Zero star, frozen pieces greyed, declared checks, and a tray per colour of the
//! pieces it has lost.

use std::collections::HashMap;

use hexmeros_render::{Glyph, Hex, HexPoint, Orientation, Rgba, Tile};

use super::common::{
    GameView, PLAYER_ACCENTS, PLAYER_COLOURS, Pic, RimLabel, SEAT_MARKS, SEAT_PLATES, TONES,
    heximeros_start, missing, piece_glyph_heximeros, title_case, tray,
};
use crate::games::heximeros::{BOARD, COLOURS, HexiMeros, Kind};
use crate::games::{Rules, Seat};
use crate::hex;

pub struct View<'a>(pub &'a HexiMeros);

const GZ_GOLD: Rgba = Rgba::rgb(236, 188, 64);

fn scene_hex(h: hex::Hex) -> Hex {
    Hex::new(h.q, h.r)
}

/// The hextant of a cell: the colour whose forward coordinate is smallest there, unless two tie
/// (boundary cells are nobody's).
fn hextant(h: hex::Hex) -> Option<usize> {
    let f: Vec<i32> = (0..6)
        .map(|k| h.dot(hex::Direction::flat(k).vector()))
        .collect();
    let min = *f.iter().min()?;
    let mut at = f.iter().enumerate().filter(|(_, v)| **v == min);
    let first = at.next()?.0;
    at.next().is_none().then_some(first)
}

/// Column letters A … AG for display column `x` (−16 … 16), as §2.6 names them.
fn column_name(x: i32) -> String {
    let i = x + 16;
    if i < 26 {
        char::from(b'A' + i as u8).to_string()
    } else {
        format!("A{}", char::from(b'A' + (i - 26) as u8))
    }
}

fn doubled_point(x: f32, y: f32) -> HexPoint {
    HexPoint::new(x, (y - x) / 2.0)
}

/// The coordinates on the rim, one label per line, beyond one of its ends: odd rows first try
/// their left ends, even rows their right ends; even columns their lower ends, odd columns their
/// upper ends. The board has two line ends to a rim cell, so alternating sets each family in one
/// row round the board; where an end is crowded, the label takes its line's other end (see
/// `place_rim_labels`).
fn rim_labels() -> Vec<RimLabel> {
    let geo = &BOARD.geometry;
    let mut out = Vec::new();
    let mut cols: HashMap<i32, (i32, i32)> = HashMap::new();
    let mut rows: HashMap<i32, (i32, i32)> = HashMap::new();
    for c in geo.cells() {
        let (x, y) = geo.hex(c).to_doubled();
        let col = cols.entry(x).or_insert((y, y));
        *col = (col.0.min(y), col.1.max(y));
        let row = rows.entry(y).or_insert((x, x));
        *row = (row.0.min(x), row.1.max(x));
    }
    let mut rows: Vec<_> = rows.into_iter().collect();
    rows.sort();
    for (y, (lo, hi)) in rows {
        let left = (
            doubled_point(lo as f32 - 1.0, y as f32),
            doubled_point(-2.0, 0.0),
        );
        let right = (
            doubled_point(hi as f32 + 1.0, y as f32),
            doubled_point(2.0, 0.0),
        );
        let (first, other) = if y.rem_euclid(2) == 1 {
            (left, right)
        } else {
            (right, left)
        };
        out.push(RimLabel {
            at: first.0,
            text: (y + 26).to_string(),
            out: first.1,
            alt: Some(other),
        });
    }
    let mut cols: Vec<_> = cols.into_iter().collect();
    cols.sort();
    for (x, (lo, hi)) in cols {
        let top = (
            doubled_point(x as f32, lo as f32 - 1.2),
            doubled_point(0.0, -2.0),
        );
        let bottom = (
            doubled_point(x as f32, hi as f32 + 1.2),
            doubled_point(0.0, 2.0),
        );
        let (first, other) = if x.rem_euclid(2) == 0 {
            (bottom, top)
        } else {
            (top, bottom)
        };
        out.push(RimLabel {
            at: first.0,
            text: column_name(x),
            out: first.1,
            alt: Some(other),
        });
    }
    out
}

impl GameView for View<'_> {
    fn pic(&self) -> Pic {
        let g = self.0;
        let geo = &BOARD.geometry;
        let tiles = geo
            .cells()
            .map(|c| {
                let h = geo.hex(c);
                let mut fill = TONES[(h.q - h.r).rem_euclid(3) as usize];
                if let Some(k) = hextant(h) {
                    fill = fill.mix(PLAYER_COLOURS[k], 0.07);
                }
                for (line, colour) in BOARD.base_line.iter().zip(PLAYER_COLOURS) {
                    if line.contains(c) {
                        fill = fill.mix(colour, 0.34);
                    }
                }
                if c == BOARD.gz {
                    fill = GZ_GOLD;
                }
                let mut tile = Tile::new(scene_hex(h), fill);
                if let Some(p) = g.piece(c) {
                    tile.glyph = Some(piece_glyph_heximeros(
                        p.kind,
                        p.colour,
                        p.bonus,
                        g.is_frozen(p),
                    ));
                }
                tile
            })
            .collect();
        let mut pic = Pic::new(Orientation::FlatTop, tiles);

        pic.rim = rim_labels();

        // Trays: what each colour has lost, from the start set (promoted pieces counted back as
        // Militants).
        let start = heximeros_start(g);
        let count = |pos: &HexiMeros, colour: u8| {
            let mut n = vec![0u16; Kind::ALL.len()];
            for (_, p) in pos.pieces() {
                if p.colour == colour {
                    n[p.kind as usize] += 1;
                }
            }
            n
        };
        let promoted: Vec<usize> = Kind::PROMOTIONS
            .iter()
            .map(|&k| k as usize)
            .chain([Kind::HattedMilitant as usize])
            .collect();
        for colour in 0..6u8 {
            let lost = missing(
                &count(&start, colour),
                &count(g, colour),
                Kind::Militant as usize,
                &promoted,
            );
            let items = Kind::ALL
                .iter()
                .map(|&k| {
                    (
                        piece_glyph_heximeros(k, colour, false, false),
                        lost[k as usize],
                    )
                })
                .collect();
            let mut lost = tray(
                format!("{} lost", title_case(COLOURS[colour as usize])),
                Some(PLAYER_COLOURS[colour as usize]),
                items,
            );
            lost.mark = Some(SEAT_MARKS[colour as usize]);
            lost.plate = Some(SEAT_PLATES[colour as usize]);
            pic.trays.push(lost);
        }
        pic
    }

    fn locate(&self, name: &str) -> Option<Hex> {
        let geo = &BOARD.geometry;
        geo.parse(&name.to_ascii_uppercase())
            .map(|c| scene_hex(geo.hex(c)))
    }

    fn name_at(&self, h: Hex) -> Option<String> {
        let geo = &BOARD.geometry;
        geo.cell(hex::Hex::new(h.q, h.r))
            .map(|c| geo.name(c).to_string())
    }

    fn owner_at(&self, h: Hex) -> Option<Seat> {
        let c = BOARD.geometry.cell(hex::Hex::new(h.q, h.r))?;
        self.0.piece(c).map(|p| self.0.controller(p.colour))
    }

    fn previous_seat(&self, seat: Seat) -> Seat {
        (1..=6u8)
            .map(|d| Seat((seat.0 + 6 - d) % 6))
            .find(|&s| self.0.is_active(s))
            .unwrap_or(Seat((seat.0 + 5) % 6))
    }

    fn swatch(&self, seat: Seat) -> Rgba {
        PLAYER_COLOURS[seat.index() % 6]
    }

    fn mark(&self, seat: Seat) -> Option<char> {
        Some(SEAT_MARKS[seat.index() % 6])
    }

    fn accent(&self, seat: Seat) -> Rgba {
        PLAYER_ACCENTS[seat.index() % 6]
    }

    fn home(&self, seat: Seat) -> Option<HexPoint> {
        let cells = &BOARD.base_line[seat.index() % 6];
        let n = cells.len().max(1) as f32;
        let (q, r) = cells.iter().fold((0.0, 0.0), |(q, r), c| {
            let h = BOARD.geometry.hex(c);
            (q + h.q as f32, r + h.r as f32)
        });
        Some(HexPoint::new(q / n, r / n))
    }

    fn checks(&self) -> Vec<Hex> {
        self.0
            .check_records()
            .iter()
            .map(|r| scene_hex(BOARD.geometry.hex(r.target)))
            .collect()
    }

    fn royals(&self, seat: Seat) -> Vec<Hex> {
        self.0
            .sovereigns_of(seat)
            .into_iter()
            .map(|c| scene_hex(BOARD.geometry.hex(c)))
            .collect()
    }

    fn status(&self) -> Vec<String> {
        let out = self.0.out_order();
        if out.is_empty() {
            return Vec::new();
        }
        let names: Vec<String> = out
            .iter()
            .map(|&s| title_case(self.0.seat_name(s)))
            .collect();
        vec![format!("out: {}", names.join(", "))]
    }
}

/// Every HexiMeros piece look (kind × colour, plus the bonus star and the frozen grey), for the
/// distinctness test and the piece sheet.
pub fn all_piece_glyphs() -> Vec<(String, Glyph)> {
    let mut v = Vec::new();
    for colour in 0..6u8 {
        for kind in Kind::ALL {
            let name = format!("{} {}", COLOURS[colour as usize], kind.name());
            v.push((
                name.clone(),
                piece_glyph_heximeros(kind, colour, false, false),
            ));
            if kind.gets_gz_bonus() {
                v.push((
                    format!("{name} with the GZ bonus"),
                    piece_glyph_heximeros(kind, colour, true, false),
                ));
            }
        }
    }
    v
}
