//! The deliverer: drains the outbox (`store::outbox`, issue 18) onto Discord. The host writes
//! every effect a player must receive in the transaction of its event; here each lane (a game's
//! thread, a player's direct messages) is delivered in order, one entry at a time, and an entry
//! is marked done only once Discord confirmed it (with the message id it got) or it can never be
//! delivered (a closed DM, a request Discord refuses for good).
//!
//! A command's own handler drains the lanes it touched before it answers, so a player sees the
//! board as soon as today; a background task drains everything else (timers' effects, bots',
//! entries left by a crash or an outage) and retries failures:
//! * 5xx, 429, 401, timeouts and connection errors: the lane waits, with exponential backoff
//!   and jitter (1 s doubling to 5 min), and everything behind the entry in its lane waits with
//!   it;
//! * missing access (403): the server is told once, in the game's parent channel, and the entry
//!   waits (10 min between tries) until access is given back, for at most [`BLOCKED_GIVE_UP`]:
//!   then the game is paused (no clock runs while nobody can see it), its players are told by
//!   DM, and its lane's entries are given up (`deliver::lost_place`; also at once when the bot
//!   is removed from the server, `GUILD_DELETE`);
//! * an unknown (deleted) or archived and locked thread: see `deliver::to_game`;
//! * any other refusal (a 4xx): the entry is given up with the reason, logged as an error.
//!
//! A lane's wait is stored with its first entry (`retry_at`, by the host's clock), and the
//! background task reads only the lanes that are due: any number of waiting lanes (servers that
//! removed the bot) leaves the others their places, and a backoff outlives a restart.
//!
//! Messages carry the nonce `hx<entry id>`, enforced, so a retry after a lost answer (or after a
//! restart within Discord's few minutes) gets the message already made instead of a second one.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::Http;
use tokio::time::Instant;

use hexmeros::host::{Delivered, Delivery, HostError, Lease};
use hexmeros::host::{Effect, LEASE_MS, URGENT};

use crate::discord::Data;
use crate::discord::metrics;
use crate::discord::outbound::deliver;
use crate::discord::outbound::failure::{self, Failed, Failure, backoff, classify, guarded, span};
use crate::discord::outbound::post::Outcome;
use crate::discord::wire::pace;

/// The priority `entry` is delivered at. A command's own calls are urgent, but not its status
/// panel's edit (the turn message already says what changed): boards go first at a busy hour.
/// And an entry goes as urgently as what waits behind it in its lane (a new game's panel, still
/// waiting at a busy hour, holds up the first move's board).
async fn priority_of(data: &Data, entry: &Delivery, effect: &Effect, background: bool) -> i64 {
    let own = match background || matches!(effect, Effect::Panel { .. }) {
        true => entry.priority,
        false => URGENT,
    };
    let behind = match own > URGENT {
        true => data.host.outbox_behind(entry).await.ok().flatten(),
        false => None,
    };
    inherited(own, behind)
}

/// The priority an entry is delivered at: its own, or that of the most urgent entry waiting
/// behind it in its lane if more urgent (lower).
fn inherited(own: i64, behind: Option<i64>) -> i64 {
    behind.map_or(own, |b| own.min(b))
}

/// The most lanes delivered at once by the background task. Their calls keep the bot's pace
/// (`pace`), so this bounds lanes waiting on Discord (a retry's pause, a slow answer) rather than
/// the calls made: after an outage, many lanes get through at once.
const PARALLEL: usize = 16;
/// The longest pause between tries of an entry Discord refused for lack of access.
const BLOCKED_PAUSE: Duration = Duration::from_secs(600);
/// How long an entry is refused for lack of access before its game is paused and its lane
/// given up, unless the operator says otherwise (`--access-give-up-ms`): an hour, six tries,
/// time for an admin who took a permission away by mistake.
pub const BLOCKED_GIVE_UP: Duration = Duration::from_secs(3600);
/// The lanes' first entries read at a time by the background task (it reads on, page by page,
/// while it has free places and lanes it may not start: busy here, or waiting after a database
/// error).
const PAGE: i64 = 64;
/// How long a lane another process is delivering is left alone before this one looks again.
const ELSEWHERE_PAUSE: Duration = Duration::from_secs(2);
/// How often the background task looks for work when nobody wakes it.
const POLL: Duration = Duration::from_secs(1);
/// How often the outbox's state is logged while entries wait, and delivered entries pruned.
const REPORT_EVERY: Duration = Duration::from_secs(60);
/// How long a delivered entry is kept (for `hexmeros admin status` and for reading by hand).
const KEEP_DONE_MS: i64 = 7 * 24 * 3_600_000;

