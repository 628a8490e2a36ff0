//! Check as data (§5.2–§5.4): who attacks what, which Sovereigns the mover may declare Check on,
//! which players may declare Check upon the mover, and the relief duty. The waiting and voting
//! around Check belong to the host; these functions only answer questions about positions.

use super::house::{CheckEligibility, CheckUponMover};
use super::{Action, HexiMeros, Kind, Move};
use crate::games::Seat;
use crate::hex::Cell;

/// A declared Check: `declarer` named the Sovereign on `target` (§5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckRecord {
    pub declarer: Seat,
    pub target: Cell,
}

impl HexiMeros {
    /// Whether `seat` attacks the piece on `target` (§5.2): some pseudo-legal move of one of its
    /// pieces removes it. Turn order and Check duties are ignored; frozen pieces attack nothing.
    pub fn attacks(&self, seat: Seat, target: Cell) -> bool {
        let mut moves = Vec::new();
        self.seat_moves(seat, &mut moves);
        moves.iter().any(|m| self.removes(m, target))
    }

    /// Whether the piece on `from` attacks `target`.
    pub fn piece_attacks(&self, from: Cell, target: Cell) -> bool {
        let mut moves = Vec::new();
        self.piece_moves(from, &mut moves);
        moves.iter().any(|m| self.removes(m, target))
    }

    fn removes(&self, m: &Move, target: Cell) -> bool {
        match m.action {
            Action::Shot => m.to == target,
            Action::MoveShot(t) => t == target,
            Action::Pass | Action::Resurrect(_) => false,
            Action::Move => m.to == target || self.removed(m).any(|c| c == target),
        }
    }

    /// The pieces of `seat` that another active seat attacks (§5.2), each with those seats, in
    /// the board's cell order: each seat's pseudo-legal moves are made once.
    pub fn attacked_pieces(&self, seat: Seat) -> Vec<(Cell, Vec<Seat>)> {
        let mut out: Vec<(Cell, Vec<Seat>)> =
            self.cells_of(seat).map(|c| (c, Vec::new())).collect();
        out.sort_by_key(|(c, _)| c.index());
        let mut moves = Vec::new();
        for s in self.active_seats().into_iter().filter(|&s| s != seat) {
            moves.clear();
            self.seat_moves(s, &mut moves);
            for (cell, by) in &mut out {
                if moves.iter().any(|m| self.removes(m, *cell)) {
                    by.push(s);
                }
            }
        }
        out.retain(|(_, by)| !by.is_empty());
        out
    }

    /// The other active seats that attack any Sovereign of `seat`.
    pub fn attackers_of_seat(&self, seat: Seat) -> Vec<Seat> {
        let sovs = self.sovereigns_of(seat);
        self.active_seats()
            .into_iter()
            .filter(|&s| s != seat && sovs.iter().any(|&c| self.attacks(s, c)))
            .collect()
    }

    /// The Check records aimed at the player to move that are still live: the declarer still
    /// attacks the Sovereign (§5.3, pruning at the start of the turn).
    pub fn live_checks(&self) -> Vec<CheckRecord> {
        let seat = Seat(self.to_move);
        let sovs = self.sovereigns_of(seat);
        self.checks
            .iter()
            .copied()
            .filter(|r| sovs.contains(&r.target) && self.attacks(r.declarer, r.target))
            .collect()
    }

    /// Whether `m` relieves every record in `live`: afterwards the declarer no longer attacks the
    /// Sovereign (followed to its new cell if it moved).
    pub fn relieves(&self, m: &Move, live: &[CheckRecord]) -> bool {
        self.relieves_trying(m, live, &[])
    }

    /// The moves of `moves` that relieve every record in `live`, as [`relieves`](Self::relieves)
    /// answers, but quicker over many moves: most moves relieve nothing, and the pieces that
    /// attack each target now are the ones to ask first whether they still do.
    pub(super) fn relieving(&self, moves: &[Move], live: &[CheckRecord]) -> Vec<Move> {
        let likely = self.likely_attackers(live);
        moves
            .iter()
            .copied()
            .filter(|m| self.relieves_trying(m, live, &likely))
            .collect()
    }

