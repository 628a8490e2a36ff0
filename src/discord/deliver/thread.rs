//! A game's place on Discord: its thread opened where it was started (once, also after a lost
//! answer or a crash), and the word to a server whose channel the bot may no longer use.

use super::*;

/// Where a front end started a game (`guild/channel`, as `origin_text` writes it).
pub(super) fn parse_origin(text: &str) -> Option<(Option<GuildId>, ChannelId)> {
    let (guild, channel) = text.split_once('/')?;
    let channel = channel.parse::<u64>().ok().filter(|&c| c != 0)?;
    let guild = match guild {
        "" => None,
        g => Some(GuildId::new(g.parse::<u64>().ok().filter(|&g| g != 0)?)),
    };
    Some((guild, ChannelId::new(channel)))
}

/// How a game's starting place is kept with the game (see `parse_origin`).
pub fn origin_text(guild: Option<GuildId>, channel: ChannelId) -> String {
    match guild {
        Some(g) => format!("{g}/{channel}"),
        None => format!("/{channel}"),
    }
}

/// Discord refused an entry for lack of access: tell the game's server once, in the channel it
/// was started in (the thread is what cannot be reached), how to fix it.
pub async fn tell_blocked(http: &Http, data: &Data, entry: &Delivery, err: &anyhow::Error) {
    let Some(game) = entry.game else {
        return;
    };
    let Ok(Some(link)) = data.links.by_game(game).await else {
        return;
    };
    if !matches!(
        data.links.claim_access_warning(game, data.host.now()).await,
        Ok(true)
    ) {
        return;
    }
    let text = format!(
        "I cannot post in <#{}> (game #{game}): Discord says {}. Give me View Channel, Send \
         Messages and Send Messages in Threads there; the game's messages wait and go out as \
         soon as I can.",
        link.thread,
        err.root_cause()
    );
    let msg = CreateMessage::new()
        .content(text)
        .allowed_mentions(CreateAllowedMentions::new());
    if let Err(e) = data
        .wire
        .send_with(http, ChannelId::new(link.parent), msg, nonce_of(entry, 2))
        .await
    {
        tracing::warn!(game, error = %e, "cannot tell the server that access is missing");
    }
}

/// Open the game's thread in the channel the game was started in, and link the two. Without the
/// permission to open threads, the game lives in the channel itself. A thread already linked (a
/// retry after a crash) is not opened twice.
pub(super) async fn open_thread(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    game: GameId,
    title: &str,
) -> anyhow::Result<Outcome> {
    if data.links.by_game(game).await?.is_some() {
        return Ok(Outcome::Sent(None));
    }
    let origin = data.host.origin(game).await?;
    let Some((guild, parent)) = origin.as_deref().and_then(parse_origin) else {
        return Ok(Outcome::Dropped(
            "the game was not started in a channel".into(),
        ));
    };
    let body = serde_json::json!({
        "name": title,
        "type": 11, // a public thread
        "auto_archive_duration": 10080,
    });
    // Thread creation carries no nonce: when an attempt's answer was lost (a 5xx after Discord
    // opened it, a dropped connection, a crash), the thread may exist already. An attempt that
    // may have been made before (a retry, or an entry a process tried before it died) looks for
    // it first (its title names the game, so it is unique); a first attempt asks for nothing but
    // the thread, as a server's list of active threads is long where many games are played.
    let tried_before = entry.tried_at.is_some();
    data.host.outbox_trying(entry.id).await?;
    let body = &body;
    let mut attempt = 0;
    let thread = match data
        .wire
        .retry("opening a thread", || {
            attempt += 1;
            let look = tried_before || attempt > 1;
            async move {
                if let (Some(g), true) = (guild, look) {
                    let active = http.get_guild_active_threads(g).await?;
                    if let Some(t) = active
                        .threads
                        .iter()
                        .find(|t| t.parent_id == Some(parent) && t.name == title)
                    {
                        return Ok(t.id);
                    }
                }
                http.create_thread(parent, body, None).await.map(|t| t.id)
            }
        })
        .await
    {
        Ok(t) => t,
        Err(err) if matches!(http_status(&err), Some((403, _))) => {
            tracing::warn!(game, error = %err, "no thread; the game uses the channel");
            parent
        }
        Err(err) => return Err(err.into()),
    };
    data.links
        .insert(game, guild.map(|g| g.get()), parent.get(), thread.get())
        .await?;
    data.host
        .set_channel(game, &thread.get().to_string())
        .await?;
    Ok(Outcome::Sent(None))
}
