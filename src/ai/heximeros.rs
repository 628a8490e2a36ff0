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
use crate::games::heximeros::{Action, BOARD, HexiMeros, Kind, Move, Piece};
use crate::games::{Rules, Seat};
use crate::hex::{Cell, CellSet, Direction, Hex};

/// The terms of the evaluation, as data (docs/tournaments.md, "HexiMeros evaluation terms").
/// Material is in tenths of the §7 capture values (a Militant is 50). The bots play
/// [`Weights::DEFAULT`]; the tournament harness and the tuner play others through
/// [`with_weights`], and read and write them as `name=value` lists ([`Weights::TERMS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// What a Sovereign on the board is worth to its seat beyond its capture value: the seat's
    /// life. Each opponent still in costs the bot this much.
    pub sovereign: i64,
    /// Opponents' material counts 1/this: trading evenly with one of five rivals helps the
    /// other four, but taking a piece for free is always good.
    pub rival_share: i64,
    /// Per pseudo-legal move of the bot.
    pub mobility: i64,
    /// What an attacked Sovereign of the bot's is charged as, in place of a piece's value (the
    /// seat would be out), before the shares below.
    pub sovereign_hanging: i64,
    /// Bot not to move: the seat to move is charged this many tenths of its best target among
    /// the bot's pieces (it nearly surely takes it).
    pub next_seat_tenths: i64,
    /// Bot not to move: a later opponent (it plays before the bot, but may have better things
    /// to do) is charged this many tenths of its best target ...
    pub later_seat_tenths: i64,
    /// ... or this much when that target is a Sovereign.
    pub sovereign_at_risk: i64,
    /// Bot to move: per Sovereign of its own attacked (it can still step away).
    pub sovereign_attacked_to_move: i64,
    /// Bot to move: per other attacked piece, 1/this of its value.
    pub attacked_share: i64,
    /// Bot to move: this many tenths of its best capture on offer: of what taking an
    /// opponent's last Sovereign gains in this evaluation (the seat out; below ten, so it never
    /// scores above the capture made), of a piece's value otherwise.
    pub banked_tenths: i64,
    /// Bot not to move: per opponent whose Sovereign the bot attacks.
    pub pressing: i64,
    /// The hunt of the weakest opponent (the one with the fewest Sovereigns, then the least
    /// material; every bot picks the same seat, so they close in on it together): per piece of
    /// the bot, this much for each step it stands closer than `hunt_range` to that seat's
    /// nearest Sovereign. It gives the bot a plan when nothing hangs, instead of a shuffle.
    pub hunt: i64,
    pub hunt_range: i64,
    /// Per cell next to the weakest opponent's Sovereign (one of its twelve steps, not held by
    /// its own pieces) that the bot covers: the net that leaves a Sovereign nowhere to go.
    pub net: i64,
    /// Charged when the bot is itself the weakest seat at the table, the one the others hunt.
    pub prey: i64,
    /// Per cell next to a Sovereign of the bot's (not held by its own pieces) that an opponent
    /// covers: the net drawn round the bot's own Sovereign.
    pub guard: i64,
    /// Per full round (one move of each seat in) since the last capture, unhatted Militant
    /// move or promotion, up to `restless_rounds`: charged at every leaf, so a line that
    /// captures, pushes a Militant or promotes (and sets that count back to nothing) gains
    /// what the quiet lines are charged. It grows with the shuffling: a bot left with nothing
    /// to do trades, pushes and attacks instead of circling until the ply cap.
    pub restless: i64,
    pub restless_rounds: i64,
    /// Bot to move: of its attacked pieces (not Sovereigns) it can step away with one, the
    /// most valuable; each other one is charged this many tenths of its value, since the seats
    /// attacking them each take their own before the bot moves again. It matters most at the
    /// leaves of Best-Reply Search, where only one opponent has replied and the others' threats
    /// still stand.
    pub unsaved_tenths: i64,
    /// A draw the bot shares (the last two's 50-round rule, bare Sovereigns) scores this many
    /// tenths of what the evaluation gives an even position of the seats in it: `sovereign` for
    /// each other seat, and the `restless` charge of the rounds the draw took. At 0 a draw
    /// scores 0, above every position with an opponent left (each costs `sovereign`), so
    /// both of the last two steer into it, the one ahead too; at 10 the seat ahead on
    /// material avoids it and the seat behind seeks it.
    pub draw_tenths: i64,
    /// At the root only (too costly at every leaf): per opponent beyond the first that
    /// attacks a Sovereign of the bot's after its move, or could with one move of a piece.
    /// Two such seats moving before the bot again can declare two Checks and leave its
    /// Sovereign one step, into a third seat's attack: the net Best-Reply Search, which lets
    /// one opponent move between two of the bot's own, does not see.
    pub exposed: i64,
    /// At the root only, as `exposed`: per move of any opponent that attacks a Sovereign of
    /// the bot's, or leaves the piece moved attacking one.
    pub exposed_moves: i64,
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
        hunt: 1,
        hunt_range: 12,
        net: 30,
        prey: 0,
        guard: 0,
        restless: 40,
        restless_rounds: 100,
        unsaved_tenths: 0,
        draw_tenths: 0,
        exposed: 0,
        exposed_moves: 0,
    };

    /// Every term's name, with its place in the struct.
    pub const TERMS: [(&'static str, Term); 22] = [
        ("sovereign", |w| &mut w.sovereign),
        ("rival_share", |w| &mut w.rival_share),
        ("mobility", |w| &mut w.mobility),
        ("sovereign_hanging", |w| &mut w.sovereign_hanging),
        ("next_seat_tenths", |w| &mut w.next_seat_tenths),
        ("later_seat_tenths", |w| &mut w.later_seat_tenths),
        ("sovereign_at_risk", |w| &mut w.sovereign_at_risk),
        ("sovereign_attacked_to_move", |w| {
            &mut w.sovereign_attacked_to_move
        }),
        ("attacked_share", |w| &mut w.attacked_share),
        ("banked_tenths", |w| &mut w.banked_tenths),
        ("pressing", |w| &mut w.pressing),
        ("hunt", |w| &mut w.hunt),
        ("hunt_range", |w| &mut w.hunt_range),
        ("net", |w| &mut w.net),
        ("prey", |w| &mut w.prey),
        ("guard", |w| &mut w.guard),
        ("restless", |w| &mut w.restless),
        ("restless_rounds", |w| &mut w.restless_rounds),
        ("unsaved_tenths", |w| &mut w.unsaved_tenths),
        ("draw_tenths", |w| &mut w.draw_tenths),
        ("exposed", |w| &mut w.exposed),
        ("exposed_moves", |w| &mut w.exposed_moves),
    ];

    /// The value of the term `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<i64> {
        let mut w = *self;
        Self::TERMS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f(&mut w))
    }

    /// Where the term `name` lives, or what is wrong with the name.
    pub fn term(name: &str) -> Result<Term, String> {
        Self::TERMS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::TERMS.iter().map(|(n, _)| *n).collect();
                format!(
                    "unknown HexiMeros evaluation term {name:?} (the terms: {})",
                    names.join(", ")
                )
            })
    }

    /// The most any term may be either way: a won game's score ([`WIN`]), far beyond any
    /// weight that plays. Within it the evaluation, summed in `i64`, cannot overflow.
    pub const LIMIT: i64 = WIN as i64;

    /// The values the term `name` may take: within [`Weights::LIMIT`] either way, and at least
    /// 1 for the terms that divide (`rival_share`, `attacked_share`).
    pub fn range(name: &str) -> std::ops::RangeInclusive<i64> {
        if matches!(name, "rival_share" | "attacked_share") {
            1..=Self::LIMIT
        } else {
            -Self::LIMIT..=Self::LIMIT
        }
    }

    /// Set the term `name` to `value`, within its [`Weights::range`].
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let f = Self::term(name)?;
        let range = Self::range(name);
        if *range.start() == 1 && value < 1 {
            return Err(format!(
                "{name} divides: it must be at least 1, not {value}"
            ));
        }
        if !range.contains(&value) {
            return Err(format!(
                "{name} must be between {} and {}, not {value}",
                range.start(),
                range.end()
            ));
        }
        *f(self) = value;
        Ok(())
    }
}

