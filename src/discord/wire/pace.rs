//! The bot's own pace toward Discord (issue 18). Discord lets a bot make about 50 calls a
//! second in all (its global rate limit; interaction answers and followups do not count) and
//! answers 429 beyond it, for every route at once. Every call `Wire::retry` makes takes a
//! place here first, at `HEXMEROS_RATE_DISCORD` (45 a second, evenly spaced, by default).
//!
//! Places go by urgency (the outbox priority of the entry being delivered). Urgent calls — a
//! command's own, challenge questions, Token pings, boards, ballots — take the next place. The
//! others (status panel edits, words in the thread, reminders) take a place only while no urgent
//! call waits for one, so at a busy hour the boards are not queued behind every game's panel
//! edit. Reminders also take a place in a bucket of half the rate: after a downtime, when every
//! game's reminder falls due at once, the storm goes out at half the rate at most.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use governor::clock::Clock;
use governor::{DefaultDirectRateLimiter, Jitter, Quota, RateLimiter};

use hexmeros::host::{REMINDER, URGENT};

use crate::discord::config::Rate;

tokio::task_local! {
    /// The outbox priority of the entry being delivered (`hexmeros::host::URGENT` … `REMINDER`).
    static PRIORITY: i64;
}

/// Run `f` (the delivery of an outbox entry) with its calls paced as `priority`'s; calls made
/// outside (a command's own) count as urgent.
pub async fn with_priority<F: Future>(priority: i64, f: F) -> F::Output {
    PRIORITY.scope(priority, f).await
}

/// The bot's pace toward Discord: one of them a process, made from the settings (`Wire`).
pub struct Pacer {
    all: DefaultDirectRateLimiter,
    reminders: DefaultDirectRateLimiter,
    /// Urgent calls waiting for a place now: the others let them go first.
    urgent: AtomicUsize,
    /// The time between two places.
    gap: Duration,
}

/// One call every `per / count`, no burst (Discord counts per second: a burst on top of the
/// rate could exceed it within one second).
fn evenly(per: Duration) -> Option<Quota> {
    Quota::with_period(per)
}

/// Counts an urgent call as waiting while it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Pacer {
    /// The pace of `rate` (`None` for a rate too fast to space).
    pub fn at(rate: Rate) -> Option<Pacer> {
        Pacer::new(rate.per / rate.count.get())
    }

    /// Wait for this call's place, as urgent as the entry being delivered (a command's own
    /// call is urgent).
    pub async fn wait_turn(&self) {
        self.wait(PRIORITY.try_with(|&p| p).unwrap_or(URGENT)).await;
    }

    fn new(gap: Duration) -> Option<Pacer> {
        Some(Pacer {
            all: RateLimiter::direct(evenly(gap)?),
            reminders: RateLimiter::direct(evenly(gap * 2)?),
            urgent: AtomicUsize::new(0),
            gap,
        })
    }

    async fn wait(&self, priority: i64) {
        let jitter = Jitter::up_to(Duration::from_millis(2));
        if priority >= REMINDER {
            self.reminders.until_ready_with_jitter(jitter).await;
        }
        if priority <= URGENT {
            self.urgent.fetch_add(1, Ordering::SeqCst);
            let _waiting = Waiting(&self.urgent);
            self.all.until_ready_with_jitter(jitter).await;
            return;
        }
        loop {
            if self.urgent.load(Ordering::SeqCst) > 0 {
                tokio::time::sleep(self.gap).await;
                continue;
            }
            match self.all.check() {
                Ok(()) => return,
                Err(later) => {
                    let now = self.all.clock().now();
                    tokio::time::sleep(jitter + later.wait_time_from(now)).await;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use hexmeros::host::{NORMAL, REMINDER, URGENT};

    use super::{Duration, Ordering, Pacer};

    /// With every place taken, an urgent call waiting goes before a panel edit or a reminder
    /// that asks after it, and these still get their places once it has gone.
    #[tokio::test]
    async fn an_urgent_call_takes_the_next_place_before_the_others() {
        let pacer = Arc::new(Pacer::new(Duration::from_millis(300)).unwrap());
        assert!(pacer.all.check().is_ok(), "the first place is free");
        let order = Arc::new(Mutex::new(Vec::new()));
        let go = |priority: i64| {
            let (pacer, order) = (pacer.clone(), order.clone());
            tokio::spawn(async move {
                pacer.wait(priority).await;
                order.lock().unwrap().push(priority);
            })
        };
        let urgent = go(URGENT);
        while pacer.urgent.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        let normal = go(NORMAL);
        urgent.await.unwrap();
        normal.await.unwrap();
        go(REMINDER).await.unwrap();
        assert_eq!(*order.lock().unwrap(), vec![URGENT, NORMAL, REMINDER]);
        assert_eq!(pacer.urgent.load(Ordering::SeqCst), 0);
    }
}
