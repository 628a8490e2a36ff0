//! Hexmeister for the bots: stones (on the board and in hand; captures take them away for good),
//! gates held, and progress towards the two wins of §1: five gates on an alignment line, or all six
//! gates of a ring, counted only where the opponent holds none of them yet. Secured cells add a
//! little, since they are where the opponent may not go, and so do opponent stones one stone
//! short of capture (a threat the search may not reach).
//!
//! The search is selective: below the root only the actions that bear on the fight are searched
//! (`Hexmeister::retain_fighting_actions`: drops, gate entries, captures and threats, escapes and
//! blocks), quiet cut-off moves are tried first elsewhere at the same ply (killers), and a
//! position met before under the repetition rule scores as a draw. Without these, hard finished
//! only two plies in the middle game, about as far as normal, and drew nearly half its games.
//!
//! The quiet-action limit (house rule `quiet_limit`) draws a game after that many actions without
//! a drop or capture, and the leader used to drift into it: the whole evaluation shrinks towards
//! the draw's 0 as the count climbs, so the side ahead prefers lines that capture (and reset the
//! count) soon, and the side behind gains nothing by stalling a won position for it.

use super::search::Engine;
use super::{Level, Tuning};
use crate::games::hexmeister::{Action, Hexmeister, alignment_lines, gate_rings, gates};
use crate::games::{Rules, Seat};
use crate::hex::CellSet;

impl Tuning for Hexmeister {
    fn budget(level: Level) -> (u32, u64) {
        match level {
            // Up to 436 moves at the root, about a tenth of them below it (the fight, see
            // `prune`). Normal needs its third ply to beat a random mover (at two it drew 55 of
            // 100); hard's million nodes complete four plies in a busy middle game (1.5 s).
            Level::Hard => (5, 1_000_000),
            _ => (3, 20_000),
        }
    }
    const EASY_NOISE: i32 = 40;
}

fn other(s: Seat) -> Seat {
    Seat(1 - (s.0 & 1))
}

/// Progress on one winning set: squared, so the fourth gate of a line counts far more than the
/// first; nothing once the opponent sits on one of its gates.
fn progress(set: &CellSet, mine: &CellSet, theirs: &CellSet, weight: i32) -> i32 {
    if set.intersects(theirs) {
        return 0;
    }
    let n = set.intersection(mine).len() as i32;
    n * n * weight
}

fn side(g: &Hexmeister, s: Seat) -> i32 {
    let mine = g.stones_of(s);
    let theirs = g.stones_of(other(s));
    let gate_set = gates();
    let mut v = (mine.len() as i32 + g.reserve(s) as i32) * 100;
    v += mine.intersection(&gate_set).len() as i32 * 25;
    v += mine.iter().count().min(12) as i32 * 5; // stones in play, not idle in hand
    for line in alignment_lines() {
        v += progress(&line, &mine, &theirs, 14);
    }
    for ring in gate_rings() {
        v += progress(&ring, &mine, &theirs, 9);
    }
    v += g.secured_by(s).len() as i32 * 3;
    v += g.stones_one_short_of_capture(s) as i32 * THREAT;
    v
}

/// An opponent stone with two of ours beside it: worth a fifth of a stone, so a threat is never
/// bought with a real stone.
const THREAT: i32 = 20;

/// `v` shrunk towards a draw's 0 by the share of the quiet-action limit already used.
fn towards_quiet_draw(g: &Hexmeister, v: i32) -> i32 {
    let limit = g.house_rules().quiet_limit;
    if limit == 0 {
        return v;
    }
    let left = limit.saturating_sub(g.quiet_actions());
    (i64::from(v) * i64::from(left) / i64::from(limit)) as i32
}

impl Engine for Hexmeister {
    const KILLERS: bool = true;

    fn repeats(&self) -> bool {
        self.position_repeated()
    }

    fn prune(&self, moves: &mut Vec<Action>) {
        self.retain_fighting_actions(moves);
    }

    fn quiescence(&self) -> u32 {
        0
    }

    fn evaluate(&self, me: Seat) -> i32 {
        towards_quiet_draw(self, side(self, me) - side(self, other(me)))
    }

    fn hint(&self, m: &Action) -> i32 {
        // Captures are only known after playing, so order by what is cheap to see: entering a
        // gate first. Zero keeps every move out of quiescence (which is off here anyway).
        match *m {
            Action::Move { to, .. } if gates().contains(to) => 0,
            _ => -1,
        }
    }
}