/// A lane waiting before its next try.
#[derive(Clone, Copy, Debug)]
struct Wait {
    until: Instant,
    failures: u32,
}

/// The deliverer's shared state.
pub struct Deliverer {
    /// How long a lane may be refused access before its game is paused (`BLOCKED_GIVE_UP`).
    give_up: Duration,
    /// One lock per lane: a lane is delivered by one task at a time, in order.
    lanes: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Lanes whose first entry failed, and until when they wait.
    waits: Mutex<HashMap<String, Wait>>,
    /// Lanes the background task is delivering now.
    busy: Mutex<HashSet<String>>,
    /// The urgency of the entry each lane is delivering now, which a command waiting for the
    /// lane raises.
    sending: Mutex<HashMap<String, pace::Urgency>>,
    wake: tokio::sync::Notify,
    /// Set when the process stops: no entry is started any more.
    stopping: std::sync::atomic::AtomicBool,
}

impl Deliverer {
    pub fn new(give_up: Duration) -> Deliverer {
        Deliverer {
            give_up,
            lanes: Mutex::default(),
            waits: Mutex::default(),
            busy: Mutex::default(),
            sending: Mutex::default(),
            wake: tokio::sync::Notify::new(),
            stopping: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The pause between tries of an entry refused for lack of access: a sixth of the time it
    /// may be refused, at most [`BLOCKED_PAUSE`].
    fn blocked_pause(&self) -> Duration {
        (self.give_up / 6).min(BLOCKED_PAUSE)
    }

    /// Tell the background task there may be new work.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Start no more entries (the one being sent is finished); the rest stays for the next
    /// process.
    pub fn stop(&self) {
        self.stopping
            .store(true, std::sync::atomic::Ordering::SeqCst);
        self.wake();
    }

    pub fn stopping(&self) -> bool {
        self.stopping.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Whether an entry is being delivered now.
    pub fn busy(&self) -> bool {
        let lanes = self.lanes.lock().unwrap_or_else(|e| e.into_inner());
        lanes.values().any(|l| l.try_lock().is_err())
    }

    fn lock_of(&self, lane: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut map = self.lanes.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(lane.to_string()).or_default().clone()
    }

    fn waiting_until(&self, lane: &str) -> Option<Instant> {
        let waits = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        waits
            .get(lane)
            .map(|w| w.until)
            .filter(|&t| t > Instant::now())
    }

    /// The database failed this process on `lane` (a lease, a read, a mark): the lane waits
    /// here, with backoff, the wait kept in memory (the database could not keep it).
    fn fail(&self, lane: &str) -> Duration {
        let mut waits = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        let failures = waits.get(lane).map_or(0, |w| w.failures) + 1;
        let pause = backoff(failures);
        waits.insert(
            lane.to_string(),
            Wait {
                until: Instant::now() + pause,
                failures,
            },
        );
        pause
    }

    /// Another process holds the lane's lease: leave the lane alone for [`ELSEWHERE_PAUSE`]
    /// (its failures, if any, count on).
    fn elsewhere(&self, lane: &str) {
        self.wait(lane, ELSEWHERE_PAUSE);
    }

    /// A mark of `lane`'s entry was not written (`e`): another process took the lane's lease
    /// over (this one was paused past it; the lane is theirs now), or the database failed.
    fn unmarked(&self, lane: &str, entry: i64, e: &HostError) {
        if e.lease_lost() {
            tracing::info!(entry, lane, "the outbox lane passed to another process");
            return self.elsewhere(lane);
        }
        tracing::error!(entry, lane, error = %e, "cannot mark an entry done");
        self.fail(lane);
    }

    /// Keep `lane` waiting for `pause` in this process only (its wait could not be stored).
    fn wait(&self, lane: &str, pause: Duration) {
        let mut waits = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        let failures = waits.get(lane).map_or(0, |w| w.failures);
        waits.insert(
            lane.to_string(),
            Wait {
                until: Instant::now() + pause,
                failures,
            },
        );
    }

    /// A lane's entry was delivered. If it had failed before, Discord is likely back (the end
    /// of an outage): every entry waiting after transient failures is due within a second,
    /// instead of at the end of its backoff (minutes, after a long outage); a lane that fails
    /// again goes on with its backoff where it was (its entry's attempts).
    async fn succeed(&self, data: &Data, entry: &Delivery) {
        let waited = self
            .waits
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&entry.lane)
            .is_some();
        if !waited && entry.attempts == 0 {
            return;
        }
        if let Err(e) = data.host.outbox_hurry().await {
            tracing::warn!(error = %e, "the waiting entries cannot be brought forward");
        }
        self.wake();
    }

    /// Deliver a lane's pending entries in order until it is empty, an entry fails (the lane
    /// then waits; the background task tries again) or the status panel's update is next (the
    /// background task's), for a command or a bot that is waiting on them: as urgent as a
    /// command's own calls (`pace`). Returns whether the lane is empty.
    pub async fn drain(&self, http: &Arc<Http>, data: &Data, lane: &str) -> bool {
        // The entry being sent in the lane (a panel, at its lower priority) now holds up a
        // command: it goes as urgently.
        if let Some(u) = self
            .sending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(lane)
        {
            u.hurry();
        }
        self.drain_as(http, data, lane, false).await.1
    }

    /// `drain`; `background`: each entry's calls paced by its own priority. Returns how many
    /// entries left the outbox, and whether the lane is empty. A lane is delivered only under
    /// its lease, so of several processes sharing the database one delivers it at a time (the
    /// others leave it alone; one that died holding it leaves it to them after `LEASE_MS`).
    async fn drain_as(
        &self,
        http: &Arc<Http>,
        data: &Data,
        lane: &str,
        background: bool,
    ) -> (usize, bool) {
        let lock = self.lock_of(lane);
        let _held = lock.lock().await;
        let lease = match data
            .host
            .claim_lease(&hexmeros::host::lane_lease(lane))
            .await
        {
            Ok(Some(lease)) => lease,
            // Another process delivers it: this one looks again in a while.
            Ok(None) => {
                self.elsewhere(lane);
                return (0, false);
            }
            Err(e) => {
                tracing::warn!(lane, error = %e, "the outbox lane's lease cannot be claimed");
                self.fail(lane);
                return (0, false);
            }
        };
        let (drained, lease) = self.drain_leased(http, data, lane, lease, background).await;
        if let Some(lease) = lease {
            data.host.release_lease(&lease).await;
        }
        drained
    }

    /// `drain_as` with the lane's lease held: renewed before an entry when a third of it has
    /// passed, and every mark written under it. Returns the lease still held, if it is.
    async fn drain_leased(
        &self,
        http: &Arc<Http>,
        data: &Data,
        lane: &str,
        mut lease: Lease,
        background: bool,
    ) -> ((usize, bool), Option<Lease>) {
        let renew_every = Duration::from_millis((LEASE_MS / 3) as u64);
        let mut renewed = Instant::now();
        let mut done = 0;
        loop {
            if self.waiting_until(lane).is_some() || self.stopping() {
                return ((done, false), Some(lease));
            }
            if renewed.elapsed() >= renew_every {
                match data.host.renew_lease(&lease).await {
                    Ok(Some(renewed)) => lease = renewed,
                    _ => return ((done, false), None),
                }
                renewed = Instant::now();
            }
            let entry = match data.host.outbox_head(lane).await {
                Ok(Some(e)) if e.retry_at.is_some_and(|t| t > hexmeros::host::wall_now()) => {
                    // It waits after a failed try; the background task tries it when it is due.
                    return ((done, false), Some(lease));
                }
                Ok(Some(e)) => e,
                Ok(None) => return ((done, true), Some(lease)),
                Err(e) => {
                    tracing::warn!(lane, error = %e, "the outbox cannot be read");
                    self.fail(lane);
                    return ((done, false), Some(lease));
                }
            };
            // A reminder that outlived its point (an outage) is not sent as if fresh.
            match self.outlived(data, &entry, &lease).await {
                Some(true) => {
                    done += 1;
                    continue;
                }
                Some(false) => {}
                None => return ((done, false), Some(lease)),
            }
            let effect = serde_json::from_str::<Effect>(&entry.body);
            if matches!(effect, Ok(Effect::Panel { .. })) {
                // A panel's update that a later one in the lane makes again is left out: what
                // comes between them (a move's board) goes now, not after the panel.
                match self.left_out(data, &entry, &lease).await {
                    Some(true) => {
                        done += 1;
                        continue;
                    }
                    Some(false) => {}
                    None => return ((done, false), Some(lease)),
                }
                // The status panel is nothing a command's answer waits for: the background
                // task posts it (and whatever follows it in the lane) at its own priority.
                if !background {
                    return ((done, false), Some(lease));
                }
            }
            if !self
                .one(http, data, &entry, &lease, effect, background)
                .await
            {
                return ((done, false), Some(lease));
            }
            done += 1;
        }
    }

    /// Leave out `entry` if it outlived its point (`GameHost::outlived`): whether it was left
    /// out (`None`: the outbox could not be read or written; the lane waits).
    async fn outlived(&self, data: &Data, entry: &Delivery, lease: &Lease) -> Option<bool> {
        let why = match data.host.outlived(entry).await {
            Ok(Some(why)) => why,
            Ok(None) => return Some(false),
            Err(e) => {
                tracing::warn!(lane = entry.lane, error = %e, "the outbox cannot be read");
                self.fail(&entry.lane);
                return None;
            }
        };
        tracing::info!(
            entry = entry.id,
            lane = entry.lane,
            why,
            "an entry is no longer sent"
        );
        let gone = Delivered {
            message: None,
            outcome: why,
        };
        match data.host.outbox_done(Some(lease), entry.id, &gone).await {
            Ok(_) => Some(true),
            Err(e) => {
                self.unmarked(&entry.lane, entry.id, &e);
                None
            }
        }
    }

    /// Note the urgency of the entry `lane` is sending now (`None`: it sends none).
    fn sending(&self, lane: &str, urgency: Option<pace::Urgency>) {
        let mut sending = self.sending.lock().unwrap_or_else(|e| e.into_inner());
        match urgency {
            Some(u) => sending.insert(lane.to_string(), u),
            None => sending.remove(lane),
        };
    }

    /// Leave out `entry` if a later entry of its lane makes it again: whether it was left out
    /// (`None`: the outbox could not be read or written; the lane waits).
    async fn left_out(&self, data: &Data, entry: &Delivery, lease: &Lease) -> Option<bool> {
        let repeated = match data.host.outbox_repeated(entry).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(lane = entry.lane, error = %e, "the outbox cannot be read");
                self.fail(&entry.lane);
                return None;
            }
        };
        if !repeated {
            return Some(false);
        }
        let done = Delivered {
            message: None,
            outcome: "made again by a later entry".into(),
        };
        match data.host.outbox_done(Some(lease), entry.id, &done).await {
            Ok(_) => Some(true),
            Err(e) => {
                self.unmarked(&entry.lane, entry.id, &e);
                None
            }
        }
    }

