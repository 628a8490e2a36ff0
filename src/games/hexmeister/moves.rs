//! Hexmeister's rules on bit sets: security (§4.3), capture (§4.4), open routes and the actions
//! of the side to move (§4.1, §4.2), and what an action does to the board.

use super::board::{
    BASE_CELLS, BASE_GATES, BASE_ROW, Bits, CENTRE, GATES, LANES, ON_BOARD, STEPS, TRIANGLES, bits,
    board, neighbours, step, three_neighbours,
};
use super::house::HouseRules;
use super::{Action, Hexmeister};

/// The gates `q` secures by triangulation: in a segmental triangle where `q` holds four gates,
/// the fifth (and, where `q` holds all five, each of them).
pub(crate) fn triangulated(q: Bits) -> Bits {
    let mut out = 0;
    for t in TRIANGLES {
        match (t & q).count_ones() {
            5 => out |= t,
            4 => out |= t & !q,
            _ => {}
        }
    }
    out
}

/// The gates held by `q` that count towards the eight that cancel centre triangulation (§6-8).
fn gates_for_eight(q: Bits, house: &HouseRules) -> u32 {
    let counted = if house.centre_counts_for_eight {
        GATES
    } else {
        GATES & !CENTRE
    };
    (q & counted).count_ones()
}

/// Every cell secured by the player with stones `q` whose opponent has stones `other` (§4.3):
/// proximity (three neighbours) or triangulation, except that the centre secured only by
/// triangulation does not count while `other` holds eight gates.
pub(crate) fn security(q: Bits, other: Bits, house: &HouseRules) -> Bits {
    let proximity = three_neighbours(q);
    let triangulation = triangulated(q);
    let mut secured = proximity | triangulation;
    if triangulation & CENTRE != 0 && proximity & CENTRE == 0 && gates_for_eight(other, house) >= 8
    {
        secured &= !CENTRE;
    }
    secured
}

/// Remove the opponent's stones on cells the mover secures, again until nothing changes: taking a
/// gate from the opponent can drop them below eight gates and so switch the mover's centre
/// triangulation back on. Returns the opponent's stones left and how many were taken.
pub(crate) fn capture(mover: Bits, mut opponent: Bits, house: &HouseRules) -> (Bits, u32) {
    let mut taken = 0;
    loop {
        let hit = opponent & security(mover, opponent, house);
        if hit == 0 {
            return (opponent, taken);
        }
        taken += hit.count_ones();
        opponent &= !hit;
    }
}

/// What one drop or move does: the stones of both players after it and its captures, and whether
/// it earns a bonus action (§4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Effect {
    pub stones: [Bits; 2],
    pub captured: u32,
    pub bonus: bool,
}

/// The effect of a drop or move by `mover` (a pass has none).
pub(crate) fn effect(stones: [Bits; 2], mover: usize, a: &Action, house: &HouseRules) -> Effect {
    let b = board();
    let mut s = stones;
    let gate_bonus = match *a {
        Action::Drop(c) => {
            s[mover] |= 1 << b.bit(c);
            false
        }
        Action::Move { from, to } => {
            let (f, t): (Bits, Bits) = (1 << b.bit(from), 1 << b.bit(to));
            s[mover] = (s[mover] & !f) | t;
            // Onto a gate from the grid earns a bonus; the base-gate exception's jump from the
            // base row onto one's own base gate does not.
            t & GATES != 0 && !(f & BASE_CELLS[mover] != 0 && t & BASE_GATES[mover] != 0)
        }
        Action::Pass => false,
    };
    let (rest, captured) = capture(s[mover], s[1 - mover], house);
    s[1 - mover] = rest;
    Effect {
        stones: s,
        captured,
        bonus: gate_bonus || captured > 0,
    }
}

impl Hexmeister {
    /// The cells where the side to move may not end an action: those the opponent secures.
    fn barred(&self) -> Bits {
        let p = self.to_move.index();
        security(self.stones[1 - p], self.stones[p], &self.house)
    }

