//! The wire to Discord: every request's timeout, the retry policy for its transient failures
//! (429, 5xx, timeouts, lost connections) with each paced attempt in its place on the global
//! limit, and the nonces that make a retried message land once. It knows nothing of games;
//! everything that talks to Discord goes through it, and it imports nothing of the wings above
//! it (`pace`: the bot's own pace toward the global limit).

pub(super) mod pace;
pub(super) mod relay;

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateMessage, Http};

/// The HTTP status and Discord error code of a failed request.
pub fn http_status(e: &serenity::Error) -> Option<(u16, isize)> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some((r.status_code.as_u16(), r.error.code))
        }
        _ => None,
    }
}

/// How this process talks to Discord, as the settings say: how long one request may take
/// before it counts as lost (serenity sets no timeout: a stalled connection would hold its lane
/// for ever; 30 s unless `HEXMEROS_DISCORD_TIMEOUT_MS`), and the pace of the calls that count
/// toward the global limit (`HEXMEROS_RATE_DISCORD`; see `pace`).
pub struct Wire {
    timeout: Duration,
    pace: Option<crate::discord::wire::pace::Pacer>,
    /// What the 429s said to wait (noted by the `relay` with a proxied API base).
    told: std::sync::Arc<relay::Told>,
}

impl Default for Wire {
    /// 30 s a request, no pace of its own.
    fn default() -> Wire {
        Wire::new(None, None)
    }
}

impl Wire {
    pub fn new(timeout: Option<Duration>, rate: Option<crate::discord::config::Rate>) -> Wire {
        Wire {
            timeout: timeout.unwrap_or(Duration::from_secs(30)),
            pace: rate.and_then(crate::discord::wire::pace::Pacer::at),
            told: std::sync::Arc::default(),
        }
    }

    /// Where the relay notes what each 429 said to wait (`relay::start`).
    pub fn told(&self) -> std::sync::Arc<relay::Told> {
        self.told.clone()
    }

    /// How long a 429 said to wait before its request is asked again, if it said (the relay
    /// noted it): what is left of its route's wait or the global one.
    fn told_wait(&self, e: &serenity::Error) -> Option<Duration> {
        match e {
            serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => self
                .told
                .until(r.method.as_str(), &r.url)
                .map(|t| t.saturating_duration_since(std::time::Instant::now())),
            _ => None,
        }
    }
}

/// Whether a failure is a timeout or a lost connection: the request may or may not have been
/// carried out.
pub fn lost(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(serenity::HttpError::Request(_)) | serenity::Error::Io(_)
    )
}

impl Wire {
    /// Run a Discord call that counts toward the bot's global rate limit, each attempt in its place
    /// (`pace`), retrying rate limits (429), server errors (5xx), timeouts and lost connections with
    /// a growing pause. In production serenity's rate limiter waits out 429s itself (their
    /// `retry_after`, global or per route); with the limiter off (a proxied API base) the relay
    /// notes what each 429 said (`relay`), and the next attempt waits at least that long (a
    /// global 429 holds every paced call), or a second when the 429 said nothing.
    pub async fn retry<T, F, Fut>(&self, what: &str, call: F) -> Result<T, serenity::Error>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, serenity::Error>>,
    {
        self.retrying(what, true, call).await
    }

    /// `retry` for an interaction's answer (its callback or a followup), which Discord does not
    /// count toward the global limit: it waits for no place.
    pub async fn retry_answer<T, F, Fut>(&self, what: &str, call: F) -> Result<T, serenity::Error>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, serenity::Error>>,
    {
        self.retrying(what, false, call).await
    }