    /// Send an entry's effect at its urgency, which a command waiting for the lane may raise.
    async fn send(
        &self,
        http: &Arc<Http>,
        data: &Data,
        entry: &Delivery,
        effect: Effect,
        background: bool,
    ) -> anyhow::Result<Outcome> {
        let priority = priority_of(data, entry, &effect, background).await;
        let urgency = pace::Urgency::new(priority);
        self.sending(&entry.lane, Some(urgency.clone()));
        let delivery = pace::with_priority(urgency, deliver::entry(http, data, entry, effect));
        let sent = guarded(delivery).await;
        self.sending(&entry.lane, None);
        sent
    }

    /// Deliver one entry (`effect`, its body as read); true if it left the outbox.
    async fn one(
        &self,
        http: &Arc<Http>,
        data: &Data,
        entry: &Delivery,
        lease: &Lease,
        effect: serde_json::Result<Effect>,
        background: bool,
    ) -> bool {
        let result = match effect {
            Ok(effect) => self.send(http, data, entry, effect, background).await,
            Err(e) => Ok(Outcome::Dropped(format!("unreadable entry: {e}"))),
        };
        let done = match result {
            Ok(Outcome::Sent(message)) => {
                metrics::delivered(entry.priority, data.host.now() - entry.created_at);
                Delivered {
                    message: message.map(|m| m.get() as i64),
                    outcome: "sent".into(),
                }
            }
            Ok(Outcome::Dropped(why)) => {
                tracing::info!(
                    entry = entry.id,
                    lane = entry.lane,
                    why,
                    "an entry needs no message"
                );
                Delivered {
                    message: None,
                    outcome: why,
                }
            }
            Err(err) => match self.failed(http, data, entry, lease, &err).await {
                Failed::GivenUp(done) => done,
                // The game was paused and its lane given up.
                Failed::Lost => return true,
                Failed::Waits => return false,
            },
        };
        self.succeed(data, entry).await;
        if let Err(e) = data.host.outbox_done(Some(lease), entry.id, &done).await {
            // Delivered but not marked: it is sent again with the same nonce, which Discord
            // answers with the message already made (within a few minutes).
            self.unmarked(&entry.lane, entry.id, &e);
            return false;
        }
        true
    }

