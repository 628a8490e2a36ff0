//! Seeded bot matches for `hexmeros ai tournament`: two levels, colours (or seats) alternated,
//! results and time per search tallied by level; and the timing of `hexmeros ai budget` (each
//! level's slowest move in a game's busiest middle game).
//!
//! Pure except for time, which the caller lends as a `clock` ([`Stamp`]: wall and CPU time since
//! any fixed instant), so the harness can report time per move without the library reading a
//! clock. Each side is a [`Bot`]: a level and a search kind. With three or more seats the two
//! sides take alternate seats (or side A one seat against B in all others, [`Seating::Lone`]),
//! shifted by one every game. A side *wins* a game when the top of the table is all its own:
//! every winner, or every seat still in when only one side is left. A game that hits the ply cap
//! with both sides still in, or a drawn game, is a draw for both, never a win. Average finishing
//! places tell who finished ahead. When the two sides are the same bot the game is played to its
//! end (or the cap), and the tallies still tell the two sets of seats apart.

use std::ops::{Add, Sub};
use std::time::Duration;

use super::{
    AiError, Level, Limits, Motion, SearchKind, Weights, choose_heximeros_searching,
    choose_searching, choose_with, declare_check_upon, default_search, proposes_abandon, vote,
    with_weights,
};
use crate::games::{AnyGame, GameKind, Outcome, Rules, Seat};

/// A reading of the clocks the caller lends: wall-clock time and the calling thread's CPU time,
/// each since any fixed instant. On a shared machine the two differ; the CPU time says what the
/// search costs, the wall time what a player waits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stamp {
    pub wall: Duration,
    pub cpu: Duration,
}

impl Sub for Stamp {
    type Output = Stamp;

    fn sub(self, o: Stamp) -> Stamp {
        Stamp {
            wall: self.wall.saturating_sub(o.wall),
            cpu: self.cpu.saturating_sub(o.cpu),
        }
    }
}

impl Add for Stamp {
    type Output = Stamp;

    fn add(self, o: Stamp) -> Stamp {
        Stamp {
            wall: self.wall + o.wall,
            cpu: self.cpu + o.cpu,
        }
    }
}

impl Stamp {
    /// Each clock's maximum.
    pub fn max(self, o: Stamp) -> Stamp {
        Stamp {
            wall: self.wall.max(o.wall),
            cpu: self.cpu.max(o.cpu),
        }
    }

    /// Each clock divided by `n` (≥ 1).
    pub fn per(self, n: u64) -> Stamp {
        let n = n.clamp(1, u32::MAX as u64) as u32;
        Stamp {
            wall: self.wall / n,
            cpu: self.cpu / n,
        }
    }
}

/// One side of a tournament: a level and, for three or more seats, the search it uses; in
/// HexiMeros, the evaluation's weights when not its level's ([`Weights::for_level`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bot {
    pub level: Level,
    pub search: SearchKind,
    pub weights: Option<Weights>,
    /// Its own node budget per move in place of its level's (and of the [`Spec`]'s), so one
    /// level can be measured at several budgets against another at its own.
    pub nodes: Option<u64>,
}

/// A seat without a bot given plays at random.
impl Default for Bot {
    fn default() -> Bot {
        Bot::new(Level::Random)
    }
}

impl Bot {
    /// A bot of `level` with the default search and weights.
    pub fn new(level: Level) -> Bot {
        Bot {
            level,
            search: SearchKind::default(),
            weights: None,
            nodes: None,
        }
    }

    /// `level`, or `level/search` when the search is not the default, with `+w` when it
    /// plays weights of its own.
    pub fn name(&self) -> String {
        let mut name = self.level.key().to_string();
        if self.search != SearchKind::default() {
            name = format!("{name}/{}", self.search.key());
        }
        if self
            .weights
            .is_some_and(|w| w != Weights::for_level(self.level))
        {
            name.push_str("+w");
        }
        if let Some(n) = self.nodes {
            name = format!("{name}@{n}");
        }
        name
    }

    /// The limits this bot searches with: `limits`, with its own node budget if it has one.
    fn limits(&self, limits: Limits) -> Limits {
        Limits {
            nodes: self.nodes.or(limits.nodes),
            ..limits
        }
    }

