//! The game host: the only API a front end calls. A command comes in with the acting player's
//! id; the host loads the game (replaying its log, or from its cache when the stored version
//! matches), applies the command to a copy through the rules, stores the resulting event in one
//! transaction that succeeds only if the version did not move, and returns the `Effect`s for the
//! front end to carry out. Commands on one game are serialized by a per-game lock; different
//! games run in parallel. Timers are `tick(now)`, with time from an injected `Clock`.
//!
//! A seat may be a bot (its player id is a bot's, `Store::bot_player`). `bot_turns` plays every
//! pending bot action of a game — a move chosen off the async threads, challenge-window answers,
//! votes — each stored as its own versioned event exactly like a person's command, so a restart
//! while a bot thinks loses nothing: it thinks again. `tick` drives bots too.

mod effect;
mod error;
mod event;
mod state;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

pub use effect::Effect;
pub use error::HostError;
pub use event::{
    AdminAction, ChallengePref, Event, GameId, Millis, Motion, PlayerId, REMINDER_HOURS, Setup,
    Timers,
};
pub use state::{BotAction, GameState, OpenMotion, PointEntry, Record, SeatState, Staged, Status};

use crate::ai::{self, Level, Limits};
use crate::games::{AnyGame, GameKind, Rules, Seat};
use crate::store::{
    EventRow, Finish, GameSummary, GameWrite, Rating, Standing, Store, StoreError, bot_level,
};

/// Where time comes from: the system clock in production, a hand-moved one in tests.
pub trait Clock: Send + Sync {
    /// Unix time in milliseconds.
    fn now(&self) -> Millis;
}

/// The real time.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as Millis)
            .unwrap_or(0)
    }
}

/// A clock tests move by hand: an 18-hour game is tested without sleeping.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start: Millis) -> ManualClock {
        ManualClock(AtomicI64::new(start))
    }

    pub fn set(&self, t: Millis) {
        self.0.store(t, Ordering::SeqCst);
    }

    pub fn advance_minutes(&self, m: i64) {
        self.0.fetch_add(m * 60_000, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Millis {
        self.0.load(Ordering::SeqCst)
    }
}

impl<C: Clock + ?Sized> Clock for Arc<C> {
    fn now(&self) -> Millis {
        (**self).now()
    }
}

/// Who sends a command. The front end decides `admin` (Discord: Manage Server).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Actor {
    pub player: PlayerId,
    pub admin: bool,
}

impl Actor {
    pub fn player(player: PlayerId) -> Actor {
        Actor {
            player,
            admin: false,
        }
    }
}

/// What a player asks of a game. The same set for every front end.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Stage a move (§5.1); with `commit`, also pass the Token when no challenge window opens.
    Move {
        text: String,
        commit: bool,
    },
    /// Take the staged move back.
    TakeBack,
    /// Add a Check declaration on a seat to the staged move (§5.3).
    Check {
        seat: Seat,
    },
    /// Pass the Token: commit the staged move.
    Pass,
    /// Answer the challenge window: declare Check upon the mover, or let the move stand.
    Challenge {
        declare: bool,
    },
    /// A standing answer for challenge windows.
    Prefer(ChallengePref),
    /// Resign; naming a replacement opens a vote on them.
    Resign {
        replacement: Option<PlayerId>,
    },
    Concede,
    /// Offer a draw (or propose abandoning with three or more).
    Propose(Motion),
    /// Vote on a motion (`None`: the one open motion this player may vote on).
    Vote {
        motion: Option<u64>,
        yes: bool,
    },
    Admin(AdminAction),
}

type Slot = Arc<tokio::sync::Mutex<Option<GameState>>>;

/// The host over a store and a clock.
pub struct GameHost {
    store: Store,
    clock: Arc<dyn Clock>,
    /// One lock per game, holding the game's cached state (valid while its version matches the
    /// stored one).
    games: Mutex<HashMap<GameId, Slot>>,
    /// Games whose bots this host is driving now, so a second caller does not think twice.
    driving: Mutex<HashSet<GameId>>,
}