    /// For each record of `live`, the cells of the declarer's pieces that attack its target now.
    fn likely_attackers(&self, live: &[CheckRecord]) -> Vec<Vec<Cell>> {
        live.iter()
            .map(|r| self.attacker_cells(r.declarer, r.target))
            .collect()
    }

    /// The legal move (of [`legal`](Self::legal)) that `rank` puts highest, if its rank is above
    /// 0, the first generated among equals; None when no legal move ranks above 0.
    ///
    /// The same answer as searching `legal()`, but under the relief duty (§5.3) it does not ask
    /// every move whether it relieves, which plays each one out: it asks the ranked moves from
    /// the best down, and stops at the first that relieves. Only when none does must it find
    /// whether any other move does (then the duty holds and no ranked move is legal) or none
    /// (the duty lapses and every move is legal). A bot asks this of each opponent who does not
    /// reply in Best-Reply Search+, at every leaf.
    pub fn best_legal_by(&self, rank: impl Fn(&Move) -> i32) -> Option<Move> {
        let best_of = |moves: &[Move]| {
            crate::games::first_best(moves, &rank)
                .filter(|&(r, _)| r > 0)
                .map(|(_, m)| *m)
        };
        if self.result.is_some() || self.house.check_upon_mover == CheckUponMover::AutoDeclare {
            return best_of(&self.legal());
        }
        let mut moves = Vec::with_capacity(128);
        self.seat_moves(Seat(self.to_move), &mut moves);
        let live = self.live_checks();
        if moves.is_empty() || live.is_empty() {
            return best_of(&self.legal_from(moves, &live));
        }
        let ranks: Vec<i32> = moves.iter().map(&rank).collect();
        let mut ranked: Vec<(i32, usize)> = ranks
            .iter()
            .enumerate()
            .filter(|&(_, &r)| r > 0)
            .map(|(i, &r)| (r, i))
            .collect();
        ranked.sort_by_key(|&(r, i)| (std::cmp::Reverse(r), i));
        let likely = self.likely_attackers(&live);
        let relieves = |m: &Move| self.relieves_trying(m, &live, &likely);
        if let Some(&(_, i)) = ranked.iter().find(|&&(_, i)| relieves(&moves[i])) {
            return Some(moves[i]);
        }
        // The targets' own steps are the likeliest reliefs: ask them first.
        let (targets, others): (Vec<&Move>, Vec<&Move>) = moves
            .iter()
            .zip(&ranks)
            .filter(|&(_, &r)| r <= 0)
            .map(|(m, _)| m)
            .partition(|m| live.iter().any(|r| r.target == m.from));
        if targets.into_iter().chain(others).any(relieves) {
            return None;
        }
        ranked.first().map(|&(_, i)| moves[i])
    }

    /// [`relieves`](Self::relieves), asking first the pieces on `likely[i]` (when given) whether
    /// they attack the target of `live[i]` after `m`.
    fn relieves_trying(&self, m: &Move, live: &[CheckRecord], likely: &[Vec<Cell>]) -> bool {
        let next = self.after(m);
        live.iter().enumerate().all(|(i, r)| {
            let cell = if r.target == m.from && m.action == Action::Move {
                m.to
            } else {
                r.target
            };
            let first = likely.get(i).map_or(&[][..], Vec::as_slice);
            !next.attacks_trying(r.declarer, cell, first)
        })
    }

    /// The cells of the pieces of `seat` that attack `target` (empty when `seat` is out).
    fn attacker_cells(&self, seat: Seat, target: Cell) -> Vec<Cell> {
        if !self.is_active(seat) {
            return Vec::new();
        }
        self.cells_of(seat)
            .filter(|&c| self.piece_attacks(c, target))
            .collect()
    }

