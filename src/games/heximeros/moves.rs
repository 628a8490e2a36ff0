//! Move generation (§4) and playing a move (§5.6 step 7).
//!
//! Generation walks the precomputed neighbour and ray tables of `BOARD`; a line step only asks
//! whether its landing cell is on the board, so the flanking cells never block (§2.3).

use super::board::{BOARD, militant_diagonals};
use super::check::CheckRecord;
use super::house::{ArcherRule, CaptureBan, CheckUponMover, DreadnaughtRange};
use super::score::ScoreEvent;
use super::{Action, HexiMeros, Kind, Move, Piece};
use crate::games::Seat;
use crate::hex::{Cell, Direction};

const UNLIMITED: usize = usize::MAX;

impl HexiMeros {
    /// Whether the piece `mover` may capture the piece `target` (§4.1, §9.22).
    fn may_capture(&self, mover: Piece, target: Piece) -> bool {
        match self.house.capture_ban {
            CaptureBan::Controlled => {
                self.controller[mover.colour as usize] != self.controller[target.colour as usize]
            }
            CaptureBan::Colour => mover.colour != target.colour,
        }
    }

    /// Whether a Sovereign on `c` blocks `mover`'s Dreadnaught: its own Sovereign (§4.7).
    fn own_sovereign(&self, mover: Piece, c: Cell) -> bool {
        match self.board[c.index()] {
            Some(p) if p.kind == Kind::Sovereign => !self.may_capture(mover, p),
            _ => false,
        }
    }

    /// Slide up to `limit` steps in each direction, stopping at the first piece (captured if
    /// allowed).
    fn slide(&self, from: Cell, p: Piece, dirs: &[Direction], limit: usize, out: &mut Vec<Move>) {
        let geo = &BOARD.geometry;
        for &d in dirs {
            for &c in geo.ray(from, d).iter().take(limit) {
                match self.board[c.index()] {
                    None => out.push(Move::simple(from, c, Action::Move)),
                    Some(t) => {
                        if self.may_capture(p, t) {
                            out.push(Move::simple(from, c, Action::Move));
                        }
                        break;
                    }
                }
            }
        }
    }

    fn capturable(&self, p: Piece, c: Cell) -> bool {
        matches!(self.board[c.index()], Some(t) if self.may_capture(p, t))
    }

    /// Every pseudo-legal move of the piece on `from` (§4), whoever's turn it is. Frozen pieces
    /// and empty cells have none. Promotion choices are separate moves.
    pub fn piece_moves(&self, from: Cell, out: &mut Vec<Move>) {
        let Some(p) = self.board[from.index()] else {
            return;
        };
        if self.is_frozen(p) {
            return;
        }
        let geo = &BOARD.geometry;
        let bonus = p.bonus;
        match p.kind {
            Kind::Sovereign | Kind::HattedMilitant => {
                let start = out.len();
                self.slide(from, p, &Direction::ALL, if bonus { 2 } else { 1 }, out);
                if p.kind == Kind::HattedMilitant {
                    self.add_promotions(from, p, start, out);
                }
            }
            Kind::Regent => self.slide(from, p, &Direction::ALL, UNLIMITED, out),
            Kind::Alcazar => self.slide(from, p, &Direction::FLATS, UNLIMITED, out),
            Kind::Prelate => {
                self.slide(from, p, &Direction::LINES, UNLIMITED, out);
                if !p.moved && self.house.prelate_first_move {
                    self.slide(from, p, &Direction::FLATS, 1, out);
                }
            }
            Kind::Assassin => self.slide(from, p, &Direction::ALL, if bonus { 6 } else { 3 }, out),
            Kind::Cavalier => {
                for &(dest, needs_bonus) in &BOARD.cavalier[from.index()] {
                    if (!needs_bonus || bonus)
                        && (self.board[dest.index()].is_none() || self.capturable(p, dest))
                    {
                        out.push(Move::simple(from, dest, Action::Move));
                    }
                }
            }
            Kind::Dreadnaught => {
                let max = if bonus { 8 } else { 4 };
                for d in Direction::FLATS {
                    for (i, &c) in geo.ray(from, d).iter().take(max).enumerate() {
                        if self.own_sovereign(p, c) {
                            break;
                        }
                        let k = i + 1;
                        if self.house.dreadnaught == DreadnaughtRange::ExactlyFour && k % 4 != 0 {
                            continue;
                        }
                        out.push(Move::simple(from, c, Action::Move));
                    }
                }
            }
            Kind::Archer => self.archer_moves(from, p, out),
            Kind::Militant => {
                let start = out.len();
                if from == BOARD.gz {
                    self.gz_militant_moves(from, p, out);
                } else {
                    self.militant_moves(from, p, out);
                }
                self.add_promotions(from, p, start, out);
            }
        }
    }

