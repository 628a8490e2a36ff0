//! The settings `serve` reads from the environment that could do harm when wrong, checked before
//! anything starts: each refusal is one clear sentence naming the variable (`serve` then exits
//! with code 2).

use std::num::{NonZeroU32, NonZeroU64};
use std::time::Duration;

use poise::serenity_prelude as serenity;

/// `DISCORD_API_BASE`: where REST calls and gateway discovery go instead of discord.com. The
/// bot token goes with every call and serenity's rate limiter is off, so only this machine is
/// accepted: `http`/`https` to 127.0.0.0/8, `::1` or `localhost` (a fake Discord in tests).
pub fn api_base(raw: &str) -> anyhow::Result<String> {
    let refuse = |why: &str| {
        anyhow::anyhow!(
            "DISCORD_API_BASE must be an http address on this machine (127.0.0.0/8, [::1] or \
             localhost), as for a test's fake Discord: the bot token is sent there with the rate \
             limiter off; {raw:?} {why}. Leave it empty to talk to Discord"
        )
    };
    let url = url::Url::parse(raw).map_err(|e| refuse(&format!("is not a URL ({e})")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse("is not http or https"));
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(a)) => a.is_loopback(),
        Some(url::Host::Ipv6(a)) => a.is_loopback(),
        None => false,
    };
    if !loopback {
        return Err(refuse("is not on this machine"));
    }
    Ok(raw.trim_end_matches('/').to_string())
}

/// `DEV_GUILD_ID`: the one server to register the commands in, a Discord id (a number > 0).
pub fn dev_guild(raw: &str) -> anyhow::Result<serenity::GuildId> {
    raw.parse::<NonZeroU64>()
        .map(serenity::GuildId::from)
        .map_err(|_| {
            anyhow::anyhow!(
                "DEV_GUILD_ID must be a server (guild) id, a number above 0 (right-click the \
                 server with Developer Mode on: Copy Server ID), not {raw:?}; leave it empty to \
                 register the commands globally"
            )
        })
}

/// `HEXMEROS_DISCORD_TIMEOUT_MS`: how long one Discord request may take, at least 100 ms.
pub fn request_timeout(raw: &str) -> anyhow::Result<std::time::Duration> {
    raw.parse::<u64>()
        .ok()
        .filter(|&ms| ms >= 100)
        .map(std::time::Duration::from_millis)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "HEXMEROS_DISCORD_TIMEOUT_MS must be milliseconds, at least 100, not {raw:?}"
            )
        })
}

/// `LOBBY_HOURS`: how long a lobby waits for its players before it expires, 1 to 8760 hours.
pub fn lobby_hours(raw: &str) -> anyhow::Result<u32> {
    raw.parse::<u32>()
        .ok()
        .filter(|h| (1..=8760).contains(h))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "LOBBY_HOURS must be how many hours a lobby waits for its players, 1 to 8760, not \
                 {raw:?}; leave it empty for 48"
            )
        })
}

/// `HEXMEROS_LOCK_FINISHED`: whether a finished game's thread is locked as well as archived
/// (nobody but moderators can chat in it then), `on` or `off`.
pub fn lock_finished(raw: &str) -> anyhow::Result<bool> {
    match raw.to_ascii_lowercase().as_str() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(anyhow::anyhow!(
            "HEXMEROS_LOCK_FINISHED must be on (a finished game's thread is archived and locked) \
             or off (archived only), not {raw:?}; leave it empty for off"
        )),
    }
}

/// `HEXMEROS_METRICS` (or `--metrics`, named by `name`): where `serve` answers Prometheus'
/// scrapes, an `IP:PORT` (`127.0.0.1:9100`, `[::1]:9100`, `0.0.0.0:9100` for every interface).
pub fn metrics_addr(name: &str, raw: &str) -> anyhow::Result<std::net::SocketAddr> {
    raw.parse::<std::net::SocketAddr>().map_err(|_| {
        anyhow::anyhow!(
            "{name} must be the IP:PORT address to serve Prometheus metrics on, as \
             127.0.0.1:9100 or [::1]:9100, not {raw:?}; leave it unset to serve none"
        )
    })
}

/// The gateway shards one process runs: `first..=last` of `total` (Discord sends a server's
/// events to shard `(guild_id >> 22) % total`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

