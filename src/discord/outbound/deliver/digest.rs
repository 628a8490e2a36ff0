//! A player's daily digest by direct message (`/hexmeros notify digest`): what waits on them,
//! what finished since the last one and the lobbies waiting for their Join, each line with a
//! jump link, times as Discord timestamps (each reader sees them in their own clock), in one
//! message of at most Discord's 2,000 characters.

use super::*;
use crate::discord::links::jump_url;
use hexmeros::host::{Digest, Link, Millis, fit_digest};

/// Discord's limit on a message's content.
const MESSAGE_CHARS: usize = 2000;

/// Send `player`'s digest. A closed DM is remembered as any DM's, and said in the thread of the
/// first game the digest tells of (`notice`: the nonce of that word).
pub async fn digest(
    http: &Http,
    data: &Data,
    player: PlayerId,
    digest: &Digest,
    notice: serenity::Nonce,
    nonce: serenity::Nonce,
) -> anyhow::Result<Outcome> {
    let content = text(data, digest).await?;
    let about = (digest.awaiting.iter().map(|a| a.game))
        .chain(digest.ended.iter().map(|e| e.game))
        .next();
    let msg = CreateMessage::new()
        .content(content)
        .allowed_mentions(CreateAllowedMentions::new());
    dm(
        http,
        data,
        player,
        msg,
        false,
        about.map(|g| (g, notice)),
        nonce,
    )
    .await
}

/// The digest's words with names, links and timestamps, fitted into one message.
async fn text(data: &Data, digest: &Digest) -> anyhow::Result<String> {
    let mut links = Vec::new();
    for link in (digest.awaiting.iter().map(|a| Link::Game(a.game)))
        .chain(digest.ended.iter().map(|e| Link::Game(e.game)))
        .chain(digest.invitations.iter().map(|i| Link::Lobby(i.lobby)))
    {
        links.push((link, jump(data, link).await?));
    }
    let when = |t: Millis| format!("<t:{}:R>", t.div_euclid(1000));
    let link = |l: Link| {
        (links.iter().find(|(k, _)| *k == l)).map_or_else(String::new, |(_, url)| url.clone())
    };
    let mut sections = Vec::new();
    for (head, lines) in digest.sections(&when, &link) {
        let mut named = Vec::new();
        for l in &lines {
            named.push(with_names(data, l).await);
        }
        sections.push((head, named));
    }
    Ok(fit_digest(
        "📬 your daily digest",
        &sections,
        MESSAGE_CHARS,
        "/hexmeros games lists them all",
    ))
}

/// A game's thread or a lobby's message as a jump link after a line (nothing when it has no
/// place on Discord).
async fn jump(data: &Data, link: Link) -> anyhow::Result<String> {
    // A masked link: a word to tap, not a long address across a phone's screen.
    let at = |word: &str, guild: Option<u64>, place: String| {
        format!(" — [{word}]({})", jump_url(guild, place))
    };
    Ok(match link {
        Link::Game(game) => match data.links.by_game(game).await? {
            Some(l) => at("thread", l.guild, l.thread.to_string()),
            None => String::new(),
        },
        Link::Lobby(lobby) => match data.links.lobby(lobby).await? {
            Some(l) => match l.message {
                Some(m) => at("Join", l.guild, format!("{}/{m}", l.channel)),
                None => at("Join", l.guild, l.channel.to_string()),
            },
            None => String::new(),
        },
    })
}
