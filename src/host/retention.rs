//! The operator's retention rule (`HEXMEROS_RETENTION_DAYS`), run by the timers at most once an
//! hour: see [`Store::apply_retention`](crate::store::Store::apply_retention) for what goes.

use std::sync::atomic::{AtomicI64, Ordering};

use super::{GameHost, HostError, Millis};
use crate::store::Retained;

/// How often the timers apply the rule.
const EVERY_MS: Millis = 3_600_000;

/// A day, in the clock's unit.
const DAY_MS: Millis = 24 * 3_600_000;

/// The rule: people's data kept `days` after their last game; when it last ran.
pub(super) struct Retention {
    days: u32,
    last: AtomicI64,
}

impl GameHost {
    /// Keep a person's data, and the private notes on a game that is over, for `days` after
    /// their last game (see [`Store::apply_retention`](crate::store::Store::apply_retention));
    /// the timers ([`GameHost::tick`]) apply it every hour. Without it, everything is kept.
    pub fn with_retention(mut self, days: u32) -> GameHost {
        self.retention = Some(Retention {
            days,
            last: AtomicI64::new(0),
        });
        self
    }

    /// Apply the rule for `days` now, whatever the host was made with (`hexmeros admin
    /// retention`).
    pub async fn apply_retention(&self, days: u32) -> Result<Retained, HostError> {
        let cutoff = self.now() - Millis::from(days) * DAY_MS;
        Ok(self.store.apply_retention(cutoff).await?)
    }

    /// The timers' share: the rule, if the host has one and an hour has passed since it last
    /// ran here (in every process of a database alike: a second pass finds nothing to do).
    pub(super) async fn retention_due(&self) {
        let Some(rule) = &self.retention else { return };
        let now = self.now();
        let last = rule.last.load(Ordering::Relaxed);
        if last != 0 && now - last < EVERY_MS {
            return;
        }
        rule.last.store(now, Ordering::Relaxed);
        match self.apply_retention(rule.days).await {
            Ok(r) if r.notes > 0 || !r.forgotten.is_empty() => tracing::info!(
                days = rule.days,
                notes = r.notes,
                forgotten = r.forgotten.len(),
                "retention: data past its time erased"
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "retention failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Arc;

    use crate::games::GameKind;
    use crate::host::{GameHost, ManualClock};
    use crate::store::Store;

    /// The timers apply the host's rule, at most once an hour: a note on a game over for
    /// longer than the rule's days goes at the next tick, one written later waits an hour.
    #[tokio::test]
    async fn the_timers_apply_the_rule_once_an_hour() {
        let day = super::DAY_MS;
        let clock = Arc::new(ManualClock::new(1_000 * day));
        let store = Store::open("sqlite::memory:").await.unwrap();
        let host = GameHost::new(store.clone(), clock.clone()).with_retention(30);
        for (p, n) in [(1, "ann"), (2, "bob")] {
            host.ensure_player(p, n).await.unwrap();
        }
        let (g, _) = host
            .create(GameKind::HexDame, &[1, 2], None, None)
            .await
            .unwrap();
        let notes = async || -> i64 {
            sqlx::query_scalar("SELECT COUNT(*) FROM notes")
                .fetch_one(store.writer())
                .await
                .unwrap()
        };
        assert!(store.add_note(g, 1, "plan", 0, 10).await.unwrap());
        sqlx::query("UPDATE games SET status = 50 WHERE id = $1")
            .bind(g)
            .execute(store.writer())
            .await
            .unwrap();
        // 29 days after the end: kept.
        clock.set(1_029 * day);
        host.tick().await.unwrap();
        assert_eq!(notes().await, 1);
        // 31 days (two days after its last pass): it goes.
        clock.set(1_031 * day);
        host.tick().await.unwrap();
        assert_eq!(notes().await, 0);
        // A new note a minute later waits for the next hour's pass.
        assert!(store.add_note(g, 2, "plan", 0, 10).await.unwrap());
        clock.set(1_031 * day + 60_000);
        host.tick().await.unwrap();
        assert_eq!(notes().await, 1, "not an hour yet");
        clock.set(1_031 * day + super::EVERY_MS + 1);
        host.tick().await.unwrap();
        assert_eq!(notes().await, 0);
        // Without a rule nothing goes.
        let keeping = GameHost::new(store.clone(), clock.clone());
        assert!(store.add_note(g, 2, "plan", 0, 10).await.unwrap());
        clock.set(2_000 * day);
        keeping.tick().await.unwrap();
        assert_eq!(notes().await, 1);
    }
}