    async fn retrying<T, F, Fut>(
        &self,
        what: &str,
        paced: bool,
        mut call: F,
    ) -> Result<T, serenity::Error>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, serenity::Error>>,
    {
        let mut pause = Duration::from_millis(250);
        let mut attempt = 0;
        loop {
            attempt += 1;
            if paced {
                if let Some(until) = self.told.global() {
                    tokio::time::sleep_until(until.into()).await;
                }
                if let Some(pace) = &self.pace {
                    pace.wait_turn().await;
                }
            }
            let result = match tokio::time::timeout(self.timeout, call()).await {
                Ok(r) => r,
                Err(_) => Err(serenity::Error::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no answer from Discord within {:?}", self.timeout),
                ))),
            };
            match result {
                Ok(v) => return Ok(v),
                Err(e) => {
                    crate::discord::metrics::discord_error(&error_status(&e));
                    let wait = match http_status(&e) {
                        Some((429, _)) => {
                            pause.max(self.told_wait(&e).unwrap_or(Duration::from_secs(1)))
                        }
                        Some((500..=599, _)) => pause,
                        _ if lost(&e) => pause,
                        _ => return Err(e),
                    };
                    if attempt >= 6 {
                        tracing::warn!(what, attempt, error = %e, "a Discord call failed; giving up");
                        return Err(e);
                    }
                    tracing::warn!(what, attempt, error = %e, "a Discord call failed; retrying");
                    tokio::time::sleep(wait).await;
                    pause *= 2;
                }
            }
        }
    }

    /// Send a message, retrying transient failures. The message carries a nonce that Discord is
    /// asked to enforce, the same on every attempt: when an attempt did reach Discord but its answer
    /// was lost (a 5xx after the message was made, a timeout), the retry gets the message already
    /// made instead of posting it twice.
    pub async fn send(
        &self,
        http: &Http,
        channel: ChannelId,
        msg: CreateMessage,
    ) -> Result<serenity::Message, serenity::Error> {
        self.send_with(http, channel, msg, fresh_nonce()).await
    }

    /// Send a message with a given nonce (an outbox entry's: the same in every process).
    pub async fn send_with(
        &self,
        http: &Http,
        channel: ChannelId,
        msg: CreateMessage,
        nonce: serenity::Nonce,
    ) -> Result<serenity::Message, serenity::Error> {
        let msg = msg.nonce(nonce).enforce_nonce(true);
        self.retry("sending a message", || {
            channel.send_message(http, msg.clone())
        })
        .await
    }
}

/// A nonce no other message of this bot has had in the last minutes (Discord keeps them a few
/// minutes), in any of its processes (several run one token with shard ranges): this process's
/// tag and a counter, in at most 25 characters.
pub fn fresh_nonce() -> serenity::Nonce {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static TAG: OnceLock<u64> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let tag = TAG.get_or_init(|| {
        let boot = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        process_tag(boot, std::process::id(), &Default::default())
    });
    nonce_text(*tag, NEXT.fetch_add(1, Ordering::Relaxed))
}

/// What tells this process's nonces from another's: when it started (milliseconds), its id and
/// a random key (`salt`) hashed to 48 bits. Processes started in the same millisecond, on one
/// machine or several, still differ; two tags are alike about once in 2^48.
fn process_tag(boot_ms: u128, pid: u32, salt: &std::hash::RandomState) -> u64 {
    use std::hash::BuildHasher as _;
    salt.hash_one((boot_ms, pid)) & 0xFFFF_FFFF_FFFF
}

/// The nonce of a process's `n`-th message: `tag` in 12 hex digits, a dot, `n` in hex (25
/// characters at most while `n` < 2^48).
fn nonce_text(tag: u64, n: u64) -> serenity::Nonce {
    serenity::Nonce::String(format!("{tag:012x}.{n:x}"))
}

/// The label of a failed Discord request: its HTTP status, else what went wrong.
pub fn error_status(e: &serenity::Error) -> String {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.as_u16().to_string()
        }
        serenity::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => "timeout".into(),
        _ if lost(e) => "connection".into(),
        _ => "other".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::{error_status, fresh_nonce, nonce_text, process_tag, serenity};

    #[test]
    fn processes_started_together_have_different_nonces() {
        let text = |n| match n {
            serenity::Nonce::String(s) => s,
            serenity::Nonce::Number(n) => n.to_string(),
        };
        // Two processes started in the same millisecond, here or on two machines.
        let boot = 1_767_225_600_000;
        let salt = std::hash::RandomState::new();
        let here = process_tag(boot, 4242, &salt);
        let there = process_tag(boot, 4243, &salt);
        assert_ne!(text(nonce_text(here, 0)), text(nonce_text(there, 0)));
        let other_machine = process_tag(boot, 4242, &std::hash::RandomState::new());
        assert_ne!(here, other_machine);
        assert!(here < 1 << 48);
        let longest = text(nonce_text(u64::MAX >> 16, (1 << 48) - 1));
        assert_eq!(longest.len(), 25, "{longest}");
    }

    #[test]
    fn nonces_differ_and_fit_discords_25_characters() {
        let text = |n| match n {
            serenity::Nonce::String(s) => s,
            serenity::Nonce::Number(n) => n.to_string(),
        };
        let a = text(fresh_nonce());
        let b = text(fresh_nonce());
        assert_ne!(a, b);
        assert!(a.len() <= 25 && b.len() <= 25, "{a} {b}");
    }

    #[test]
    fn a_timeout_and_a_lost_connection_have_their_own_labels() {
        let io = |kind| serenity::Error::Io(std::io::Error::new(kind, "x"));
        assert_eq!(error_status(&io(std::io::ErrorKind::TimedOut)), "timeout");
        assert_eq!(
            error_status(&io(std::io::ErrorKind::ConnectionReset)),
            "connection"
        );
        assert_eq!(error_status(&serenity::Error::Other("too long")), "other");
    }
}
