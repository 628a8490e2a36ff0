//! HexiMeros for the bots: the evaluation (material, living opponents, what each seat attacks),
//! and the two Check questions of §5.3–§5.4.
//!
//! Six players on 649 cells allow only a shallow paranoid search, so the evaluation carries the
//! tactics: it builds every active seat's attack set (§5.2) and charges a piece the seat to move
//! attacks almost its whole value, a Sovereign anyone attacks a good deal, and credits the bot
//! with its best capture when it is the one to move. Random movers rarely guard their Sovereigns,
//! and a bot that hunts Sovereigns wins by elimination long before any draw rule.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use super::search::{Engine, WIN};
use super::{Level, Tuning};
use crate::games::heximeros::{Action, HexiMeros, Kind, Move, Piece};
use crate::games::{Rules, Seat};
use crate::hex::CellSet;

/// The terms of the evaluation, as data (docs/tournaments.md, "HexiMeros evaluation terms").
/// Material is in tenths of the §7 capture values (a Militant is 50).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights {
    /// What a Sovereign on the board is worth to its seat beyond its capture value: the seat's
    /// life. Each opponent still in costs the bot this much.
    pub sovereign: i32,
    /// Opponents' material counts 1/this: trading evenly with one of five rivals helps the
    /// other four, but taking a piece for free is always good.
    pub rival_share: i32,
    /// Per pseudo-legal move of the bot.
    pub mobility: i32,
    /// What an attacked Sovereign of the bot's is charged as, in place of a piece's value (the
    /// seat would be out), before the shares below.
    pub sovereign_hanging: i32,
    /// Bot not to move: the seat to move is charged this many tenths of its best target among
    /// the bot's pieces (it nearly surely takes it).
    pub next_seat_tenths: i32,
    /// Bot not to move: a later opponent (it plays before the bot, but may have better things
    /// to do) is charged this many tenths of its best target ...
    pub later_seat_tenths: i32,
    /// ... or this much when that target is a Sovereign.
    pub sovereign_at_risk: i32,
    /// Bot to move: per Sovereign of its own attacked (it can still step away).
    pub sovereign_attacked_to_move: i32,
    /// Bot to move: per other attacked piece, 1/this of its value.
    pub attacked_share: i32,
    /// Bot to move: this many tenths of its best capture on offer: of what taking an
    /// opponent's last Sovereign gains in this evaluation (the seat out; below ten, so it never
    /// scores above the capture made), of a piece's value otherwise.
    pub banked_tenths: i32,
    /// Bot not to move: per opponent whose Sovereign the bot attacks.
    pub pressing: i32,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        sovereign: 3000,
        rival_share: 3,
        mobility: 2,
        sovereign_hanging: 20_000,
        next_seat_tenths: 9,
        later_seat_tenths: 4,
        sovereign_at_risk: 12_000,
        sovereign_attacked_to_move: 1500,
        attacked_share: 8,
        banked_tenths: 7,
        pressing: 400,
    };
}

const SOVEREIGN: i32 = Weights::DEFAULT.sovereign;

/// Material in tenths of the §7 capture values, so positional terms fit between.
fn value(k: Kind) -> i32 {
    k.value() * 10
}

impl Tuning for HexiMeros {
    fn budget(level: Level) -> (u32, u64) {
        match level {
            Level::Hard => (3, 40_000),
            _ => (2, 6_000),
        }
    }
    const EASY_NOISE: i32 = 400;
}

/// Each active seat's attacked cells and pseudo-legal move count.
fn attack_sets(g: &HexiMeros) -> ([CellSet; 6], [i32; 6]) {
    let mut att = [CellSet::new(); 6];
    let mut mob = [0i32; 6];
    let mut moves = Vec::with_capacity(160);
    for s in g.active_seats() {
        moves.clear();
        g.seat_moves(s, &mut moves);
        mob[s.index()] = moves.len() as i32;
        let set = &mut att[s.index()];
        for m in &moves {
            match m.action {
                Action::Move => {
                    let ram = matches!(g.piece(m.from), Some(p) if p.kind == Kind::Dreadnaught);
                    if ram {
                        for c in g.removed_by(m) {
                            set.insert(c);
                        }
                    } else if g.piece(m.to).is_some() {
                        set.insert(m.to);
                    }
                }
                Action::Shot => set.insert(m.to),
                Action::MoveShot(t) => set.insert(t),
                Action::Resurrect(_) | Action::Pass => {}
            }
        }
    }
    (att, mob)
}

