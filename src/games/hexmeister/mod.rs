//! Hexmeister (Hex-Meister, Helvey 1980) as specified in `docs/rules/hexmeister.md`: the position
//! type, its turn and bonus-action bookkeeping, the end of the game, and the `Rules` impl.
//!
//! A turn is one action (drop, move, or pass) plus any bonus actions it earns: a bonus action is
//! simply the same seat being to move again with `bonus_pending()` set, so perft counts every
//! bonus action as one ply. The files beside this one hold the board (`board`), the switches
//! (`house`), move generation and capture (`moves`), move text and the board picture
//! (`notation`), and the position JSON (`setup`).

mod board;
mod house;
mod moves;
mod notation;
mod setup;

#[cfg(test)]
mod tests;

use std::sync::Arc;

pub use board::{
    CellRole, alignment_lines, base_gates, base_owner, base_row, cells, coordinates, drop_cells,
    gate_rings, gates, geometry, map_position, role, segmental_triangles,
};
pub use house::{FirstPlayer, HouseRules, Stalemate};
pub use setup::{ReserveText, Setup};

use super::{GameKind, Outcome, PieceText, PlayError, PositionError, Rules, Seat};
use crate::hex::{Cell, CellSet};
use board::{ALIGNMENTS, Bits, MIDDLE_RING, NORTH, OUTER_RING, SOUTH, bits, board as tables};

/// Stones each player starts with, all in reserve (§3).
pub const STONES: u8 = 18;

/// One action (§4): a drop from reserve, a move, or a pass (a forced pass when nothing else is
/// legal, or declining a pending bonus action).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Drop(Cell),
    Move { from: Cell, to: Cell },
    Pass,
}

/// How the game ended, kept in the position so `outcome` is cheap.
#[derive(Clone, Debug, PartialEq, Eq)]
enum End {
    Win(Seat, String),
    Draw(String),
}

/// What the repetition rule compares (§5): board, both reserves, side to move, pending bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    stones: [Bits; 2],
    reserves: [u8; 2],
    to_move: u8,
    bonus: bool,
}

/// The positions since the last drop or capture, newest first, as a shared list: a clone for a
/// perft child is a reference count, not a copy. None of them can recur once a stone is dropped or
/// taken (the stone count only falls), so older ones are forgotten.
#[derive(Clone, Default)]
struct History {
    head: Option<Arc<Node>>,
    len: u32,
}

struct Node {
    key: Key,
    prev: Option<Arc<Node>>,
}

impl History {
    fn push(&mut self, key: Key) {
        let prev = self.head.take();
        self.head = Some(Arc::new(Node { key, prev }));
        self.len += 1;
    }

    fn clear(&mut self) {
        *self = History::default();
    }

    /// Oldest first.
    fn keys(&self) -> Vec<Key> {
        let mut v = Vec::with_capacity(self.len as usize);
        let mut at = self.head.as_deref();
        while let Some(n) = at {
            v.push(n.key);
            at = n.prev.as_deref();
        }
        v.reverse();
        v
    }

    fn count(&self, key: &Key) -> usize {
        let mut n = 0;
        let mut at = self.head.as_deref();
        while let Some(node) = at {
            n += usize::from(node.key == *key);
            at = node.prev.as_deref();
        }
        n
    }
}

impl Drop for History {
    // Unlink iteratively: with the quiet limit off the list can be long enough for a recursive
    // drop to exhaust the stack.
    fn drop(&mut self) {
        let mut at = self.head.take();
        while let Some(node) = at {
            at = match Arc::try_unwrap(node) {
                Ok(mut n) => n.prev.take(),
                Err(_) => None,
            };
        }
    }
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "History({} earlier positions)", self.len)
    }
}

/// A Hexmeister position: stones, reserves, whose action it is and whether it is a bonus action,
/// the pass and repetition bookkeeping, and the house rules.
#[derive(Clone, Debug)]
pub struct Hexmeister {
    house: HouseRules,
    /// Stones by seat, in the board's bit layout.
    stones: [Bits; 2],
    reserves: [u8; 2],
    to_move: Seat,
    /// The side to move is taking a bonus action (§4.5).
    bonus: bool,
    /// Forced passes in succession (two draw, §5).
    passes: u8,
    /// Earlier positions since the last drop or capture; its length is the quiet-action count.
    history: History,
    end: Option<End>,
    /// A result the players settled (resignation, agreed draw); it overrides the board's.
    settled: Option<Box<Outcome>>,
}

fn other(s: Seat) -> Seat {
    Seat(1 - s.0)
}

