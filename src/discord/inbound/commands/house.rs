//! `/hexmeros house-rules [game]`: the house rules menu, privately (`events::house` answers its
//! selects in place). Only a seated player of a game of this server (or, in a DM, one they play
//! in) still in its House Rules phase gets one; anyone else one sentence, and nothing changes.

use super::{Context, Error, game_for, player};
use crate::discord::inbound::events::house::rules_menu;

/// House rules of this game: pick a rule, then a value, to propose it (before the first pass).
#[poise::command(slash_command, rename = "house-rules")]
pub(super) async fn house_rules(
    ctx: Context<'_>,
    #[description = "game number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let game = game_for(ctx, game).await?;
    let reply = rules_menu(ctx.data(), game, me).await?;
    ctx.send(reply.into_poise()).await?;
    Ok(())
}
