//! Bot seats: `bot_turns` plays every pending bot action of a game — a move chosen off the
//! async threads, challenge-window answers, votes — each stored as its own versioned event
//! exactly like a person's command, so a restart while a bot thinks loses nothing.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::event::{ChallengePref, Event, GameId, Motion};
use super::say::Refused;
use super::{BotAction, Effect, GameHost, GameState, HostError};
use crate::ai::{self, Level, Limits};
use crate::games::Seat;
use crate::host::bot_level;

/// The most bot actions one `bot_turns` call takes (a HexiMeros game is a few hundred moves).
pub const BOT_TURNS_MAX: usize = 2000;

/// The most bot actions `tick` takes per game: a round of six seats with a ballot or two.
pub(super) const BOT_TICK_MAX: usize = 12;

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
pub(super) fn for_bot(e: &Effect) -> bool {
    match e {
        Effect::Ping { player, .. }
        | Effect::Dm { player, .. }
        | Effect::YourTurn { player, .. }
        | Effect::Nudge { player, .. }
        | Effect::Digest { player, .. }
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

impl GameHost {
    /// Play every pending bot action of `game`, in order, until a person must act or the game
    /// ends: a bot holding the Token chooses a move off the async threads (within
    /// [`think_time`]), stages it with its Check declarations and passes the Token; bots asked in
    /// a challenge window answer; bots vote on open ballots. Each action is stored as its own
    /// versioned event, like a person's command. Returns all their effects in order. Front ends
    /// call this after every successful `handle`; if this host is already driving the game's
    /// bots, it returns at once (the running call picks the new state up). A safety valve stops
    /// a call after [`BOT_TURNS_MAX`] actions (a table left to bots alone may never end, §6);
    /// such a game stays due, so `tick` carries on with it. With the outbox
    /// ([`GameHost::with_outbox`]) a call stops at the first action the table must be told of
    /// and makes none while the game's lane holds anything undelivered: the front end delivers
    /// and calls again.
    pub async fn bot_turns(&self, game: GameId) -> Result<Vec<Effect>, HostError> {
        self.drive_bots(game, BOT_TURNS_MAX).await
    }

    /// At most `max` bot actions of `game`.
    pub(super) async fn drive_bots(
        &self,
        game: GameId,
        max: usize,
    ) -> Result<Vec<Effect>, HostError> {
        {
            let mut driving = self.driving.lock().unwrap_or_else(|e| e.into_inner());
            if !driving.insert(game) {
                return Ok(Vec::new());
            }
        }
        let _guard = Driving(&self.driving, game);
        // Most games have no bot: nothing to claim (front ends call this after every command).
        if self.state(game).await?.bot_action().is_none() {
            return Ok(Vec::new());
        }
        // Across processes sharing the database: the game's bots lease, renewed at every
        // action (one think is at most [`think_time`], well under the lease).
        let name = super::bots_lease(game);
        let mut fx = Vec::new();
        let mut result = Ok(());
        let mut held: Option<super::Lease> = None;
        for _ in 0..max {
            let claimed = match &held {
                Some(lease) => self.renew_lease(lease).await,
                None => self.claim_lease(&name).await,
            };
            match claimed {
                Ok(Some(lease)) => held = Some(lease),
                // Another process drives them (and picks the new state up).
                Ok(None) => {
                    held = None;
                    break;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            match self.bot_step(game, held.as_ref()).await {
                Ok(Some(mut more)) => fx.append(&mut more),
                Ok(None) => break,
                // Another process took the lease over meanwhile (this one was paused past it):
                // nothing was written, the bots are theirs now.
                Err(e) if e.lease_lost() => {
                    tracing::info!(game, "bots: the lease passed to another process");
                    held = None;
                    break;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        if let Some(lease) = &held {
            self.release_lease(lease).await;
        }
        result.map(|()| fx)
    }

    /// With the outbox: whether something the table must be told of `game` still waits in its
    /// lane. A bot does not act then: bots play no faster than the thread shows their moves, and
    /// an outage leaves at most one bot action per game waiting, not hundreds. The deliverer
    /// drives the bots again once the lane is empty (and the timers, when a game waits on a bot).
    async fn told_pending(&self, game: GameId) -> Result<bool, HostError> {
        if !self.outbox {
            return Ok(false);
        }
        Ok(self
            .store
            .outbox_head(&super::game_lane(game))
            .await?
            .is_some())
    }

    /// One bot action of `game`, stored (under `lease`, the game's bots lease: only while it is
    /// still held with its token); `None` when no bot has anything to do.
    async fn bot_step(
        &self,
        game: GameId,
        lease: Option<&super::Lease>,
    ) -> Result<Option<Vec<Effect>>, HostError> {
        loop {
            let state = self.state(game).await?;
            let Some(action) = state.bot_action() else {
                return Ok(None);
            };
            if self.told_pending(game).await? {
                return Ok(None);
            }
            // Think without holding the game's lock: people may vote or look meanwhile.
            let chosen = match action {
                BotAction::Move { level, .. } => Some(self.think(&state, level).await?),
                _ => None,
            };
            let slot = self.slot(game);
            let mut cached = slot.lock().await;
            let mut current = self.load(game, &mut cached).await?;
            if current.version() != state.version() {
                // Someone acted while the bot thought: decide again on the new state.
                continue;
            }
            let (seat, ev) = bot_event(&current, &action, chosen.as_deref())?;
            // A queued move is played by the host on the player's behalf: no command of theirs
            // is answered, so what it tells them privately goes out by DM.
            let actor = match action {
                BotAction::Queued { .. } => None,
                _ => current.seats().get(seat.index()).map(|s| s.mover),
            };
            let fx = match self.commit(&mut current, ev, actor, lease).await {
                Ok(fx) => fx,
                Err(HostError::Refused(Refused::Stale { .. })) => {
                    // Another process wrote first.
                    *cached = None;
                    continue;
                }
                Err(e) => return Err(e),
            };
            self.keep(game, &mut cached, &current);
            return Ok(Some(fx));
        }
    }

    /// The bot's move for the Token holder, chosen on the blocking pool. Players who always
    /// declare Check upon a mover count as having declared already.
    pub(super) async fn think(&self, state: &GameState, level: Level) -> Result<String, HostError> {
        let game = state.position().clone();
        let mut declarers = state.declared_upon().to_vec();
        for (i, p) in state.prefs().iter().enumerate() {
            let s = Seat(i as u8);
            if *p == ChallengePref::AlwaysDeclare && !declarers.contains(&s) {
                declarers.push(s);
            }
        }
        let seed = bot_seed(state.id(), state.version());
        let limits = Limits {
            nodes: None,
            deadline: Some(Instant::now() + think_time(level)),
        };
        let chosen = crate::background::run(crate::background::Work::Bots, move || {
            let thinking = std::time::Instant::now();
            let chosen = ai::choose_respecting(&game, &declarers, level, seed, limits);
            metrics::histogram!("hexmeros_bot_think_seconds").record(thinking.elapsed());
            chosen.map(|c| c.text)
        })
        .await
        .map_err(|e| HostError::Internal(format!("the bot stopped thinking: {e}")))?;
        chosen.map_err(|e| HostError::Internal(format!("the bot could not move: {e}")))
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
            let staged = state.staged().ok_or(Refused::NothingStaged)?;
            let declare = ai::answer_challenge(state.position(), &staged.text, seat);
            (seat, Event::Answered { seat, declare })
        }
        BotAction::Vote { motion, seat, .. } => {
            let open = state
                .motions()
                .iter()
                .find(|m| m.id == motion)
                .ok_or(Refused::NoSuchMotion(motion))?;
            // The bot answers whether the rules' condition holds for the seat concerned.
            let question = match open.motion {
                Motion::Draw => ai::Motion::Draw,
                Motion::Skip { seat } => ai::Motion::SkipStalled {
                    seat,
                    stalled: state.stalled(seat),
                },
                Motion::Expel { seat: s } | Motion::ExpelFor { seat: s, .. } => ai::Motion::Expel {
                    seat: s,
                    // Abandonment: the seat has held the Token past the turn timer.
                    stalled: state.stalled(s),
                },
                Motion::Replace { seat, .. } => ai::Motion::Replacement {
                    seat,
                    vacated: state.stalled(seat)
                        || state.seats().get(seat.index()).is_some_and(|s| s.resigning),
                },
                Motion::HouseRule { .. } | Motion::Team { .. } => ai::Motion::Other,
            };
            let yes = ai::vote(state.position(), seat, &question);
            (seat, Event::Ballot { motion, seat, yes })
        }
        BotAction::Propose { seat } => (
            seat,
            Event::Proposed {
                seat,
                motion: Motion::Draw,
            },
        ),
        BotAction::Pass { seat } => {
            let staged = state.staged().ok_or(Refused::NothingStaged)?;
            (
                seat,
                Event::Committed {
                    seat,
                    text: staged.text.clone(),
                },
            )
        }
        BotAction::Queued { seat } => {
            (seat, state.queue_event(seat).ok_or(Refused::NothingQueued)?)
        }
        BotAction::Move { seat, .. } => {
            let mut tries: Vec<String> = chosen.map(str::to_string).into_iter().collect();
            tries.extend(state.position().legal_moves());
            let (text, asked) = tries
                .iter()
                .find_map(|t| state.prepare_stage(t).ok())
                .ok_or_else(|| {
                    HostError::Internal("the bot found no move the host accepts".into())
                })?;
            let ev = if asked.is_empty() {
                Event::Committed { seat, text }
            } else {
                Event::Staged { seat, text, asked }
            };
            (seat, ev)
        }
    })
}
