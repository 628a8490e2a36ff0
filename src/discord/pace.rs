//! The bot's own pace toward Discord (issue 18). Discord lets a bot make about 50 calls a
//! second in all (its global rate limit; interaction answers and followups do not count) and
//! answers 429 beyond it, for every route at once. Every call `deliver::retry` makes takes a
//! place here first, at `HEXMEROS_RATE_DISCORD` (45 a second, evenly spaced, by default); the
//! calls made for reminders, the outbox's least urgent entries, take a place in a bucket of
//! half that rate as well. So after a downtime, when every game's reminder falls due at once,
//! the storm of reminders goes out at half the rate and leaves the other half to what cannot
//! wait: challenge questions, Token pings, ballots and turn messages, from commands and from
//! the outbox alike.

use std::future::Future;
use std::sync::OnceLock;
use std::time::Duration;

use governor::{DefaultDirectRateLimiter, Jitter, Quota, RateLimiter};

use hexmeros::host::REMINDER;

use super::config::Rate;

tokio::task_local! {
    /// The outbox priority of the entry being delivered (`hexmeros::host::URGENT` … `REMINDER`).
    static PRIORITY: i64;
}

/// Run `f` (the delivery of an outbox entry) with its calls paced as `priority`'s; calls made
/// outside (a command's own) count as urgent.
pub async fn with_priority<F: Future>(priority: i64, f: F) -> F::Output {
    PRIORITY.scope(priority, f).await
}

struct Pacer {
    all: DefaultDirectRateLimiter,
    reminders: DefaultDirectRateLimiter,
}

static PACE: OnceLock<Option<Pacer>> = OnceLock::new();

/// One call every `per / count`, no burst (Discord counts per second: a burst on top of the
/// rate could exceed it within one second).
fn evenly(per: Duration) -> Option<Quota> {
    Quota::with_period(per)
}

/// Set the pace once, at start (`None`: no pace of its own, as before).
pub fn set(rate: Option<Rate>) {
    let pacer = rate.and_then(|r| {
        let gap = r.per / r.count.get();
        Some(Pacer {
            all: RateLimiter::direct(evenly(gap)?),
            reminders: RateLimiter::direct(evenly(gap * 2)?),
        })
    });
    let _ = PACE.set(pacer);
}

/// Wait for this call's place.
pub async fn wait() {
    let Some(Some(p)) = PACE.get() else {
        return;
    };
    let jitter = Jitter::up_to(Duration::from_millis(2));
    if PRIORITY.try_with(|&p| p >= REMINDER).unwrap_or(false) {
        p.reminders.until_ready_with_jitter(jitter).await;
    }
    p.all.until_ready_with_jitter(jitter).await;
}
