//! Where time comes from: the system clock in production, a hand-moved one in tests.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use super::event::Millis;

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