/// The most shards Discord gives a bot (its largest bots run a few thousand); a bigger number
/// is a typo.
const MAX_SHARDS: u32 = 65_536;

/// `--shards` / `HEXMEROS_SHARDS` (`range`, as `0-3` or `5`) and `--total-shards` /
/// `HEXMEROS_TOTAL_SHARDS` (`total`), each with the name it came under: the shards this process
/// runs, or `None` for neither (one unsharded connection, as before). A total alone means all
/// of its shards; a range needs its total. Whatever is wrong is refused in one sentence naming
/// the setting, before anything connects.
pub fn shards(
    range: Option<(&str, &str)>,
    total: Option<(&str, &str)>,
) -> anyhow::Result<Option<Shards>> {
    let total = match total {
        None => None,
        Some((name, raw)) => Some(
            raw.trim()
                .parse::<u32>()
                .ok()
                .filter(|t| (1..=MAX_SHARDS).contains(t))
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{name} must be how many shards the bot has in all, a whole number from \
                         1 to {MAX_SHARDS}, not {raw:?}"
                    )
                })?,
        ),
    };
    let Some((name, raw)) = range else {
        return Ok(total.map(|total| Shards {
            first: 0,
            last: total - 1,
            total,
        }));
    };
    let Some(total) = total else {
        anyhow::bail!(
            "{name} {raw:?} needs the total number of shards as well (--total-shards or \
             HEXMEROS_TOTAL_SHARDS), as --shards 0-3 --total-shards 8"
        );
    };
    let number = |s: &str| s.trim().parse::<u32>().ok();
    let (first, last) = match raw.trim().split_once('-') {
        Some((a, b)) => (number(a), number(b)),
        None => (number(raw), number(raw)),
    };
    let (Some(first), Some(last)) = (first, last) else {
        anyhow::bail!(
            "{name} must be a range of shard numbers FIRST-LAST, as 0-3, or one shard number, \
             not {raw:?}"
        );
    };
    if last < first {
        anyhow::bail!("{name} {raw:?} ends before it starts: write the lower shard first, as 0-3");
    }
    if last >= total {
        anyhow::bail!(
            "{name} {raw:?} goes past the last shard: with {total} shards in all they are \
             numbered 0 to {}",
            total - 1
        );
    }
    Ok(Some(Shards { first, last, total }))
}

/// A rate: at most `count` in any `per` (all of them at once, then one every `per / count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub count: NonZeroU32,
    pub per: Duration,
}

impl Rate {
    const fn new(count: u32, per_secs: u64) -> Rate {
        Rate {
            count: match NonZeroU32::new(count) {
                Some(n) => n,
                None => NonZeroU32::MIN,
            },
            per: Duration::from_secs(per_secs),
        }
    }
}

/// `HEXMEROS_RATE_SIGN_INS`'s default: 30 Activity sign-ins may begin in any minute.
pub const SIGN_INS: Rate = Rate::new(30, 60);

/// `HEXMEROS_RATE_SIGN_INS`: how many of the Activity's sign-ins (each a call to Discord's
/// token endpoint) may begin, `COUNT/PERIOD` or `off`.
pub fn sign_in_rate(raw: &str) -> anyhow::Result<Option<Rate>> {
    rate("HEXMEROS_RATE_SIGN_INS", raw)
}

/// `HEXMEROS_WEB_HEADER_TIMEOUT_MS` and `HEXMEROS_WEB_IDLE_TIMEOUT_MS` (`name`): a web board
/// connection's time, in milliseconds, 100 to 3,600,000.
pub fn web_timeout(name: &str, raw: &str) -> anyhow::Result<Duration> {
    raw.parse::<u64>()
        .ok()
        .filter(|ms| (100..=3_600_000).contains(ms))
        .map(Duration::from_millis)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "{name} must be milliseconds, 100 to 3600000, not {raw:?}; leave it empty for \
                 the default"
            )
        })
}

/// `HEXMEROS_WEB_CONNECTIONS`: the web board's open connections at most, a whole number above
/// 0 (see `hexmeros::web::server`).
pub fn web_connections(raw: &str) -> anyhow::Result<usize> {
    raw.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
        anyhow::anyhow!(
            "HEXMEROS_WEB_CONNECTIONS must be how many connections the web board keeps open \
                 at most, a whole number above 0, not {raw:?}; leave it empty for half the \
                 open-file limit"
        )
    })
}

