//! What the host writes to the outbox (`store::outbox`, issue 18): every effect a player must
//! receive, in the transaction of the event that causes it, so that a crash or a Discord outage
//! between the commit and the send loses nothing. Only the acting player's private replies stay
//! out: they are the answer to the command itself, returned to the caller.
//!
//! Also the effects that follow from a change of state rather than from one rule (a motion
//! opened, a turn timer run out, a game finished): derived here from the states before and after
//! each event, so every front end is told of them exactly once.

use crate::store::{Done, Entry, Lease, NewEntry, OutboxStats};

/// An outbox entry as a front end's deliverer reads it: the effect to deliver (`body`, as JSON),
/// its lane (one game's, or a player's), the game and version it comes from, how urgent it is,
/// and how its delivery went so far. The host's own type: the store's row stays in the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub id: i64,
    pub lane: String,
    pub game: Option<GameId>,
    pub version: Option<i64>,
    pub priority: i64,
    pub body: String,
    pub created_at: i64,
    pub attempts: i64,
    pub last_error: Option<String>,
    /// When a process first set out to deliver it ([`super::GameHost::outbox_trying`]), if one did.
    pub tried_at: Option<i64>,
    /// Not tried again before this (unix ms, real time: see [`wall_now`]), after a failed try.
    pub retry_at: Option<i64>,
    /// Since when (unix ms, real time) Discord has refused it for lack of access, while it does.
    pub blocked_at: Option<i64>,
}

/// The real time (unix ms) an entry's waits are kept in: a backoff is a delivery's business,
/// measured in real time whatever clock the games keep (a test's stands still).
pub fn wall_now() -> i64 {
    use super::Clock;
    super::SystemClock.now()
}

impl From<Entry> for Delivery {
    fn from(e: Entry) -> Delivery {
        Delivery {
            id: e.id,
            lane: e.lane,
            game: e.game,
            version: e.version,
            priority: e.priority,
            body: e.body,
            created_at: e.created_at,
            attempts: e.attempts,
            last_error: e.last_error,
            tried_at: e.tried_at,
            retry_at: e.retry_at,
            blocked_at: e.blocked_at,
        }
    }
}

/// How a delivery ended: the message it made, if any, and a word on it (`sent`, or why it was
/// given up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivered {
    pub message: Option<i64>,
    pub outcome: String,
}

use super::bots::for_bot;
use super::event::{Event, GameId, PlayerId};
use super::state::{GameState, Status};
use super::{Effect, HostError, Pinged, to_json};

/// Time-critical: a player is waiting for it (a question, a Token, a ballot, the board).
pub const URGENT: i64 = 0;
/// Everything else said in a thread.
pub const NORMAL: i64 = 1;
/// Reminders: they go after everything else when much is waiting.
pub const REMINDER: i64 = 2;

/// How urgent an effect of `ev` is.
fn priority(e: &Effect, ev: Option<&Event>) -> i64 {
    if matches!(ev, Some(Event::Reminded { .. })) {
        return REMINDER;
    }
    match e {
        Effect::AskChallenge { .. }
        | Effect::Ping { .. }
        | Effect::Board { .. }
        | Effect::Ballot { .. }
        | Effect::OpenThread { .. }
        | Effect::Stalled { .. } => URGENT,
        Effect::Say { .. }
        | Effect::CloseThread { .. }
        | Effect::Replay { .. }
        | Effect::Results { .. }
        | Effect::Dm { .. }
        | Effect::YourTurn { .. }
        | Effect::Nudge { .. }
        | Effect::Panel { .. }
        | Effect::Private { .. } => NORMAL,
        Effect::Digest { .. } => REMINDER,
    }
}

/// How long a reminder may wait in the outbox (an outage) before it is no longer sent: one
/// that says "your turn, 4 hours in" an hour late says something no longer true.
pub const REMINDER_KEPT_MS: i64 = 3_600_000;
/// How long a daily digest may wait before it is no longer sent (its turns and votes are out of
/// date, and the next one comes the next day).
pub const DIGEST_KEPT_MS: i64 = 6 * 3_600_000;

