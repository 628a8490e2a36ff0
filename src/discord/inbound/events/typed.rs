//! "Type move…" (issue 45): for players who know the notation, a button that opens a box (a
//! Discord modal) to type a move in. The box's submission carries the button's own id, so it is
//! checked as the button would be (the game's server, a turn gone by); the move is then staged
//! as the picker stages one (its preview with Pass, or committed at once for a player who set
//! "commit on pick"). A player who does not hold the Token is told so instead of getting a box.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    ActionRowComponent, ComponentInteraction, CreateActionRow, CreateInputText,
    CreateInteractionResponse, CreateInteractionResponseMessage, CreateModal, Http, InputTextStyle,
    ModalInteraction,
};

use hexmeros::host::{Actor, PlayerId};

use super::{Click, Reply};
use crate::discord::ids::ComponentId;
use crate::discord::inbound::scope::{self, Scope};
use crate::discord::outbound::deliver::Origin;
use crate::discord::{Data, Error};

/// The text box's own id inside the modal.
const FIELD: &str = "move";

/// The button was pressed: the box, or why not (privately).
pub(super) async fn open(
    http: &Arc<Http>,
    data: &Data,
    ci: &ComponentInteraction,
    id: ComponentId,
) -> Result<(), Error> {
    let me = ci.user.id.get() as PlayerId;
    let refusal = match check(data, id, Scope::of(ci.guild_id, ci.user.id), me).await {
        Ok(()) => None,
        Err(e) => Some(crate::discord::inbound::activity::error_text(&e)),
    };
    let Some(text) = refusal else {
        let input = CreateInputText::new(InputTextStyle::Short, "Your move", FIELD)
            .placeholder("e.g. Q8-Q10, as /hexmeros rules notation writes it")
            .min_length(2)
            .max_length(100);
        let modal = CreateInteractionResponse::Modal(
            CreateModal::new(id.encode(), "Type your move")
                .components(vec![CreateActionRow::InputText(input)]),
        );
        data.wire
            .retry_answer("opening the move box", || {
                ci.create_response(http, modal.clone())
            })
            .await?;
        crate::discord::inbound::activity::acknowledged();
        return Ok(());
    };
    // Refused as any control is: acknowledged, then a private message of its own.
    let ack =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    data.wire
        .retry_answer("acknowledging a click", || {
            ci.create_response(http, ack.clone())
        })
        .await?;
    crate::discord::inbound::activity::acknowledged();
    let reply = Reply::text(text);
    data.wire
        .retry_answer("answering a click", || {
            ci.create_followup(http, super::reply_clone(&reply).into_followup())
        })
        .await?;
    Ok(())
}

/// What the button and its box are checked for: a game of this server (or of the clicker's
/// DM), the current turn, and the Token in the clicker's hands.
async fn check(data: &Data, id: ComponentId, scope: Scope, me: PlayerId) -> Result<(), Error> {
    scope::admit(data, scope, id.game).await?;
    if let Some(link) = data.links.by_game(id.game).await?
        && let Some(turn) = link.turn_version
        && id.version < turn
    {
        return Err(crate::discord::reply::refused(
            "this button is from an earlier turn; use the latest board in the thread",
        ));
    }
    data.host.turn_of(id.game, me).await?;
    Ok(())
}

/// The box was sent: stage the typed move, and answer privately.
pub async fn submitted(http: &Arc<Http>, data: &Data, mi: &ModalInteraction) -> Result<(), Error> {
    let ack =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    data.wire
        .retry_answer("acknowledging a typed move", || {
            mi.create_response(http, ack.clone())
        })
        .await?;
    crate::discord::inbound::activity::acknowledged();
    let reply = match stage_typed(http, data, mi).await {
        Ok(r) => r,
        Err(e) => Reply::text(crate::discord::inbound::activity::error_text(&e)),
    };
    data.wire
        .retry_answer("answering a typed move", || {
            mi.create_followup(http, super::reply_clone(&reply).into_followup())
        })
        .await?;
    Ok(())
}

async fn stage_typed(http: &Arc<Http>, data: &Data, mi: &ModalInteraction) -> Result<Reply, Error> {
    let Ok(id) = ComponentId::decode(&mi.data.custom_id) else {
        return Ok(Reply::text("this box is not one of mine any more"));
    };
    let me = mi.user.id.get() as PlayerId;
    check(data, id, Scope::of(mi.guild_id, mi.user.id), me).await?;
    let text = mi
        .data
        .components
        .iter()
        .flat_map(|row| row.components.iter())
        .find_map(|c| match c {
            ActionRowComponent::InputText(t) if t.custom_id == FIELD => t.value.clone(),
            _ => None,
        })
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .ok_or_else(|| crate::discord::reply::refused("type a move, such as Q8-Q10"))?;
    data.host.ensure_player(me, mi.user.display_name()).await?;
    let c = Click {
        http,
        data,
        game: id.game,
        me,
        made: id.version,
        actor: Actor {
            player: me,
            admin: false,
        },
        origin: Origin {
            channel: Some(mi.channel_id),
            guild: mi.guild_id,
            actor: Some(me),
        },
        value: None,
    };
    let mut r = super::stage(&c, text).await?;
    // A new private message, never an edit of the turn message the button sits on.
    r.edit = false;
    Ok(r)
}