/// `HEXMEROS_WEB_TRUSTED_PROXIES`: the reverse proxies whose `X-Forwarded-For` names the
/// client, a comma-separated list of addresses and networks (see `hexmeros::web::limit`).
pub fn web_trusted_proxies(raw: &str) -> anyhow::Result<hexmeros::web::limit::Proxies> {
    hexmeros::web::limit::Proxies::parse(raw).map_err(|why| {
        anyhow::anyhow!(
            "HEXMEROS_WEB_TRUSTED_PROXIES must be the proxies' addresses or networks, comma \
             separated (127.0.0.1, 10.0.0.0/8): {why}; leave it empty to trust none"
        )
    })
}

/// What one user may ask for, and how much work may wait: read from the environment by
/// [`Limits::from_env`], each with a default fit for a public bot. A rate of `None` is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `HEXMEROS_RATE_PICTURES`: board pictures one user asks for (Board button,
    /// `/hexmeros board`, the 🔄 reaction).
    pub pictures: Option<Rate>,
    /// `HEXMEROS_RATE_DMS`: direct messages sent at one user's request (reactions' answers).
    pub dms: Option<Rate>,
    /// `HEXMEROS_RATE_STARTS`: games one user starts.
    pub starts: Option<Rate>,
    /// `HEXMEROS_RATE_BOT_SEATS`: bots one user seats with their starts.
    pub bot_seats: Option<Rate>,
    /// `HEXMEROS_RATE_AWAY`: times one user goes away or comes back (each is told in the
    /// thread of every game they play).
    pub away: Option<Rate>,
    /// `HEXMEROS_MAX_ACTIVE_GAMES`: unfinished games a user may sit in and still start one.
    pub active_games: usize,
    /// `HEXMEROS_RENDER_QUEUE`: pictures drawing or waiting to be drawn at once.
    pub render_queue: usize,
    /// `HEXMEROS_BOT_QUEUE`: games whose bots think (or wait to) at once; more wait for the
    /// timers.
    pub bot_queue: usize,
    /// `HEXMEROS_RATE_DISCORD`: the bot's own calls to Discord that count toward its global
    /// rate limit (about 50 a second), at most this many; reminders take at most half of it.
    pub discord: Option<Rate>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            pictures: Some(Rate::new(4, 20)),
            dms: Some(Rate::new(3, 30)),
            starts: Some(Rate::new(6, 3600)),
            bot_seats: Some(Rate::new(12, 3600)),
            away: Some(Rate::new(6, 3600)),
            active_games: 10,
            render_queue: 16,
            bot_queue: 8,
            discord: Some(Rate::new(45, 1)),
        }
    }
}

impl Limits {
    /// The limits `var` (an environment lookup: trimmed, empty as unset) sets, the defaults
    /// for the others; a malformed value is refused with one sentence naming its variable.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> anyhow::Result<Limits> {
        let d = Limits::default();
        let rate = |name: &str, default| var(name).map_or(Ok(default), |v| rate(name, &v));
        let count = |name: &str, default| var(name).map_or(Ok(default), |v| count(name, &v));
        Ok(Limits {
            pictures: rate("HEXMEROS_RATE_PICTURES", d.pictures)?,
            dms: rate("HEXMEROS_RATE_DMS", d.dms)?,
            starts: rate("HEXMEROS_RATE_STARTS", d.starts)?,
            bot_seats: rate("HEXMEROS_RATE_BOT_SEATS", d.bot_seats)?,
            away: rate("HEXMEROS_RATE_AWAY", d.away)?,
            active_games: count("HEXMEROS_MAX_ACTIVE_GAMES", d.active_games)?,
            render_queue: count("HEXMEROS_RENDER_QUEUE", d.render_queue)?,
            bot_queue: count("HEXMEROS_BOT_QUEUE", d.bot_queue)?,
            discord: rate("HEXMEROS_RATE_DISCORD", d.discord)?,
        })
    }
}

