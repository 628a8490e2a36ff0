//! HexaEquo for the bots: the race to six enemy discs or three enemy rings (§1), so prisoners
//! weigh most and more as a win nears; pieces on the board and in hand count for what they can
//! still do; tiles in hand are places to put them.

use super::search::Engine;
use super::{Level, Tuning};
use crate::games::Seat;
use crate::games::hexaequo::{Colour, HexaEquo, Kind, Move};

impl Tuning for HexaEquo {
    fn budget(level: Level) -> (u32, u64) {
        match level {
            Level::Hard => (10, 120_000),
            _ => (3, 6_000),
        }
    }
    const EASY_NOISE: i32 = 80;
}

fn colour_of(seat: Seat) -> Colour {
    Colour::BOTH
        .into_iter()
        .find(|c| c.seat() == seat)
        .unwrap_or(Colour::Black)
}

/// One side's value: what it holds of the enemy and what it still has to play with.
fn side(g: &HexaEquo, c: Colour) -> i32 {
    let held = g.prisoners(c);
    let d = held.discs as i32;
    let r = held.rings as i32;
    // Convex: the fifth disc is worth more than the first, since the sixth wins.
    let mut v = d * 120 + d * d * 15 + r * 250 + r * r * 60;
    for (_, p) in g.pieces() {
        if p.owner == c {
            v += match p.kind {
                Kind::Disc => 40,
                Kind::Ring => 90,
            };
        }
    }
    let hand = g.reserve(c);
    v += hand.disc as i32 * 15 + hand.ring as i32 * 30 + hand.tile as i32 * 4;
    v
}

impl Engine for HexaEquo {
    fn quiescence(&self) -> u32 {
        4
    }

    fn evaluate(&self, me: Seat) -> i32 {
        let mine = colour_of(me);
        side(self, mine) - side(self, mine.other())
    }

    fn hint(&self, m: &Move) -> i32 {
        m.captures() as i32 * 100
    }
}
