//! Direct messages (a player's closed DMs remembered, never retried, and said in the thread of
//! the game the refused DM was about), and a reaction removed.

use super::*;

/// Send a direct message. With `opt_in`, only to players who asked for DMs. A DM found closed
/// (403, code 50007) is remembered and never tried again: repeated 403s get a bot banned. The
/// player is then told so in the thread of the game the DM was about (`notice`: the game, and
/// the nonce of that word), once: their DMs are not tried again after.
pub async fn dm(
    http: &Http,
    data: &Data,
    player: PlayerId,
    msg: CreateMessage,
    opt_in: bool,
    notice: Option<(GameId, serenity::Nonce)>,
    nonce: serenity::Nonce,
) -> anyhow::Result<Outcome> {
    let Some(user) = discord_user(player) else {
        return Ok(Outcome::Dropped("not a Discord user".into()));
    };
    let allowed = if opt_in {
        data.links.dm_open(user.get()).await?
    } else {
        !data.links.dm_closed(user.get()).await?
    };
    if !allowed {
        return Ok(Outcome::Dropped("no direct messages to this user".into()));
    }
    let body = serde_json::json!({ "recipient_id": user.get().to_string() });
    let sent = async {
        let ch = data
            .wire
            .retry("opening a DM", || http.create_private_channel(&body))
            .await?;
        data.wire.send_with(http, ch.id, msg.clone(), nonce).await
    }
    .await;
    match sent {
        Ok(m) => Ok(Outcome::Sent(Some(m.id))),
        Err(e) if matches!(http_status(&e), Some((403, _))) => {
            tracing::info!(user = user.get(), error = %e, "DMs closed; not tried again");
            if let Some((game, nonce)) = notice {
                closed_notice(http, data, game, player, nonce).await?;
            }
            data.links
                .mark_dm_closed(user.get(), data.host.now())
                .await?;
            Ok(Outcome::Dropped("direct messages are closed".into()))
        }
        Err(e) => Err(e.into()),
    }
}

/// A direct message of the outbox: a private text for someone other than the actor, a reminder
/// (both to a player who asked for reminders by DM), a player's turn (to one who asked for that).
pub async fn deliver(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    effect: Effect,
) -> anyhow::Result<Outcome> {
    let nonce = nonce_of(entry, 0);
    match effect {
        Effect::Dm {
            player,
            text,
            about,
        } => {
            let notice = about.map(|g| (g, nonce_of(entry, 1)));
            reminder(http, data, player, &text, notice, nonce).await
        }
        Effect::YourTurn { game, player, text } | Effect::Nudge { game, player, text } => {
            let notice = Some((game, nonce_of(entry, 1)));
            your_turn(http, data, game, player, &text, notice, nonce).await
        }
        Effect::Private { player, text } => reminder(http, data, player, &text, None, nonce).await,
        other => Ok(Outcome::Dropped(format!("not a direct message: {other:?}"))),
    }
}

/// A reminder (or a private text for someone other than the actor) by direct message, to a
/// player who asked for reminders that way (`/hexmeros notify dm`).
pub async fn reminder(
    http: &Http,
    data: &Data,
    player: PlayerId,
    text: &Sentence,
    notice: Option<(GameId, serenity::Nonce)>,
    nonce: serenity::Nonce,
) -> anyhow::Result<Outcome> {
    let text = with_names(data, text).await;
    let msg = CreateMessage::new().content(text);
    dm(http, data, player, msg, true, notice, nonce).await
}

/// A player's turn by direct message, as they asked (`/hexmeros notify turn`): what the host
/// says with a link to the game's thread, silent in their quiet hours; a closed DM is
/// remembered as any DM's.
pub async fn your_turn(
    http: &Http,
    data: &Data,
    game: GameId,
    player: PlayerId,
    text: &Sentence,
    notice: Option<(GameId, serenity::Nonce)>,
    nonce: serenity::Nonce,
) -> anyhow::Result<Outcome> {
    let mut content = with_names(data, text).await;
    if let Some(link) = data.links.by_game(game).await? {
        let url = crate::discord::links::jump_url(link.guild, link.thread);
        content.push_str(&format!(" — {url}"));
    }
    let msg = quiet_for(data, player, CreateMessage::new().content(content)).await;
    dm(http, data, player, msg, false, notice, nonce).await
}

/// Tell `player` in `game`'s thread that their direct messages are closed to the bot, so it
/// stops sending them (said before the DMs are marked closed: a crash in between says it again,
/// with the same nonce, which Discord keeps once).
async fn closed_notice(
    http: &Http,
    data: &Data,
    game: GameId,
    player: PlayerId,
    nonce: serenity::Nonce,
) -> anyhow::Result<()> {
    let Some(link) = data.links.by_game(game).await? else {
        return Ok(());
    };
    let who = mention(data, player).await;
    let msg = CreateMessage::new()
        .content(format!(
            "{who} your direct messages are closed to me, so I stop sending them: your turns \
             and reminders come here only. Allow direct messages from this server's members, \
             then turn them on again with /hexmeros notify"
        ))
        .allowed_mentions(pinging(&[player]));
    if let Err(e) = data
        .wire
        .send_with(http, ChannelId::new(link.thread), msg, nonce)
        .await
    {
        tracing::warn!(game, player, error = %e, "the closed DMs were not told in the thread");
    }
    Ok(())
}

/// A direct message at the user's own request (not through the outbox: nothing is lost if it
/// fails, the user asks again), logged if it fails.
pub async fn dm_now(http: &Http, data: &Data, player: PlayerId, msg: CreateMessage) {
    if let Err(e) = dm(http, data, player, msg, false, None, fresh_nonce()).await {
        tracing::warn!(player, error = %format_args!("{e:#}"), "a DM failed");
    }
}

/// Remove a user's reaction from a message (someone else's, or one already acted on).
pub async fn remove_reaction(
    http: &Http,
    data: &Data,
    channel: ChannelId,
    message: MessageId,
    user: UserId,
    emoji: &ReactionType,
) {
    if let Err(e) = data
        .wire
        .retry("removing a reaction", || {
            http.delete_reaction(channel, message, user, emoji)
        })
        .await
    {
        tracing::warn!(user = user.get(), error = %e, "cannot remove a reaction");
    }
}
