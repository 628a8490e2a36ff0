//! HexDame for the bots: material (a flying king is worth about three men), each man's distance
//! to its promotion rank, and a little for men kept on the back rank, which guard against the
//! opponent's promotions. Captures are compulsory, so the quiescence follows capture chains
//! until the position is quiet.

use super::search::Engine;
use super::{Level, Tuning};
use crate::games::Seat;
use crate::games::hexdame::{Colour, HexDame, Kind, Move};

const MAN: i32 = 100;
const KING: i32 = 320;

impl Tuning for HexDame {
    fn budget(level: Level) -> (u32, u64) {
        match level {
            Level::Hard => (12, 300_000),
            _ => (4, 12_000),
        }
    }
    const EASY_NOISE: i32 = 60;
}

fn colour_of(seat: Seat) -> Colour {
    if seat.0 == 0 {
        Colour::White
    } else {
        Colour::Black
    }
}

impl Engine for HexDame {
    fn quiescence(&self) -> u32 {
        6
    }

    fn evaluate(&self, me: Seat) -> i32 {
        let mine = colour_of(me);
        let geo = HexDame::geometry();
        let mut score = 0;
        for (c, p) in self.pieces() {
            let v = match p.kind {
                Kind::King => KING,
                Kind::Man => {
                    let goal = HexDame::back_rank(p.colour.opponent());
                    let dist = goal.iter().map(|g| geo.distance(c, g)).min().unwrap_or(0);
                    let guard = if HexDame::back_rank(p.colour).contains(c) {
                        6
                    } else {
                        0
                    };
                    MAN + (8 - dist).max(0) * 5 + guard
                }
            };
            score += if p.colour == mine { v } else { -v };
        }
        score
    }

    fn hint(&self, m: &Move) -> i32 {
        m.capture_count() as i32 * 100 + if m.promotes() { 50 } else { 0 }
    }
}
