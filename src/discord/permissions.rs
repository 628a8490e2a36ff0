//! What the bot needs of a server, in one list ([`NEEDED`]): the invite link's `permissions`
//! (logged at connect, and quoted in `docs/running.md`) is their sum, and `/hexmeros start`
//! tells the starter which of them the bot lacks in that channel, and what goes missing, before
//! the game finds out.
//!
//! Discord sends the bot's permissions in the channel with every interaction
//! (`app_permissions`), but serenity 0.12 keeps only the bits it knows, and Pin Messages
//! (`1 << 51`, split from Manage Messages in 2026) is not one of them: that one is worked out
//! from the server's roles and the channel's overwrites, read as Discord sends them.

use poise::serenity_prelude as serenity;
use serde_json::Value;
use serenity::{GuildId, Http, LightMethod, Request, Route, UserId};

/// One permission the bot uses: its bit, its name in Discord's settings, what it is for.
pub struct Need {
    pub bit: u64,
    pub name: &'static str,
    pub for_what: &'static str,
}

/// Pin Messages, which serenity does not know yet.
pub const PIN_MESSAGES: u64 = 1 << 51;

/// Everything the bot uses in a server, in Discord's order.
pub const NEEDED: &[Need] = &[
    Need {
        bit: 1 << 6,
        name: "Add Reactions",
        for_what: "the reactions on the status panel",
    },
    Need {
        bit: 1 << 10,
        name: "View Channels",
        for_what: "seeing the channel at all",
    },
    Need {
        bit: 1 << 11,
        name: "Send Messages",
        for_what: "posting in the channel",
    },
    Need {
        bit: 1 << 13,
        name: "Manage Messages",
        for_what: "removing others' reactions from its messages",
    },
    Need {
        bit: 1 << 14,
        name: "Embed Links",
        for_what: "the results table",
    },
    Need {
        bit: 1 << 15,
        name: "Attach Files",
        for_what: "the board pictures",
    },
    Need {
        bit: 1 << 16,
        name: "Read Message History",
        for_what: "the reactions on its messages",
    },
    Need {
        bit: 1 << 35,
        name: "Create Public Threads",
        for_what: "a thread for each game",
    },
    Need {
        bit: 1 << 38,
        name: "Send Messages in Threads",
        for_what: "the turns in the game's thread",
    },
    Need {
        bit: PIN_MESSAGES,
        name: "Pin Messages",
        for_what: "pinning the game's status panel",
    },
];

/// The invite link's `permissions`: every [`NEEDED`] bit.
pub fn invite_bits() -> u64 {
    NEEDED.iter().fold(0, |sum, n| sum | n.bit)
}

/// The link that adds the bot of application `app` to a server with what it needs.
pub fn invite_url(app: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={app}&scope=bot+applications.commands\
         &permissions={}",
        invite_bits()
    )
}

/// The needs that `have` lacks (Administrator has them all).
pub fn missing(have: u64) -> Vec<&'static Need> {
    const ADMINISTRATOR: u64 = 1 << 3;
    if have & ADMINISTRATOR != 0 {
        return vec![];
    }
    NEEDED.iter().filter(|n| have & n.bit == 0).collect()
}

/// What the starter reads when the bot lacks something in this channel (`None`: it has all).
pub fn warning(lacking: &[&Need]) -> Option<String> {
    if lacking.is_empty() {
        return None;
    }
    let list: Vec<String> = lacking
        .iter()
        .map(|n| format!("**{}** ({})", n.name, n.for_what))
        .collect();
    Some(format!(
        "⚠️ Here the bot lacks {}: the game goes on without them, but that part will be \
         missing. A server admin can grant them to the bot's role (Server Settings → Roles) or in \
         this channel's permissions.",
        list.join(", ")
    ))
}

/// The bot's own permissions in `channel` (a thread's are its parent's) as Discord keeps
/// them, every bit included: its roles' permissions, then the channel's overwrites for
/// @everyone, its roles and itself. `None` when Discord did not answer.
pub async fn raw_in_channel(
    http: &Http,
    guild: GuildId,
    channel: serenity::ChannelId,
    bot: UserId,
) -> Option<u64> {
    let get = |route| async move {
        match http
            .fire::<Value>(Request::new(route, LightMethod::Get))
            .await
        {
            Ok(v) => Some(v),
            Err(e) => {
                tracing::debug!(error = %e, "the bot's permissions could not be read");
                None
            }
        }
    };
    let member = get(Route::GuildMember {
        guild_id: guild,
        user_id: bot,
    })
    .await?;
    let roles = get(Route::GuildRoles { guild_id: guild }).await?;
    let mut chan = get(Route::Channel {
        channel_id: channel,
    })
    .await?;
    // A thread has no overwrites of its own: its parent's apply.
    if matches!(chan["type"].as_u64(), Some(10..=12)) {
        let parent = chan["parent_id"].as_str()?.parse().ok()?;
        chan = get(Route::Channel {
            channel_id: serenity::ChannelId::new(parent),
        })
        .await?;
    }
    Some(effective(guild.get(), bot.get(), &member, &roles, &chan))
}

