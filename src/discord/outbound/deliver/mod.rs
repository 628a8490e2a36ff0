//! Carrying out the host's effects on Discord: this file takes a batch of effects (or one outbox
//! entry) and hands each to what delivers it: `thread` (a game's thread), `turn` (the turn
//! message), `votes` (challenge questions, ballots, stall and claim notices), `dms` (direct
//! messages), `panel` and `finish`; words and pings are here. Requests go out
//! through the wire (retries, timeouts, nonces), so that nothing the host decided is lost when
//! Discord hiccups; players are named through `names`.

use std::collections::BTreeSet;
use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateMessage, GuildId, Http, MessageId, ReactionType, UserId,
};

use hexmeros::background::{self, Work};
use hexmeros::games::Seat;
use hexmeros::host::Delivery;
use hexmeros::host::words::Sentence;
use hexmeros::host::{Effect, GameId, GameState, Pinged, PlayerId, Status, is_reply};

use crate::discord::Data;
use crate::discord::ids::{Action, ComponentId, Proposal};
use crate::discord::names::{discord_user, mention, pinging, quiet_for, title, with_names};
use crate::discord::outbound::picture::{self, Picture};
use crate::discord::outbound::post::{Outcome, nonce_of, to_game};
use crate::discord::outbound::{finish, panel};
use crate::discord::wire::{fresh_nonce, http_status};

mod digest;
mod dms;
mod thread;
mod turn;
mod votes;

pub use dms::{dm, dm_now, remove_reaction};
use thread::open_thread;
pub use thread::{lost_place, origin_text, tell_blocked};
use turn::post_turn;
pub use turn::with_picture;
use votes::{ask_challenge, ballot, stalled};

/// Where a batch of effects comes from: the channel a command was used in (new threads open
/// there) and the player whose private replies are returned rather than sent.
#[derive(Clone, Copy, Debug, Default)]
pub struct Origin {
    pub channel: Option<ChannelId>,
    pub guild: Option<GuildId>,
    pub actor: Option<PlayerId>,
}

/// Carry out a batch of effects: the host has written them to the outbox with their event; the
/// lanes they belong to are delivered now, so the player's answer follows the board (up to the
/// status panel's update, which the background task makes: nobody's answer waits for it). Returns the
/// private texts meant for `origin.actor`, which the caller sends as its ephemeral reply.
pub async fn deliver(
    http: &Arc<Http>,
    data: &Data,
    fx: Vec<Effect>,
    origin: Origin,
) -> Vec<String> {
    let mut private = Vec::new();
    let mut games = BTreeSet::new();
    let mut lanes = BTreeSet::new();
    for e in fx {
        games.extend(e.game());
        if is_reply(&e, origin.actor) {
            if let Effect::Private { text, .. } = &e {
                private.push(with_names(data, text).await);
            }
            continue;
        }
        lanes.insert(e.lane());
    }
    let mut left = false;
    for lane in &lanes {
        left |= !data.outbox.drain(http, data, lane).await;
    }
    // Whatever is left (a lane waiting after a failure) is the background task's.
    if left {
        data.outbox.wake();
    }
    // Bots act after a person: in their own task, so the person's reply does not wait for them.
    if origin.actor.is_some() {
        for g in games {
            bots(http, data, g);
        }
    }
    private
}
/// Let the game's bots play until a person must act, one action the table is told of at a time:
/// each is delivered before the next is made (the host makes none while the game's lane holds
/// anything undelivered), so bots play no faster than the thread shows their moves. If the lane
/// cannot be delivered now, the deliverer calls this again once it has delivered it. Each
/// action takes a place in the bot queue; when the queue is full the game is left to the timers:
/// a game waiting on a bot is due at once, so the next tick drives its bots (no bot turn is
/// lost, and the queue does not grow).
pub fn bots(http: &Arc<Http>, data: &Data, game: GameId) {
    let http = http.clone();
    let data = data.clone();
    tokio::spawn(async move {
        loop {
            let Some(slot) = data.limits.bot_slot() else {
                tracing::info!(
                    game,
                    "the bot queue is full; the timers will drive this game's bots"
                );
                return;
            };
            let fx = match data.host.bot_turns(game).await {
                Ok(fx) => fx,
                Err(e) => {
                    tracing::error!(game, error = %e, "bots failed");
                    return;
                }
            };
            drop(slot);
            if fx.is_empty() {
                return;
            }
            Box::pin(deliver(&http, &data, fx, Origin::default())).await;
        }
    });
}