    /// Run `f` with this bot's weights in play (its level's when it has none of its own).
    fn playing<T>(&self, f: impl FnOnce() -> T) -> T {
        match self.weights {
            Some(w) => with_weights(w, f),
            None => f(),
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct Spec {
    pub kind: GameKind,
    /// Seats (Harmegedo 2–6; `None`: the game's most).
    pub players: Option<usize>,
    /// The two sides.
    pub a: Bot,
    pub b: Bot,
    pub games: u32,
    /// Index (from 0) of the first game to play: a run split into parts (`first` 0 and `games`
    /// 25, then `first` 25 and `games` 25) plays exactly the games of one run of 50.
    pub first: u32,
    pub seed: u64,
    /// Plies after which an unfinished game counts as a draw between the seats still in it.
    pub max_plies: u32,
    pub limits: Limits,
    pub seating: Seating,
    /// Plies played at random (seeded by each game's seed) before the bots take over, counted
    /// in the game's plies and moves. The bots' seeds only break ties between equal moves, so
    /// without an opening the games that seat the levels alike mostly repeat one another.
    pub opening: u32,
}

/// How the two levels share the seats of a game for three or more players (two seats always
/// alternate colours).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seating {
    /// A and B take alternate seats (three against three in a six-player game), shifted by one
    /// seat every game.
    #[default]
    Alternate,
    /// A takes a single seat, moving round the table game by game; B takes all the others.
    Lone,
}

impl std::str::FromStr for Seating {
    type Err = AiError;

    fn from_str(s: &str) -> Result<Seating, AiError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "alternate" => Ok(Seating::Alternate),
            "lone" => Ok(Seating::Lone),
            _ => Err(AiError::Position(format!(
                "unknown seating {s:?} (expected alternate or lone)"
            ))),
        }
    }
}

/// The default ply cap: enough for a decided game, short enough that a deadlocked one ends.
pub fn default_max_plies(kind: GameKind) -> u32 {
    match kind {
        GameKind::HexiMeros => 2400,
        GameKind::Harmegedo => 1200,
        _ => 400,
    }
}

/// Per-level tallies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Sum of finishing places over this level's seats (1 = first) and the number of seats.
    pub place_sum: f64,
    pub seats: u32,
    /// By seat index: the sum of this level's places in that seat and the games it sat there,
    /// so a run shows where at the table a level does well or badly.
    pub seat_places: Vec<(f64, u32)>,
    /// Searches made (one per move; a HexiMeros move re-chosen after a Check upon it, two).
    pub searches: u64,
    /// Time spent searching, in total and on the slowest search.
    pub time: Stamp,
    pub max_time: Stamp,
}

impl Tally {
    pub fn average_place(&self) -> f64 {
        if self.seats == 0 {
            0.0
        } else {
            self.place_sum / self.seats as f64
        }
    }

    pub fn average_time(&self) -> Stamp {
        self.time.per(self.searches)
    }

    /// This level's average place in each seat, by seat index, with the games it sat there
    /// (`None` for a seat it never sat in).
    pub fn place_by_seat(&self) -> Vec<Option<(f64, u32)>> {
        self.seat_places
            .iter()
            .map(|&(sum, n)| (n > 0).then(|| (sum / f64::from(n), n)))
            .collect()
    }
}

/// The tournament's result.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub a: Tally,
    pub b: Tally,
    pub games: u32,
    /// Games stopped by the ply cap.
    pub capped: u32,
    /// Games the rules ended in a draw (the abandoned ones too).
    pub drawn: u32,
    /// Of those, games of three or more seats deadlocked ([`super::deadlocked`]) and abandoned
    /// by the bots' vote.
    pub abandoned: u32,
    /// Games stopped because one side alone was left at the table.
    pub decided: u32,
    pub plies: u64,
    /// Each game's length in plies and in rounds (see [`GameRecord::rounds`]), in game order.
    pub lengths: Vec<(u32, u32)>,
}