    /// Every drop and move of the side to move (no pass), in a fixed order: drops, then moves by
    /// starting cell.
    pub(crate) fn actions(&self, out: &mut Vec<Action>) {
        let b = board();
        let p = self.to_move.index();
        let house = &self.house;
        let own = self.stones[p];
        let opp = self.stones[1 - p];
        let occupied = own | opp;
        let barred = self.barred();

        if self.reserves[p] > 0 {
            let cells = if house.drop_on_base_gates {
                BASE_ROW[p]
            } else {
                BASE_CELLS[p]
            };
            out.extend(bits(cells & !occupied & !barred).map(|t| Action::Drop(b.cell(t))));
        }

        // Open routes (§4.2): empty lanes and gates, the mover's own gates, the empty cells of the
        // mover's own base row.
        let mut open = ((LANES | GATES | BASE_ROW[p]) & !occupied) | (GATES & own);
        if house.cross_opponent_gates {
            open |= GATES & opp;
        }
        let free = ON_BOARD & !occupied & !barred;
        // Self-capture (§6-7) can only come from leaving a gate while holding f6 against an
        // opponent who triangulates it; only those moves are played out in full.
        let risky =
            !house.allow_self_capture && own & CENTRE != 0 && triangulated(opp) & CENTRE != 0;
        let mut regions = Regions::default();
        for s in bits(own) {
            let from: Bits = 1 << s;
            let adjacent = neighbours(from);
            let mut to = if house.straight_moves {
                slides(s, open, free)
            } else {
                (adjacent | neighbours(regions.reach(adjacent & open, open))) & free
            };
            // A gate is entered only from an adjacent cell, or from one's base onto a base gate.
            let mut gate_ok = adjacent;
            if from & BASE_CELLS[p] != 0 {
                gate_ok |= BASE_GATES[p];
            }
            to &= !GATES | gate_ok;
            let check = risky && from & GATES & !CENTRE != 0;
            for t in bits(to) {
                let a = Action::Move {
                    from: b.cell(s),
                    to: b.cell(t),
                };
                if check {
                    let e = effect(self.stones, p, &a, house);
                    if e.stones[p] & security(e.stones[1 - p], e.stones[p], house) != 0 {
                        continue;
                    }
                }
                out.push(a);
            }
        }
    }

    /// Whether the side to move has a drop or move.
    pub(crate) fn has_action(&self) -> bool {
        let mut v = Vec::new();
        self.actions(&mut v);
        !v.is_empty()
    }
}

/// The destinations of a straight slide from `s` (§6-1): along each line, every cell that `free`
/// allows, continuing only across open cells.
fn slides(s: u32, open: Bits, free: Bits) -> Bits {
    let mut to = 0;
    for d in STEPS {
        let mut at = s;
        while let Some(t) = step(at, d) {
            let tb: Bits = 1 << t;
            to |= tb & free;
            if open & tb == 0 {
                break;
            }
            at = t;
        }
    }
    to
}

/// Connected regions of open cells, flooded once per `actions` call and shared by every stone that
/// touches them (stones of one side usually all border the same lane network).
#[derive(Default)]
struct Regions {
    found: Vec<Bits>,
    covered: Bits,
}

impl Regions {
    /// The open cells reachable from the open cells `seeds` (which they include).
    fn reach(&mut self, seeds: Bits, open: Bits) -> Bits {
        let mut out = 0;
        for r in &self.found {
            if r & seeds != 0 {
                out |= r;
            }
        }
        let mut fresh = seeds & !self.covered;
        while fresh != 0 {
            let mut region = fresh & fresh.wrapping_neg();
            loop {
                let next = region | (neighbours(region) & open);
                if next == region {
                    break;
                }
                region = next;
            }
            self.found.push(region);
            self.covered |= region;
            out |= region;
            fresh &= !region;
        }
        out
    }
}