    /// What becomes of an entry whose delivery failed with `err`: given up (a refusal for
    /// good), its game paused and its lane given up (refused access for long enough), or it
    /// waits, the wait stored with it (backoff; a refusal of access: `blocked_pause`).
    async fn failed(
        &self,
        http: &Arc<Http>,
        data: &Data,
        entry: &Delivery,
        lease: &Lease,
        err: &anyhow::Error,
    ) -> Failed {
        let how = classify(err);
        let text = format!("{err:#}");
        let refused_for = entry
            .blocked_at
            .map(|t| Duration::from_millis((hexmeros::host::wall_now() - t).max(0) as u64));
        if how == Failure::Blocked
            && refused_for.is_some_and(|d| d >= self.give_up)
            && let Some(game) = entry.game
            && entry.lane == hexmeros::host::game_lane(game)
        {
            return self.lose(http, data, entry, game, err).await;
        }
        if how == Failure::Permanent {
            if let Err(e) = data
                .host
                .outbox_failed(Some(lease), entry.id, &text, 0, false)
                .await
            {
                tracing::warn!(entry = entry.id, error = %e, "cannot count a failed try");
            }
            let why = if err.downcast_ref::<failure::Panicked>().is_some() {
                "an entry could not be made (a bug); given up"
            } else {
                "Discord refused an entry for good; given up"
            };
            tracing::error!(entry = entry.id, lane = entry.lane, error = text, "{why}");
            return Failed::GivenUp(Delivered {
                message: None,
                outcome: format!("failed: {text}"),
            });
        }
        let blocked = how == Failure::Blocked;
        if blocked {
            deliver::tell_blocked(http, data, entry, err).await;
        }
        let pause = match blocked {
            true => self.blocked_pause(),
            false => backoff((entry.attempts + 1).clamp(1, 64) as u32),
        };
        let pause_ms = pause.as_millis() as i64;
        if let Err(e) = data
            .host
            .outbox_failed(Some(lease), entry.id, &text, pause_ms, blocked)
            .await
        {
            // Not stored: this process keeps the lane waiting all the same.
            tracing::warn!(entry = entry.id, error = %e, "cannot count a failed try");
            self.wait(&entry.lane, pause);
        }
        tracing::warn!(
            entry = entry.id,
            lane = entry.lane,
            attempts = entry.attempts + 1,
            pause_ms,
            error = text,
            "an entry was not delivered; its lane waits"
        );
        Failed::Waits
    }