/// A rate variable: `COUNT/PERIOD` (`4/20s`, `6/1h`, `10/5m`), or `off`.
fn rate(name: &str, raw: &str) -> anyhow::Result<Option<Rate>> {
    if raw.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    let parsed = raw.split_once('/').and_then(|(count, per)| {
        let count = count.trim().parse::<NonZeroU32>().ok()?;
        let per = per.trim();
        let unit = match per.chars().last()? {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            _ => return None,
        };
        let n = per[..per.len() - 1]
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)?;
        let per = Duration::from_secs(n.checked_mul(unit)?);
        Some(Rate { count, per })
    });
    parsed.map(Some).ok_or_else(|| {
        anyhow::anyhow!(
            "{name} must be COUNT/PERIOD, as 4/20s, 10/5m or 6/1h (at most COUNT in any \
             PERIOD), or off; not {raw:?}"
        )
    })
}

/// A count variable: a whole number above 0.
fn count(name: &str, raw: &str) -> anyhow::Result<usize> {
    raw.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| anyhow::anyhow!("{name} must be a whole number above 0, not {raw:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn limits_default_when_unset_and_read_rates_and_counts() {
        assert_eq!(Limits::from_env(env(&[])).ok(), Some(Limits::default()));
        let l = Limits::from_env(env(&[
            ("HEXMEROS_RATE_PICTURES", "2/10s"),
            ("HEXMEROS_RATE_DMS", "OFF"),
            ("HEXMEROS_RATE_STARTS", "3/2h"),
            ("HEXMEROS_RATE_BOT_SEATS", "30/5m"),
            ("HEXMEROS_RATE_AWAY", "2/24h"),
            ("HEXMEROS_MAX_ACTIVE_GAMES", "2"),
            ("HEXMEROS_RENDER_QUEUE", "4"),
            ("HEXMEROS_BOT_QUEUE", "1"),
            ("HEXMEROS_RATE_DISCORD", "20/1s"),
        ]))
        .expect("valid limits");
        let r = |count, secs| Some(Rate::new(count, secs));
        assert_eq!(l.pictures, r(2, 10));
        assert_eq!(l.dms, None);
        assert_eq!(l.starts, r(3, 7200));
        assert_eq!(l.bot_seats, r(30, 300));
        assert_eq!(l.away, r(2, 86_400));
        assert_eq!((l.active_games, l.render_queue, l.bot_queue), (2, 4, 1));
        assert_eq!(l.discord, r(20, 1));
    }

    #[test]
    fn a_malformed_limit_is_refused_naming_its_variable() {
        for (name, bad) in [
            ("HEXMEROS_RATE_PICTURES", "4"),
            ("HEXMEROS_RATE_PICTURES", "0/10s"),
            ("HEXMEROS_RATE_DMS", "3/0s"),
            ("HEXMEROS_RATE_STARTS", "3/1d"),
            ("HEXMEROS_RATE_STARTS", "-1/1h"),
            ("HEXMEROS_RATE_BOT_SEATS", "x/1h"),
            ("HEXMEROS_RATE_AWAY", "often"),
            ("HEXMEROS_RATE_BOT_SEATS", "3/h"),
            ("HEXMEROS_MAX_ACTIVE_GAMES", "0"),
            ("HEXMEROS_RENDER_QUEUE", "-3"),
            ("HEXMEROS_BOT_QUEUE", "many"),
            ("HEXMEROS_RATE_DISCORD", "50"),
        ] {
            let err = Limits::from_env(env(&[(name, bad)]))
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                err.starts_with(&format!("{name} must be")),
                "{name}={bad}: {err}"
            );
            assert!(err.contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    fn lobby_hours_are_a_positive_number_of_hours() {
        assert_eq!(lobby_hours("48").ok(), Some(48));
        assert_eq!(lobby_hours("1").ok(), Some(1));
        for bad in ["0", "-1", "two", "8761", ""] {
            let err = lobby_hours(bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.starts_with("LOBBY_HOURS must be"), "{bad} accepted");
        }
    }

    #[test]
    fn the_api_base_is_accepted_on_this_machine_only() {
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost:1",
            "http://[::1]:5",
            "http://127.3.4.5",
            "https://LOCALHOST:443/",
        ] {
            assert!(api_base(ok).is_ok(), "{ok} refused: {:?}", api_base(ok));
        }
        assert_eq!(
            api_base("http://127.0.0.1:8080/").ok().as_deref(),
            Some("http://127.0.0.1:8080")
        );
        for bad in [
            "https://discord.com",
            "http://10.0.0.1",
            "http://127.evil.com",
            "http://localhost.evil.com",
            "http://[::ffff:10.0.0.1]",
            "ftp://127.0.0.1",
            "127.0.0.1:8080",
            "",
        ] {
            let err = api_base(bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                err.starts_with("DISCORD_API_BASE must be"),
                "{bad} accepted"
            );
        }
    }

    #[test]
    fn locking_finished_threads_is_on_or_off() {
        assert_eq!(lock_finished("on").ok(), Some(true));
        assert_eq!(lock_finished("OFF").ok(), Some(false));
        for bad in ["yes", "1", "true", ""] {
            let err = lock_finished(bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                err.starts_with("HEXMEROS_LOCK_FINISHED must be"),
                "{bad} accepted"
            );
        }
    }

    #[test]
    fn the_metrics_address_is_an_ip_and_port() {
        let addr = |raw| metrics_addr("HEXMEROS_METRICS", raw).ok();
        assert_eq!(addr("127.0.0.1:9100"), "127.0.0.1:9100".parse().ok());
        assert_eq!(addr("[::1]:9100"), "[::1]:9100".parse().ok());
        assert_eq!(addr("0.0.0.0:80"), "0.0.0.0:80".parse().ok());
        for bad in [
            "9100",
            "localhost:9100",
            "127.0.0.1",
            "127.0.0.1:x",
            "1.2.3.4:70000",
            "",
        ] {
            let err = metrics_addr("--metrics", bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.starts_with("--metrics must be"), "{bad} accepted");
            assert!(err.contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    fn shard_ranges_are_read_with_their_total() {
        let r = |range: Option<&str>, total: Option<&str>| {
            shards(
                range.map(|r| ("--shards", r)),
                total.map(|t| ("--total-shards", t)),
            )
            .ok()
            .flatten()
            .map(|s| (s.first, s.last, s.total))
        };
        assert_eq!(r(Some("0-3"), Some("8")), Some((0, 3, 8)));
        assert_eq!(r(Some(" 4 - 7 "), Some("8")), Some((4, 7, 8)));
        assert_eq!(r(Some("5"), Some("8")), Some((5, 5, 8)));
        assert_eq!(r(Some("0-0"), Some("1")), Some((0, 0, 1)));
        assert_eq!(r(None, Some("4")), Some((0, 3, 4)));
        assert!(matches!(shards(None, None), Ok(None)));
    }

    #[test]
    fn a_bad_shard_range_is_refused_in_one_sentence() {
        for (range, total, words) in [
            (
                Some("3-1"),
                Some("8"),
                "--shards \"3-1\" ends before it starts",
            ),
            (
                Some("0-8"),
                Some("8"),
                "--shards \"0-8\" goes past the last shard",
            ),
            (Some("8"), Some("8"), "numbered 0 to 7"),
            (
                Some("0-3"),
                Some("0"),
                "--total-shards must be how many shards",
            ),
            (Some("0-3"), Some("eight"), "not \"eight\""),
            (Some("0-3"), Some("-1"), "--total-shards must be"),
            (Some("0-3"), Some("70000"), "--total-shards must be"),
            (Some("a-b"), Some("8"), "--shards must be a range"),
            (Some("-3"), Some("8"), "--shards must be a range"),
            (Some("0-"), Some("8"), "--shards must be a range"),
            (Some("0-1-2"), Some("8"), "--shards must be a range"),
            (Some(""), Some("8"), "--shards must be a range"),
            (Some("0-3"), None, "needs the total number of shards"),
            (None, Some("0"), "--total-shards must be"),
        ] {
            let err = shards(
                range.map(|r| ("--shards", r)),
                total.map(|t| ("--total-shards", t)),
            )
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
            assert!(err.contains(words), "{range:?} of {total:?}: {err:?}");
            assert_eq!(err.matches(". ").count(), 0, "one sentence: {err}");
        }
        let err = shards(
            Some(("HEXMEROS_SHARDS", "2-1")),
            Some(("HEXMEROS_TOTAL_SHARDS", "4")),
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(err.starts_with("HEXMEROS_SHARDS \"2-1\""), "{err}");
    }

    #[test]
    fn the_dev_guild_is_a_positive_number() {
        assert_eq!(dev_guild("42").ok(), Some(serenity::GuildId::new(42)));
        for bad in ["0", "-1", "my-server", "18446744073709551616", ""] {
            let err = dev_guild(bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.starts_with("DEV_GUILD_ID must be"), "{bad} accepted");
        }
    }
}