/// `name=value` for every term, comma-separated.
impl std::fmt::Display for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let terms: Vec<String> = Weights::TERMS
            .iter()
            .map(|(n, _)| format!("{n}={}", self.get(n).unwrap_or_default()))
            .collect();
        f.write_str(&terms.join(","))
    }
}

impl Weights {
    /// The weights a level plays when nothing else is asked. Hard adds `draw_tenths` (10), so
    /// the seat ahead in the last duel plays on instead of steering into a shared draw (issue
    /// 21's sixth and seventh slices), and `guard` (10) and `prey` (300), so it minds the net
    /// two seats draw round its Sovereigns in turn, which Best-Reply Search, letting one
    /// opponent move between two of its own, does not see (twelfth slice: alone against five
    /// normal bots, games 1-21, average place 2.81 against 3.21; docs/tournaments.md), and
    /// `exposed` (2000), so it keeps the seats that could check its Sovereign few (fifteenth
    /// slice). The other levels keep [`Weights::DEFAULT`].
    pub const fn for_level(level: Level) -> Weights {
        match level {
            Level::Hard => Weights {
                draw_tenths: 10,
                guard: 10,
                prey: 300,
                exposed: 2000,
                ..Weights::DEFAULT
            },
            _ => Weights::DEFAULT,
        }
    }