/// What the outbox keeps of `fx` for `game`: the effects players must receive, with each Token
/// ping that follows its board folded into the board's message (one message per move, not two),
/// and the status panel's update after them when the event told the thread anything (at the end
/// of a game before the thread is closed; at the start of one after its first board, which then
/// waits for nothing but the thread: the panel is pinned, and its two calls, which go at a lower
/// priority, no longer hold the board back at a busy hour). Reminders change nothing the panel
/// shows.
fn told(game: GameId, fx: &[Effect], ev: Option<&Event>, actor: Option<PlayerId>) -> Vec<Effect> {
    let mut out: Vec<Effect> = Vec::with_capacity(fx.len() + 1);
    for e in fx.iter().filter(|e| !for_bot(e) && !is_reply(e, actor)) {
        if let (
            Effect::Ping {
                game: g,
                player,
                text,
            },
            Some(Effect::Board {
                game: b,
                ping: p @ None,
                ..
            }),
        ) = (e, out.last_mut())
            && g == b
        {
            *p = Some(Pinged {
                player: *player,
                text: text.clone(),
            });
            continue;
        }
        out.push(e.clone());
    }
    let told_thread = out.iter().any(|e| e.game() == Some(game));
    if !told_thread || matches!(ev, Some(Event::Reminded { .. })) {
        return out;
    }
    // Before the thread is closed: a message of an archived thread cannot be edited.
    let panel = Effect::Panel { game };
    match out
        .iter()
        .position(|e| matches!(e, Effect::CloseThread { .. }))
    {
        Some(i) => out.insert(i, panel),
        None => out.push(panel),
    }
    out
}

/// The outbox entries for the effects of `ev` (made by `actor`, leaving the game at `version`):
/// all but the actor's own private replies and what is meant for bots.
pub(super) fn entries(
    game: GameId,
    fx: &[Effect],
    ev: Option<&Event>,
    actor: Option<PlayerId>,
    version: u64,
) -> Result<Vec<NewEntry>, HostError> {
    told(game, fx, ev, actor)
        .iter()
        .map(|e| {
            Ok(NewEntry {
                lane: e.lane(),
                game: e.game(),
                version: Some(version as i64),
                priority: priority(e, ev),
                body: to_json(&stored(e))?,
            })
        })
        .collect()
}

/// An effect as the outbox keeps it: a board without its text picture (several kilobytes on
/// HexiMeros's 649 cells), which the deliverer draws again from the game at the entry's version.
fn stored(e: &Effect) -> Effect {
    match e {
        Effect::Board {
            game,
            caption,
            ping,
            ..
        } => Effect::Board {
            game: *game,
            board: String::new(),
            caption: caption.clone(),
            ping: ping.clone(),
        },
        other => other.clone(),
    }
}

/// A private text for the player who acted: the answer to their command.
pub fn is_reply(e: &Effect, actor: Option<PlayerId>) -> bool {
    matches!(e, Effect::Private { player, .. } if Some(*player) == actor)
}

/// What follows from `before` becoming `after` by one event (a motion's ballot is the host's own
/// effect, said with the motion): the stall notice when the Token holder's timer runs out (a person's: bots never stall), and when
/// the game finishes its results, its replay and the closing of its thread, in that order (the
/// thread is closed last: a message in an archived thread would reopen it).
pub(super) fn follow_ups(before: &GameState, after: &GameState) -> Vec<Effect> {
    let game = after.id();
    let mut fx: Vec<Effect> = Vec::new();
    let live = matches!(after.status(), Status::HouseRules | Status::Playing);
    if live
        && after.timed_out()
        && !before.timed_out()
        && let Some(seat) = after.holder()
        && after.bot(seat).is_none()
    {
        fx.push(Effect::Stalled {
            game,
            seat,
            turn: after.record().len(),
        });
    }
    if after.status() == Status::Finished && before.status() != Status::Finished {
        fx.push(Effect::Results { game });
        fx.push(Effect::Replay { game });
        fx.push(Effect::CloseThread { game });
    }
    fx
}

fn deliveries(rows: Vec<Entry>) -> Vec<Delivery> {
    rows.into_iter().map(Delivery::from).collect()
}

/// The outbox as a front end's deliverer reads and marks it (the rows are the store's; the host
/// is the front ends' one door to them).
impl super::GameHost {
    /// The first pending entry of a lane.
    pub async fn outbox_head(&self, lane: &str) -> Result<Option<Delivery>, HostError> {
        Ok(self.store.outbox_head(lane).await?.map(Delivery::from))
    }