impl Report {
    /// The median game length in plies and in rounds (the lower middle of an even count).
    pub fn median_length(&self) -> (u32, u32) {
        let median = |mut v: Vec<u32>| {
            v.sort_unstable();
            v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(0)
        };
        (
            median(self.lengths.iter().map(|l| l.0).collect()),
            median(self.lengths.iter().map(|l| l.1).collect()),
        )
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub outcome: Option<Outcome>,
    pub plies: u32,
    /// Rounds begun: a new one each time the turn passes back to a lower seat (a seat moving
    /// twice in a row, as with Hexmeister's bonus actions, stays in its round).
    pub rounds: u32,
    /// Finishing place per seat (shared places averaged).
    pub places: Vec<f64>,
    /// The bot in each seat.
    pub bots: Vec<Bot>,
    /// Seats not eliminated when the game ended.
    pub alive: Vec<bool>,
    /// Stopped unfinished by the ply cap (a game stopped because one level is left alone at
    /// the table is decided, not capped).
    pub capped: bool,
    /// Drawn by the bots' unanimous vote to abandon a deadlocked table ([`super::deadlocked`]).
    pub abandoned: bool,
    /// The moves played, in the game's notation, so a game can be replayed and studied.
    pub moves: Vec<String>,
}

/// Play `spec.games` games and tally them. `clock` returns the time elapsed since any fixed
/// instant; `progress` hears about each game as it ends.
pub fn run(
    spec: &Spec,
    clock: &mut dyn FnMut() -> Stamp,
    progress: &mut dyn FnMut(u32, &GameRecord),
) -> Result<Report, AiError> {
    let mut report = Report::default();
    let last = spec.first.checked_add(spec.games).ok_or_else(|| {
        AiError::Position(format!(
            "{} games from game {} run past the last game number ({})",
            spec.games,
            u64::from(spec.first) + 1,
            u32::MAX
        ))
    })?;
    if spec.opening >= spec.max_plies {
        return Err(AiError::Position(format!(
            "an opening of {} plies leaves nothing to play under the cap of {} plies",
            spec.opening, spec.max_plies
        )));
    }
    for i in spec.first..last {
        let mut start = AnyGame::new(spec.kind, spec.players, None)
            .map_err(|e| AiError::Position(e.to_string()))?;
        let n = start.seat_count();
        // Two seats: colours alternate. More: alternate seats, shifted every game.
        let shift = i as usize;
        let side_a: Vec<bool> = (0..n)
            .map(|s| match spec.seating {
                Seating::Lone if n > 2 => s == shift % n,
                _ => (s + shift).is_multiple_of(2),
            })
            .collect();
        let (bot_a, bot_b) = (spec.a, spec.b);
        let bots: Vec<Bot> = side_a
            .iter()
            .map(|&a| if a { bot_a } else { bot_b })
            .collect();
        let seed = spec
            .seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(i as u64);
        let opening = random_opening(&mut start, spec.opening, seed)?;
        let mut times: Vec<(Seat, Stamp)> = Vec::new();
        let mut rec = play_bots(
            start,
            &bots,
            seed,
            spec.max_plies - opening.len() as u32,
            spec.limits,
            &mut |seat, t| times.push((seat, t)),
            clock,
        )?;
        rec.plies += opening.len() as u32;
        // The rounds the opening completed: a round it left unfinished is the bots' first.
        rec.rounds += opening.len() as u32 / n as u32;
        rec.moves.splice(0..0, opening);
        report.games += 1;
        report.plies += rec.plies as u64;
        report.lengths.push((rec.plies, rec.rounds));
        match &rec.outcome {
            Some(Outcome::Draw { .. }) => {
                report.drawn += 1;
                report.abandoned += u32::from(rec.abandoned);
            }
            Some(Outcome::Win { .. }) => {}
            None if rec.capped => report.capped += 1,
            None => report.decided += 1,
        }
        // The top group: the winners, the seats sharing a draw, or the survivors of a capped or
        // decided game. A level wins when the top is all its own, draws when it shares it.
        let top: Vec<usize> = match &rec.outcome {
            Some(Outcome::Win { winners, .. }) => winners.iter().map(|s| s.index()).collect(),
            Some(Outcome::Draw { seats, .. }) => seats.iter().map(|s| s.index()).collect(),
            None => (0..n).filter(|&s| rec.alive[s]).collect(),
        };
        for which in [true, false] {
            let t = if which { &mut report.a } else { &mut report.b };
            let ours = top.iter().filter(|&&s| side_a[s] == which).count();
            if ours == top.len() && ours > 0 {
                t.wins += 1;
            } else if ours > 0 {
                t.draws += 1;
            } else {
                t.losses += 1;
            }
            if t.seat_places.len() < n {
                t.seat_places.resize(n, (0.0, 0));
            }
            for s in (0..n).filter(|&s| side_a[s] == which) {
                t.place_sum += rec.places[s];
                t.seats += 1;
                t.seat_places[s].0 += rec.places[s];
                t.seat_places[s].1 += 1;
            }
            for &(_, d) in times.iter().filter(|(s, _)| side_a[s.index()] == which) {
                t.searches += 1;
                t.time = t.time + d;
                t.max_time = t.max_time.max(d);
            }
        }
        progress(i, &rec);
    }
    Ok(report)
}

/// With three or more seats and two different bots, the game is decided for the tournament once
/// every seat still in it is the same bot: who of them wins does not change the tally, and bots
/// of one kind can circle each other until a draw rule ends it. A table of one bot alone is
/// never decided early: it is played to its end, which is what it is there to measure.
fn decided(g: &AnyGame, bots: &[Bot]) -> bool {
    let n = g.seat_count();
    if n <= 2 || bots.iter().all(|b| Some(b) == bots.first()) {
        return false;
    }
    let mut live = (0..n)
        .filter(|&s| alive(g, Seat(s as u8)))
        .map(|s| bots.get(s).copied().unwrap_or_default());
    match live.next() {
        Some(first) => live.all(|l| l == first),
        None => true,
    }
}

/// Whether `seat` is still in the game (multi-player games eliminate seats).
fn alive(g: &AnyGame, seat: Seat) -> bool {
    match g {
        AnyGame::HexiMeros(h) => h.is_active(seat),
        AnyGame::Harmegedo(h) => h.kingdom_of(seat).is_some_and(|k| h.is_live(k)),
        _ => true,
    }
}

/// Whether a table of bots abandons `g` (`n` seats) as a draw now: it is deadlocked and due to
/// be asked ([`proposes_abandon`]), the first seat still in holds the Token to propose it, and
/// every seat still in votes for it.
fn table_abandons(g: &AnyGame, n: usize) -> bool {
    if !proposes_abandon(g) {
        return false;
    }
    let live: Vec<Seat> = (0..n)
        .map(|s| Seat(s as u8))
        .filter(|&s| alive(g, s))
        .collect();
    g.to_move() == live.first().copied() && live.iter().all(|&s| vote(g, s, &Motion::Draw))
}

/// Play up to `plies` random moves on `game` (fewer if it ends), seeded by `seed`: the moves.
fn random_opening(game: &mut AnyGame, plies: u32, seed: u64) -> Result<Vec<String>, AiError> {
    let mut moves = Vec::new();
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let s = seed.rotate_left(17) ^ u64::from(ply).wrapping_mul(0x2545_f491_4f6c_dd1d);
        let text = choose_with(game, Level::Random, s, Limits::default())?.text;
        game.play(&text)
            .map_err(|e| AiError::Position(format!("opening move {text}: {e}")))?;
        moves.push(text);
    }
    Ok(moves)
}