/// Material of each seat's unfrozen pieces, Sovereigns not counted.
fn material(g: &HexiMeros) -> [i32; 6] {
    let mut mat = [0i32; 6];
    for (_, p) in g.pieces() {
        if p.kind != Kind::Sovereign && !g.is_frozen(p) {
            mat[g.controller(p.colour).index()] += value(p.kind);
        }
    }
    mat
}

/// Material against the average active opponent (for votes).
pub(super) fn standing(g: &HexiMeros, me: Seat) -> i32 {
    if !g.is_active(me) {
        return -SOVEREIGN;
    }
    let mat = material(g);
    let opps: Vec<Seat> = g.active_seats().into_iter().filter(|&s| s != me).collect();
    if opps.is_empty() {
        return SOVEREIGN;
    }
    let avg = opps.iter().map(|s| mat[s.index()]).sum::<i32>() / opps.len() as i32;
    mat[me.index()] - avg
}

/// The evaluation of `g` for `me` with the weights `w` (see [`Weights`]).
pub(crate) fn evaluate_with(g: &HexiMeros, me: Seat, w: &Weights) -> i32 {
    if !g.is_active(me) {
        return -WIN / 2;
    }
    let Some(to) = g.to_move() else {
        return 0;
    };
    let mat = material(g);
    let (att, mob) = attack_sets(g);
    let opps: Vec<Seat> = g.active_seats().into_iter().filter(|&s| s != me).collect();
    let mut score = mat[me.index()]
        - opps.iter().map(|s| mat[s.index()]).sum::<i32>() / w.rival_share
        - w.sovereign * opps.len() as i32
        + w.mobility * mob[me.index()];
    // What each opponent may take of ours before the bot moves again. The seat to move
    // nearly surely takes its best target; each later seat may take its own (all of them
    // move first), so its best target is charged a good part. With the bot to move a
    // threatened piece can still step away: a small charge for each.
    let mut best_target = [0i32; 6];
    let mut threatened = 0;
    for (c, p) in g.pieces() {
        if g.controller(p.colour) != me || g.is_frozen(p) {
            continue;
        }
        let sovereign = p.kind == Kind::Sovereign;
        let v = if sovereign {
            w.sovereign_hanging
        } else {
            value(p.kind)
        };
        let mut attacked = false;
        for o in &opps {
            if att[o.index()].contains(c) {
                attacked = true;
                let b = &mut best_target[o.index()];
                *b = (*b).max(v);
            }
        }
        if attacked && to == me {
            threatened += if sovereign {
                w.sovereign_attacked_to_move
            } else {
                v / w.attacked_share
            };
        }
    }
    if to != me {
        for &o in &opps {
            let b = best_target[o.index()];
            threatened += if o == to {
                b * w.next_seat_tenths / 10
            } else if b >= w.sovereign_hanging {
                w.sovereign_at_risk
            } else {
                b * w.later_seat_tenths / 10
            };
        }
    }
    score -= threatened;
    if to == me {
        // The best capture on offer is nearly banked: it is our move. An opponent's last
        // Sovereign is credited a share of what taking it gains in this evaluation, never
        // more, so that a search whose leaves have the bot to move (Best-Reply Search) takes
        // it rather than keep it on offer.
        let best = att[me.index()]
            .iter()
            .filter_map(|c| g.piece(c))
            .map(|p| capture_gain(g, me, p, &mat, w))
            .max()
            .unwrap_or(0);
        score += best * w.banked_tenths / 10;
    } else {
        for &o in &opps {
            let pressed = g
                .sovereigns_of(o)
                .iter()
                .any(|&c| att[me.index()].contains(c));
            if pressed {
                score += w.pressing;
            }
        }
    }
    score
}

/// What a capture on offer of the piece `p` is worth to the bot before its share is banked.
/// An opponent's last Sovereign: what taking it gains in the evaluation (the seat out: its
/// life, and its material no longer counted against the bot), so that it is never credited
/// above the capture made. Anything else as before issue 21: a piece its value (more than the
/// `rival_share` of it the capture gains), any other Sovereign 3 × `sovereign`. Cutting those
/// too (a piece to its share, frozen and own pieces to nothing) lost hard BRS its Sovereign
/// in 4 of 8 games; see docs/tournaments.md.
fn capture_gain(g: &HexiMeros, me: Seat, p: Piece, mat: &[i32; 6], w: &Weights) -> i32 {
    let owner = g.controller(p.colour);
    if p.kind != Kind::Sovereign {
        return value(p.kind);
    }
    if owner != me && g.is_active(owner) && g.sovereigns_of(owner).len() <= 1 {
        w.sovereign + mat[owner.index()] / w.rival_share
    } else {
        w.sovereign * 3
    }
}