    /// `game`'s thread was refused for [`Deliverer::give_up`]: the game is paused, its players
    /// told, its lane given up (`deliver::lost_place`).
    async fn lose(
        &self,
        http: &Arc<Http>,
        data: &Data,
        entry: &Delivery,
        game: hexmeros::host::GameId,
        err: &anyhow::Error,
    ) -> Failed {
        let why = format!(
            "it refused me for {}: {}",
            span(self.give_up),
            err.root_cause()
        );
        match deliver::lost_place(http, data, game, &why, Some(entry)).await {
            Ok(()) => {
                tracing::warn!(
                    game,
                    lane = entry.lane,
                    why,
                    "a game's thread refused: paused"
                );
                Failed::Lost
            }
            Err(e) => {
                let e = format!("{e:#}");
                tracing::warn!(
                    game,
                    error = e,
                    "a game without access cannot be paused now"
                );
                self.fail(&entry.lane);
                Failed::Waits
            }
        }
    }

    /// Start delivering the most urgent lanes with work, as many as there are free slots, and
    /// return: each drain wakes the task when it ends, and the next round looks again, so an
    /// urgent entry committed meanwhile (a challenge question, a Token ping) goes before the
    /// reminders still waiting instead of behind a list taken earlier.
    async fn round(
        self: &Arc<Self>,
        http: &Arc<Http>,
        data: &Data,
        slots: &Arc<tokio::sync::Semaphore>,
    ) {
        if slots.available_permits() == 0 {
            return;
        }
        // Page on past the lanes this process may not start now (busy here, waiting after a
        // database error): the lanes waiting after a failed try are not read at all.
        let mut after: Option<Delivery> = None;
        loop {
            let heads = match data.host.outbox_heads(PAGE, after.as_ref()).await {
                Ok(h) => h,
                Err(e) => {
                    tracing::warn!(error = %e, "the outbox cannot be read");
                    return;
                }
            };
            let last_page = (heads.len() as i64) < PAGE;
            after = heads.last().cloned();
            for head in heads {
                if !self.start(http, data, slots, head.lane) {
                    return;
                }
            }
            if last_page {
                return;
            }
        }
    }

