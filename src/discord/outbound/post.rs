//! Posting a delivery into its game's thread, once: each message of an outbox entry with a
//! nonce of its own (the same on every try, in any process), so a retried post lands once; a
//! thread archived and locked is reopened, one deleted is replaced by the channel the game was
//! started in.

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateAllowedMentions, CreateMessage, Http, MessageId};

use hexmeros::host::Delivery;
use hexmeros::host::GameId;

use crate::discord::Data;
use crate::discord::names::title;
use crate::discord::wire::http_status;

/// What became of an outbox entry.
#[derive(Debug)]
pub enum Outcome {
    /// Discord has it (the message made, if it made one).
    Sent(Option<MessageId>),
    /// Nothing to send, and nothing ever will be (a DM to someone who did not ask for them, a
    /// ballot on a motion already settled, a game without a thread): the reason.
    Dropped(String),
}

/// The nonce of an entry's `n`-th message: the same on every try of the entry, in this process
/// or the next.
pub(in crate::discord) fn nonce_of(entry: &Delivery, n: u8) -> serenity::Nonce {
    serenity::Nonce::String(format!("hx{}.{n}", entry.id))
}

/// Whether Discord says the channel is gone (deleted, or never seen).
fn unknown_channel(e: &serenity::Error) -> bool {
    matches!(http_status(e), Some((404, 10003)))
}

/// Whether Discord says the thread is archived (and locked, or it would have reopened).
fn archived(e: &serenity::Error) -> bool {
    matches!(http_status(e), Some((400, 50083)))
}

/// Send an entry's message in its game's thread. A thread that was archived and locked is
/// reopened; one that was deleted (or cannot be reopened) is replaced by the channel the game
/// was started in, where the players are told so, and the game goes on there.
pub(in crate::discord) async fn to_game(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    game: GameId,
    msg: CreateMessage,
) -> anyhow::Result<Outcome> {
    let Some(link) = data.links.by_game(game).await? else {
        return Ok(Outcome::Dropped("the game has no thread".into()));
    };
    let thread = ChannelId::new(link.thread);
    let err = match data
        .wire
        .send_with(http, thread, msg.clone(), nonce_of(entry, 0))
        .await
    {
        Ok(m) => return Ok(Outcome::Sent(Some(m.id))),
        Err(e) => e,
    };
    let moved = link.thread != link.parent;
    if moved && archived(&err) {
        let reopen = serde_json::json!({ "archived": false, "locked": false });
        if http
            .edit_thread(thread, &reopen, Some("a game goes on"))
            .await
            .is_ok()
        {
            let m = data
                .wire
                .send_with(http, thread, msg, nonce_of(entry, 0))
                .await?;
            return Ok(Outcome::Sent(Some(m.id)));
        }
    } else if !(moved && unknown_channel(&err)) {
        return Err(err.into());
    }
    // The thread is gone for good: the game continues in the channel it was started in.
    let parent = ChannelId::new(link.parent);
    let why = if archived(&err) {
        "was archived and locked"
    } else {
        "was deleted"
    };
    let state = data.host.state(game).await?;
    tracing::warn!(
        game,
        thread = link.thread,
        why,
        "the game moves to its parent channel"
    );
    data.wire
        .send_with(
            http,
            parent,
            CreateMessage::new()
                .content(format!(
                    "the thread of {} {why}: the game goes on here",
                    title(&state)
                ))
                .allowed_mentions(CreateAllowedMentions::new()),
            nonce_of(entry, 1),
        )
        .await?;
    data.links
        .insert(game, link.guild, link.parent, link.parent)
        .await?;
    data.host
        .set_channel(game, &link.parent.to_string())
        .await?;
    let m = data
        .wire
        .send_with(http, parent, msg, nonce_of(entry, 0))
        .await?;
    Ok(Outcome::Sent(Some(m.id)))
}
