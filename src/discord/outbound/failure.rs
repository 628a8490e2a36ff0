//! How a failed delivery is told apart (`classify`: tried again later, waiting for access
//! given back, or given up), how long a lane waits before its next try (`backoff`), and what
//! the deliverer does with it (`Failed`).

use std::time::Duration;

use poise::serenity_prelude as serenity;

use hexmeros::host::{Delivered, HostError};

use crate::discord::wire;

/// The longest pause between two tries of a failing entry.
pub(super) const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// A span of time in words: seconds under a minute, else minutes, or hours when whole.
pub(super) fn span(d: Duration) -> String {
    if d.as_secs() < 60 {
        return format!("{} seconds", d.as_secs());
    }
    let mins = d.as_secs().div_ceil(60);
    match mins {
        60 => "an hour".to_string(),
        m if m % 60 == 0 => format!("{} hours", m / 60),
        1 => "a minute".to_string(),
        m => format!("{m} minutes"),
    }
}

/// How a failed delivery is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Try again later (5xx, 429, a timeout, a lost connection, a database hiccup).
    Transient,
    /// Discord refuses for lack of access: wait until it is given back.
    Blocked,
    /// Discord will never accept this request: give it up.
    Permanent,
}

/// What a failed delivery leads to (`Deliverer::failed`).
pub(super) enum Failed {
    /// The entry leaves the outbox so.
    GivenUp(Delivered),
    /// Its game was paused and its lane given up.
    Lost,
    /// It waits to be tried again.
    Waits,
}

/// An entry whose delivery panicked (a bug drawing its picture, say): given up, said in the
/// log, so that one bad entry never holds its lane (and the game's every later entry) for good.
#[derive(Debug, thiserror::Error)]
#[error("the delivery failed inside the bot (a bug): {0}")]
pub struct Panicked(pub String);

/// Run `delivery`; a panic inside it becomes a [`Panicked`] error instead of unwinding through
/// the deliverer (which would leave its lane marked busy, never delivered again).
pub async fn guarded<T>(
    delivery: impl std::future::Future<Output = anyhow::Result<T>>,
) -> anyhow::Result<T> {
    use futures_util::FutureExt;
    match std::panic::AssertUnwindSafe(delivery).catch_unwind().await {
        Ok(r) => r,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(Panicked(what).into())
        }
    }
}

/// What kind of failure an error is.
pub fn classify(err: &anyhow::Error) -> Failure {
    if err.downcast_ref::<Panicked>().is_some() {
        return Failure::Permanent;
    }
    match err.downcast_ref::<serenity::Error>() {
        Some(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))) => {
            match r.status_code.as_u16() {
                // 401: the bot's own token is refused, for every lane alike: nothing to give
                // up one server's games for.
                401 | 429 | 500..=599 | 408 => Failure::Transient,
                403 => Failure::Blocked,
                _ => Failure::Permanent,
            }
        }
        Some(e) if wire::lost(e) => Failure::Transient,
        // A request serenity refused to make (too long, bad model) will never be made.
        Some(_) => Failure::Permanent,
        None => match err.downcast_ref::<HostError>() {
            // A game that no longer replays, or is gone, will not draw its board later either.
            Some(HostError::Corrupt { .. }) => Failure::Permanent,
            Some(e) if e.refusal().is_some() => Failure::Permanent,
            // The database, or a game that does not load now.
            _ => Failure::Transient,
        },
    }
}

/// The pause after the `failures`-th failure in a row: 1 s doubling, at most 5 minutes, times a
/// random factor in 0.5..1.5 so that lanes failing together do not retry together.
pub fn backoff(failures: u32) -> Duration {
    let base = Duration::from_secs(1)
        .saturating_mul(1u32 << failures.saturating_sub(1).min(16))
        .min(MAX_BACKOFF);
    base.mul_f64(rand::random_range(0.5..1.5))
}

#[cfg(test)]
mod tests {
    use super::{Duration, Failure, MAX_BACKOFF, Panicked, backoff, classify, guarded};
    use hexmeros::host::{HostError, Refused};

    /// A delivery that panics is an error given up, not an unwinding deliverer.
    #[tokio::test]
    async fn a_delivery_that_panics_is_given_up_not_unwound() {
        let ok = guarded(async { Ok::<u8, anyhow::Error>(7) }).await;
        assert_eq!(ok.unwrap(), 7);
        let index: Vec<u8> = std::iter::once(1).collect();
        let at = index.len() + 2;
        let bad = guarded(async move { Ok::<u8, anyhow::Error>(index[at]) }).await;
        let e = bad.unwrap_err();
        assert!(e.downcast_ref::<Panicked>().is_some(), "{e:#}");
        assert!(format!("{e}").contains("index out of bounds"), "{e}");
        assert_eq!(classify(&e), Failure::Permanent);
    }

    #[test]
    fn a_game_that_cannot_draw_its_entry_is_given_up_and_a_database_hiccup_is_retried() {
        let corrupt = HostError::Corrupt {
            game: 3,
            reason: "event 2 is unreadable".into(),
        };
        assert_eq!(classify(&corrupt.into()), Failure::Permanent);
        let gone = HostError::from(Refused::UnknownGame(3));
        assert_eq!(classify(&gone.into()), Failure::Permanent);
        let internal = HostError::Internal("database is locked".into());
        assert_eq!(classify(&internal.into()), Failure::Transient);
        assert_eq!(
            classify(&anyhow::anyhow!("pool timed out")),
            Failure::Transient
        );
    }

    #[test]
    fn backoff_doubles_with_jitter_and_is_capped() {
        for _ in 0..50 {
            let first = backoff(1);
            assert!(first >= Duration::from_millis(500) && first <= Duration::from_millis(1500));
            let fourth = backoff(4);
            assert!(fourth >= Duration::from_secs(4) && fourth <= Duration::from_secs(12));
            assert!(backoff(40) <= MAX_BACKOFF.mul_f64(1.5));
            assert!(backoff(40) >= MAX_BACKOFF.mul_f64(0.5));
        }
    }
}