    /// Start delivering `lane` in the background unless it waits or is being delivered here;
    /// false when no slot is free.
    fn start(
        self: &Arc<Self>,
        http: &Arc<Http>,
        data: &Data,
        slots: &Arc<tokio::sync::Semaphore>,
        lane: String,
    ) -> bool {
        if self.waiting_until(&lane).is_some() {
            return true;
        }
        let Ok(permit) = slots.clone().try_acquire_owned() else {
            return false;
        };
        if !self
            .busy
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(lane.clone())
        {
            return true;
        }
        let me = self.clone();
        let (http, data) = (http.clone(), data.clone());
        tokio::spawn(async move {
            let _permit = permit;
            // The lane is taken off `busy` however the drain ends (a panic too): a lane left
            // marked busy would never be started again.
            let _busy = Busy {
                me: me.clone(),
                lane: lane.clone(),
            };
            let (sent, _) = me.drain_as(&http, &data, &lane, true).await;
            // The table has seen what a game's bots did (or what a timer or an outage left):
            // they may act again.
            if sent > 0
                && let Some(game) = lane.strip_prefix('g').and_then(|g| g.parse().ok())
            {
                deliver::bots(&http, &data, game);
            }
        });
        true
    }

    /// The soonest time a waiting lane may be tried again.
    fn next_wait(&self) -> Option<Instant> {
        let waits = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        waits.values().map(|w| w.until).min()
    }
}