/// The most bot actions one `bot_turns` call takes (a HexiMeros game is a few hundred moves).
pub const BOT_TURNS_MAX: usize = 2000;

/// The most bot actions `tick` takes per game: a round of six seats with a ballot or two.
const BOT_TICK_MAX: usize = 12;

/// How long a bot of `level` may think about one move (issue 8: normal within 1 s, hard
/// within 5 s); the level's node budget usually stops it sooner.
pub fn think_time(level: Level) -> Duration {
    match level {
        Level::Hard => Duration::from_secs(5),
        _ => Duration::from_secs(1),
    }
}

/// The seed of a bot's decision: fixed by the game and its version, so the same position always
/// gets the same answer.
fn bot_seed(game: GameId, version: u64) -> u64 {
    (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ version.wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// Whether an effect is addressed to a bot (which reads no pings, messages or buttons).
fn for_bot(e: &Effect) -> bool {
    match e {
        Effect::Ping { player, .. }
        | Effect::Dm { player, .. }
        | Effect::Private { player, .. }
        | Effect::AskChallenge { player, .. } => bot_level(*player).is_some(),
        _ => false,
    }
}

/// Removes a game from `driving` when its bot run ends (also on error or panic).
struct Driving<'a>(&'a Mutex<HashSet<GameId>>, GameId);

impl Drop for Driving<'_> {
    fn drop(&mut self) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.1);
    }
}

/// The rows a finished game adds to scores and ratings. Bots get no §7 points (the table is the
/// people's); a bot holding several seats is rated once, at its best rank.
fn finish_of(st: &GameState) -> Finish {
    let mut ranks: Vec<(PlayerId, usize)> = Vec::new();
    let mut by_rank = st.finishing_ranks();
    by_rank.sort_by_key(|&(_, r)| r);
    for (s, r) in by_rank {
        let Some(p) = st.seats.get(s.index()).map(|x| x.player) else {
            continue;
        };
        if !ranks.iter().any(|&(q, _)| q == p) {
            ranks.push((p, r));
        }
    }
    Finish {
        kind: st.kind().key().to_string(),
        points: st
            .player_points()
            .into_iter()
            .filter(|&(p, _)| bot_level(p).is_none())
            .collect(),
        ranks,
    }
}

