//! What one user may ask of the bot, and how much slow work may wait (issue 17, "bounded
//! resources"). Per-user rates (governor's keyed limiters) on board pictures, direct messages
//! sent at a user's request, game starts and bot seats; a cap on the unfinished games a user may
//! sit in and still start one; and two bounded queues: pictures drawing (or waiting to), and
//! games whose bots think. A refusal is a polite private sentence and changes nothing; a full
//! picture queue answers "busy"; a full bot queue leaves the bots to the timers, which drive
//! every game waiting on a bot, so no bot turn is lost.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use hexmeros::background::{PictureQueue, Slot};

use hexmeros::host::PlayerId;

use crate::discord::config::{self, Rate};
use crate::discord::{Data, Error, reply};

type Keyed = DefaultKeyedRateLimiter<PlayerId>;

/// How many of a user's reactions the bot removes after acting on them: five at once, then one
/// every ten seconds (beyond that they stay where they are; each removal is a call to Discord).
fn reaction_removals() -> Quota {
    const SIX: NonZeroU32 = NonZeroU32::MIN.saturating_add(5);
    const FIVE: NonZeroU32 = NonZeroU32::MIN.saturating_add(4);
    Quota::per_minute(SIX).allow_burst(FIVE)
}

/// The limiters and queues one bot process shares.
pub struct Limits {
    pictures: Option<Keyed>,
    dms: Option<Keyed>,
    starts: Option<Keyed>,
    bot_seats: Option<Keyed>,
    away: Option<Keyed>,
    reactions: Keyed,
    active_games: usize,
    render: PictureQueue,
    bots: Arc<Semaphore>,
}

/// A rate as governor's quota: `count` at once, then one more every `per / count`.
fn keyed(rate: Option<Rate>) -> Option<Keyed> {
    rate.map(|r| {
        let quota = Quota::with_period(r.per / r.count.get())
            .map(|q| q.allow_burst(r.count))
            // Shorter than a nanosecond between two: no limit worth the name.
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MAX));
        RateLimiter::keyed(quota)
    })
}

/// How long `wait` is, in words: seconds (rounded up), or minutes from two minutes on.
fn in_words(wait: Duration) -> String {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    match secs.max(1) {
        s if s >= 120 => format!("{} min", s.div_ceil(60)),
        s => format!("{s} s"),
    }
}

/// The sentence of a refused request, with the time until one more is allowed.
pub fn too_fast(wait: Duration) -> String {
    format!("You're going too fast — try again in {}", in_words(wait))
}

/// The sentence when the picture queue is full.
pub const BUSY: &str = "I'm busy drawing boards right now — try again in a moment";

/// One more of `limiter`'s for `user`, or the polite refusal (`n` at once: all or none).
fn take(limiter: &Option<Keyed>, user: PlayerId, n: u32) -> Result<(), String> {
    let (Some(limiter), Some(n)) = (limiter, NonZeroU32::new(n)) else {
        return Ok(());
    };
    match limiter.check_key_n(&user, n) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(not_until)) => Err(too_fast(
            not_until.wait_time_from(DefaultClock::default().now()),
        )),
        Err(capacity) => Err(format!(
            "that is more than you may ask for at once (at most {})",
            capacity.0
        )),
    }
}

impl Limits {
    pub fn new(c: config::Limits) -> Limits {
        Limits {
            pictures: keyed(c.pictures),
            dms: keyed(c.dms),
            starts: keyed(c.starts),
            bot_seats: keyed(c.bot_seats),
            away: keyed(c.away),
            reactions: RateLimiter::keyed(reaction_removals()),
            active_games: c.active_games,
            render: PictureQueue::new(c.render_queue),
            bots: Arc::new(Semaphore::new(c.bot_queue)),
        }
    }

    /// One more board picture for `user`, or the polite refusal.
    pub fn picture(&self, user: PlayerId) -> Result<(), Error> {
        take(&self.pictures, user, 1).map_err(reply::refused)
    }

    /// Whether `user` may have one more picture (one they did not ask for alone, such as a
    /// staged move's preview: over the rate it is shown as text instead).
    pub fn picture_allowed(&self, user: PlayerId) -> bool {
        take(&self.pictures, user, 1).is_ok()
    }

    /// One more going away or coming back for `user` (each tells every game's thread), or the
    /// polite refusal.
    pub fn away(&self, user: PlayerId) -> Result<(), Error> {
        take(&self.away, user, 1).map_err(reply::refused)
    }