    /// These weights with the `name=value` pairs of `s` (comma-separated) set: the terms not
    /// named keep their value here.
    pub fn with_pairs(self, s: &str) -> Result<Weights, String> {
        let mut w = self;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((name, value)) = part.split_once('=') else {
                return Err(format!("{part:?} is not name=value"));
            };
            let value: i64 = value
                .trim()
                .parse()
                .map_err(|_| format!("{:?} is not a whole number (in {part:?})", value.trim()))?;
            w.set(name.trim(), value)?;
        }
        Ok(w)
    }
}

/// `name=value` pairs, comma-separated, over [`Weights::DEFAULT`]: the terms not named keep
/// their default.
impl std::str::FromStr for Weights {
    type Err = String;

    fn from_str(s: &str) -> Result<Weights, String> {
        Weights::DEFAULT.with_pairs(s)
    }
}

/// Where a term lives in [`Weights`].
pub type Term = fn(&mut Weights) -> &mut i64;

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

thread_local! {
    /// The weights asked for on this thread, for the span of a [`with_weights`]; `None` outside
    /// one, where a bot plays its level's ([`Weights::for_level`]).
    static PLAYING: std::cell::Cell<Option<Weights>> = const { std::cell::Cell::new(None) };
}

/// The weights the evaluation plays on this thread now: those asked for, or the default.
pub(super) fn playing() -> Weights {
    asked().unwrap_or(Weights::DEFAULT)
}

/// The weights a [`with_weights`] asks for on this thread now, if any.
pub(super) fn asked() -> Option<Weights> {
    PLAYING.with(|p| p.get())
}

/// Run `f` with the HexiMeros evaluation playing `w` on this thread (the harness's sides with
/// their own weights); the previous weights come back after, also if `f` panics.
pub fn with_weights<T>(w: Weights, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Weights>);
    impl Drop for Restore {
        fn drop(&mut self) {
            PLAYING.with(|p| p.set(self.0));
        }
    }
    let _restore = Restore(PLAYING.with(|p| p.replace(Some(w))));
    f()
}

const SOVEREIGN: i64 = Weights::DEFAULT.sovereign;

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
    /// Five times paranoid's nodes: at paranoid's counts BRS completed only its first ply in
    /// the busiest positions (one opponent layer is every rival's reply to each of 300-odd
    /// moves), while a node costs it about a quarter of paranoid's (docs/tournaments.md).
    fn brs_budget(level: Level) -> (u32, u64) {
        match level {
            Level::Hard => (5, 200_000),
            _ => (3, 30_000),
        }
    }
    /// A third of BRS's nodes: each of its nodes past a reply generates the moves of every
    /// opponent who does not reply (their best captures), so at BRS's counts it took 1.06 s
    /// (normal) and 6.7 s (hard) in `heximeros_mid4`, over both caps (docs/tournaments.md).
    fn brs_plus_budget(level: Level) -> (u32, u64) {
        match level {
            Level::Hard => (5, 70_000),
            _ => (3, 10_000),
        }
    }
    const EASY_NOISE: i32 = 400;
    /// An opponent attacks one of `me`'s Sovereigns, or `me` is the seat the bots hunt.
    fn hunted(&self, me: Seat) -> bool {
        is_prey(self, me, &material(self)) || !self.attackers_of_seat(me).is_empty()
    }
}