    /// [`attacks`](Self::attacks), asking first the pieces on `first` that `seat` controls: each
    /// one's moves are among the seat's, so one that attacks settles it.
    fn attacks_trying(&self, seat: Seat, target: Cell, first: &[Cell]) -> bool {
        let quick = self.is_active(seat)
            && first.iter().any(|&c| {
                matches!(self.board[c.index()], Some(p) if self.controller(p.colour) == seat)
                    && self.piece_attacks(c, target)
            });
        quick || self.attacks(seat, target)
    }

    /// The seats on whose Sovereign(s) the player to move may declare Check after `m` (§5.3):
    /// other active players with a Sovereign attacked by the mover afterwards, by at least one
    /// new attack (or any attack, by house rule).
    pub fn check_targets(&self, m: &Move) -> Vec<Seat> {
        let mut seats: Vec<Seat> = Vec::new();
        for (_, cell) in self.eligible(m) {
            if let Some(p) = self.board[cell.index()] {
                let s = self.controller(p.colour);
                if !seats.contains(&s) {
                    seats.push(s);
                }
            }
        }
        seats.sort();
        seats
    }

    /// The Sovereign cells (with their seats) a declaration in `m` names.
    pub(super) fn declared_targets(&self, m: &Move) -> Vec<Cell> {
        self.eligible(m)
            .into_iter()
            .filter(|(seat, _)| m.checks & (1 << seat.0) != 0)
            .map(|(_, c)| c)
            .collect()
    }

    /// (seat, Sovereign cell) pairs the mover may declare Check on after `m`.
    fn eligible(&self, m: &Move) -> Vec<(Seat, Cell)> {
        let mover = Seat(self.to_move);
        let next = self.after(m);
        let mut out = Vec::new();
        for seat in self.active_seats() {
            if seat == mover || !next.is_active(seat) {
                continue;
            }
            for sov in next.sovereigns_of(seat) {
                if !next.attacks(mover, sov) {
                    continue;
                }
                let new = match self.house.check_eligibility {
                    CheckEligibility::AnyAttack => true,
                    CheckEligibility::NewAttack => self.has_new_attack(&next, m, mover, sov),
                };
                if new {
                    out.push((seat, sov));
                }
            }
        }
        out
    }

    /// Some attack on `sov` by `mover` exists after `m` that did not before: the moved piece
    /// attacks it, or another piece does now but did not (a discovered attack).
    fn has_new_attack(&self, next: &HexiMeros, m: &Move, mover: Seat, sov: Cell) -> bool {
        let moved_to = match m.action {
            Action::Move | Action::MoveShot(_) | Action::Resurrect(_) => Some(m.to),
            Action::Shot => Some(m.from),
            Action::Pass => None,
        };
        if let Some(c) = moved_to
            && next.piece_attacks(c, sov)
        {
            return true;
        }
        let before_sov = matches!(self.board[sov.index()], Some(p) if p.kind == Kind::Sovereign);
        next.pieces()
            .filter(|&(c, p)| Some(c) != moved_to && next.controller(p.colour) == mover)
            .any(|(c, _)| next.piece_attacks(c, sov) && !(before_sov && self.piece_attacks(c, sov)))
    }

    /// The set E of §5.4: the other active players whose pieces would attack any Sovereign of the
    /// mover after `m`. Empty under `never_declare`.
    pub fn challengers(&self, m: &Move) -> Vec<Seat> {
        if self.house.check_upon_mover == CheckUponMover::NeverDeclare {
            return Vec::new();
        }
        let next = self.after(m);
        if next.result.is_some() {
            return Vec::new();
        }
        next.attackers_of_seat(Seat(self.to_move))
    }

    /// The legal moves that leave no Sovereign of the mover attacked by any of `declarers` (who
    /// declared Check upon him, §5.4 step 4). If no move does, the declarations lapse and every
    /// legal move is returned.
    pub fn moves_respecting(&self, declarers: &[Seat]) -> Vec<Move> {
        let legal = self.legal();
        let mover = Seat(self.to_move);
        let ok: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                let next = self.after(m);
                let sovs = next.sovereigns_of(mover);
                declarers
                    .iter()
                    .all(|&d| sovs.iter().all(|&s| !next.attacks(d, s)))
            })
            .collect();
        if ok.is_empty() { legal } else { ok }
    }
}