    /// The first pending entry of every lane that is due now (not waiting after a failed
    /// try), most urgent first, at most `limit`, after the head `after` (the next page).
    pub async fn outbox_heads(
        &self,
        limit: i64,
        after: Option<&Delivery>,
    ) -> Result<Vec<Delivery>, HostError> {
        let after = after.map(|d| (d.priority, d.id));
        Ok(deliveries(
            self.store.outbox_heads(limit, wall_now(), after).await?,
        ))
    }

    /// The soonest time (unix ms) a pending entry waits for after a failed try, if any.
    pub async fn outbox_next_retry(&self) -> Result<Option<i64>, HostError> {
        Ok(self.store.outbox_next_retry().await?)
    }

    /// Discord answered again after failures: every entry waiting after a failure (but for a
    /// refusal of access) is due within a second. How many.
    pub async fn outbox_hurry(&self) -> Result<u64, HostError> {
        Ok(self.store.outbox_hurry(wall_now()).await?)
    }

    /// Every pending entry, oldest first.
    pub async fn outbox_pending(&self) -> Result<Vec<Delivery>, HostError> {
        Ok(deliveries(self.store.outbox_pending().await?))
    }

    /// The most urgent priority of what waits behind `entry` in its lane (`None`: nothing).
    pub async fn outbox_behind(&self, entry: &Delivery) -> Result<Option<i64>, HostError> {
        Ok(self.store.outbox_behind(&entry.lane, entry.id).await?)
    }

    /// Whether a later pending entry of `entry`'s lane does the same (a status panel's update
    /// that a later one makes again: this one can be left out).
    pub async fn outbox_repeated(&self, entry: &Delivery) -> Result<bool, HostError> {
        Ok(self
            .store
            .outbox_repeated(&entry.lane, entry.id, &entry.body)
            .await?)
    }

    /// Mark an entry delivered or given up, now; false if it was done already. Under `lease`
    /// (its lane's), only while it is still held with its token: else nothing is written and
    /// the error says so ([`HostError::lease_lost`]).
    pub async fn outbox_done(
        &self,
        lease: Option<&Lease>,
        id: i64,
        done: &Delivered,
    ) -> Result<bool, HostError> {
        let done = Done {
            message: done.message,
            outcome: done.outcome.clone(),
        };
        Ok(self.store.outbox_done(lease, id, &done, self.now()).await?)
    }

    /// Mark a pending entry as about to be tried (the first time only): a later process sees
    /// it was tried (`Entry::tried_at`) where what it sends carries no nonce.
    pub async fn outbox_trying(&self, id: i64) -> Result<(), HostError> {
        Ok(self.store.outbox_trying(id, self.now()).await?)
    }

    /// Count a failed try of a pending entry, which is not tried again for `pause_ms` (real
    /// time); `blocked`: for lack of access (`Delivery::blocked_at` says since when). Under
    /// `lease` as [`GameHost::outbox_done`].
    pub async fn outbox_failed(
        &self,
        lease: Option<&Lease>,
        id: i64,
        error: &str,
        pause_ms: i64,
        blocked: bool,
    ) -> Result<(), HostError> {
        let now = wall_now();
        Ok(self
            .store
            .outbox_failed(lease, id, error, now.saturating_add(pause_ms), blocked, now)
            .await?)
    }

    /// A game whose place the front end can no longer reach (Discord refuses the bot its
    /// thread for good: the server removed the bot, or its access): the game is paused, so no
    /// clock runs while nobody can see it, and every entry waiting in its lane is given up with
    /// `why` (its players' own lanes are kept). A game paused or over already only has its
    /// entries given up. Returns whether this paused it. An admin resumes it as any paused
    /// game, once the front end can reach it again.
    pub async fn lose_place(&self, game: GameId, why: &str) -> Result<bool, HostError> {
        // The stored status first: a finished game is not replayed to learn it is over.
        let Some(row) = self.store.game(game).await? else {
            return Err(super::Refused::UnknownGame(game).into());
        };
        let live = matches!(
            Status::from_id(row.status),
            Some(Status::HouseRules | Status::Playing)
        );
        let mut paused = false;
        if live {
            let system = super::Actor {
                player: 0,
                admin: true,
            };
            let pause = super::Command::Admin(super::event::AdminAction::Pause);
            match self.handle(game, system, pause, None).await {
                Ok(_) => paused = true,
                // Paused or finished meanwhile: nothing to stop.
                Err(HostError::Refused(_)) => {}
                Err(e) => return Err(e),
            }
        }
        let outcome = format!("given up, the game paused: {why}");
        self.store
            .outbox_give_up_lane(&super::effect::game_lane(game), &outcome, self.now())
            .await?;
        Ok(paused)
    }