    fn archer_moves(&self, from: Cell, p: Piece, out: &mut Vec<Move>) {
        let geo = &BOARD.geometry;
        let (step_limit, shot_limit) = if p.bonus { (4, 6) } else { (2, 3) };
        let rule = self.house.archer;
        for d in Direction::ALL {
            for &c in geo.ray(from, d).iter().take(step_limit) {
                if self.board[c.index()].is_some() {
                    break;
                }
                out.push(Move::simple(from, c, Action::Move));
                if rule == ArcherRule::MoveThenShoot {
                    let mut targets = Vec::new();
                    self.shots(c, p, from, shot_limit, &mut targets);
                    out.extend(targets.into_iter().map(|t| Move {
                        action: Action::MoveShot(t),
                        ..Move::simple(from, c, Action::Move)
                    }));
                }
            }
        }
        if rule == ArcherRule::ShootAfterMoving && !p.moved {
            return;
        }
        let mut targets = Vec::new();
        self.shots(from, p, from, shot_limit, &mut targets);
        out.extend(
            targets
                .into_iter()
                .map(|t| Move::simple(from, t, Action::Shot)),
        );
    }

    /// The cells an Archer standing on `at` can shoot (it left `origin`, which is empty then).
    fn shots(&self, at: Cell, p: Piece, origin: Cell, limit: usize, out: &mut Vec<Cell>) {
        let geo = &BOARD.geometry;
        let fly_over = self.house.archer == ArcherRule::FlyOver;
        for d in Direction::ALL {
            for &c in geo.ray(at, d).iter().take(limit) {
                if c == origin {
                    continue;
                }
                if let Some(t) = self.board[c.index()] {
                    if self.may_capture(p, t) {
                        out.push(c);
                    }
                    if !fly_over {
                        break;
                    }
                }
            }
        }
    }

    fn push_unique(out: &mut Vec<Move>, start: usize, m: Move) {
        if !out[start..].contains(&m) {
            out.push(m);
        }
    }

    /// An unhatted Militant off Ground Zero (§4.10).
    fn militant_moves(&self, from: Cell, p: Piece, out: &mut Vec<Move>) {
        let geo = &BOARD.geometry;
        let k = p.colour as usize;
        let start = out.len();
        let diagonals = militant_diagonals(k);
        for d in diagonals {
            if let Some(t) = geo.step(from, d)
                && self.capturable(p, t)
            {
                out.push(Move::simple(from, t, Action::Move));
            }
        }
        let fwd = Direction::flat(k);
        let Some(one) = geo.step(from, fwd) else {
            return;
        };
        if self.board[one.index()].is_some() {
            return;
        }
        out.push(Move::simple(from, one, Action::Move));
        if p.moved {
            return;
        }
        if let Some(two) = geo.step(one, fwd)
            && self.board[two.index()].is_none()
        {
            out.push(Move::simple(from, two, Action::Move));
        }
        for d in diagonals {
            if let Some(t) = geo.step(one, d)
                && self.capturable(p, t)
            {
                Self::push_unique(out, start, Move::simple(from, t, Action::Move));
            }
        }
    }

    /// An unhatted Militant on Ground Zero (§4.10): one or two flats in any direction, or one
    /// flat then a diagonal capture relative to that direction, or (house rule, default on) a
    /// capture of any adjacent or line-diagonal cell.
    fn gz_militant_moves(&self, from: Cell, p: Piece, out: &mut Vec<Move>) {
        let geo = &BOARD.geometry;
        let start = out.len();
        if self.house.gz_militant_direct_capture {
            for d in Direction::ALL {
                if let Some(t) = geo.step(from, d)
                    && self.capturable(p, t)
                {
                    out.push(Move::simple(from, t, Action::Move));
                }
            }
        }
        for k in 0..6 {
            let d = Direction::flat(k);
            let Some(one) = geo.step(from, d) else {
                continue;
            };
            if self.board[one.index()].is_some() {
                continue;
            }
            Self::push_unique(out, start, Move::simple(from, one, Action::Move));
            if let Some(two) = geo.step(one, d)
                && self.board[two.index()].is_none()
            {
                Self::push_unique(out, start, Move::simple(from, two, Action::Move));
            }
            for diag in militant_diagonals(k) {
                if let Some(t) = geo.step(one, diag)
                    && self.capturable(p, t)
                {
                    Self::push_unique(out, start, Move::simple(from, t, Action::Move));
                }
            }
        }
    }

