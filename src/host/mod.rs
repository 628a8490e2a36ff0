//! The game host: the only API a front end calls. A command comes in with the acting player's
//! id; the host loads the game (replaying its log, or from its cache when the stored version
//! matches), applies the command to a copy through the rules, stores the resulting event in one
//! transaction that succeeds only if the version did not move, and returns the `Effect`s for the
//! front end to carry out. Commands on one game are serialized by a per-game lock; different
//! games run in parallel. Timers are `tick(now)`, with time from an injected `Clock`.
//!
//! A seat may be a bot (its player id is a bot's, `GameHost::bot_player`). `bot_turns` plays every
//! pending bot action of a game — a move chosen off the async threads, challenge-window answers,
//! votes — each stored as its own versioned event exactly like a person's command, so a restart
//! while a bot thinks loses nothing: it thinks again. `tick` drives bots too.

//!
//! Rooms: `state/` (one game's table, replayed from its log), `create` (a game's start), `tick`
//! (the timers), `commands` (who may send what),
//! `bots`, `lobby` (a game waiting until everyone seated in it joined), `records` (export and
//! import), `results` (a finished game's table), `clock`, `say` (every sentence a player reads)
//! and `error` (refusals and internal errors).

mod away;
mod bots;
mod clock;
mod commands;
mod create;
mod digest;
mod effect;
mod error;
mod event;
mod lobby;
mod notes;
mod notify;
mod outbox;
mod players;
mod queries;
pub mod quiet;
mod records;
mod results;
mod retention;
mod say;
mod settings;
mod state;
pub mod story;
mod tick;
pub mod words;

use std::collections::HashSet;
use std::num::NonZeroUsize;

use lru::LruCache;
use std::sync::{Arc, Mutex};

pub use crate::view::focus::FocusPng;
/// What the front ends draw with: the pictures' options and errors, the picker's lists (made
/// by the host: `GameState::pick_pieces` …), the rules' help pictures and replays.
pub use crate::view::legend;
pub use crate::view::picker::{Choice, Piece, Target, page};
pub use crate::view::{ViewError, ViewOptions, replay_gif_from_export};
pub use away::{AWAY_MAX, AwayGame, AwayReport};
pub use bots::{BOT_TURNS_MAX, think_time};
pub use clock::{Clock, ManualClock, SystemClock};
pub use digest::{Awaiting, Digest, Ended, Invitation, Link, Waiting, fit as fit_digest};
pub use effect::{Effect, Pinged, game_lane};
pub use error::HostError;
pub use event::{
    AdminAction, ChallengePref, Event, GameId, Millis, Motion, PlayerId, QueueConditions,
    QueueMiss, QueuedPiece, REMINDER_HOURS, Setup, Timers,
};
pub use lobby::{
    Chair, Declined, Joined, LOBBY_HOURS, Lobby, LobbyId, LobbySpec, LobbyStatus, Opened,
};
pub use notes::Note;
pub use outbox::{Delivered, Delivery, NORMAL, REMINDER, URGENT, is_reply, wall_now};
pub use players::{Listed, Rating, Seated, Standing, bot_id, bot_level, urgency};
pub use results::{Place, Results};
pub use say::Refused;
pub use settings::{PlayerSettings, SettingsChange, SettingsError};
pub use state::{
    ALT_MAX, Awaited, BotAction, Does, Forced, GameState, Mark, NotMovable, OpenMotion, Panel,
    PanelSeat, PanelTurn, PointEntry, QueuedMove, Record, SeatStanding, SeatState, Seen, SeenPiece,
    SeenTarget, Staged, Status, Stuck, clip, replay_svg,
};

use crate::games::{GameKind, Seat};
pub use crate::store::Lease;
use crate::store::{EventRow, Finish, GameWrite, Store, StoreError};