/// Play one game from `game` with a level per seat (each with its default search); `timed` hears
/// the seat and duration of each bot search (a HexiMeros turn may take more than one: see
/// [`staged_heximeros`]).
pub fn play_game(
    game: AnyGame,
    levels: &[Level],
    seed: u64,
    max_plies: u32,
    limits: Limits,
    timed: &mut dyn FnMut(Seat, Stamp),
    clock: &mut dyn FnMut() -> Stamp,
) -> Result<GameRecord, AiError> {
    let kind = game.kind();
    let bots: Vec<Bot> = levels
        .iter()
        .map(|&level| Bot {
            search: default_search(kind, level),
            ..Bot::new(level)
        })
        .collect();
    play_bots(game, &bots, seed, max_plies, limits, timed, clock)
}

/// [`play_game`] with a [`Bot`] (level and search) per seat.
pub fn play_bots(
    mut game: AnyGame,
    bots: &[Bot],
    seed: u64,
    max_plies: u32,
    limits: Limits,
    timed: &mut dyn FnMut(Seat, Stamp),
    clock: &mut dyn FnMut() -> Stamp,
) -> Result<GameRecord, AiError> {
    let n = game.seat_count();
    let mut out_order: Vec<usize> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut plies = 0;
    let mut rounds = 0;
    let mut last_seat: Option<Seat> = None;
    let mut abandoned = false;
    while game.outcome().is_none() && plies < max_plies && !decided(&game, bots) {
        // A deadlocked table (three or more left, none able to end it) is abandoned as a
        // draw, as at a host's table of bots: the first seat still in proposes it when it
        // holds the Token at the moment to ask, and every seat left votes.
        if table_abandons(&game, n) {
            game.agree_draw()
                .map_err(|e| AiError::Position(format!("abandoning the game: {e}")))?;
            abandoned = true;
            break;
        }
        let Some(seat) = game.to_move() else { break };
        if last_seat.is_none_or(|l| seat.index() < l.index()) {
            rounds += 1;
        }
        last_seat = Some(seat);
        let bot = bots.get(seat.index()).copied().unwrap_or_default();
        let move_seed = seed ^ (plies as u64).wrapping_mul(0xd1b5_4a32_d192_ed03);
        // Each search is timed on its own, as the host gives each its own deadline: a
        // HexiMeros bot answering a Check declared upon its staged move searches again.
        let text = match &game {
            AnyGame::HexiMeros(h) => {
                staged_heximeros(h, bots, seat, move_seed, limits, timed, clock)?
            }
            g => {
                timed_search(seat, timed, clock, || {
                    choose_searching(g, bot.level, bot.search, move_seed, bot.limits(limits))
                })?
                .text
            }
        };
        game.play(&text)
            .map_err(|e| AiError::Position(format!("bot chose {text}: {e}")))?;
        moves.push(text);
        plies += 1;
        for s in 0..n {
            if !alive(&game, Seat(s as u8)) && !out_order.contains(&s) {
                out_order.push(s);
            }
        }
    }
    let outcome = game.outcome();
    let capped = outcome.is_none() && plies >= max_plies;
    // Places: the first out is last; winners first; draws and capped survivors share.
    let mut places = vec![0.0; n];
    for (i, &s) in out_order.iter().enumerate() {
        places[s] = (n - i) as f64;
    }
    let rest: Vec<usize> = (0..n).filter(|s| !out_order.contains(s)).collect();
    match &outcome {
        Some(Outcome::Win { winners, .. }) => {
            let (w, l): (Vec<usize>, Vec<usize>) = rest
                .iter()
                .partition(|&&s| winners.contains(&Seat(s as u8)));
            share(&mut places, &w, 1);
            share(&mut places, &l, 1 + w.len());
        }
        _ => share(&mut places, &rest, 1),
    }
    Ok(GameRecord {
        outcome,
        plies,
        rounds,
        places,
        bots: bots.to_vec(),
        alive: (0..n).map(|s| !out_order.contains(&s)).collect(),
        capped,
        abandoned,
        moves,
    })
}