/// What each active seat's pseudo-legal moves reach.
struct Reach {
    /// The cells whose pieces each seat could take (a Dreadnaught's ram path included).
    att: [CellSet; 6],
    /// Every cell each seat could move to, shoot at or take on: the `att` cells and the empty
    /// ones (the squares it controls).
    cover: [CellSet; 6],
    /// The number of pseudo-legal moves of each seat.
    mob: [i32; 6],
}

fn attack_sets(g: &HexiMeros) -> Reach {
    let mut r = Reach {
        att: [CellSet::new(); 6],
        cover: [CellSet::new(); 6],
        mob: [0; 6],
    };
    let mut moves = Vec::with_capacity(160);
    for s in g.active_seats() {
        moves.clear();
        g.seat_moves(s, &mut moves);
        r.mob[s.index()] = moves.len() as i32;
        let set = &mut r.att[s.index()];
        let cover = &mut r.cover[s.index()];
        for m in &moves {
            match m.action {
                Action::Move => {
                    cover.insert(m.to);
                    let ram = matches!(g.piece(m.from), Some(p) if p.kind == Kind::Dreadnaught);
                    if ram {
                        for c in g.removed(m) {
                            set.insert(c);
                        }
                    } else if g.piece(m.to).is_some() {
                        set.insert(m.to);
                    }
                }
                Action::Shot => {
                    set.insert(m.to);
                    cover.insert(m.to);
                }
                Action::MoveShot(t) => {
                    set.insert(t);
                    cover.insert(t);
                }
                Action::Resurrect(_) | Action::Pass => {}
            }
        }
    }
    r
}

/// Material of each seat's unfrozen pieces, Sovereigns not counted.
fn material(g: &HexiMeros) -> [i64; 6] {
    let mut mat = [0i64; 6];
    for (_, p) in g.pieces() {
        if p.kind != Kind::Sovereign && !g.is_frozen(p) {
            mat[g.controller(p.colour).index()] += i64::from(value(p.kind));
        }
    }
    mat
}

/// Material against the average active opponent (for votes).
pub(super) fn standing(g: &HexiMeros, me: Seat) -> i32 {
    if !g.is_active(me) {
        return bounded(-SOVEREIGN);
    }
    let mat = material(g);
    let opps: Vec<Seat> = g.active_seats().into_iter().filter(|&s| s != me).collect();
    if opps.is_empty() {
        return bounded(SOVEREIGN);
    }
    let avg = opps.iter().map(|s| mat[s.index()]).sum::<i64>() / opps.len() as i64;
    bounded(mat[me.index()] - avg)
}

/// The most an evaluation may score either way: half a won game, so that no weights make a
/// position look won or lost to the search ([`WIN`]).
const EVAL_LIMIT: i64 = WIN as i64 / 2;

/// `v` within [`EVAL_LIMIT`]. The evaluation sums in `i64` and ends here: a term is a weight
/// (at most [`Weights::LIMIT`] either way) times a count bounded by the board, or two weights
/// multiplied, so no sum of them overflows.
fn bounded(v: i64) -> i32 {
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT) as i32
}

/// The evaluation of `g` for `me` with the weights `w` (see [`Weights`]).
pub(crate) fn evaluate_with(g: &HexiMeros, me: Seat, w: &Weights) -> i32 {
    if !g.is_active(me) {
        return -WIN / 2;
    }
    let Some(to) = g.to_move() else {
        return 0;
    };
    bounded(evaluate_wide(g, me, to, w))
}