    /// Whether a Militant's move to `to` is offered promotion, and whether declining gives the
    /// Hat (§4.10): the Center Line for an unhatted Militant that did not start on Ground Zero;
    /// another colour's Base Line for any Militant.
    pub(super) fn promotion_offer(&self, from: Cell, p: Piece, to: Cell) -> Option<bool> {
        let k = p.colour as usize;
        let centre =
            p.kind == Kind::Militant && from != BOARD.gz && BOARD.forward[k][to.index()] >= 0;
        let base = self.house.base_line_promotion
            && (0..6).any(|j| j != k && BOARD.base_line[j].contains(to));
        (centre || base).then_some(centre)
    }

    fn add_promotions(&self, from: Cell, p: Piece, start: usize, out: &mut Vec<Move>) {
        let end = out.len();
        for i in start..end {
            let m = out[i];
            if self.promotion_offer(from, p, m.to).is_some() {
                for kind in Kind::PROMOTIONS {
                    out.push(Move {
                        promotion: Some(kind),
                        ..m
                    });
                }
            }
        }
    }

    /// Every pseudo-legal move of a seat: its pieces' moves, and Resurrected Sovereign
    /// placements when that house rule is on.
    pub fn seat_moves(&self, seat: Seat, out: &mut Vec<Move>) {
        if !self.is_active(seat) {
            return;
        }
        for c in self.cells_of(seat) {
            self.piece_moves(c, out);
        }
        if self.house.resurrection {
            for &(holder, colour) in &self.prisoners {
                if holder as usize != seat.index() {
                    continue;
                }
                for c in BOARD.base_line[colour as usize].iter() {
                    let m = Move::simple(c, c, Action::Resurrect(colour));
                    if self.board[c.index()].is_none() && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
    }

    /// The legal moves of the player to move (§5.6): pseudo-legal moves, filtered by the relief
    /// duty of live Check records and, under `auto_declare`, by not moving into attack; each
    /// filter lapses when nothing passes it. `pass` only when no piece can move.
    pub(super) fn legal(&self) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        let mut moves = Vec::with_capacity(128);
        self.seat_moves(Seat(self.to_move), &mut moves);
        let live = self.live_checks();
        self.legal_from(moves, &live)
    }

    /// [`legal`](Self::legal) from the mover's pseudo-legal moves and the live Check records
    /// aimed at it.
    pub(super) fn legal_from(&self, mut moves: Vec<Move>, live: &[CheckRecord]) -> Vec<Move> {
        let seat = Seat(self.to_move);
        if moves.is_empty() {
            return vec![Move::PASS];
        }
        if !live.is_empty() {
            let relieving = self.relieving(&moves, live);
            if !relieving.is_empty() {
                moves = relieving;
            }
        }
        if self.house.check_upon_mover == CheckUponMover::AutoDeclare {
            let safe: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| self.after(m).attackers_of_seat(seat).is_empty())
                .collect();
            if !safe.is_empty() {
                moves = safe;
            }
        }
        moves
    }

    /// The cells whose pieces a move removes.
    pub fn removed_by(&self, m: &Move) -> Vec<Cell> {
        self.removed(m).collect()
    }

    /// [`removed_by`](Self::removed_by) without allocating: the search asks it of every move it
    /// orders and every move an attack test generates.
    pub fn removed(&self, m: &Move) -> impl Iterator<Item = Cell> + '_ {
        let (path, single): (&'static [Cell], Option<Cell>) = match m.action {
            Action::Pass | Action::Resurrect(_) => (&[], None),
            Action::Shot => (&[], Some(m.to)),
            Action::MoveShot(t) => (&[], Some(t)),
            Action::Move => {
                let dreadnaught = matches!(
                    self.board[m.from.index()],
                    Some(p) if p.kind == Kind::Dreadnaught
                );
                match dreadnaught.then(|| ram_path(m.from, m.to)).flatten() {
                    Some(path) => (path, None),
                    None if self.board[m.to.index()].is_some() => (&[], Some(m.to)),
                    None => (&[], None),
                }
            }
        };
        path.iter()
            .copied()
            .filter(|c| self.board[c.index()].is_some())
            .chain(single)
    }