/// One search, timed: `timed` hears how long `search` took.
fn timed_search<T>(
    seat: Seat,
    timed: &mut dyn FnMut(Seat, Stamp),
    clock: &mut dyn FnMut() -> Stamp,
    search: impl FnOnce() -> Result<T, AiError>,
) -> Result<T, AiError> {
    let t0 = clock();
    let found = search()?;
    timed(seat, clock() - t0);
    Ok(found)
}

/// Seats `seats` share the places from `first` on.
fn share(places: &mut [f64], seats: &[usize], first: usize) {
    if seats.is_empty() {
        return;
    }
    let avg = first as f64 + (seats.len() as f64 - 1.0) / 2.0;
    for &s in seats {
        places[s] = avg;
    }
}

/// A HexiMeros turn as the host runs it: the bot stages a move, every bot it leaves attacking
/// the mover's Sovereign is asked whether to declare Check upon him (§5.4), and the mover
/// re-chooses respecting the declarations. A random seat never declares. `timed` hears each
/// search.
fn staged_heximeros(
    h: &crate::games::heximeros::HexiMeros,
    bots: &[Bot],
    seat: Seat,
    seed: u64,
    limits: Limits,
    timed: &mut dyn FnMut(Seat, Stamp),
    clock: &mut dyn FnMut() -> Stamp,
) -> Result<String, AiError> {
    let bot = bots.get(seat.index()).copied().unwrap_or_default();
    let limits = bot.limits(limits);
    let mut declarers: Vec<Seat> = Vec::new();
    loop {
        let choice = timed_search(seat, timed, clock, || {
            bot.playing(|| {
                choose_heximeros_searching(h, &declarers, bot.level, bot.search, seed, limits)
            })
        })?;
        let staged = h
            .parse_move(&choice.text)
            .map_err(|e| AiError::Position(format!("bot chose {}: {e}", choice.text)))?;
        let new: Vec<Seat> = h
            .challengers(&staged.without_checks())
            .into_iter()
            .filter(|s| !declarers.contains(s))
            .filter(|s| {
                bots.get(s.index())
                    .is_some_and(|b| b.level != Level::Random)
            })
            .filter(|&s| declare_check_upon(h, &staged, s))
            .collect();
        // Respecting is impossible when every move is attacked: declarations lapse (§5.3).
        if new.is_empty()
            || h.moves_respecting(&[declarers.clone(), new.clone()].concat()) == h.legal_moves()
        {
            return Ok(choice.text);
        }
        declarers.extend(new);
    }
}

