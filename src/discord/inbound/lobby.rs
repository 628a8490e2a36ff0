//! Lobbies on Discord (issue 17, consent; the rules are the host's, `host/lobby.rs`): the lobby
//! message with its Join / Decline buttons, posted once in the channel `/hexmeros start` was used
//! in and pinging each invited person; the clicks on those buttons; the notices when a lobby is
//! cancelled or expires. A lobby belongs to the server it was opened in: a click from another
//! server or a DM gets the unknown lobby's answer. The table `discord_lobbies`
//! (`migrations/*/0004_lobbies.sql`) keeps where each lobby lives, so buttons work after a restart.

use std::sync::Arc;

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{
    ChannelId, ComponentInteraction, CreateActionRow, CreateAllowedMentions, CreateButton,
    CreateMessage, EditInteractionResponse, EditMessage, GuildId, Http, MessageId,
};

use hexmeros::games::GameKind;
use hexmeros::host::{
    GameId, HostError, Joined, Lobby, LobbyId, LobbyStatus, PlayerId, Refused, Status,
};

use crate::discord::ids::{Action, ComponentId};
use crate::discord::inbound::scope::{self, Scope};
use crate::discord::links::LobbyLink;
use crate::discord::names;
use crate::discord::outbound::deliver::{self, Origin};
use crate::discord::{Data, Error};

fn buttons(lobby: LobbyId) -> Vec<CreateActionRow> {
    let id = |a| ComponentId::new(lobby, 0, a).encode();
    vec![CreateActionRow::Buttons(vec![
        CreateButton::new(id(Action::LobbyJoin))
            .label("Join")
            .style(serenity::ButtonStyle::Success),
        CreateButton::new(id(Action::LobbyDecline))
            .label("Decline")
            .style(serenity::ButtonStyle::Danger),
    ])]
}

/// The lobby message's text: the host's words with names, and the game's thread once started.
async fn text(data: &Data, lobby: &Lobby) -> String {
    let mut text = names::with_names(data, &lobby.message()).await;
    if let LobbyStatus::Started(game) = lobby.status {
        if let Ok(Some(l)) = data.links.by_game(game).await {
            text.push_str(&format!(" in <#{}>", l.thread));
        } else if data
            .host
            .state(game)
            .await
            .is_ok_and(|s| s.status() == Status::Aborted)
        {
            text.push_str(", but it could not start: Discord refused its thread here");
        }
    }
    text
}

/// Post the lobby message where `origin` says, pinging once each invited person who has not
/// joined, and remember where it is: as a followup of the command that opened the lobby
/// (`followup`), which Discord does not count toward the bot's global limit, or, if that fails,
/// in the channel.
pub async fn post<F, Fut>(
    http: &Http,
    data: &Data,
    lobby: &Lobby,
    origin: Origin,
    followup: F,
) -> anyhow::Result<()>
where
    F: FnOnce(CreateReply) -> Fut,
    Fut: std::future::Future<Output = Result<serenity::Message, serenity::Error>>,
{
    let channel = origin
        .channel
        .ok_or_else(|| anyhow::anyhow!("a lobby needs a channel"))?;
    let mut link = LobbyLink {
        guild: origin.guild.map(GuildId::get),
        channel: channel.get(),
        message: None,
    };
    // Stored first: a click may come as soon as the message is seen.
    data.links.set_lobby(lobby.id, link).await?;
    let content = text(data, lobby).await;
    let pings = names::pinging(&lobby.waiting());
    let reply = CreateReply::default()
        .content(content.clone())
        .components(buttons(lobby.id))
        .allowed_mentions(pings.clone());
    let sent = match followup(reply).await {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(lobby = lobby.id, error = %e, "the lobby's followup failed; posting it");
            let msg = CreateMessage::new()
                .content(content)
                .components(buttons(lobby.id))
                .allowed_mentions(pings);
            data.wire.send(http, channel, msg).await?
        }
    };
    link.message = Some(sent.id.get());
    data.links.set_lobby(lobby.id, link).await?;
    Ok(())
}