impl GameHost {
    pub fn new(store: Store, clock: Arc<dyn Clock>) -> GameHost {
        GameHost {
            store,
            clock,
            games: Mutex::new(HashMap::new()),
            driving: Mutex::new(HashSet::new()),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn now(&self) -> Millis {
        self.clock.now()
    }

    fn slot(&self, game: GameId) -> Slot {
        // A poisoned map only means another thread panicked mid-insert; the map is still usable.
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(game).or_default().clone()
    }

    /// Start a game: one seat per player in seat order (HexiMeros: Silver first).
    pub async fn create(
        &self,
        kind: GameKind,
        players: &[PlayerId],
        house_rules: Option<Value>,
        timers: Option<Timers>,
    ) -> Result<(GameId, Vec<Effect>), HostError> {
        // One bot player may take several seats; a person only one.
        let mut seen: Vec<PlayerId> = players
            .iter()
            .copied()
            .filter(|&p| bot_level(p).is_none())
            .collect();
        let people = seen.len();
        seen.sort();
        seen.dedup();
        if seen.len() != people {
            return Err(HostError::invalid("a player may take only one seat"));
        }
        let (min, max) = kind.players();
        if players.len() < min || players.len() > max {
            return Err(HostError::invalid(format!(
                "{} is played by {}, not {}",
                kind.name(),
                if min == max {
                    format!("{min} players")
                } else {
                    format!("{min} to {max} players")
                },
                players.len()
            )));
        }
        let setup = Setup {
            kind,
            players: players.to_vec(),
            house_rules: house_rules.unwrap_or_else(event::empty_object),
            timers: timers.unwrap_or_default(),
        };
        let now = self.now();
        let state = GameState::new(0, setup.clone(), now)?;
        let setup_json = to_json(&setup)?;
        let id = self
            .store
            .create_game(
                kind.key(),
                state.status().id(),
                &setup_json,
                &house_json(&state),
                players,
                state.holder_player(),
                state.next_due(),
                now,
            )
            .await?;
        let mut state = state;
        state.id = id;
        let mut fx = vec![
            Effect::OpenThread {
                game: id,
                title: format!("{} #{id}", kind.name()),
            },
            Effect::Say {
                game: id,
                text: format!(
                    "{} #{id} begins. House rules may be voted (vote house-rule) until the \
                     first Token pass.",
                    kind.name()
                ),
            },
            Effect::Board {
                game: id,
                board: state.game.show(),
                caption: "the start position".into(),
            },
        ];
        if let (Some(seat), Some(player)) = (state.holder(), state.holder_player())
            && bot_level(player).is_none()
        {
            fx.push(Effect::Ping {
                game: id,
                player,
                text: format!("{}, you have the Token", state.seat_name(seat)),
            });
        }
        *self.slot(id).lock().await = Some(state);
        Ok((id, fx))
    }

    /// Rebuild a game from its stored log (the cache is not consulted).
    pub async fn replay(&self, game: GameId) -> Result<GameState, HostError> {
        let row = self
            .store
            .game(game)
            .await?
            .ok_or(HostError::UnknownGame(game))?;
        let corrupt = |reason: String| HostError::Corrupt { game, reason };
        let setup: Setup = serde_json::from_str(&row.setup)
            .map_err(|e| corrupt(format!("unreadable setup: {e}")))?;
        if GameKind::from_key(&row.kind) != Some(setup.kind) {
            return Err(corrupt(format!(
                "unknown or mismatched game kind {:?}",
                row.kind
            )));
        }
        let mut state = GameState::new(game, setup, row.created_at)
            .map_err(|e| corrupt(format!("its setup no longer starts a game: {e}")))?;
        for e in self.store.events(game).await? {
            if e.version != state.version as i64 {
                return Err(corrupt(format!(
                    "event {} is out of order (expected {})",
                    e.version, state.version
                )));
            }
            let ev: Event = serde_json::from_str(&e.body)
                .map_err(|err| corrupt(format!("event {} is unreadable: {err}", e.version)))?;
            state.apply(&ev, e.at).map_err(|err| {
                corrupt(format!(
                    "event {} ({}) no longer replays: {err}",
                    e.version, e.kind
                ))
            })?;
        }
        if state.version as i64 != row.version {
            return Err(corrupt(format!(
                "the log has {} events but the game says version {}",
                state.version, row.version
            )));
        }
        Ok(state)
    }

    /// The cached state if it is current, else a replay. Call with the game's lock held.
    async fn load(
        &self,
        game: GameId,
        cached: &mut Option<GameState>,
    ) -> Result<GameState, HostError> {
        let version = self
            .store
            .version(game)
            .await?
            .ok_or(HostError::UnknownGame(game))?;
        if let Some(s) = cached.as_ref()
            && s.version as i64 == version
        {
            return Ok(s.clone());
        }
        let s = self.replay(game).await?;
        *cached = Some(s.clone());
        Ok(s)
    }

    /// The current state of a game (for boards, history, votes).
    pub async fn state(&self, game: GameId) -> Result<GameState, HostError> {
        let slot = self.slot(game);
        let mut cached = slot.lock().await;
        self.load(game, &mut cached).await
    }

    /// Apply one event to `state` and store it; on success `state` is the new state.
    async fn commit(
        &self,
        state: &mut GameState,
        ev: Event,
        actor: Option<PlayerId>,
    ) -> Result<Vec<Effect>, HostError> {
        let now = self.now();
        let mut next = state.clone();
        let mut fx = next.apply(&ev, now)?;
        fx.retain(|e| !for_bot(e));
        let finish = (next.status() == Status::Finished && state.status() != Status::Finished)
            .then(|| finish_of(&next));
        let w = GameWrite {
            game: state.id,
            expected: state.version,
            events: vec![EventRow {
                version: state.version as i64,
                kind: ev.name().to_string(),
                actor,
                body: to_json(&ev)?,
                at: now,
            }],
            status: next.status().id(),
            house_rules: house_json(&next),
            to_move: next.holder_player(),
            next_due: next.next_due(),
            now,
            replacements: next.replacements[state.replacements.len()..]
                .iter()
                .map(|&(s, p, v)| (s.0, p, v))
                .collect(),
            finish,
        };
        match self.store.append(&w).await {
            Ok(()) => {
                *state = next;
                Ok(fx)
            }
            Err(StoreError::Stale { expected }) => {
                let current = self.store.version(state.id).await?.unwrap_or(0) as u64;
                Err(HostError::Stale { expected, current })
            }
            Err(StoreError::NoGame(g)) => Err(HostError::UnknownGame(g)),
            Err(e) => Err(e.into()),
        }
    }

    /// Run a command for `actor` on `game`. With `expected` (a button's version), the command is
    /// refused unless the game is still at that version.
    pub async fn handle(
        &self,
        game: GameId,
        actor: Actor,
        cmd: Command,
        expected: Option<u64>,
    ) -> Result<Vec<Effect>, HostError> {
        if bot_level(actor.player).is_some() {
            return Err(HostError::invalid(
                "a bot plays that seat: it moves by itself (bot turns)",
            ));
        }
        let slot = self.slot(game);
        let mut cached = slot.lock().await;
        let mut state = self.load(game, &mut cached).await?;
        if let Some(v) = expected
            && v != state.version
        {
            return Err(HostError::Stale {
                expected: v,
                current: state.version,
            });
        }
        let (ev, mut extra) = self.event_for(&state, actor, cmd)?;
        let result = self.commit(&mut state, ev, Some(actor.player)).await;
        match result {
            Ok(mut fx) => {
                *cached = Some(state);
                fx.append(&mut extra);
                Ok(fx)
            }
            Err(e) => {
                if matches!(e, HostError::Stale { .. }) {
                    // Another process wrote: the cache is old.
                    *cached = None;
                }
                Err(e)
            }
        }
    }

    /// Turn a command into the event it stores, checking who may send it.
    fn event_for(
        &self,
        state: &GameState,
        actor: Actor,
        cmd: Command,
    ) -> Result<(Event, Vec<Effect>), HostError> {
        if let Command::Admin(action) = cmd {
            if !actor.admin {
                return Err(HostError::NotAdmin);
            }
            return Ok((Event::Admin { action }, Vec::new()));
        }
        let seat = state.seat_of(actor.player).ok_or(HostError::NotSeated)?;
        let mover_only = matches!(
            cmd,
            Command::Move { .. } | Command::TakeBack | Command::Check { .. } | Command::Pass
        );
        if mover_only {
            if state.status() == Status::Finished || state.status() == Status::Aborted {
                return Err(HostError::GameOver);
            }
            if state.status() == Status::Paused {
                return Err(HostError::Paused);
            }
            match state.holder() {
                Some(h) if h == seat => {}
                Some(h) => {
                    return Err(HostError::NotYourTurn {
                        holder: state.seat_name(h).to_string(),
                    });
                }
                None => return Err(HostError::GameOver),
            }
            if state.seats.get(seat.index()).map(|s| s.mover) != Some(actor.player) {
                return Err(HostError::NotTeamMover);
            }
        }
        let mut extra = Vec::new();
        let ev = match cmd {
            Command::Move { text, commit } => {
                let (canonical, asked) = state.prepare_stage(&text)?;
                if commit && asked.is_empty() {
                    Event::Committed {
                        seat,
                        text: canonical,
                    }
                } else {
                    if commit {
                        extra.push(Effect::Private {
                            player: actor.player,
                            text: "a challenge window is open: pass the Token once it closes"
                                .into(),
                        });
                    }
                    Event::Staged {
                        seat,
                        text: canonical,
                        asked,
                    }
                }
            }
            Command::Check { seat: target } => {
                let st = state.staged.as_ref().ok_or(HostError::NothingStaged)?;
                let text = format!("{}+{}", st.text, state.seat_name(target));
                let (canonical, asked) = state.prepare_stage(&text)?;
                Event::Staged {
                    seat,
                    text: canonical,
                    asked,
                }
            }
            Command::TakeBack => Event::TakenBack { seat },
            Command::Pass => {
                let st = state.staged.as_ref().ok_or(HostError::NothingStaged)?;
                Event::Committed {
                    seat,
                    text: st.text.clone(),
                }
            }
            Command::Challenge { declare } => Event::Answered { seat, declare },
            Command::Prefer(pref) => Event::Preference { seat, pref },
            Command::Resign { replacement: None } => Event::Resigned { seat },
            Command::Resign {
                replacement: Some(player),
            } => Event::ResignedFor { seat, player },
            Command::Concede => Event::Conceded { seat },
            Command::Propose(motion) => Event::Proposed { seat, motion },
            Command::Vote { motion, yes } => {
                let id = match motion {
                    Some(id) => id,
                    None => {
                        let open: Vec<u64> = state
                            .motions
                            .iter()
                            .filter(|m| {
                                state.voters(&m.motion).contains(&seat)
                                    && !m.yes.contains(&seat)
                                    && !m.no.contains(&seat)
                            })
                            .map(|m| m.id)
                            .collect();
                        match open.as_slice() {
                            [one] => *one,
                            [] => return Err(HostError::invalid("there is no motion to vote on")),
                            _ => {
                                return Err(HostError::invalid(
                                    "several motions are open: say which (vote yes <number>)",
                                ));
                            }
                        }
                    }
                };
                Event::Ballot {
                    motion: id,
                    seat,
                    yes,
                }
            }
            Command::Admin(_) => return Err(HostError::NotAdmin),
        };
        Ok((ev, extra))
    }

    /// A free preview of a move by any player of the seat to move (team members too): the
    /// canonical text and the board after it. Nothing is stored.
    pub async fn preview(
        &self,
        game: GameId,
        actor: Actor,
        text: &str,
    ) -> Result<(String, String), HostError> {
        let state = self.state(game).await?;
        let seat = state.seat_of(actor.player).ok_or(HostError::NotSeated)?;
        match state.holder() {
            Some(h) if h == seat => {}
            Some(h) => {
                return Err(HostError::NotYourTurn {
                    holder: state.seat_name(h).to_string(),
                });
            }
            None => return Err(HostError::GameOver),
        }
        let (canonical, next) = state.preview(text)?;
        Ok((canonical, next.show()))
    }

    /// Run every timer that is due: close challenge windows and ballots, remind, time out turns.
    /// Each timer event is stored like a command (with a version check), so two hosts ticking at
    /// once cannot both act.
    pub async fn tick(&self) -> Result<Vec<Effect>, HostError> {
        let now = self.now();
        let mut fx = Vec::new();
        let mut bots = Vec::new();
        for game in self.store.due_games(now).await? {
            let slot = self.slot(game);
            let mut cached = slot.lock().await;
            // A corrupt game cannot run timers; its commands report the corruption.
            let Ok(mut state) = self.load(game, &mut cached).await else {
                continue;
            };
            // Each event can change what is due next (a closed ballot, a passed turn).
            for _ in 0..16 {
                let Some(ev) = state.due_events(now).into_iter().next() else {
                    break;
                };
                match self.commit(&mut state, ev, None).await {
                    Ok(mut more) => fx.append(&mut more),
                    Err(_) => {
                        *cached = None;
                        break;
                    }
                }
            }
            if state.bot_action().is_some() {
                bots.push(game);
            }
            if cached.is_some() || state.version > 0 {
                *cached = Some(state);
            }
        }
        // Games waiting on a bot (one a front end did not drive, or one left thinking when the
        // process stopped): the bots act now. One game's failure does not stop the others.
        // A bounded share per game and tick, so one game cannot hold up the others' timers.
        for game in bots {
            if let Ok(mut more) = self.drive_bots(game, BOT_TICK_MAX).await {
                fx.append(&mut more);
            }
        }
        Ok(fx)
    }

    /// Play every pending bot action of `game`, in order, until a person must act or the game
    /// ends: a bot holding the Token chooses a move off the async threads (within
    /// [`think_time`]), stages it with its Check declarations and passes the Token; bots asked in
    /// a challenge window answer; bots vote on open ballots. Each action is stored as its own
    /// versioned event, like a person's command. Returns all their effects in order. Front ends
    /// call this after every successful `handle`; if this host is already driving the game's
    /// bots, it returns at once (the running call picks the new state up). A safety valve stops
    /// a call after [`BOT_TURNS_MAX`] actions (a table left to bots alone may never end, §6);
    /// such a game stays due, so `tick` carries on with it.
    pub async fn bot_turns(&self, game: GameId) -> Result<Vec<Effect>, HostError> {
        self.drive_bots(game, BOT_TURNS_MAX).await
    }

    /// At most `max` bot actions of `game`.
    async fn drive_bots(&self, game: GameId, max: usize) -> Result<Vec<Effect>, HostError> {
        {
            let mut driving = self.driving.lock().unwrap_or_else(|e| e.into_inner());
            if !driving.insert(game) {
                return Ok(Vec::new());
            }
        }
        let _guard = Driving(&self.driving, game);
        let mut fx = Vec::new();
        for _ in 0..max {
            match self.bot_step(game).await? {
                Some(mut more) => fx.append(&mut more),
                None => break,
            }
        }
        Ok(fx)
    }

    /// One bot action of `game`, stored; `None` when no bot has anything to do.
    async fn bot_step(&self, game: GameId) -> Result<Option<Vec<Effect>>, HostError> {
        loop {
            let state = self.state(game).await?;
            let Some(action) = state.bot_action() else {
                return Ok(None);
            };
            // Think without holding the game's lock: people may vote or look meanwhile.
            let chosen = match action {
                BotAction::Move { level, .. } => Some(self.think(&state, level).await?),
                _ => None,
            };
            let slot = self.slot(game);
            let mut cached = slot.lock().await;
            let mut current = self.load(game, &mut cached).await?;
            if current.version != state.version {
                // Someone acted while the bot thought: decide again on the new state.
                continue;
            }
            let (seat, ev) = bot_event(&current, &action, chosen.as_deref())?;
            let actor = current.seats.get(seat.index()).map(|s| s.mover);
            let fx = match self.commit(&mut current, ev, actor).await {
                Ok(fx) => fx,
                Err(HostError::Stale { .. }) => {
                    // Another process wrote first.
                    *cached = None;
                    continue;
                }
                Err(e) => return Err(e),
            };
            *cached = Some(current);
            return Ok(Some(fx));
        }
    }

    /// The bot's move for the Token holder, chosen on the blocking pool. Players who always
    /// declare Check upon a mover count as having declared already.
    async fn think(&self, state: &GameState, level: Level) -> Result<String, HostError> {
        let game = state.game.clone();
        let mut declarers = state.declared_upon.clone();
        for (i, p) in state.prefs.iter().enumerate() {
            let s = Seat(i as u8);
            if *p == ChallengePref::AlwaysDeclare && !declarers.contains(&s) {
                declarers.push(s);
            }
        }
        let seed = bot_seed(state.id, state.version);
        let limits = Limits {
            nodes: None,
            deadline: Some(Instant::now() + think_time(level)),
        };
        let chosen = crate::background::run(crate::background::Work::Bots, move || match &game {
            AnyGame::HexiMeros(g) => {
                let me = g.to_move();
                declarers.retain(|&d| Some(d) != me && g.is_active(d));
                ai::choose_heximeros(g, &declarers, level, seed, limits).map(|c| c.text)
            }
            other => ai::choose_with(other, level, seed, limits).map(|c| c.text),
        })
        .await
        .map_err(|e| HostError::invalid(format!("the bot stopped thinking: {e}")))?;
        chosen.map_err(|e| HostError::invalid(format!("the bot could not move: {e}")))
    }

    /// Games where it is `player`'s turn.
    pub async fn my_turn(&self, player: PlayerId) -> Result<Vec<GameSummary>, HostError> {
        Ok(self.store.games_of(player, true).await?)
    }

    /// Accumulated points (§7) for one game kind or all.
    pub async fn leaderboard(&self, kind: Option<GameKind>) -> Result<Vec<Standing>, HostError> {
        Ok(self.store.leaderboard(kind.map(|k| k.key())).await?)
    }

    /// Skill ratings for one game kind, or across all (`None`).
    pub async fn ratings(&self, kind: Option<GameKind>) -> Result<Vec<Rating>, HostError> {
        Ok(self
            .store
            .ratings(kind.map(|k| k.key()).unwrap_or("all"))
            .await?)
    }

    /// The game as text (setup, house rules, moves): the replay format.
    pub async fn export(&self, game: GameId) -> Result<String, HostError> {
        Ok(self.state(game).await?.export())
    }

    /// Create a game from exported text, seating `players` in order. Every line is checked by
    /// replaying it before anything is stored.
    pub async fn import(&self, text: &str, players: &[PlayerId]) -> Result<GameId, HostError> {
        let parsed = parse_export(text)?;
        let setup = Setup {
            kind: parsed.kind,
            players: players.to_vec(),
            house_rules: parsed.house,
            timers: parsed.timers,
        };
        let now = self.now();
        let mut state = GameState::new(0, setup.clone(), now)?;
        if let Some(n) = parsed.seats
            && n != players.len()
        {
            return Err(HostError::invalid(format!(
                "the export has {n} seats but {} players were given",
                players.len()
            )));
        }
        let mut events = Vec::new();
        for (i, line) in parsed.lines.iter().enumerate() {
            let ev = line_event(&state, line)
                .map_err(|e| HostError::invalid(format!("line {}: {e}", i + 1)))?;
            let version = state.version;
            state
                .apply(&ev, now)
                .map_err(|e| HostError::invalid(format!("move line {} ({line}): {e}", i + 1)))?;
            events.push(EventRow {
                version: version as i64,
                kind: ev.name().to_string(),
                actor: None,
                body: to_json(&ev)?,
                at: now,
            });
        }
        let fresh = GameState::new(0, setup.clone(), now)?;
        let id = self
            .store
            .create_game(
                setup.kind.key(),
                fresh.status().id(),
                &to_json(&setup)?,
                &house_json(&fresh),
                players,
                fresh.holder_player(),
                fresh.next_due(),
                now,
            )
            .await?;
        state.id = id;
        let finish = (state.status() == Status::Finished).then(|| finish_of(&state));
        self.store
            .append(&GameWrite {
                game: id,
                expected: 0,
                events,
                status: state.status().id(),
                house_rules: house_json(&state),
                to_move: state.holder_player(),
                next_due: state.next_due(),
                now,
                replacements: Vec::new(),
                finish,
            })
            .await?;
        Ok(id)
    }
}

/// The event a bot's action stores (and the seat acting). A chosen move the host refuses (it
/// cannot happen unless bot and host disagree on a rule) is replaced by the first legal move the
/// host accepts, so a bot never stalls its game.
fn bot_event(
    state: &GameState,
    action: &BotAction,
    chosen: Option<&str>,
) -> Result<(Seat, Event), HostError> {
    Ok(match *action {
        BotAction::Answer { seat, .. } => {
            let staged = state.staged.as_ref().ok_or(HostError::NothingStaged)?;
            let declare = match &state.game {
                AnyGame::HexiMeros(g) => g
                    .parse_move(&staged.text)
                    .map(|m| ai::declare_check_upon(g, &m, seat))
                    .unwrap_or(false),
                _ => false,
            };
            (seat, Event::Answered { seat, declare })
        }
        BotAction::Vote { motion, seat, .. } => {
            let open = state
                .motions
                .iter()
                .find(|m| m.id == motion)
                .ok_or(HostError::NoSuchMotion(motion))?;
            let question = match open.motion {
                Motion::Draw => ai::Motion::Draw,
                Motion::Skip { seat } => ai::Motion::SkipStalled { seat },
                Motion::Expel { seat: s } | Motion::ExpelFor { seat: s, .. } => ai::Motion::Expel {
                    seat: s,
                    // Abandonment: the seat has held the Token past the turn timer.
                    stalled: state.timed_out && state.holder() == Some(s),
                },
                Motion::Replace { seat, .. } => ai::Motion::Replacement { seat },
                Motion::HouseRule { .. } | Motion::Team { .. } => ai::Motion::Other,
            };
            let yes = ai::vote(&state.game, seat, &question);
            (seat, Event::Ballot { motion, seat, yes })
        }
        BotAction::Pass { seat } => {
            let staged = state.staged.as_ref().ok_or(HostError::NothingStaged)?;
            (
                seat,
                Event::Committed {
                    seat,
                    text: staged.text.clone(),
                },
            )
        }
        BotAction::Move { seat, .. } => {
            let mut tries: Vec<String> = chosen.map(str::to_string).into_iter().collect();
            tries.extend(state.game.legal_moves());
            let (text, asked) = tries
                .iter()
                .find_map(|t| state.prepare_stage(t).ok())
                .ok_or_else(|| HostError::invalid("the bot found no move the host accepts"))?;
            let ev = if asked.is_empty() {
                Event::Committed { seat, text }
            } else {
                Event::Staged { seat, text, asked }
            };
            (seat, ev)
        }
    })
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, HostError> {
    serde_json::to_string(v).map_err(|e| HostError::invalid(format!("cannot write JSON: {e}")))
}

/// The house rules in force, as stored for listing: the game's switches and the timers.
fn house_json(s: &GameState) -> String {
    serde_json::json!({ "game": s.house, "timers": s.timers }).to_string()
}

struct Parsed {
    kind: GameKind,
    seats: Option<usize>,
    house: Value,
    timers: Timers,
    lines: Vec<String>,
}

fn parse_export(text: &str) -> Result<Parsed, HostError> {
    let mut kind = None;
    let mut seats = None;
    let mut house = event::empty_object();
    let mut timers = Timers::default();
    let mut lines = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
        match head {
            "game" if kind.is_none() => {
                kind = Some(
                    GameKind::from_key(rest)
                        .ok_or_else(|| HostError::invalid(format!("unknown game {rest:?}")))?,
                );
            }
            "seats" if lines.is_empty() => {
                seats = Some(
                    rest.trim()
                        .parse()
                        .map_err(|_| HostError::invalid(format!("bad seat count {rest:?}")))?,
                );
            }
            "house" if lines.is_empty() => {
                house = serde_json::from_str(rest)
                    .map_err(|e| HostError::invalid(format!("bad house rules: {e}")))?;
            }
            "timers" if lines.is_empty() => {
                timers = serde_json::from_str(rest)
                    .map_err(|e| HostError::invalid(format!("bad timers: {e}")))?;
            }
            _ => lines.push(line.to_string()),
        }
    }
    let kind = kind.ok_or_else(|| HostError::invalid("the export names no game (game <kind>)"))?;
    Ok(Parsed {
        kind,
        seats,
        house,
        timers,
        lines,
    })
}

/// The event one export line stands for.
fn line_event(state: &GameState, line: &str) -> Result<Event, HostError> {
    let seat_named = |name: &str| -> Result<Seat, HostError> {
        (0..state.seats.len() as u8)
            .map(Seat)
            .find(|&s| state.seat_name(s).eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| HostError::invalid(format!("no seat called {name:?}")))
    };
    let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
    Ok(match head {
        "draw" => Event::Enacted {
            motion: Motion::Draw,
        },
        "resign" => Event::Resigned {
            seat: seat_named(rest)?,
        },
        "concede" => Event::Conceded {
            seat: seat_named(rest)?,
        },
        "expel" => Event::Enacted {
            motion: Motion::Expel {
                seat: seat_named(rest)?,
            },
        },
        "skip" => Event::Enacted {
            motion: Motion::Skip {
                seat: seat_named(rest)?,
            },
        },
        colour => Event::Committed {
            seat: seat_named(colour)?,
            text: rest.trim().to_string(),
        },
    })
}