    /// The position after `m`, without its Check declarations' bookkeeping mattering.
    pub fn after(&self, m: &Move) -> HexiMeros {
        let mut next = self.clone();
        next.apply(&m.without_checks());
        next
    }

    /// Play a move (§5.6 step 7). The move is trusted.
    pub(super) fn apply(&mut self, m: &Move) {
        self.events.clear();
        if self.result.is_some() {
            return;
        }
        let mover = self.to_move;
        // Records aimed at the mover were his duty this turn; they end with it.
        let mover_sovs = self.sovereigns_of(Seat(mover));
        self.checks.retain(|r| !mover_sovs.contains(&r.target));
        let mut irreversible = false;
        // Check declarations are validated against the position after the move, so find the
        // eligible targets before the board changes only when some are declared.
        let declared: Vec<Cell> = if m.checks != 0 {
            self.declared_targets(m)
        } else {
            Vec::new()
        };
        match m.action {
            Action::Pass => {}
            Action::Resurrect(colour) => {
                self.prisoners
                    .retain(|&(h, c)| !(h == mover && c == colour));
                self.controller[colour as usize] = mover;
                self.put(
                    m.to,
                    Piece {
                        colour,
                        kind: Kind::Sovereign,
                        moved: false,
                        bonus: false,
                    },
                );
                irreversible = true;
            }
            Action::Shot | Action::MoveShot(_) | Action::Move => {
                let removed = self.removed_by(m);
                let Some(mut p) = self.board[m.from.index()] else {
                    return;
                };
                for c in &removed {
                    if let Some(t) = self.take(*c) {
                        self.captured(p, t);
                    }
                }
                irreversible |= !removed.is_empty();
                if m.action == Action::Shot {
                    p.bonus = false;
                    self.put(m.from, p);
                } else {
                    self.take(m.from);
                    if p.kind == Kind::Militant {
                        irreversible = true;
                    }
                    let offer = if matches!(p.kind, Kind::Militant | Kind::HattedMilitant) {
                        self.promotion_offer(m.from, p, m.to)
                    } else {
                        None
                    };
                    if let Some(kind) = m.promotion.filter(|_| offer.is_some()) {
                        self.events.push(ScoreEvent::promotion(Seat(mover), kind));
                        p.kind = kind;
                        p.moved = false;
                        irreversible = true;
                    } else {
                        p.moved = true;
                        let leaving_gz = p.kind == Kind::Militant && m.from == BOARD.gz;
                        if leaving_gz || (offer == Some(true) && m.to != BOARD.gz) {
                            p.kind = Kind::HattedMilitant;
                        }
                    }
                    p.bonus = m.to == BOARD.gz && p.kind.gets_gz_bonus();
                    self.put(m.to, p);
                }
            }
        }
        let out_before = self.out_order.len();
        self.update_eliminations();
        irreversible |= self.out_order.len() > out_before;
        // Records whose Sovereign is gone, or whose declarer is out, fall away.
        self.checks.retain(
            |r| matches!(self.board[r.target.index()], Some(p) if p.kind == Kind::Sovereign),
        );
        for target in declared {
            if self.board[target.index()].is_some() {
                self.checks.push(super::CheckRecord {
                    declarer: Seat(mover),
                    target,
                });
            }
        }
        if irreversible {
            self.halfmove_clock = 0;
            self.history.clear();
        } else {
            self.halfmove_clock += 1;
        }
        self.to_move = self.next_active(mover);
        self.record_history();
        self.settle();
    }

    fn captured(&mut self, by: Piece, victim: Piece) {
        let seat = self.controller[by.colour as usize];
        let own = self.controller[victim.colour as usize] == seat || victim.colour == by.colour;
        if !own {
            self.events
                .push(ScoreEvent::capture(Seat(seat), victim.kind));
        }
        if victim.kind == Kind::Sovereign {
            self.prisoners.push((seat, victim.colour));
        }
    }
}

/// The cells a Dreadnaught passes from `from` to `to` (both on one flat axis), `to` included;
/// None when `to` is on no flat ray from `from`.
pub(super) fn ram_path(from: Cell, to: Cell) -> Option<&'static [Cell]> {
    let geo = &BOARD.geometry;
    Direction::FLATS.iter().find_map(|&d| {
        let ray = geo.ray(from, d);
        ray.iter().position(|&c| c == to).map(|i| &ray[..=i])
    })
}