/// Discord's permission arithmetic on its raw JSON: `member`'s roles in `roles` (with the
/// @everyone role, whose id is the guild's), then `channel`'s `permission_overwrites`.
fn effective(guild: u64, user: u64, member: &Value, roles: &Value, channel: &Value) -> u64 {
    let bits = |v: &Value| v.as_str().and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
    let id = |v: &Value| v.as_str().and_then(|s| s.parse::<u64>().ok());
    let mine: Vec<u64> = member["roles"]
        .as_array()
        .map(|r| r.iter().filter_map(id).collect())
        .unwrap_or_default();
    let mut base = 0;
    for role in roles.as_array().into_iter().flatten() {
        let rid = id(&role["id"]);
        if rid == Some(guild) || rid.is_some_and(|r| mine.contains(&r)) {
            base |= bits(&role["permissions"]);
        }
    }
    if base & (1 << 3) != 0 {
        return u64::MAX;
    }
    let overwrites: Vec<&Value> = channel["permission_overwrites"]
        .as_array()
        .map(|o| o.iter().collect())
        .unwrap_or_default();
    let apply = |base: u64, which: &dyn Fn(&Value) -> bool| {
        let (mut allow, mut deny) = (0, 0);
        for o in overwrites.iter().filter(|o| which(o)) {
            allow |= bits(&o["allow"]);
            deny |= bits(&o["deny"]);
        }
        (base & !deny) | allow
    };
    let base = apply(base, &|o| id(&o["id"]) == Some(guild));
    let base = apply(base, &|o| {
        o["type"].as_u64() == Some(0)
            && id(&o["id"]).is_some_and(|r| r != guild && mine.contains(&r))
    });
    apply(base, &|o| {
        o["type"].as_u64() == Some(1) && id(&o["id"]) == Some(user)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_invite_asks_for_every_need_and_the_guide_quotes_it() {
        let bits = invite_bits();
        assert_ne!(bits & PIN_MESSAGES, 0);
        assert_ne!(bits & (1 << 14), 0, "Embed Links");
        assert_eq!(bits.count_ones() as usize, NEEDED.len());
        let guide = include_str!("../../docs/running.md");
        assert!(
            guide.contains(&format!("permissions={bits}")),
            "docs/running.md's invite link is not permissions={bits}"
        );
        assert!(invite_url(7).contains(&format!(
            "client_id=7&scope=bot+applications.commands&permissions={bits}"
        )));
    }

    #[test]
    fn what_is_missing_is_named_with_what_it_is_for() {
        assert!(missing(invite_bits()).is_empty());
        assert!(missing(1 << 3).is_empty(), "Administrator has everything");
        let lacking = missing(invite_bits() & !PIN_MESSAGES & !(1 << 14));
        let names: Vec<&str> = lacking.iter().map(|n| n.name).collect();
        assert_eq!(names, ["Embed Links", "Pin Messages"]);
        let text = warning(&lacking).unwrap_or_default();
        assert!(
            text.contains("**Pin Messages** (pinning the game's status panel)"),
            "{text}"
        );
        assert!(text.chars().count() < 2000);
        assert_eq!(warning(&[]), None);
    }

    #[test]
    fn roles_and_overwrites_combine_as_discord_says() {
        let (guild, bot, role) = (100, 7, 200);
        let member = json!({"roles": ["200"]});
        let roles = json!([
            {"id": "100", "permissions": "1024"},
            {"id": "200", "permissions": PIN_MESSAGES.to_string()},
            {"id": "300", "permissions": "8"},
        ]);
        let plain = json!({"permission_overwrites": []});
        assert_eq!(
            effective(guild, bot, &member, &roles, &plain),
            1024 | PIN_MESSAGES
        );
        // The role's overwrite denies Pin Messages; the member's own allows it back.
        let denied = json!({"permission_overwrites": [
            {"id": role.to_string(), "type": 0, "allow": "0", "deny": PIN_MESSAGES.to_string()},
        ]});
        assert_eq!(effective(guild, bot, &member, &roles, &denied), 1024);
        let back = json!({"permission_overwrites": [
            {"id": role.to_string(), "type": 0, "allow": "0", "deny": PIN_MESSAGES.to_string()},
            {"id": bot.to_string(), "type": 1, "allow": PIN_MESSAGES.to_string(), "deny": "0"},
        ]});
        assert_eq!(
            effective(guild, bot, &member, &roles, &back),
            1024 | PIN_MESSAGES
        );
        // @everyone's overwrite hides the channel; a role not held changes nothing.
        let hidden = json!({"permission_overwrites": [
            {"id": "100", "type": 0, "allow": "0", "deny": "1024"},
            {"id": "300", "type": 0, "allow": "1024", "deny": "0"},
        ]});
        assert_eq!(
            effective(guild, bot, &member, &roles, &hidden),
            PIN_MESSAGES
        );
        // Administrator (a role held) has everything.
        let admin = json!({"roles": ["300"]});
        assert_eq!(effective(guild, bot, &admin, &roles, &hidden), u64::MAX);
    }
}