/// What a command did: the game as it stands after it and the effects to deliver (the actor's
/// private lines among them), so that a front end showing the game need not read it again.
#[derive(Clone, Debug)]
pub struct Handled {
    pub state: GameState,
    pub effects: Vec<Effect>,
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
    /// Declare Check on a seat and pass the Token in one step (the preview's "Pass + Check on
    /// Red"): committed as it is, or staged with the declaration when a challenge window opens.
    CheckAndPass {
        seat: Seat,
    },
    /// Pass the Token: commit the staged move.
    Pass,
    /// Pass the Token with the staged move once its challenge window closes with nobody
    /// declaring Check upon the mover (cancelled by a declaration or a take back).
    PassWhenClosed,
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
    /// Accept the open draw offer (a yes on the Draw motion, never on another).
    AcceptDraw,
    /// With two seats left, claim the game on time: the opponent's turn timer ran out.
    ClaimTime,
    Admin(AdminAction),
    /// Queue a move for the player's next turn (issue 22), played by the host when the turn
    /// comes if every condition holds: the piece still on its cell, and optionally nothing
    /// attacking the player's Sovereign (King), and (two players left) the opponent's answer.
    Queue {
        text: String,
        sovereign_safe: bool,
        if_reply: Option<String>,
    },
    /// Cancel the player's queued move.
    ClearQueue,
}

type Slot = Arc<tokio::sync::Mutex<Option<GameState>>>;

/// The most lines of private notes a player keeps on one game.
pub const NOTES_KEPT: i64 = 20;

/// The most games whose state the host keeps between commands; the least recently used goes
/// first (it is rebuilt from its log when asked for again).
const CACHED_GAMES: NonZeroUsize = match NonZeroUsize::new(4096) {
    Some(n) => n,
    None => NonZeroUsize::MIN,
};

/// The host over a store and a clock.
pub struct GameHost {
    store: Store,
    clock: Arc<dyn Clock>,
    /// One lock per game, holding the game's cached state (valid while its version matches the
    /// stored one).
    games: Mutex<LruCache<GameId, Slot>>,
    /// Games whose bots this host is driving now, so a second caller does not think twice.
    driving: Mutex<HashSet<GameId>>,
    /// Write what players must be told to the outbox, with each event (see `outbox`).
    outbox: bool,
    /// This host's name as the holder of leases (`store::leases`): unique per process unless
    /// set (`with_lease_owner`).
    owner: String,
    /// Every stored event's game and new version, for front ends that show a game live (the web
    /// board). Only this process's commits: another process's are found by asking the store.
    changes: tokio::sync::broadcast::Sender<Change>,
    /// How long people's data is kept after their last game (`with_retention`), and when the
    /// rule last ran (unix ms; 0: not yet).
    retention: Option<retention::Retention>,
}

/// A game moved on: `version` is its version after the event just stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub game: GameId,
    pub version: u64,
}

/// How many changes a slow listener may fall behind before it misses some (it is told, and
/// asks the store again).
const CHANGES_KEPT: usize = 1024;

/// How long a lease lasts unless renewed: a process that dies holding one (timers, bots, an
/// outbox lane) leaves its work to the others after this long. Holders renew it at every step,
/// and a step (a bot's longest think, a delivery's retries) takes well under it.
pub const LEASE_MS: i64 = 60_000;

/// The lease on `game`'s timers.
pub fn timers_lease(game: GameId) -> String {
    format!("timers:{game}")
}

/// The lease on `game`'s bots.
pub fn bots_lease(game: GameId) -> String {
    format!("bots:{game}")
}

/// The lease on an outbox lane (a front end's deliverer).
pub fn lane_lease(lane: &str) -> String {
    format!("lane:{lane}")
}