/// A lane the background task is delivering: taken off [`Deliverer::busy`] when dropped, and
/// the task woken to look again.
struct Busy {
    me: Arc<Deliverer>,
    lane: String,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.me
            .busy
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.lane);
        self.me.wake();
    }
}

/// The background task: deliver whatever is pending (from the start: what a previous process
/// left), then whenever woken, when a waiting lane's pause ends, or every second.
pub async fn run(http: Arc<Http>, data: Data) {
    let me = data.outbox.clone();
    let slots = Arc::new(tokio::sync::Semaphore::new(PARALLEL));
    let mut next_report = Instant::now();
    while !me.stopping() {
        if Instant::now() >= next_report {
            next_report = Instant::now() + REPORT_EVERY;
            report(&data).await;
        }
        me.round(&http, &data, &slots).await;
        let soon = Instant::now() + POLL;
        let until = me
            .next_wait()
            .filter(|&t| t > Instant::now())
            .map_or(soon, |t| t.min(soon));
        tokio::select! {
            _ = me.wake.notified() => {}
            _ = tokio::time::sleep_until(until) => {}
        }
    }
}

/// Log the outbox's state when entries wait (an operator's first look during an outage), and
/// forget entries delivered more than a week ago.
async fn report(data: &Data) {
    let now = data.host.now();
    match data.host.outbox_stats().await {
        Ok(s) if s.pending > 0 => tracing::info!(
            pending = s.pending,
            oldest_s = s.oldest_created_at.map_or(0, |t| (now - t).max(0) / 1000),
            retrying = s.retrying,
            retries = s.retries,
            given_up = s.dropped,
            "outbox"
        ),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "the outbox cannot be read"),
    }
    match data.host.outbox_prune(KEEP_DONE_MS).await {
        Ok(0) => {}
        Ok(n) => tracing::debug!(pruned = n, "old outbox entries forgotten"),
        Err(e) => tracing::warn!(error = %e, "old outbox entries cannot be pruned"),
    }
}

#[cfg(test)]
mod tests {
    use super::{Duration, inherited};
    use hexmeros::host::{NORMAL, REMINDER, URGENT};

    #[test]
    fn an_entry_goes_as_urgently_as_what_waits_behind_it() {
        // A new game's panel with a board behind it goes with the board's urgency.
        assert_eq!(inherited(NORMAL, Some(URGENT)), URGENT);
        // Alone, or with only less urgent entries behind it, it keeps its own.
        assert_eq!(inherited(NORMAL, None), NORMAL);
        assert_eq!(inherited(NORMAL, Some(REMINDER)), NORMAL);
        assert_eq!(inherited(URGENT, Some(REMINDER)), URGENT);
    }

    #[test]
    fn a_refused_lane_is_tried_every_sixth_of_its_bound_at_most_every_ten_minutes() {
        let hour = super::Deliverer::new(super::BLOCKED_GIVE_UP);
        assert_eq!(hour.blocked_pause(), Duration::from_secs(600));
        let day = super::Deliverer::new(Duration::from_secs(86_400));
        assert_eq!(day.blocked_pause(), Duration::from_secs(600));
        let short = super::Deliverer::new(Duration::from_secs(6));
        assert_eq!(short.blocked_pause(), Duration::from_secs(1));
        assert_eq!(
            crate::discord::outbound::failure::span(super::BLOCKED_GIVE_UP),
            "an hour"
        );
        assert_eq!(
            crate::discord::outbound::failure::span(Duration::from_secs(7200)),
            "2 hours"
        );
        assert_eq!(
            crate::discord::outbound::failure::span(Duration::from_secs(90)),
            "2 minutes"
        );
        assert_eq!(
            crate::discord::outbound::failure::span(Duration::from_secs(6)),
            "6 seconds"
        );
    }
}
