//! How the bot names players and games in its messages: mentions (`<@id>` for a Discord user,
//! the stored name otherwise), the host's `player 123` turned into names, whom a message may
//! ping, a quiet-hours message sent silently, a game's title, and the turn message's reactions.
//! Words only: nothing here sends.

use poise::serenity_prelude as serenity;
use serenity::{CreateAllowedMentions, CreateMessage, MessageFlags, UserId};

use hexmeros::host::{GameState, PlayerId};

use crate::discord::Data;

/// The reactions put on every turn message: pass, take back, show my side.
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

/// Where the host's words name a player by id (`player 123`, `player -2`): the byte range of
/// each such name and the id. The host knows no names; the front end puts them in.
fn player_refs(text: &str) -> Vec<(std::ops::Range<usize>, PlayerId)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("player ").map(|i| from + i) {
        let digits_at = at + "player ".len();
        let rest = &text[digits_at..];
        let sign = usize::from(rest.starts_with('-'));
        let len = sign + rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
        let before_ok = !text[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
        match rest[..len].parse::<PlayerId>() {
            Ok(id) if len > sign && before_ok => {
                found.push((at..digits_at + len, id));
                from = digits_at + len;
            }
            _ => from = digits_at,
        }
    }
    found
}

/// The host's `text` with every `player <id>` replaced by how the player is named here.
pub async fn with_names(data: &Data, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (range, id) in player_refs(text) {
        out.push_str(&text[last..range.start]);
        out.push_str(&mention(data, id).await);
        last = range.end;
    }
    out.push_str(&text[last..]);
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
    use super::player_refs;

    #[test]
    fn player_ids_in_the_hosts_words_are_found() {
        let text = "motion #3: player 1200000000000000007 takes over yellow; player -2 too";
        let refs = player_refs(text);
        assert_eq!(refs.len(), 2);
        assert_eq!(&text[refs[0].0.clone()], "player 1200000000000000007");
        assert_eq!(refs[0].1, 1_200_000_000_000_000_007);
        assert_eq!(&text[refs[1].0.clone()], "player -2");
        assert_eq!(refs[1].1, -2);
        // Not a player's id: no digits, a word ending in "player", a lone minus sign.
        for text in [
            "the player to move",
            "multiplayer 12",
            "player - 3",
            "player",
        ] {
            assert!(player_refs(text).is_empty(), "{text}");
        }
        assert_eq!(player_refs("player 5, player 6")[1].1, 6);
    }
}