/// Deliver one outbox entry. Boards, ballots and stall notices are drawn from the game as it was
/// at the entry's version, so an entry delivered late shows what it was made for.
pub async fn entry(
    http: &Arc<Http>,
    data: &Data,
    entry: &Delivery,
    effect: Effect,
) -> anyhow::Result<Outcome> {
    let version = entry.version.map(|v| v as u64);
    match effect {
        Effect::OpenThread { game, title } => open_thread(http, data, entry, game, &title).await,
        Effect::CloseThread { game } => finish::close(http, data, entry, game).await,
        Effect::Board {
            game,
            caption,
            ping,
            ..
        } => {
            let state = match version {
                Some(v) => data.host.state_at(game, v).await?,
                None => data.host.state(game).await?,
            };
            post_turn(http, data, entry, &state, &caption, ping).await
        }
        Effect::Panel { game } => panel::update(http, data, entry, game).await,
        Effect::Say { game, text } => {
            let msg = say(data, &text).await;
            to_game(http, data, entry, game, msg).await
        }
        Effect::Ping { game, player, text } => {
            let msg = ping(data, player, &text).await;
            to_game(http, data, entry, game, msg).await
        }
        Effect::AskChallenge {
            game,
            player,
            version,
            text,
        } => {
            let msg = ask_challenge(data, game, player, version, &text).await;
            to_game(http, data, entry, game, msg).await
        }
        // A private text for someone other than the actor goes by DM, as a DM does.
        e @ (Effect::Private { .. }
        | Effect::Dm { .. }
        | Effect::YourTurn { .. }
        | Effect::Nudge { .. }) => dms::deliver(http, data, entry, e).await,
        Effect::Digest { player, digest } => {
            let (nonce, notice) = (nonce_of(entry, 0), nonce_of(entry, 1));
            digest::digest(http, data, player, &digest, notice, nonce).await
        }
        Effect::Ballot {
            game,
            motion,
            text,
            voters,
        } => {
            let state = data.host.state(game).await?;
            match ballot(data, &state, motion, &text, &voters).await {
                Some(msg) => to_game(http, data, entry, game, msg).await,
                None => Ok(Outcome::Dropped(format!("motion #{motion} is settled"))),
            }
        }
        Effect::Stalled { game, seat, turn } => {
            let state = data.host.state(game).await?;
            match stalled(data, &state, seat, turn).await {
                Some(msg) => to_game(http, data, entry, game, msg).await,
                None => Ok(Outcome::Dropped("no longer stalled".into())),
            }
        }
        Effect::Replay { game } => match replay(data, game).await? {
            Some(msg) => to_game(http, data, entry, game, msg).await,
            None => Ok(Outcome::Dropped("no replay picture".into())),
        },
        Effect::Results { game } => finish::results(http, data, entry, game).await,
    }
}

/// Words for the game's thread, its players named (in passing: not pinged).
async fn say(data: &Data, text: &Sentence) -> CreateMessage {
    let text = with_names(data, text).await;
    CreateMessage::new()
        .content(text)
        .allowed_mentions(CreateAllowedMentions::new())
}

/// A ping of `player` in the game's thread (silent in their quiet hours).
async fn ping(data: &Data, player: PlayerId, text: &Sentence) -> CreateMessage {
    let who = mention(data, player).await;
    let text = with_names(data, text).await;
    let msg = CreateMessage::new()
        .content(format!("{who} {text}"))
        .allowed_mentions(pinging(&[player]));
    quiet_for(data, player, msg).await
}

/// The finished game's replay GIF, if it can be drawn now.
async fn replay(data: &Data, game: GameId) -> anyhow::Result<Option<CreateMessage>> {
    let state = data.host.state(game).await?;
    let export = data.host.export(game).await?;
    Ok(picture::replay(&data.limits, export).await.map(|gif| {
        CreateMessage::new()
            .content(format!("{}: the replay", title(&state)))
            .add_file(
                CreateAttachment::bytes(gif, format!("hexmeros-{game}.gif")).description(format!(
                    "The replay of {}: the board after each move, one move a frame, from the \
                     first to the last.",
                    title(&state)
                )),
            )
    }))
}
