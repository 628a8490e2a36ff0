//! Harmegedo's picture (`docs/rules/harmegedo.md` §2, the reconstructed ring board): light and dark
//! spaces, the void centre left empty, chess figures in the six kingdom colours, the pieces of a
//! kingdom whose king fell greyed (neutral), file letters on the outer rim and kingdom numbers in
//! the centre, and a tray per kingdom of what it has lost.

use hexmeros_render::{
    Badges, Glyph, GlyphState, Hex, HexPoint, Label, Orientation, Rgba, Shape, Tile,
};

use super::common::{
    GameView, PLAYER_ACCENTS, PLAYER_COLOURS, Pic, RimLabel, SEAT_MARKS, SEAT_PLATES, missing,
    title_case, tray,
};
use crate::games::harmegedo::{Harmegedo, Kind};
use crate::games::heximeros::COLOURS;
use crate::games::{Rules, Seat};
use crate::hex::{self, Cell};

pub struct View<'a>(pub &'a Harmegedo);

/// The rank numbers in the corner file's spaces: a dark ink on its light and dark spaces.
const RANK_INK: Rgba = Rgba::rgb(60, 52, 44);
/// Their capital height in hex radii: 30 px of a space about 40 px across at the default
/// 1600 px, as tall on a phone as the rim labels.
const RANK_SIZE: f32 = 0.75;

/// The colour a kingdom plays in (the six HexiMeros colours, in sector order): `Silver`.
pub fn colour_name(kingdom: u8) -> String {
    title_case(COLOURS[kingdom as usize % 6])
}

/// A kingdom as people read it (the rules give kingdoms no names, only numbers; the notation
/// keeps `kingdom0`): `Kingdom of Silver`.
pub fn kingdom_label(kingdom: u8) -> String {
    format!("Kingdom of {}", colour_name(kingdom))
}

const LIGHT: Rgba = Rgba::rgb(240, 232, 214);
const DARK: Rgba = Rgba::rgb(184, 160, 126);

fn shape(k: Kind) -> Shape {
    match k {
        Kind::King => Shape::ChessKing,
        Kind::Queen => Shape::ChessQueen,
        Kind::Rook => Shape::ChessRook,
        Kind::Bishop => Shape::ChessBishop,
        Kind::Knight => Shape::ChessKnight,
        Kind::Pawn => Shape::ChessPawn,
    }
}

fn scene_hex(h: hex::Hex) -> Hex {
    Hex::new(h.q, h.r)
}

impl View<'_> {
    fn counts(g: &Harmegedo, kingdom: u8) -> Vec<u16> {
        let mut n = vec![0u16; Kind::ALL.len()];
        for (_, p) in g.pieces() {
            if p.kingdom == kingdom {
                n[p.kind as usize] += 1;
            }
        }
        n
    }
}