/// A game's busiest middle game, for timing the bots where they have the most to search: the
/// position with the most legal moves met in `playouts` seeded random playouts of up to
/// `plies` plies, skipping the first `skip` plies (the opening is not the middle game).
/// Random play scatters the pieces, so this is busier than most real games: a pessimistic
/// measure, as a budget should be.
pub fn busiest(
    kind: GameKind,
    players: Option<usize>,
    seed: u64,
    playouts: u32,
    skip: u32,
    plies: u32,
) -> Result<(AnyGame, usize), AiError> {
    let start = AnyGame::new(kind, players, None).map_err(|e| AiError::Position(e.to_string()))?;
    let mut best = (start.clone(), start.legal_moves().len());
    for p in 0..playouts {
        let mut g = start.clone();
        let s = seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(p as u64);
        for ply in 0..plies {
            if g.outcome().is_some() {
                break;
            }
            let n = g.legal_moves().len();
            if ply >= skip && n > best.1 {
                best = (g.clone(), n);
            }
            let text = choose_with(&g, Level::Random, s ^ ply as u64, Limits::default())?.text;
            g.play(&text)
                .map_err(|e| AiError::Position(format!("random move {text}: {e}")))?;
        }
    }
    Ok(best)
}

/// How long one level took over several seeds in one position.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    pub moves: u32,
    pub total: Stamp,
    pub max: Stamp,
    /// The most nodes one move searched, and the shallowest depth it completed.
    pub max_nodes: u64,
    pub min_depth: u32,
}

/// Time `level` choosing a move in `game` with `seeds` different seeds (each a full search from
/// scratch, as a host asks), searching as `search` says with three or more seats. `limits` gives each move's limits as it starts (a deadline is
/// counted from then); `clock` as in [`run`].
pub fn time_moves(
    game: &AnyGame,
    level: Level,
    search: SearchKind,
    seeds: u32,
    limits: &mut dyn FnMut() -> Limits,
    clock: &mut dyn FnMut() -> Stamp,
) -> Result<Timing, AiError> {
    let mut t = Timing {
        min_depth: u32::MAX,
        ..Timing::default()
    };
    for seed in 0..seeds {
        let t0 = clock();
        let c = choose_searching(game, level, search, seed as u64, limits())?;
        let d = clock() - t0;
        t.moves += 1;
        t.total = t.total + d;
        t.max = t.max.max(d);
        t.max_nodes = t.max_nodes.max(c.nodes);
        t.min_depth = t.min_depth.min(c.depth);
    }
    Ok(t)
}