impl Hexmeister {
    fn key(&self) -> Key {
        Key {
            stones: self.stones,
            reserves: self.reserves,
            to_move: self.to_move.0,
            bonus: self.bonus,
        }
    }

    /// The stone on a cell, by owner.
    pub fn stone_at(&self, c: Cell) -> Option<Seat> {
        let b: Bits = 1 << tables().bit(c);
        [SOUTH, NORTH]
            .into_iter()
            .find(|s| self.stones[s.index()] & b != 0)
    }

    /// Every stone on the board with its owner, in cell order.
    pub fn stones(&self) -> Vec<(Cell, Seat)> {
        let t = tables();
        let mut v: Vec<(Cell, Seat)> = [SOUTH, NORTH]
            .into_iter()
            .flat_map(|s| bits(self.stones[s.index()]).map(move |b| (t.cell(b), s)))
            .collect();
        v.sort();
        v
    }

    /// The cells holding `seat`'s stones.
    pub fn stones_of(&self, seat: Seat) -> CellSet {
        tables().to_cells(self.stones[seat.index() & 1])
    }

    /// Stones `seat` still has in reserve.
    pub fn reserve(&self, seat: Seat) -> u8 {
        self.reserves[seat.index() & 1]
    }

    /// Whether the side to move is taking a bonus action (and may `pass` to end the turn).
    pub fn bonus_pending(&self) -> bool {
        self.bonus
    }

    /// The seat whose action it is (once the game is over, the seat that would have been next).
    pub fn seat_on_turn(&self) -> Seat {
        self.to_move
    }

    /// The cells `seat` secures now (§4.3): where the other player may not end an action.
    pub fn secured_by(&self, seat: Seat) -> CellSet {
        let s = seat.index() & 1;
        tables().to_cells(moves::security(
            self.stones[s],
            self.stones[1 - s],
            &self.house,
        ))
    }

    /// The opponent's stones with exactly two of `seat`'s stones beside them: one more stone
    /// there captures them (§4.3, §4.4). The bots read it as a threat.
    pub fn stones_one_short_of_capture(&self, seat: Seat) -> u32 {
        let s = seat.index() & 1;
        (self.stones[1 - s] & board::two_neighbours(self.stones[s])).count_ones()
    }

    /// Keep only the actions that bear on the fight, for the bots' selective search below the
    /// root: every drop and pass, and a move that enters a gate, takes a stone out of a threat
    /// (two or more opponent stones beside it), ends beside an opponent stone that has one of the
    /// mover's beside it already (a capture or a threat), or ends beside a threatened stone of
    /// the mover (taking the cell the capture needs). The rest are stones wandering the lanes.
    /// When nothing would be left, everything is kept.
    pub fn retain_fighting_actions(&self, actions: &mut Vec<Action>) {
        let t = tables();
        let s = self.to_move.index() & 1;
        let (mine, theirs) = (self.stones[s], self.stones[1 - s]);
        let threatened = board::two_neighbours(theirs) | board::three_neighbours(theirs);
        let to_mask = board::GATES
            | board::neighbours(theirs & board::neighbours(mine))
            | board::neighbours(mine & threatened);
        let from_mask = mine & threatened;
        let fights = |a: &Action| match *a {
            Action::Move { from, to } => {
                (1 << t.bit(to)) & to_mask != 0 || (1 << t.bit(from)) & from_mask != 0
            }
            Action::Drop(_) | Action::Pass => true,
        };
        if actions.iter().any(fights) {
            actions.retain(fights);
        }
    }

    /// Whether the position (board, reserves, side to move, pending bonus) has occurred before
    /// since the last drop or capture, under the repetition rule (house rule `repetition_draw`).
    pub fn position_repeated(&self) -> bool {
        self.house.repetition_draw && self.history.count(&self.key()) >= 1
    }

    /// Actions in a row without a drop or capture (the quiet-action count).
    pub fn quiet_actions(&self) -> u32 {
        self.history.len
    }

    /// Work out whether the game is over, from the position alone. Used after every action and by
    /// `from_setup`, so a position read from JSON ends exactly as the played one did.
    fn judge(&self) -> Option<End> {
        for seat in [self.to_move, other(self.to_move)] {
            let own = self.stones[seat.index()];
            let reason = ALIGNMENTS
                .iter()
                .find(|(_, line)| own & line == *line)
                .map(|(name, _)| format!("alignment {name}"))
                .or_else(|| {
                    (own & MIDDLE_RING == MIDDLE_RING)
                        .then(|| "encirclement of the middle ring".to_string())
                })
                .or_else(|| {
                    (own & OUTER_RING == OUTER_RING)
                        .then(|| "encirclement of the outer ring".to_string())
                });
            if let Some(r) = reason {
                return Some(End::Win(seat, r));
            }
        }
        if self.passes >= 2 {
            return Some(End::Draw("both players had to pass in succession".into()));
        }
        if self.house.repetition_draw && self.history.count(&self.key()) >= 2 {
            return Some(End::Draw("the same position occurred a third time".into()));
        }
        let limit = self.house.quiet_limit;
        if limit > 0 && self.history.len >= limit {
            return Some(End::Draw(format!(
                "{limit} actions in a row without a drop or a capture"
            )));
        }
        if self.house.stalemate == Stalemate::Lose && !self.bonus && !self.has_action() {
            let loser = self.to_move;
            return Some(End::Win(
                other(loser),
                format!("{} has no legal action", seat_name(loser)),
            ));
        }
        None
    }
}