impl Engine for HexiMeros {
    fn quiescence(&self) -> u32 {
        0
    }

    fn evaluate(&self, me: Seat) -> i32 {
        evaluate_with(self, me, &Weights::DEFAULT)
    }

    /// Everything the moves and the evaluation read: the pieces, who controls each colour,
    /// the seats in, the Checks in force, the prisoners and the seat to move (not the draw
    /// counters, as chess engines leave out theirs), through `FxHasher`.
    fn tt_key(&self) -> Option<u64> {
        let mut h = FxHasher::default();
        self.to_move().hash(&mut h);
        for (c, p) in self.pieces() {
            (c.0, p).hash(&mut h);
        }
        for colour in 0..6u8 {
            self.controller(colour).hash(&mut h);
        }
        self.active_seats().hash(&mut h);
        self.check_records().hash(&mut h);
        self.prisoners().hash(&mut h);
        Some(h.finish())
    }

    /// Players may not pass (§3), but a position can skip a turn (`Move::PASS`, a stalled
    /// player's): Best-Reply Search lets the opponents who do not reply pass, as Schadd &
    /// Winands do, rather than make them play a move no one chose.
    fn null_move(&self) -> Option<Move> {
        Some(Move::PASS)
    }

    fn hint(&self, m: &Move) -> i32 {
        let taken: i32 = self
            .removed_by(m)
            .into_iter()
            .filter_map(|c| self.piece(c))
            .map(|p| {
                if p.kind == Kind::Sovereign {
                    100_000
                } else {
                    value(p.kind)
                }
            })
            .sum();
        taken + m.promotion.map_or(0, value)
    }
}

/// The Checks a bot declares with its move `m` (§5.3), as the move's `checks` bits.
///
/// An easy bot declares every Check it may, as a courteous beginner does. Stronger bots declare
/// only upon a seat that, after the move, attacks one of their Sovereigns or a piece worth at
/// least a Cavalier: that seat must then spend its turn relieving the Check instead of capturing.
/// Otherwise they stay silent and keep the Sovereign to capture on their next turn (§5.4 keeps
/// that silent option open).
pub fn declare_checks(g: &HexiMeros, m: &Move, level: Level) -> u8 {
    let Some(me) = g.to_move() else {
        return 0;
    };
    let targets = g.check_targets(&m.without_checks());
    if targets.is_empty() {
        return 0;
    }
    let bits = |seats: &[Seat]| seats.iter().fold(0u8, |b, s| b | 1 << s.0);
    if level <= Level::Easy {
        return bits(&targets);
    }
    let next = g.after(m);
    let (att, _) = attack_sets(&next);
    let mine: Vec<(crate::hex::Cell, Kind)> = next
        .pieces()
        .filter(|(_, p)| next.controller(p.colour) == me && !next.is_frozen(*p))
        .filter(|(_, p)| p.kind == Kind::Sovereign || p.kind.value() >= Kind::Cavalier.value())
        .map(|(c, p)| (c, p.kind))
        .collect();
    let chosen: Vec<Seat> = targets
        .into_iter()
        .filter(|t| mine.iter().any(|(c, _)| att[t.index()].contains(*c)))
        .collect();
    bits(&chosen)
}

/// Whether the bot in seat `me` declares Check upon the mover whose staged move `staged` leaves
/// a Sovereign of his attacked by `me` (§5.4). It stays silent when it moves next, so the
/// Sovereign is its to capture; otherwise it declares, rather than hand the capture (and the
/// points) to a player in between. It never declares when it does not attack (the host should
/// not ask, but the answer stays correct).
pub fn declare_check_upon(g: &HexiMeros, staged: &Move, me: Seat) -> bool {
    let Some(mover) = g.to_move() else {
        return false;
    };
    if mover == me || !g.challengers(&staged.without_checks()).contains(&me) {
        return false;
    }
    let next = g.after(staged);
    next.to_move() != Some(me)
}
