//! Points and finishing ranks: the game reports what each change scored (`Rules::last_points`);
//! the host credits whoever held the seat then, applies forfeits, and ranks the seats for
//! ratings.

use super::super::event::PlayerId;
use super::{GameState, PointEntry};
use crate::games::{Outcome, Seat};

impl GameState {
    /// Record the points of the game's last change, for whoever holds each seat.
    pub(super) fn take_points(&mut self) {
        for p in self.game.last_points() {
            let player = self
                .seats
                .get(p.seat.index())
                .map(|s| s.player)
                .unwrap_or(0);
            self.points.push(PointEntry {
                player,
                seat: p.seat,
                points: p.points,
                reason: p.reason,
                loss: p.loss,
                forfeited: false,
            });
        }
    }

    /// Each seat's finishing rank (1 = best), for ratings: winners or drawn seats first, then the
    /// others in reverse order of going out.
    pub fn finishing_ranks(&self) -> Vec<(Seat, usize)> {
        let Some(outcome) = self.outcome() else {
            return Vec::new();
        };
        let top = match &outcome {
            Outcome::Win { winners, .. } => winners.clone(),
            Outcome::Draw { seats, .. } => seats.clone(),
        };
        let mut ranks: Vec<(Seat, usize)> = top.iter().map(|&s| (s, 1)).collect();
        let mut rank = 2;
        for s in self.game.out_order().iter().rev() {
            if !top.contains(s) {
                ranks.push((*s, rank));
                rank += 1;
            }
        }
        for i in 0..self.seats.len() as u8 {
            if !ranks.iter().any(|(s, _)| s.0 == i) {
                ranks.push((Seat(i), rank));
            }
        }
        ranks
    }

    /// Each player's points in this game (§7), forfeits applied; empty when not scored.
    pub fn player_points(&self) -> Vec<(PlayerId, i32)> {
        if !self.scored() {
            return Vec::new();
        }
        let mut out: Vec<(PlayerId, i32)> = Vec::new();
        for s in &self.seats {
            if !out.iter().any(|(p, _)| *p == s.player) {
                out.push((s.player, 0));
            }
        }
        for e in &self.points {
            let pts = if e.forfeited { 0 } else { e.points };
            match out.iter_mut().find(|(p, _)| *p == e.player) {
                Some((_, t)) => *t += pts,
                None => out.push((e.player, pts)),
            }
        }
        out
    }
}
