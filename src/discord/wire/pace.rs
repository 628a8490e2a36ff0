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
//!
//! An entry's urgency may rise while its calls wait (`Urgency::hurry`): a panel being posted
//! when a move's board comes to wait behind it in its lane then takes the next place too.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::time::Duration;

use governor::clock::Clock;
use governor::{DefaultDirectRateLimiter, Jitter, Quota, RateLimiter};

use hexmeros::host::{REMINDER, URGENT};

use crate::discord::config::Rate;

/// Below every outbox priority: taking an old turn message's buttons off
/// (`outbound::strip`), which waits for every urgent call and goes in the reminders' bucket.
pub const CLEANUP: i64 = REMINDER + 1;

tokio::task_local! {
    /// The outbox priority of the entry being delivered (`hexmeros::host::URGENT` … `REMINDER`).
    static PRIORITY: Urgency;
}

/// The outbox priority an entry's calls are paced at, which may rise while they wait.
#[derive(Clone, Debug)]
pub struct Urgency(Arc<AtomicI64>);

impl Urgency {
    pub fn new(priority: i64) -> Urgency {
        Urgency(Arc::new(AtomicI64::new(priority)))
    }

    /// Make the calls urgent from now on, those already waiting too.
    pub fn hurry(&self) {
        self.0.fetch_min(URGENT, Ordering::SeqCst);
    }

    fn get(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Run `f` (the delivery of an outbox entry) with its calls paced at `urgency`; calls made
/// outside (a command's own) count as urgent.
pub async fn with_priority<F: Future>(urgency: Urgency, f: F) -> F::Output {
    PRIORITY.scope(urgency, f).await
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
        let urgency = PRIORITY
            .try_with(Urgency::clone)
            .unwrap_or_else(|_| Urgency::new(URGENT));
        self.wait(&urgency).await;
    }

    fn new(gap: Duration) -> Option<Pacer> {
        Some(Pacer {
            all: RateLimiter::direct(evenly(gap)?),
            reminders: RateLimiter::direct(evenly(gap * 2)?),
            urgent: AtomicUsize::new(0),
            gap,
        })
    }

    async fn wait(&self, urgency: &Urgency) {
        let jitter = Jitter::up_to(Duration::from_millis(2));
        if urgency.get() >= REMINDER {
            self.reminders.until_ready_with_jitter(jitter).await;
        }
        loop {
            if urgency.get() <= URGENT {
                self.urgent.fetch_add(1, Ordering::SeqCst);
                let _waiting = Waiting(&self.urgent);
                self.all.until_ready_with_jitter(jitter).await;
                return;
            }
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

    use super::{Duration, Ordering, Pacer, Urgency};

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
                pacer.wait(&Urgency::new(priority)).await;
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

    /// A panel edit waiting behind urgent calls goes as soon as it is hurried, though urgent
    /// calls still wait.
    #[tokio::test]
    async fn a_hurried_call_stops_giving_way() {
        let pacer = Arc::new(Pacer::new(Duration::from_millis(50)).unwrap());
        // An urgent call waits for as long as this test runs.
        pacer.urgent.fetch_add(1, Ordering::SeqCst);
        let urgency = Urgency::new(NORMAL);
        let waiting = {
            let (pacer, urgency) = (pacer.clone(), urgency.clone());
            tokio::spawn(async move { pacer.wait(&urgency).await })
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            !waiting.is_finished(),
            "a panel edit gives way to urgent calls"
        );
        urgency.hurry();
        let went = tokio::time::timeout(Duration::from_secs(30), waiting).await;
        assert!(went.is_ok(), "the hurried call never got a place");
        assert_eq!(pacer.urgent.load(Ordering::SeqCst), 1);
    }
}
