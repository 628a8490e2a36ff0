//! Harmegedo for the bots: chess material for the live kingdoms, the kings still standing, and,
//! with three or more kingdoms, the captures the kingdom to move has on offer (the paranoid
//! search cannot see every opponent's reply, so the evaluation does). Two kingdoms play plain
//! alpha-beta with a capture quiescence instead.

use super::search::{Engine, WIN};
use super::{Level, Tuning};
use crate::games::harmegedo::{Harmegedo, Kind, Move};
use crate::games::{Rules, Seat};

const KING: i32 = 4000;

fn value(k: Kind) -> i32 {
    match k {
        Kind::Pawn => 100,
        Kind::Knight => 300,
        Kind::Bishop => 320,
        Kind::Rook => 500,
        Kind::Queen => 900,
        Kind::King => 0,
    }
}

impl Tuning for Harmegedo {
    fn budget(level: Level) -> (u32, u64) {
        match level {
            Level::Hard => (6, 60_000),
            _ => (3, 6_000),
        }
    }
    const EASY_NOISE: i32 = 60;
}

/// Material of each live kingdom, by sector.
fn material(g: &Harmegedo) -> [i32; 8] {
    let mut mat = [0; 8];
    for (_, p) in g.pieces() {
        if g.is_live(p.kingdom) {
            mat[p.kingdom as usize & 7] += value(p.kind);
        }
    }
    mat
}

/// The live opponents of `me`'s kingdom.
fn rivals(g: &Harmegedo, mine: u8) -> Vec<u8> {
    g.kingdoms()
        .iter()
        .copied()
        .filter(|&k| k != mine && g.is_live(k))
        .collect()
}

/// Material against the average live opponent (for votes).
pub(super) fn standing(g: &Harmegedo, me: Seat) -> i32 {
    let Some(mine) = g.kingdom_of(me).filter(|&k| g.is_live(k)) else {
        return -KING;
    };
    let mat = material(g);
    let opps = rivals(g, mine);
    if opps.is_empty() {
        return KING;
    }
    mat[mine as usize] - opps.iter().map(|&k| mat[k as usize]).sum::<i32>() / opps.len() as i32
}

impl Engine for Harmegedo {
    fn quiescence(&self) -> u32 {
        if self.seat_count() > 2 { 0 } else { 4 }
    }

    fn evaluate(&self, me: Seat) -> i32 {
        let Some(mine) = self.kingdom_of(me).filter(|&k| self.is_live(k)) else {
            return -WIN / 2;
        };
        let mat = material(self);
        let opps = rivals(self, mine);
        // As in HexiMeros: a rival's loss is worth less than our own with many rivals about.
        let share = (self.seat_count() as i32 - 1).clamp(1, 3);
        let mut score = mat[mine as usize]
            - opps.iter().map(|&k| mat[k as usize]).sum::<i32>() / share
            - KING * opps.len() as i32;
        if self.seat_count() > 2 {
            let to = self.to_move_kingdom();
            let best = self
                .legal_moves()
                .iter()
                .filter_map(|m| m.to().and_then(|c| self.piece_at(c)))
                .filter(|p| p.kingdom != to && self.is_live(p.kingdom))
                .map(|p| {
                    let v = if p.kind == Kind::King {
                        KING * 3
                    } else {
                        value(p.kind)
                    };
                    (p.kingdom, v)
                })
                .collect::<Vec<_>>();
            if to == mine {
                score += best.iter().map(|&(_, v)| v).max().unwrap_or(0) * 7 / 10;
            } else {
                let lost = best
                    .iter()
                    .filter(|&&(k, _)| k == mine)
                    .map(|&(_, v)| v)
                    .max()
                    .unwrap_or(0);
                score -= lost * 9 / 10;
            }
        }
        score
    }

    fn tt_key(&self) -> Option<u64> {
        Some(self.position_key())
    }

    fn hint(&self, m: &Move) -> i32 {
        let me = self.to_move_kingdom();
        let taken = m
            .to()
            .and_then(|c| self.piece_at(c))
            .filter(|p| p.kingdom != me)
            .map_or(0, |p| {
                if p.kind == Kind::King {
                    100_000
                } else {
                    value(p.kind) * 10 - 1
                }
            });
        let promo = match m {
            Move::Normal {
                promotion: Some(k), ..
            } => value(*k),
            _ => 0,
        };
        taken + promo
    }
}