    /// Whether one more of `user`'s reactions may be removed after the bot acted on it.
    pub fn reaction_removal(&self, user: PlayerId) -> bool {
        self.reactions.check_key(&user).is_ok()
    }

    /// Whether one more direct message may be sent at `user`'s request.
    pub fn dm_allowed(&self, user: PlayerId) -> bool {
        take(&self.dms, user, 1).is_ok()
    }

    /// Whether `user` may start a game with `bots` bots now: fewer unfinished games than the
    /// limit, bot seats and starts within their rates. Else the refusal, and nothing is taken
    /// from the rates by a start refused for its games.
    pub async fn admit_start(&self, data: &Data, user: PlayerId, bots: u32) -> Result<(), Error> {
        let active = data.host.unfinished_games(user).await?;
        if active >= self.active_games {
            return Err(reply::refused(format!(
                "you already play in {active} unfinished games, the most you may have while \
                 starting another (finish or resign one first)"
            )));
        }
        take(&self.bot_seats, user, bots)
            .map_err(|why| reply::refused(format!("too many bots: {why}")))?;
        take(&self.starts, user, 1).map_err(reply::refused)
    }

    /// A place in the picture queue, if there is one free.
    pub fn render_slot(&self) -> Option<Slot> {
        self.render.slot()
    }

    /// A place in the picture queue, waiting for one (work that must not be dropped).
    pub async fn render_slot_waiting(&self) -> Option<Slot> {
        self.render.slot_waiting().await
    }

    /// The picture queue, which the web board shares (taking at most half of it).
    pub fn pictures(&self) -> PictureQueue {
        self.render.clone()
    }

    /// A place in the bot queue, if there is one free.
    pub fn bot_slot(&self) -> Option<OwnedSemaphorePermit> {
        self.bots.clone().try_acquire_owned().ok()
    }

    /// Forget the users whose rates are back to full, so the limiters hold only recent users.
    pub fn forget_idle(&self) {
        for l in [&self.pictures, &self.dms, &self.starts, &self.bot_seats]
            .into_iter()
            .flatten()
            .chain([&self.reactions])
        {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(pictures: &str) -> Limits {
        let c = config::Limits::from_env(|name| {
            (name == "HEXMEROS_RATE_PICTURES").then(|| pictures.to_string())
        })
        .expect("valid limits");
        Limits::new(c)
    }

    #[test]
    fn a_user_gets_the_burst_then_a_polite_refusal_and_others_are_not_affected() {
        let l = limits("3/1h");
        for _ in 0..3 {
            assert!(l.picture(1).is_ok());
        }
        let err = l
            .picture(1)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert_eq!(err, "You're going too fast — try again in 20 min");
        assert!(!l.picture_allowed(1));
        assert!(l.picture(2).is_ok(), "another user has their own rate");
        assert!(limits("off").picture_allowed(1));
    }

    #[test]
    fn waits_are_told_in_seconds_or_minutes() {
        assert_eq!(in_words(Duration::from_millis(1)), "1 s");
        assert_eq!(in_words(Duration::from_millis(4200)), "5 s");
        assert_eq!(in_words(Duration::from_secs(119)), "119 s");
        assert_eq!(in_words(Duration::from_secs(600)), "10 min");
    }

    #[test]
    fn bot_seats_are_taken_all_or_none() {
        let l = Limits::new(config::Limits::default());
        assert!(take(&l.bot_seats, 1, 6).is_ok());
        assert!(take(&l.bot_seats, 1, 6).is_ok());
        assert!(take(&l.bot_seats, 1, 1).is_err());
        let err = take(&l.bot_seats, 2, 13).err().unwrap_or_default();
        assert!(err.contains("at most 12"), "{err}");
        assert!(take(&l.bot_seats, 2, 0).is_ok());
    }

    #[test]
    fn the_queues_hold_their_size_and_no_more() {
        let l = Limits::new(config::Limits {
            render_queue: 2,
            bot_queue: 1,
            ..config::Limits::default()
        });
        let a = l.render_slot();
        let b = l.render_slot();
        assert!(a.is_some() && b.is_some() && l.render_slot().is_none());
        drop(a);
        assert!(l.render_slot().is_some());
        let bot = l.bot_slot();
        assert!(bot.is_some() && l.bot_slot().is_none());
    }
}