/// Bring the lobby message up to date (its buttons go once the lobby ended), and say in the
/// channel when it ended without a game. A click on the lobby message's own button (`via`,
/// acknowledged as an update of it) edits it through the interaction, which does not count
/// toward the bot's global limit; the timer's edits go to the channel. Failures are logged: the
/// host's decision stands.
async fn show(
    http: &Http,
    data: &Data,
    lobby: &Lobby,
    link: LobbyLink,
    via: Option<&ComponentInteraction>,
) {
    let channel = ChannelId::new(link.channel);
    if let Some(m) = link.message {
        let components = match lobby.status {
            LobbyStatus::Open => buttons(lobby.id),
            _ => Vec::new(),
        };
        let content = text(data, lobby).await;
        let quiet = CreateAllowedMentions::new();
        let done = match via.filter(|ci| ci.message.id.get() == m) {
            Some(ci) => {
                let edit = EditInteractionResponse::new()
                    .content(content)
                    .components(components)
                    .allowed_mentions(quiet);
                data.wire
                    .retry_answer("updating a lobby message", || {
                        ci.edit_response(http, edit.clone())
                    })
                    .await
                    .map(drop)
            }
            None => {
                let edit = EditMessage::new()
                    .content(content)
                    .components(components)
                    .allowed_mentions(quiet);
                data.wire
                    .retry("updating a lobby message", || {
                        channel.edit_message(http, MessageId::new(m), edit.clone())
                    })
                    .await
                    .map(drop)
            }
        };
        if let Err(e) = done {
            tracing::warn!(lobby = lobby.id, error = %e, "the lobby message was not updated");
        }
    }
    if let Some(notice) = lobby.notice() {
        let msg = CreateMessage::new()
            .content(notice)
            .allowed_mentions(CreateAllowedMentions::new());
        if let Err(e) = data.wire.send(http, channel, msg).await {
            tracing::warn!(lobby = lobby.id, error = %e, "a lobby notice was not posted");
        }
    }
}

/// A Join (`join`) or Decline on lobby `id`: the clicker's private answer.
pub async fn click(
    http: &Arc<Http>,
    data: &Data,
    ci: &ComponentInteraction,
    id: LobbyId,
    join: bool,
) -> Result<String, Error> {
    // Another server's lobby, or any in a DM, reads as one that does not exist.
    let scope = Scope::of(ci.guild_id, ci.user.id);
    let Some(link) = data
        .links
        .lobby(id)
        .await?
        .filter(|l| scope::admits_link(scope, l.guild))
    else {
        return Err(HostError::from(Refused::UnknownLobby(id)).into());
    };
    let me = ci.user.id.get() as PlayerId;
    data.host.ensure_player(me, ci.user.display_name()).await?;
    if !join {
        let (lobby, how) = data.host.decline_lobby(id, me).await?;
        show(http, data, &lobby, link, Some(ci)).await;
        return Ok(lobby.declined_text(how));
    }
    match data.host.join_lobby(id, me).await? {
        Joined::Waiting(lobby) => {
            show(http, data, &lobby, link, Some(ci)).await;
            Ok(names::with_names(data, &lobby.joined_text()).await)
        }
        Joined::Started { lobby, fx } => {
            let origin = Origin {
                channel: Some(ChannelId::new(link.channel)),
                guild: link.guild.map(GuildId::new),
                actor: Some(me),
            };
            let lines = deliver::deliver(http, data, fx, origin).await;
            show(http, data, &lobby, link, Some(ci)).await;
            let LobbyStatus::Started(game) = lobby.status else {
                return Err(anyhow::anyhow!("lobby #{id} joined full but not started"));
            };
            let started = started(data, lobby.kind, game, lines).await?;
            Ok(format!("you joined lobby #{id}: {started}"))
        }
    }
}

/// What a started game's starter (or last joiner) reads: where the game is, and the host's
/// private lines.
pub async fn started(
    data: &Data,
    kind: GameKind,
    game: GameId,
    lines: Vec<String>,
) -> Result<String, Error> {
    if data.host.state(game).await?.status() == Status::Aborted {
        return Ok(format!(
            "{} #{game} could not start: Discord would not let me open its thread here. Nothing \
             was played and no game is left open; see the message in the channel (or your DMs).",
            kind.name()
        ));
    }
    let place = match data.links.by_game(game).await? {
        Some(l) => format!(" in <#{}>", l.thread),
        None => String::new(),
    };
    let mut text = format!("{} #{game} started{place}", kind.name());
    for l in lines {
        text.push('\n');
        text.push_str(&l);
    }
    Ok(text)
}

/// Expire the lobbies whose time ran out and say so where they were opened (the timer task).
pub async fn expire(http: &Http, data: &Data) {
    let expired = match data.host.expire_lobbies().await {
        Ok(e) => e,
        Err(e) => {
            tracing::error!(error = %e, "lobby timers failed");
            return;
        }
    };
    for lobby in expired {
        match data.links.lobby(lobby.id).await {
            Ok(Some(l)) => show(http, data, &lobby, l, None).await,
            Ok(None) => {}
            Err(e) => tracing::warn!(lobby = lobby.id, error = %e, "an expired lobby has no link"),
        }
    }
}