/// The rows a finished game adds to scores and ratings. Bots get no §7 points (the table is the
/// people's); a bot holding several seats is rated once, at its best rank.
fn finish_of(st: &GameState) -> Finish {
    let mut ranks: Vec<(PlayerId, usize)> = Vec::new();
    let mut by_rank = st.finishing_ranks();
    by_rank.sort_by_key(|&(_, r)| r);
    for (s, r) in by_rank {
        let Some(p) = st.seats().get(s.index()).map(|x| x.player) else {
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
            games: Mutex::new(LruCache::new(CACHED_GAMES)),
            driving: Mutex::new(HashSet::new()),
            outbox: false,
            owner: format!("{}-{:016x}", std::process::id(), rand::random::<u64>()),
            changes: tokio::sync::broadcast::channel(CHANGES_KEPT).0,
            retention: None,
        }
    }

    /// A host that writes every effect a player must receive to the outbox in the transaction
    /// of its event, for a front end that delivers from there (Discord). The effects are still
    /// returned, as by any host.
    pub fn with_outbox(mut self) -> GameHost {
        self.outbox = true;
        self
    }

    /// Hold leases under `owner`, the process's role (as `serve` and its shard range) rather
    /// than a name of its own: a restarted process takes its predecessor's leases back at once
    /// (a crash's pending deliveries and timers go on right away, not after [`LEASE_MS`]). Two
    /// processes running at once must not share a role.
    pub fn with_lease_owner(mut self, owner: impl Into<String>) -> GameHost {
        self.owner = owner.into();
        self
    }

    /// Whether effects go through the outbox.
    pub fn uses_outbox(&self) -> bool {
        self.outbox
    }

    /// Hear of every event this host stores from now on (see [`Change`]).
    pub fn changes(&self) -> tokio::sync::broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn now(&self) -> Millis {
        self.clock.now()
    }

    /// This host's name as a lease holder.
    pub fn lease_owner(&self) -> &str {
        &self.owner
    }

    /// Claim the lease `name` for this host for [`LEASE_MS`]: `None` if another process holds
    /// it. Work that no interaction ties to one process (timers, bots, outbox lanes) is done
    /// only under its lease, so processes sharing a database never do it twice at once; and
    /// every write made under it carries the lease ([`Lease::fence`]), so a process that was
    /// paused past its lease writes nothing once another took it over.
    pub async fn claim_lease(&self, name: &str) -> Result<Option<Lease>, HostError> {
        Ok(self
            .store
            .claim_lease(name, &self.owner, self.now(), LEASE_MS)
            .await?)
    }

    /// Renew `lease` for [`LEASE_MS`] (the same token while it is still held), or `None` if
    /// another process has it now: the work stops.
    pub async fn renew_lease(&self, lease: &Lease) -> Result<Option<Lease>, HostError> {
        Ok(self.store.renew_lease(lease, self.now(), LEASE_MS).await?)
    }

    /// Every lease (operators: which process works what): (name, holder, until), lapsed ones
    /// too (their holder stopped; another process takes the item at its next look).
    pub async fn leases(&self) -> Result<Vec<(String, String, Millis)>, HostError> {
        Ok(self.store.leases().await?)
    }

    /// Give `lease` up (if this host still holds it with its token); a failure only leaves it
    /// to lapse.
    pub async fn release_lease(&self, lease: &Lease) {
        if let Err(e) = self.store.release_lease(lease).await {
            tracing::warn!(lease = lease.name, error = %e, "a lease was not released; it lapses");
        }
    }

    fn slot(&self, game: GameId) -> Slot {
        // A poisoned map only means another thread panicked mid-insert; the map is still usable.
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        map.get_or_insert(game, Slot::default).clone()
    }

    /// Drop a game's slot: an id that names no game, or a game that is over (its state is
    /// rebuilt from the log if anyone still asks), so the cache holds only games in play.
    fn forget(&self, game: GameId) {
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        map.pop(&game);
    }

    /// Whether a command or timer is running on some game now (its lock is held): a process
    /// that stops waits for them.
    pub fn busy(&self) -> bool {
        let map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        map.iter().any(|(_, slot)| slot.try_lock().is_err())
    }

    /// How many games the cache holds now.
    pub fn cached_games(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// How many games are unfinished (house rules, playing or paused).
    pub async fn active_games(&self) -> Result<u64, HostError> {
        Ok(self.store.active_games().await?.max(0) as u64)
    }

    /// Rebuild a game from its stored log (the cache is not consulted).
    pub async fn replay(&self, game: GameId) -> Result<GameState, HostError> {
        self.replay_to(game, None).await
    }

    /// The game as it was at `version` (a board queued at that version is drawn as it was then,
    /// whatever happened since): the current state when it is at that version, else a replay of
    /// the log's first `version` events. A version the game never reached is refused.
    pub async fn state_at(&self, game: GameId, version: u64) -> Result<GameState, HostError> {
        let now = self.state(game).await?;
        match now.version().cmp(&version) {
            std::cmp::Ordering::Equal => Ok(now),
            std::cmp::Ordering::Greater => self.replay_to(game, Some(version)).await,
            std::cmp::Ordering::Less => Err(HostError::Internal(format!(
                "game #{game} is at version {}, not yet {version}",
                now.version()
            ))),
        }
    }

    /// A replay of the whole log, or of its first `upto` events.
    async fn replay_to(&self, game: GameId, upto: Option<u64>) -> Result<GameState, HostError> {
        // The row and the log from one snapshot: read apart, a move committed between the two
        // reads would look like a corrupt game.
        let (row, log) = self
            .store
            .game_and_log(game)
            .await?
            .ok_or(Refused::UnknownGame(game))?;
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
        for e in log {
            if upto.is_some_and(|v| e.version >= v as i64) {
                break;
            }
            if e.version != state.version() as i64 {
                return Err(corrupt(format!(
                    "event {} is out of order (expected {})",
                    e.version,
                    state.version()
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
        if upto.is_none() && state.version() as i64 != row.version {
            return Err(corrupt(format!(
                "the log has {} events but the game says version {}",
                state.version(),
                row.version
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
        let Some(version) = self.store.version(game).await? else {
            self.forget(game);
            return Err(Refused::UnknownGame(game).into());
        };
        if let Some(s) = cached.as_ref()
            && s.version() as i64 == version
        {
            return Ok(s.clone());
        }
        let s = self.replay(game).await?;
        self.keep(game, cached, &s);
        Ok(s)
    }

    /// Cache `state` in its slot while the game is in play; a game that is over leaves the cache.
    pub(super) fn keep(&self, game: GameId, cached: &mut Option<GameState>, state: &GameState) {
        if matches!(state.status(), Status::Finished | Status::Aborted) {
            *cached = None;
            self.forget(game);
        } else {
            *cached = Some(state.clone());
        }
    }

    /// The current state of a game (for boards, history, votes).
    pub async fn state(&self, game: GameId) -> Result<GameState, HostError> {
        let slot = self.slot(game);
        let mut cached = slot.lock().await;
        self.load(game, &mut cached).await
    }

    /// Apply one event to `state` and store it; on success `state` is the new state.
    /// Under `lease` (timers, bots), only while it is still held with its token.
    async fn commit(
        &self,
        state: &mut GameState,
        ev: Event,
        actor: Option<PlayerId>,
        lease: Option<&Lease>,
    ) -> Result<Vec<Effect>, HostError> {
        let now = self.now();
        let mut next = state.clone();
        let mut fx = next.apply(&ev, now)?;
        // The new Token holder's quiet hours decide when they are reminded; a DM tells them of
        // their turn if they asked for one.
        let turn_dm = self.with_quiet(&mut next).await;
        if turn_dm && next.holder_player() != state.holder_player() {
            fx.extend(notify::your_turn(&next, next.id()));
        }
        fx.extend(self.nudges(state, &next).await);
        fx.extend(outbox::follow_ups(state, &next));
        fx.retain(|e| !bots::for_bot(e));
        let outbox = if self.outbox {
            outbox::entries(state.id(), &fx, Some(&ev), actor, next.version())?
        } else {
            Vec::new()
        };
        let finish = (next.status() == Status::Finished && state.status() != Status::Finished)
            .then(|| finish_of(&next));
        let w = GameWrite {
            game: state.id(),
            expected: state.version(),
            events: vec![EventRow {
                version: state.version() as i64,
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
            replacements: next.replacements()[state.replacements().len()..]
                .iter()
                .map(|&(s, p, v)| (s.0, p, v))
                .collect(),
            finish,
            outbox,
            lease: lease.cloned(),
        };
        let writing = std::time::Instant::now();
        let written = self.store.append(&w).await;
        metrics::histogram!("hexmeros_commit_seconds").record(writing.elapsed());
        match written {
            Ok(()) => {
                *state = next;
                // Nobody listening is fine: no board is open.
                let _ = self.changes.send(Change {
                    game: state.id(),
                    version: state.version(),
                });
                Ok(fx)
            }
            Err(StoreError::Stale { expected }) => {
                let current = self.store.version(state.id()).await?.unwrap_or(0) as u64;
                Err(Refused::Stale { expected, current }.into())
            }
            Err(StoreError::NoGame(g)) => Err(Refused::UnknownGame(g).into()),
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
    ) -> Result<Handled, HostError> {
        self.run(game, actor, cmd, |state, _| match expected {
            Some(v) if v != state.version() => Err(Refused::Stale {
                expected: v,
                current: state.version(),
            }),
            _ => Ok(()),
        })
        .await
    }

    /// Run the command of a control (a button) made at version `made`: refused, changing
    /// nothing, when what it was made for has gone (a preview's staged move, a challenge window,
    /// a ballot's motion; see `GameState::require_preview_since` and its siblings).
    pub async fn press(
        &self,
        game: GameId,
        actor: Actor,
        cmd: Command,
        made: u64,
    ) -> Result<Handled, HostError> {
        self.run(game, actor, cmd, |state, cmd| {
            commands::require_fresh(state, cmd, made)
        })
        .await
    }

    /// Run a command under the game's lock once `check` passed on the current state.
    async fn run(
        &self,
        game: GameId,
        actor: Actor,
        cmd: Command,
        check: impl FnOnce(&GameState, &Command) -> Result<(), Refused>,
    ) -> Result<Handled, HostError> {
        if bot_level(actor.player).is_some() {
            return Err(Refused::BotSeat.into());
        }
        let slot = self.slot(game);
        let mut cached = slot.lock().await;
        let mut state = self.load(game, &mut cached).await?;
        check(&state, &cmd)?;
        // A player who was away and acts is back (here, then in their other games). Setting up
        // what happens while they are away (a queued move, a standing answer) is not acting.
        let setting_up = matches!(
            cmd,
            Command::Admin(_) | Command::Queue { .. } | Command::ClearQueue | Command::Prefer(_)
        );
        let back = state
            .seat_of(actor.player)
            .filter(|&s| state.away(s).is_some() && !setting_up);
        let mut fx = Vec::new();
        let (ev, mut extra) = match back {
            Some(seat) => {
                let mut probe = state.clone();
                probe.apply(&Event::Back { seat }, self.now())?;
                let planned = commands::event_for(&probe, actor, cmd)?;
                fx = self
                    .commit(&mut state, Event::Back { seat }, Some(actor.player), None)
                    .await?;
                planned
            }
            None => commands::event_for(&state, actor, cmd)?,
        };
        let result = self.commit(&mut state, ev, Some(actor.player), None).await;
        match result {
            Ok(mut more) => {
                self.keep(game, &mut cached, &state);
                fx.append(&mut more);
                fx.append(&mut extra);
                if back.is_some() {
                    drop(cached);
                    match self.back(actor.player).await {
                        Ok(mut report) => fx.append(&mut report.effects),
                        Err(e) => tracing::warn!(error = %e, "back: other games not told"),
                    }
                }
                Ok(Handled { state, effects: fx })
            }
            Err(e) => {
                if matches!(e, HostError::Refused(Refused::Stale { .. })) {
                    // Another process wrote: the cache is old.
                    *cached = None;
                }
                Err(e)
            }
        }
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
        let seat = state.seat_of(actor.player).ok_or(Refused::NotSeated)?;
        match state.holder() {
            Some(h) if h == seat => {}
            Some(h) => {
                return Err(Refused::NotYourTurn {
                    holder: state.seat_name(h).to_string(),
                }
                .into());
            }
            None => return Err(Refused::GameOver.into()),
        }
        let (canonical, next) = state.preview(text)?;
        Ok((canonical, next.show()))
    }

    /// A move tried by any seated player at any time (`/hexmeros try`): a move of the seat to
    /// move in the game as it is now, checked by the rules; its canonical text and the game it
    /// was tried in (to draw it as a preview). Nothing is stored and nobody is told.
    pub async fn try_move(
        &self,
        game: GameId,
        player: PlayerId,
        text: &str,
    ) -> Result<(String, GameState), HostError> {
        let state = self.state(game).await?;
        state.seat_of(player).ok_or(Refused::NotSeated)?;
        if state.holder().is_none() {
            return Err(Refused::GameOver.into());
        }
        let (canonical, _) = state.preview(text)?;
        Ok((canonical, state))
    }

    /// Tell `state` its Token holder's quiet hours (their settings), so reminders wait for
    /// their end; whether the holder, a person, asked for a DM on their turn. A person's
    /// settings that cannot be read count as none.
    async fn with_quiet(&self, state: &mut GameState) -> bool {
        let Some(player) = state.holder_player().filter(|&p| bot_level(p).is_none()) else {
            return false;
        };
        let settings = match self.settings(player).await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(player, error = %e, "settings unreadable: none");
                Default::default()
            }
        };
        state.set_holder_quiet(player, settings.quiet());
        settings.turn_dm
    }

    /// After `player`'s settings changed: the games where they hold the Token are due again
    /// when their reminders now fall.
    pub(crate) async fn refresh_due(&self, player: PlayerId) -> Result<(), HostError> {
        for g in self.store.games_of(player, true).await? {
            let slot = self.slot(g.id);
            let mut cached = slot.lock().await;
            let mut state = self.load(g.id, &mut cached).await?;
            self.with_quiet(&mut state).await;
            self.store
                .set_next_due(g.id, state.version() as i64, state.next_due())
                .await?;
            self.keep(g.id, &mut cached, &state);
        }
        Ok(())
    }

    /// `player`'s queued move on `game` in words (`None`: nothing queued), for them alone;
    /// refused for someone not seated.
    pub async fn queued_move(
        &self,
        game: GameId,
        player: PlayerId,
    ) -> Result<Option<String>, HostError> {
        let state = self.state(game).await?;
        let seat = state.seat_of(player).ok_or(Refused::NotSeated)?;
        Ok(state.queue_told(seat))
    }

    /// What `player`, seated and waiting, might queue on `game` (autocomplete): the moves
    /// they would have if it were their turn now; and, for `if_reply`, the Token holder's legal
    /// moves. Empty for someone not seated, or holding the Token.
    pub async fn queue_choices(
        &self,
        game: GameId,
        player: PlayerId,
    ) -> Result<(Vec<String>, Vec<String>), HostError> {
        let state = self.state(game).await?;
        let Some(seat) = state.seat_of(player) else {
            return Ok(Default::default());
        };
        match state.holder() {
            Some(h) if h != seat => Ok((
                state.queue_suggestions(seat),
                state.position().legal_moves(),
            )),
            _ => Ok(Default::default()),
        }
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, HostError> {
    serde_json::to_string(v).map_err(|e| HostError::Internal(format!("cannot write JSON: {e}")))
}

/// The house rules in force, as stored for listing: the game's switches and the timers.
fn house_json(s: &GameState) -> String {
    serde_json::json!({ "game": s.house(), "timers": s.timers() }).to_string()
}
