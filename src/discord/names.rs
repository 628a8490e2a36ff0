//! How the bot names players and games in its messages: mentions (`<@id>` for a Discord user,
//! the stored name otherwise), the players of the host's sentences turned into mentions, whom a
//! message may ping, a quiet-hours message sent silently, a game's title, and the emoji of pass,
//! take back and my side. Words only: nothing here sends.

use poise::serenity_prelude as serenity;
use serenity::{CreateAllowedMentions, CreateMessage, MessageFlags, UserId};

use hexmeros::host::words::{Part, Sentence};
use hexmeros::host::{GameState, PlayerId};

use crate::discord::Data;

/// Pass, take back, my side: the reactions a player may add to a turn message or the status
/// panel, and the emoji of the panel's buttons.
pub const PASS: &str = "✅";
pub const TAKE_BACK: &str = "↩️";
pub const MY_SIDE: &str = "🔄";

/// A Discord user id for a player, if the player is a Discord user. Local and bot players have
/// small ids; every snowflake is above 2^22 (its timestamp part is never zero).
pub fn discord_user(p: PlayerId) -> Option<UserId> {
    (p >= 1 << 22).then(|| UserId::new(p as u64))
}

/// How a player is named in a message: a mention for a Discord user.
pub async fn mention(data: &Data, p: PlayerId) -> String {
    match discord_user(p) {
        Some(u) => format!("<@{u}>"),
        None => match data.host.player_name(p).await {
            Ok(Some(n)) => n,
            _ => format!("player {p}"),
        },
    }
}

/// The host's `text` with every player it names (`host::words`) named as Discord shows them.
pub async fn with_names(data: &Data, text: &Sentence) -> String {
    let mut out = String::new();
    for part in text.parts() {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Player(id) => out.push_str(&mention(data, id).await),
            Part::Quoted(t) => out.push_str(&plain(t)),
        }
    }
    out
}

/// Words a player wrote, as Discord shows them literally: every character Discord's markdown
/// reads (emphasis, code, spoilers, quotes, headings, lists, masked links `[text](url)`,
/// mentions and custom emoji `<…>`) escaped with a backslash, and links kept from unfurling.
/// serenity's `MessageBuilder::push_safe` escapes only `*`, `_` and backticks.
pub fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '*'
                | '_'
                | '~'
                | '`'
                | '|'
                | '>'
                | '<'
                | '#'
                | '-'
                | '['
                | ']'
                | '('
                | ')'
                | '@'
                | ':'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `msg` sent silently when `player` is in their quiet hours now (`/hexmeros settings`): the
/// mention stays, but Discord's SUPPRESS_NOTIFICATIONS keeps their phone from ringing. Settings
/// that cannot be read count as no quiet hours (the ping rings, as before quiet hours existed).
pub async fn quiet_for(data: &Data, player: PlayerId, msg: CreateMessage) -> CreateMessage {
    if discord_user(player).is_none() {
        return msg;
    }
    match data.host.quiet_of(player).await {
        Ok(Some(q)) if q.is_quiet(data.host.now()) => {
            msg.flags(MessageFlags::SUPPRESS_NOTIFICATIONS)
        }
        Ok(_) => msg,
        Err(e) => {
            tracing::warn!(player, error = %e, "no quiet hours read: the ping rings");
            msg
        }
    }
}

/// A mention that pings exactly these users.
pub fn pinging(users: &[PlayerId]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(users.iter().filter_map(|&p| discord_user(p)))
}

pub fn title(state: &GameState) -> String {
    format!("{} #{}", state.kind().name(), state.id())
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn a_players_words_show_as_written() {
        assert_eq!(plain("back soon"), "back soon");
        // A masked link, emphasis, a spoiler, a mention and a heading all read literally.
        assert_eq!(
            plain("[free nitro](https://x.example)"),
            "\\[free nitro\\]\\(https\\://x.example\\)"
        );
        assert_eq!(plain("**big** ||hid||"), "\\*\\*big\\*\\* \\|\\|hid\\|\\|");
        assert_eq!(plain("<@123> @everyone"), "\\<\\@123\\> \\@everyone");
        assert_eq!(plain("# head"), "\\# head");
        assert_eq!(plain("a\\b"), "a\\\\b");
    }
}
