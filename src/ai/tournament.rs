//! Seeded bot matches for `hexmeros ai tournament`: two levels, colours (or seats) alternated,
//! results and time per move tallied by level.
//!
//! Pure except for time, which the caller lends as a `clock` (elapsed time since any fixed
//! instant), so the harness can report seconds per move without the library reading a clock.
//! With three or more seats the two levels take alternate seats, shifted by one every game, and
//! a level *wins* a game when every winner is its own; average finishing places tell who finished
//! ahead.

use std::time::Duration;

use super::{AiError, Level, Limits, choose_heximeros, choose_with, declare_check_upon};
use crate::games::{AnyGame, GameKind, Outcome, Rules, Seat};

/// What to play.
#[derive(Clone, Debug)]
pub struct Spec {
    pub kind: GameKind,
    /// Seats (Harmegedo 2–6; `None`: the game's most).
    pub players: Option<usize>,
    pub a: Level,
    pub b: Level,
    pub games: u32,
    pub seed: u64,
    /// Plies after which an unfinished game counts as a draw between the seats still in it.
    pub max_plies: u32,
    pub limits: Limits,
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
    pub moves: u64,
    pub time: Duration,
    pub max_time: Duration,
}

impl Tally {
    pub fn average_place(&self) -> f64 {
        if self.seats == 0 {
            0.0
        } else {
            self.place_sum / self.seats as f64
        }
    }

    pub fn average_time(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.time / self.moves as u32
        }
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
    pub plies: u64,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub outcome: Option<Outcome>,
    pub plies: u32,
    /// Finishing place per seat (shared places averaged).
    pub places: Vec<f64>,
    /// Seats not eliminated when the game ended.
    pub alive: Vec<bool>,
}

/// Play `spec.games` games and tally them. `clock` returns the time elapsed since any fixed
/// instant; `progress` hears about each game as it ends.
pub fn run(
    spec: &Spec,
    clock: &mut dyn FnMut() -> Duration,
    progress: &mut dyn FnMut(u32, &GameRecord),
) -> Result<Report, AiError> {
    let mut report = Report::default();
    for i in 0..spec.games {
        let start = AnyGame::new(spec.kind, spec.players, None)
            .map_err(|e| AiError::Position(e.to_string()))?;
        let n = start.seat_count();
        // Two seats: colours alternate. More: alternate seats, shifted every game.
        let levels: Vec<Level> = (0..n)
            .map(|s| {
                if (s + i as usize).is_multiple_of(2) {
                    spec.a
                } else {
                    spec.b
                }
            })
            .collect();
        let seed = spec
            .seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(i as u64);
        let mut times: Vec<(Level, Duration)> = Vec::new();
        let rec = play_game(
            start,
            &levels,
            seed,
            spec.max_plies,
            spec.limits,
            &mut |level, t| times.push((level, t)),
            clock,
        )?;
        report.games += 1;
        report.plies += rec.plies as u64;
        if rec.outcome.is_none() {
            report.capped += 1;
        }
        // The top group: the winners, the seats sharing a draw, or the survivors of a capped or
        // decided game. A level wins when the top is all its own, draws when it shares it.
        let top: Vec<usize> = match &rec.outcome {
            Some(Outcome::Win { winners, .. }) => winners.iter().map(|s| s.index()).collect(),
            Some(Outcome::Draw { seats, .. }) => seats.iter().map(|s| s.index()).collect(),
            None => (0..n).filter(|&s| rec.alive[s]).collect(),
        };
        for (which, level) in [(0, spec.a), (1, spec.b)] {
            let t = if which == 0 {
                &mut report.a
            } else {
                &mut report.b
            };
            let ours = top.iter().filter(|&&s| levels[s] == level).count();
            if ours == top.len() && ours > 0 {
                t.wins += 1;
            } else if ours > 0 {
                t.draws += 1;
            } else {
                t.losses += 1;
            }
            for s in (0..n).filter(|&s| levels[s] == level) {
                t.place_sum += rec.places[s];
                t.seats += 1;
            }
            for &(l, d) in times.iter().filter(|(l, _)| *l == level) {
                debug_assert_eq!(l, level);
                t.moves += 1;
                t.time += d;
                t.max_time = t.max_time.max(d);
            }
            if spec.a == spec.b {
                // Same level on both sides: one tally says it all; keep `b` a copy.
                report.b = report.a.clone();
                break;
            }
        }
        progress(i, &rec);
    }
    Ok(report)
}

/// With three or more seats, the game is decided for the tournament once every seat still in it
/// plays the same level: who of them wins does not change the tally, and bots of one level can
/// circle each other until a draw rule ends it.
fn decided(g: &AnyGame, levels: &[Level]) -> bool {
    let n = g.seat_count();
    if n <= 2 {
        return false;
    }
    let mut live = (0..n)
        .filter(|&s| alive(g, Seat(s as u8)))
        .map(|s| levels[s]);
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

/// Play one game from `game` with a level per seat; `timed` hears each bot move's duration.
pub fn play_game(
    mut game: AnyGame,
    levels: &[Level],
    seed: u64,
    max_plies: u32,
    limits: Limits,
    timed: &mut dyn FnMut(Level, Duration),
    clock: &mut dyn FnMut() -> Duration,
) -> Result<GameRecord, AiError> {
    let n = game.seat_count();
    let mut out_order: Vec<usize> = Vec::new();
    let mut plies = 0;
    while game.outcome().is_none() && plies < max_plies && !decided(&game, levels) {
        let Some(seat) = game.to_move() else { break };
        let level = levels.get(seat.index()).copied().unwrap_or(Level::Random);
        let move_seed = seed ^ (plies as u64).wrapping_mul(0xd1b5_4a32_d192_ed03);
        let t0 = clock();
        let text = match &game {
            AnyGame::HexiMeros(h) => staged_heximeros(h, levels, level, move_seed, limits)?,
            g => choose_with(g, level, move_seed, limits)?.text,
        };
        timed(level, clock().saturating_sub(t0));
        game.play(&text)
            .map_err(|e| AiError::Position(format!("bot chose {text}: {e}")))?;
        plies += 1;
        for s in 0..n {
            if !alive(&game, Seat(s as u8)) && !out_order.contains(&s) {
                out_order.push(s);
            }
        }
    }
    let outcome = game.outcome();
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
        places,
        alive: (0..n).map(|s| !out_order.contains(&s)).collect(),
    })
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
/// re-chooses respecting the declarations. A random seat never declares.
fn staged_heximeros(
    h: &crate::games::heximeros::HexiMeros,
    levels: &[Level],
    level: Level,
    seed: u64,
    limits: Limits,
) -> Result<String, AiError> {
    let mut declarers: Vec<Seat> = Vec::new();
    loop {
        let choice = choose_heximeros(h, &declarers, level, seed, limits)?;
        let staged = h
            .parse_move(&choice.text)
            .map_err(|e| AiError::Position(format!("bot chose {}: {e}", choice.text)))?;
        let new: Vec<Seat> = h
            .challengers(&staged.without_checks())
            .into_iter()
            .filter(|s| !declarers.contains(s))
            .filter(|s| levels.get(s.index()).is_some_and(|&l| l != Level::Random))
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
