//! Direct messages (a player's closed DMs remembered, never retried), and a reaction removed.

use super::*;

/// Send a direct message. With `opt_in`, only to players who asked for DMs. A DM found closed
/// (403, code 50007) is remembered and never tried again: repeated 403s get a bot banned.
pub async fn dm(
    http: &Http,
    data: &Data,
    player: PlayerId,
    msg: CreateMessage,
    opt_in: bool,
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
            data.links
                .mark_dm_closed(user.get(), data.host.now())
                .await?;
            Ok(Outcome::Dropped("direct messages are closed".into()))
        }
        Err(e) => Err(e.into()),
    }
}

/// A direct message at the user's own request (not through the outbox: nothing is lost if it
/// fails, the user asks again), logged if it fails.
pub async fn dm_now(http: &Http, data: &Data, player: PlayerId, msg: CreateMessage) {
    if let Err(e) = dm(http, data, player, msg, false, fresh_nonce()).await {
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
