//! `/hexmeros queue` (issue 22): queue a move for your next turn, with conditions; show it or
//! cancel it. Everything it says is private: the table hears of a queued move only when the host
//! plays it ("… (a queued move)") or, when it is dropped, in the turn's ping.

use poise::serenity_prelude::CreateAutocompleteResponse;

use hexmeros::host::{Actor, Command};

use super::autocomplete::{caller_game, choices, in_time};
use super::{Context, Error, game_for, player, private, reply, run};
use crate::discord::Data;

/// The caller's suggestions: the moves they would have now (`mine`), or the Token holder's.
async fn queue_choices(ctx: poise::ApplicationContext<'_, Data, Error>, mine: bool) -> Vec<String> {
    let Some((game, me)) = caller_game(ctx).await else {
        return Vec::new();
    };
    match ctx.data().host.queue_choices(game, me).await {
        Ok((own, theirs)) => {
            if mine {
                own
            } else {
                theirs
            }
        }
        Err(_) => Vec::new(),
    }
}

async fn ac_queue(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let p = partial.trim().to_ascii_lowercase();
    choices(in_time(queue_choices(ctx, true)).await, |m| m.contains(&p))
}

async fn ac_reply(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let p = partial.trim().to_ascii_lowercase();
    choices(in_time(queue_choices(ctx, false)).await, |m| m.contains(&p))
}

/// Queue a move for your next turn (only you see it); with no move, show your queued move
#[poise::command(slash_command)]
pub(super) async fn queue(
    ctx: Context<'_>,
    #[description = "the move to play when your turn comes, e.g. Q4-Q8 (none: show your queued move)"]
    #[rename = "move"]
    #[autocomplete = "ac_queue"]
    text: Option<String>,
    #[description = "play it only if nothing attacks your Sovereign (King)"] sovereign_safe: Option<
        bool,
    >,
    #[description = "two players: play it only if your opponent answers with this move"]
    #[autocomplete = "ac_reply"]
    if_reply: Option<String>,
    #[description = "cancel your queued move"] clear: Option<bool>,
    #[description = "game number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let clear = clear.unwrap_or(false);
    if clear && text.is_some() {
        return Err(reply::refused("give a move or clear:True, not both"));
    }
    if text.is_none() && (sovereign_safe.is_some() || if_reply.is_some()) {
        return Err(reply::refused(
            "sovereign_safe and if_reply are conditions of a move: give the move too",
        ));
    }
    let me = player(ctx).await?;
    let g = game_for(ctx, game).await?;
    let actor = Actor::player(me);
    let said = match text {
        Some(text) => {
            let cmd = Command::Queue {
                text,
                sovereign_safe: sovereign_safe.unwrap_or(false),
                if_reply,
            };
            format!("game #{g}: {}", run(ctx, g, actor, cmd).await?.join("\n"))
        }
        None if clear => {
            format!(
                "game #{g}: {}",
                run(ctx, g, actor, Command::ClearQueue).await?.join("\n")
            )
        }
        None => match ctx.data().host.queued_move(g, me).await? {
            Some(told) => format!("game #{g}: {told}"),
            None => format!(
                "game #{g}: you have no queued move (queue one with /hexmeros queue move:…)"
            ),
        },
    };
    private(ctx, said).await
}
