//! The end of a game on Discord (issue 19): the results message (places, §7 points, rating
//! changes, the final board) pinging every person who played, and the closing of the thread:
//! archived, and locked too when the server wants it (`HEXMEROS_LOCK_FINISHED=on`). Both are
//! outbox entries rebuilt from the store when delivered, so a late delivery shows the same.

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateAttachment, CreateEmbed, CreateMessage, EditThread, Http};

use hexmeros::host::Delivery;
use hexmeros::host::{GameId, Results};

use crate::discord::Data;
use crate::discord::names::{mention, pinging, title};
use crate::discord::outbound::picture::{self, Picture};
use crate::discord::outbound::post::{Outcome, to_game};
use crate::discord::wire::http_status;

/// What the last message of a closed game says.
const CLOSED: &str = "this game is closed; the thread is archived as its record";

/// A seat's colour as a table shows it ("Silver").
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The results table: one line per seat, best place first.
async fn table(data: &Data, r: &Results) -> String {
    let mut lines = Vec::with_capacity(r.places.len());
    for p in &r.places {
        let mut who = mention(data, p.player).await;
        for &m in &p.team {
            who.push_str(" & ");
            who.push_str(&mention(data, m).await);
        }
        lines.push(format!(
            "**{}.** {} · {who} · {}",
            p.place,
            capitalised(p.colour),
            p.summary()
        ));
    }
    lines.join("\n")
}

/// Post the results of a finished game, with its final board, pinging exactly the people who
/// played in it.
pub async fn results(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    game: GameId,
) -> anyhow::Result<Outcome> {
    let r = data.host.results(game).await?;
    let state = data.host.state(game).await?;
    crate::discord::outbound::strip::retire_now(http, data, game).await?;
    let people = r.people();
    let mut pings = Vec::with_capacity(people.len());
    for &p in &people {
        pings.push(mention(data, p).await);
    }
    let content = format!(
        "**{}** is over: {}. {}",
        title(&state),
        r.outcome,
        pings.join(" ")
    );
    let embed = CreateEmbed::new()
        .title(format!("Results of {}", title(&state)))
        .description(table(data, &r).await);
    let msg = CreateMessage::new()
        .content(content.trim_end())
        .allowed_mentions(pinging(&people));
    let msg = match picture::board(data, &state, Some(state.public_side())).await {
        // The results show the whole board, in the embed: no close-up.
        Picture::Png { full: png, alt, .. } => msg
            .embed(embed.image("attachment://board.png"))
            .add_file(CreateAttachment::bytes(png, "board.png").description(alt)),
        Picture::Text(t) => msg
            .embed(embed)
            .add_file(CreateAttachment::bytes(t.into_bytes(), "board.txt")),
    };
    to_game(http, data, entry, game, msg).await
}

/// Close a game's thread: its last message, then the thread archived (and locked when the
/// server wants). A game that lives in its channel (no thread) only gets the message. Without
/// the permission to lock (Manage Threads) the thread is archived only; without the permission
/// to archive it stays open. Either is logged: the game is over either way.
pub async fn close(
    http: &Http,
    data: &Data,
    entry: &Delivery,
    game: GameId,
) -> anyhow::Result<Outcome> {
    let msg = CreateMessage::new().content(CLOSED);
    let outcome = to_game(http, data, entry, game, msg).await?;
    let Some(link) = data.links.by_game(game).await? else {
        return Ok(outcome);
    };
    if link.thread == link.parent {
        return Ok(outcome);
    }
    let thread = ChannelId::new(link.thread);
    let lock = data.lock_finished;
    match archive(http, data, thread, lock).await {
        Ok(()) => Ok(outcome),
        // Locking needs Manage Threads: without it, archived only.
        Err(e) if lock && forbidden(&e) => {
            tracing::warn!(game, error = %e, "cannot lock the finished game's thread");
            match archive(http, data, thread, false).await {
                Ok(()) => Ok(outcome),
                Err(e) if forbidden(&e) => {
                    tracing::warn!(game, error = %e, "cannot archive the finished game's thread");
                    Ok(outcome)
                }
                Err(e) => Err(e.into()),
            }
        }
        Err(e) if forbidden(&e) => {
            tracing::warn!(game, error = %e, "cannot archive the finished game's thread");
            Ok(outcome)
        }
        Err(e) => Err(e.into()),
    }
}

fn forbidden(e: &serenity::Error) -> bool {
    matches!(http_status(e), Some((403, _)))
}

/// Archive a thread, and lock it with `lock` (never unlock: a moderator's lock stays).
async fn archive(
    http: &Http,
    data: &Data,
    thread: ChannelId,
    lock: bool,
) -> Result<(), serenity::Error> {
    let mut edit = EditThread::new().archived(true);
    if lock {
        edit = edit.locked(true);
    }
    data.wire
        .retry("archiving a thread", || {
            thread.edit_thread(http, edit.clone())
        })
        .await
        .map(|_| ())
}