/// [`evaluate_with`] of an active `me`, `to` to move, before its bound.
fn evaluate_wide(g: &HexiMeros, me: Seat, to: Seat, w: &Weights) -> i64 {
    let mat = material(g);
    let reach = attack_sets(g);
    let (att, mob) = (&reach.att, &reach.mob);
    let opps: Vec<Seat> = g.active_seats().into_iter().filter(|&s| s != me).collect();
    let mut score = mat[me.index()]
        - opps.iter().map(|s| mat[s.index()]).sum::<i64>() / w.rival_share
        - w.sovereign * opps.len() as i64
        + w.mobility * i64::from(mob[me.index()]);
    // What each opponent may take of ours before the bot moves again. The seat to move
    // nearly surely takes its best target; each later seat may take its own (all of them
    // move first), so its best target is charged a good part. With the bot to move a
    // threatened piece can still step away: a small charge for each.
    let mut best_target = [0i64; 6];
    let mut threatened = 0;
    // Bot to move: the values of its attacked pieces, and the largest (the one it saves).
    let (mut attacked_sum, mut attacked_max) = (0, 0);
    for (c, p) in g.pieces() {
        if g.controller(p.colour) != me || g.is_frozen(p) {
            continue;
        }
        let sovereign = p.kind == Kind::Sovereign;
        let v = if sovereign {
            w.sovereign_hanging
        } else {
            i64::from(value(p.kind))
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
            if sovereign {
                threatened += w.sovereign_attacked_to_move;
            } else {
                threatened += v / w.attacked_share;
                attacked_sum += v;
                attacked_max = attacked_max.max(v);
            }
        }
    }
    if to == me {
        threatened += (attacked_sum - attacked_max) * w.unsaved_tenths / 10;
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
    score += hunt(g, me, &opps, &mat, &reach, w);
    score -= restless_charge(g, opps.len() + 1, w);
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

/// The `restless` charge of `g` with `seats` seats left: per full round since the last
/// progress, up to `restless_rounds`.
fn restless_charge(g: &HexiMeros, seats: usize, w: &Weights) -> i64 {
    if w.restless == 0 {
        return 0;
    }
    let seats = seats.max(1) as i64;
    let quiet = (i64::from(g.halfmove_clock()) / seats).min(w.restless_rounds);
    w.restless * quiet.max(0)
}

/// What a draw `me` shares with `seats` is worth to it ([`Weights::draw_tenths`]).
pub(crate) fn draw_score_with(g: &HexiMeros, seats: &[Seat], me: Seat, w: &Weights) -> i32 {
    if w.draw_tenths == 0 || !seats.contains(&me) {
        return 0;
    }
    let others = seats.len().saturating_sub(1) as i64;
    let even = -w.sovereign * others - restless_charge(g, seats.len(), w);
    bounded(even * w.draw_tenths / 10)
}

/// The seat the bots hunt among `seats`: the fewest Sovereigns, then the least material, then
/// the first seat (so that every bot picks the same), with its Sovereigns' cells.
fn prey_among(
    g: &HexiMeros,
    seats: impl Iterator<Item = Seat>,
    mat: &[i64; 6],
) -> Option<(Seat, Vec<Cell>)> {
    seats
        .map(|s| (s, g.sovereigns_of(s)))
        .filter(|(_, sov)| !sov.is_empty())
        .min_by_key(|(s, sov)| (sov.len(), mat[s.index()], s.index()))
}

/// Whether `me` is the seat every bot hunts among all the seats still in the game.
fn is_prey(g: &HexiMeros, me: Seat, mat: &[i64; 6]) -> bool {
    prey_among(g, g.active_seats().into_iter(), mat).is_some_and(|(s, _)| s == me)
}

/// The cells a Sovereign on `at` could step to (its twelve steps) that `seat`'s own pieces do
/// not hold.
fn escapes(g: &HexiMeros, seat: Seat, at: Cell) -> impl Iterator<Item = Cell> + '_ {
    let geo = &BOARD.geometry;
    Direction::ALL
        .into_iter()
        .filter_map(move |d| geo.step(at, d))
        .filter(move |&e| {
            !g.piece(e)
                .is_some_and(|p| g.controller(p.colour) == seat && !g.is_frozen(p))
        })
}

/// The terms of [`Weights`] about Sovereigns hunted: `hunt` and `net` for the bot hunting the
/// weakest opponent, `prey` and `guard` for its own Sovereigns.
fn hunt(g: &HexiMeros, me: Seat, opps: &[Seat], mat: &[i64; 6], reach: &Reach, w: &Weights) -> i64 {
    let mut score = 0;
    let cover = &reach.cover[me.index()];
    if let Some((prey, targets)) = prey_among(g, opps.iter().copied(), mat) {
        let geo = &BOARD.geometry;
        let hexes: Vec<Hex> = targets.iter().map(|&c| geo.hex(c)).collect();
        for (c, p) in g.pieces() {
            if p.kind == Kind::Sovereign || g.controller(p.colour) != me || g.is_frozen(p) {
                continue;
            }
            let h = geo.hex(c);
            let near = hexes
                .iter()
                .map(|t| i64::from(t.distance(h)))
                .min()
                .unwrap_or(i64::MAX);
            score += w.hunt * w.hunt_range.saturating_sub(near).max(0);
        }
        for &t in &targets {
            score += w.net * escapes(g, prey, t).filter(|&e| cover.contains(e)).count() as i64;
        }
    }
    if w.prey != 0 && is_prey(g, me, mat) {
        score -= w.prey;
    }
    if w.guard != 0 {
        for t in g.sovereigns_of(me) {
            let covered = escapes(g, me, t)
                .filter(|&e| opps.iter().any(|o| reach.cover[o.index()].contains(e)))
                .count();
            score -= w.guard * covered as i64;
        }
    }
    score
}

/// Per seat, its pseudo-legal moves that take a Sovereign of `me`'s or leave the piece moved
/// attacking one ([`Weights::exposed`]); discovered attacks are not looked for. Each costs a
/// copy of the position, so it is asked at the root only.
pub(crate) fn checking_moves(g: &HexiMeros, me: Seat) -> [usize; 6] {
    let mut out = [0; 6];
    let sovs = g.sovereigns_of(me);
    if sovs.is_empty() {
        return out;
    }
    let mut moves = Vec::with_capacity(160);
    for o in g.active_seats() {
        if o == me {
            continue;
        }
        moves.clear();
        g.seat_moves(o, &mut moves);
        let reaches = |m: &Move| match m.action {
            Action::Move | Action::MoveShot(_) => {
                let next = g.after(m);
                sovs.iter().any(|&s| next.piece_attacks(m.to, s))
            }
            Action::Shot | Action::Resurrect(_) | Action::Pass => false,
        };
        let attacks_now = |m: &Move| g.removed(m).any(|c| sovs.contains(&c));
        out[o.index()] = moves
            .iter()
            .filter(|m| attacks_now(m) || reaches(m))
            .count();
    }
    out
}

/// What a capture on offer of the piece `p` is worth to the bot before its share is banked.
/// An opponent's last Sovereign: what taking it gains in the evaluation (the seat out: its
/// life, and its material no longer counted against the bot), so that it is never credited
/// above the capture made. Anything else as before issue 21: a piece its value (more than the
/// `rival_share` of it the capture gains), any other Sovereign 3 × `sovereign`. Cutting those
/// too (a piece to its share, frozen and own pieces to nothing) lost hard BRS its Sovereign
/// in 4 of 8 games; see docs/tournaments.md.
fn capture_gain(g: &HexiMeros, me: Seat, p: Piece, mat: &[i64; 6], w: &Weights) -> i64 {
    let owner = g.controller(p.colour);
    if p.kind != Kind::Sovereign {
        return i64::from(value(p.kind));
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
        evaluate_with(self, me, &playing())
    }

    fn draw_score(&self, seats: &[Seat], me: Seat) -> i32 {
        draw_score_with(self, seats, me, &playing())
    }

    /// The `exposed` charge ([`Weights::exposed`]).
    fn root_bias(&self, me: Seat) -> i32 {
        let w = playing();
        if (w.exposed == 0 && w.exposed_moves == 0) || !self.is_active(me) {
            return 0;
        }
        let per_seat = checking_moves(self, me);
        let seats = per_seat.iter().filter(|&&n| n > 0).count();
        let moves: usize = per_seat.iter().sum();
        bounded(-w.exposed * seats.saturating_sub(1) as i64 - w.exposed_moves * moves as i64)
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

    /// Without playing out every move under a Check's relief duty ([`HexiMeros::best_legal_by`]).
    fn best_capture(&self) -> Option<Move> {
        self.best_legal_by(|m| self.hint(m))
    }

    fn hint(&self, m: &Move) -> i32 {
        let taken: i32 = self
            .removed(m)
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
    let att = attack_sets(&next).att;
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