fn seat_name(s: Seat) -> &'static str {
    if s == SOUTH { "south" } else { "north" }
}

impl Rules for Hexmeister {
    type Move = Action;
    type HouseRules = HouseRules;
    type Setup = Setup;
    const KIND: GameKind = GameKind::Hexmeister;

    fn new_game(players: usize, house: HouseRules) -> Result<Self, PositionError> {
        if players != 2 {
            return Err(PositionError::Invalid(format!(
                "hexmeister is played by 2 players, not {players}"
            )));
        }
        Ok(Hexmeister {
            house,
            stones: [0, 0],
            reserves: [STONES, STONES],
            to_move: match house.first_player {
                FirstPlayer::South => SOUTH,
                FirstPlayer::North => NORTH,
            },
            bonus: false,
            passes: 0,
            history: History::default(),
            end: None,
            settled: None,
        })
    }

    fn from_setup(mut setup: Setup) -> Result<Self, PositionError> {
        let settled = setup.settled.take();
        let mut g = setup::from_setup(setup)?;
        g.settled = super::procedure::settled(settled, g.seat_count())?;
        Ok(g)
    }

    fn piece_texts(&self) -> Vec<PieceText> {
        setup::to_setup(self).pieces
    }

    fn to_setup(&self) -> Setup {
        let mut s = setup::to_setup(self);
        s.settled = self.settled.as_deref().cloned();
        s
    }

    fn house_rules(&self) -> &HouseRules {
        &self.house
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        seat_name(seat)
    }

    fn to_move(&self) -> Option<Seat> {
        (self.end.is_none() && self.settled.is_none()).then_some(self.to_move)
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = &self.settled {
            return Some((**o).clone());
        }
        self.end.as_ref().map(|e| match e {
            End::Win(s, reason) => Outcome::Win {
                winners: vec![*s],
                reason: reason.clone(),
            },
            End::Draw(reason) => Outcome::Draw {
                seats: vec![SOUTH, NORTH],
                reason: reason.clone(),
            },
        })
    }

    fn legal_moves(&self) -> Vec<Action> {
        if self.end.is_some() || self.settled.is_some() {
            return Vec::new();
        }
        let mut v = Vec::with_capacity(128);
        self.actions(&mut v);
        // `pass` ends a bonus turn whenever the bonus is optional (§6-4); otherwise it is only for
        // a player with nothing else to do.
        if v.is_empty() || (self.bonus && !self.house.mandatory_bonus) {
            v.push(Action::Pass);
        }
        v
    }

    fn play_unchecked(&mut self, a: &Action) {
        let p = self.to_move.index();
        let before = self.key();
        let progress = match a {
            Action::Pass => {
                if !self.bonus {
                    self.passes += 1;
                }
                self.bonus = false;
                self.to_move = other(self.to_move);
                false
            }
            Action::Drop(_) | Action::Move { .. } => {
                let e = moves::effect(self.stones, p, a, &self.house);
                self.stones = e.stones;
                let dropped = matches!(a, Action::Drop(_));
                if dropped {
                    self.reserves[p] = self.reserves[p].saturating_sub(1);
                }
                self.passes = 0;
                self.bonus = e.bonus;
                if !e.bonus {
                    self.to_move = other(self.to_move);
                }
                dropped || e.captured > 0
            }
        };
        if progress {
            self.history.clear();
        } else {
            self.history.push(before);
        }
        self.end = self.judge();
    }

    fn move_text(&self, a: &Action) -> String {
        notation::action_text(a)
    }

    fn parse_move(&self, text: &str) -> Result<Action, PlayError> {
        notation::parse_action(self, text)
    }

    fn show(&self) -> String {
        notation::show(self)
    }

    fn settle(&mut self, outcome: Outcome) -> Result<(), PositionError> {
        super::procedure::require_running(self)?;
        self.settled = Some(Box::new(outcome));
        Ok(())
    }
}