    /// The outbox at a glance.
    pub async fn outbox_stats(&self) -> Result<OutboxStats, HostError> {
        Ok(self.store.outbox_stats().await?)
    }

    /// Forget entries done more than `keep_ms` ago; how many.
    pub async fn outbox_prune(&self, keep_ms: i64) -> Result<u64, HostError> {
        Ok(self.store.outbox_prune(self.now() - keep_ms).await?)
    }

    /// A start the front end cannot give a place to be played (Discord refused the game's
    /// thread for good) before anyone moved: the game ends aborted with `why` in its log, and
    /// every entry still waiting for it (its thread, panel, first board, any DM) is given up, so
    /// that no half-made game is left. A finished game is refused (`GameOver`); one aborted
    /// already only has its entries given up (a process that died between the two writes). The front end tells the players first, so a process that dies before this tries
    /// (and tells, with the same nonces) again.
    pub async fn abandon_start(&self, game: GameId, why: &str) -> Result<(), HostError> {
        let slot = self.slot(game);
        let mut cached = slot.lock().await;
        let mut state = self.load(game, &mut cached).await?;
        // Already abandoned (a process died before giving its entries up): only that is left.
        if state.status() != Status::Aborted {
            let ev = Event::Abandoned { why: why.into() };
            if let Err(e) = self.commit(&mut state, ev, None, None).await {
                *cached = None;
                return Err(e);
            }
            self.keep(game, &mut cached, &state);
        }
        drop(cached);
        let outcome = format!("the game could not start: {why}");
        self.store
            .outbox_give_up_game(game, &outcome, self.now())
            .await?;
        Ok(())
    }

    /// Why `entry` is no longer worth sending (after an outage, or behind a storm), if it is
    /// not: a reminder an hour late ([`REMINDER_KEPT_MS`]) or of a turn that is over (a move
    /// was committed since, or the game stopped), a digest six hours late
    /// ([`DIGEST_KEPT_MS`]). What happened in a game (a board, a time-out, a result) is always
    /// sent, late or not.
    pub async fn outlived(&self, entry: &Delivery) -> Result<Option<String>, HostError> {
        if entry.priority < REMINDER {
            return Ok(None);
        }
        let age = self.now() - entry.created_at;
        let effect = serde_json::from_str::<Effect>(&entry.body).ok();
        if matches!(effect, Some(Effect::Digest { .. })) {
            return Ok((age > DIGEST_KEPT_MS)
                .then(|| format!("outlived: a digest {} hours late", age / 3_600_000)));
        }
        if age > REMINDER_KEPT_MS {
            return Ok(Some(format!(
                "outlived: a reminder {} minutes late",
                age / 60_000
            )));
        }
        let game = match effect {
            Some(Effect::Dm { about, .. }) => about,
            Some(e) => e.game(),
            None => None,
        };
        let (Some(game), Some(version)) = (game, entry.version) else {
            return Ok(None);
        };
        // The stored row first: most reminders go out before anything else happened.
        match self.store.game(game).await? {
            Some(row) if row.version > version => {}
            _ => return Ok(None),
        }
        let now = self.state(game).await?;
        let then = self.state_at(game, version.max(0) as u64).await?;
        let live = matches!(now.status(), Status::HouseRules | Status::Playing);
        if !live || now.record().len() > then.record().len() {
            return Ok(Some("outlived: the turn it was about is over".into()));
        }
        Ok(None)
    }

    /// Where a front end started a game (its `origin`, until its thread is known).
    pub async fn origin(&self, game: GameId) -> Result<Option<String>, HostError> {
        Ok(self.store.game(game).await?.and_then(|g| g.channel))
    }
}
