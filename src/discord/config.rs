//! The settings `serve` reads from the environment that could do harm when wrong, checked before
//! anything starts: each refusal is one clear sentence naming the variable (`serve` then exits
//! with code 2).

use std::num::NonZeroU64;

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

#[cfg(test)]
mod tests {
    use super::*;

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