impl GameView for View<'_> {
    fn pic(&self) -> Pic {
        let g = self.0;
        let b = g.board();
        let tiles = b
            .cells()
            .map(|c| {
                let fill = if b.is_light(c) { LIGHT } else { DARK };
                let mut tile = Tile::new(scene_hex(b.hex(c)), fill);
                if let Some(p) = g.piece_at(c) {
                    let mut glyph =
                        Glyph::new(shape(p.kind), PLAYER_COLOURS[p.kingdom as usize % 6])
                            .with_badges(Badges {
                                mark: Some(SEAT_MARKS[p.kingdom as usize % 6]),
                                plate: Some(SEAT_PLATES[p.kingdom as usize % 6]),
                                ..Badges::default()
                            });
                    if g.is_eliminated(p.kingdom) {
                        glyph = glyph.with_state(GlyphState::Frozen);
                    }
                    tile.glyph = Some(glyph);
                }
                tile
            })
            .collect();
        // Pointy-topped, so each kingdom's home row lies flat along one side of the picture.
        let mut pic = Pic::new(Orientation::PointyTop, tiles);
        // One letter per file (the corner files j and k too), beyond its outermost space, away
        // from the centre.
        let mut outer: Vec<Option<Cell>> = vec![None; b.shape().files()];
        for c in b.cells() {
            let slot = &mut outer[b.file(c)];
            if slot.is_none_or(|o| b.rank(o) > b.rank(c)) {
                *slot = Some(c);
            }
        }
        for c in outer.into_iter().flatten() {
            let h = b.hex(c);
            let len = h.length().max(1) as f32;
            let k = 1.0 + 1.0 / len;
            let letter = b.name(c).split('.').nth(1).and_then(|s| s.chars().next());
            if let Some(l) = letter {
                pic.rim.push(RimLabel {
                    at: HexPoint::new(h.q as f32 * k, h.r as f32 * k),
                    text: l.to_string(),
                    out: HexPoint::new(h.q as f32 / len, h.r as f32 / len),
                    alt: None,
                });
            }
        }
        // Rank numbers (the number of a name, 1 on the outer rim to 8 on the inner) beside each
        // kingdom: along the first corner file after it (j), in its spaces, and where its outer
        // ranks are void, in the gap where they would be (one step on from the kingdom's i-file).
        let ranks = b.shape().ranks as usize;
        let files = b.shape().kingdom_files as usize;
        for s in 0..6usize {
            for rank in 1..=ranks {
                let at = |x: usize| b.cell_at(s, x, rank).map(|c| b.hex(c));
                let (at, ink) = match (at(files), at(files - 1), at(files - 2)) {
                    (Some(h), _, _) => (HexPoint::new(h.q as f32, h.r as f32), RANK_INK),
                    (None, Some(i), Some(h)) => (
                        HexPoint::new((2 * i.q - h.q) as f32, (2 * i.r - h.r) as f32),
                        super::common::LABEL,
                    ),
                    _ => continue,
                };
                pic.labels.push(Label {
                    at,
                    text: rank.to_string(),
                    size: RANK_SIZE,
                    colour: ink,
                });
            }
        }
        // Kingdom numbers (the `s.` of a name) inside the void centre, by their side, with the
        // kingdom's name.
        let inner = b.shape().ranks as usize;
        for s in 0..6usize {
            let cells: Vec<hex::Hex> = b
                .cells()
                .filter(|&c| b.sector(c) == s && b.rank(c) == inner)
                .map(|c| b.hex(c))
                .collect();
            let n = cells.len().max(1) as f32;
            let (q, r) = cells
                .iter()
                .fold((0.0, 0.0), |(q, r), h| (q + h.q as f32, r + h.r as f32));
            pic.labels.push(Label {
                at: HexPoint::new(q / n * 0.7, r / n * 0.7),
                text: format!("{s}. {}", colour_name(s as u8)),
                size: 1.0,
                colour: Rgba::rgb(236, 236, 230),
            });
        }
        if let Ok(start) = Harmegedo::new_game(g.seat_count(), g.house_rules().clone()) {
            let promoted: Vec<usize> = Kind::PROMOTIONS.iter().map(|&k| k as usize).collect();
            for &k in g.kingdoms() {
                let lost = missing(
                    &Self::counts(&start, k),
                    &Self::counts(g, k),
                    Kind::Pawn as usize,
                    &promoted,
                );
                let colour = PLAYER_COLOURS[k as usize % 6];
                let items = Kind::ALL
                    .iter()
                    .map(|&kind| (Glyph::new(shape(kind), colour), lost[kind as usize]))
                    .collect();
                let mut lost = tray(format!("{} lost", kingdom_label(k)), Some(colour), items);
                lost.mark = Some(SEAT_MARKS[k as usize % 6]);
                lost.plate = Some(SEAT_PLATES[k as usize % 6]);
                pic.trays.push(lost);
            }
        }
        pic
    }

    fn royals(&self, seat: Seat) -> Vec<Hex> {
        let b = self.0.board();
        self.0
            .kingdom_of(seat)
            .and_then(|k| self.0.king(k))
            .map(|c| scene_hex(b.hex(c)))
            .into_iter()
            .collect()
    }

    fn locate(&self, name: &str) -> Option<Hex> {
        let b = self.0.board();
        b.parse(&name.to_ascii_lowercase())
            .map(|c| scene_hex(b.hex(c)))
    }

    fn name_at(&self, h: Hex) -> Option<String> {
        let b = self.0.board();
        b.cell_at_hex(hex::Hex::new(h.q, h.r))
            .map(|c| b.name(c).to_string())
    }

    fn owner_at(&self, h: Hex) -> Option<Seat> {
        let b = self.0.board();
        let c = b.cell_at_hex(hex::Hex::new(h.q, h.r))?;
        self.0.piece_at(c).and_then(|p| self.0.seat_of(p.kingdom))
    }

    fn previous_seat(&self, seat: Seat) -> Seat {
        let n = self.0.kingdoms().len().max(1) as u8;
        (1..=n)
            .map(|d| Seat((seat.0 + n - d) % n))
            .find(|&s| self.0.kingdom_of(s).is_some_and(|k| self.0.is_live(k)))
            .unwrap_or(Seat((seat.0 + n - 1) % n))
    }

    fn swatch(&self, seat: Seat) -> Rgba {
        self.0
            .kingdom_of(seat)
            .map_or(Rgba::WHITE, |k| PLAYER_COLOURS[k as usize % 6])
    }

    fn mark(&self, seat: Seat) -> Option<char> {
        self.0.kingdom_of(seat).map(|k| SEAT_MARKS[k as usize % 6])
    }

    fn accent(&self, seat: Seat) -> Rgba {
        self.0
            .kingdom_of(seat)
            .map_or(Rgba::BLACK, |k| PLAYER_ACCENTS[k as usize % 6])
    }

    fn home(&self, seat: Seat) -> Option<HexPoint> {
        let k = self.0.kingdom_of(seat)? as usize;
        let b = self.0.board();
        let cells: Vec<hex::Hex> = b
            .cells()
            .filter(|&c| b.sector(c) == k && b.rank(c) == 1)
            .map(|c| b.hex(c))
            .collect();
        let n = cells.len().max(1) as f32;
        let (q, r) = cells
            .iter()
            .fold((0.0, 0.0), |(q, r), h| (q + h.q as f32, r + h.r as f32));
        Some(HexPoint::new(q / n, r / n))
    }

    fn seat_label(&self, seat: Seat) -> Option<String> {
        self.0.kingdom_of(seat).map(kingdom_label)
    }

    fn status(&self) -> Vec<String> {
        let out: Vec<String> = self
            .0
            .kingdoms()
            .iter()
            .filter(|&&k| self.0.is_eliminated(k))
            .map(|&k| kingdom_label(k))
            .collect();
        if out.is_empty() {
            Vec::new()
        } else {
            vec![format!("out: {}", out.join(", "))]
        }
    }
}
