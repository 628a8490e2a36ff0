//! Autocomplete of `/hexmeros move`: the caller's movable pieces and their moves, as the host
//! answers them for the Token holder (nothing for anyone else). An autocomplete's answer is its
//! acknowledgement, so it cannot be deferred: a lookup that takes too long answers no choices
//! rather than miss Discord's three seconds.

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::CreateAutocompleteResponse;

use hexmeros::host::{GameId, PlayerId};

use super::resolve_game;
use crate::discord::inbound::scope::Scope;
use crate::discord::{Data, Error};

/// The value of a (possibly nested) option of the interaction, as text.
pub(super) fn option_text(options: &[serenity::CommandDataOption], name: &str) -> Option<String> {
    for o in options {
        match &o.value {
            serenity::CommandDataOptionValue::SubCommand(inner)
            | serenity::CommandDataOptionValue::SubCommandGroup(inner) => {
                if let Some(v) = option_text(inner, name) {
                    return Some(v);
                }
            }
            v if o.name == name => {
                return match v {
                    serenity::CommandDataOptionValue::String(s) => Some(s.clone()),
                    serenity::CommandDataOptionValue::Integer(i) => Some(i.to_string()),
                    serenity::CommandDataOptionValue::Autocomplete { value, .. } => {
                        Some(value.clone())
                    }
                    _ => None,
                };
            }
            _ => {}
        }
    }
    None
}

/// The game the command is about and the caller, when there is one.
pub(super) async fn caller_game(
    ctx: poise::ApplicationContext<'_, Data, Error>,
) -> Option<(GameId, PlayerId)> {
    let i = ctx.interaction;
    let game = option_text(&i.data.options, "game").and_then(|g| g.parse().ok());
    let scope = Scope::of(i.guild_id, i.user.id);
    let channel = i.channel_id.get();
    let game = resolve_game(ctx.data(), scope, channel, i.user.id.get(), game)
        .await
        .ok()?;
    Some((game, i.user.id.get() as PlayerId))
}

/// The pieces the caller can move now (none when it is not their turn).
async fn my_pieces(ctx: poise::ApplicationContext<'_, Data, Error>) -> Vec<String> {
    let Some((game, me)) = caller_game(ctx).await else {
        return Vec::new();
    };
    ctx.data()
        .host
        .movable_pieces(game, me)
        .await
        .unwrap_or_default()
}

/// The caller's legal moves now, only those of the piece `from` names (any case) unless it
/// is empty; none when it is not their turn.
async fn my_moves(ctx: poise::ApplicationContext<'_, Data, Error>, from: &str) -> Vec<String> {
    let Some((game, me)) = caller_game(ctx).await else {
        return Vec::new();
    };
    let host = &ctx.data().host;
    if from.is_empty() {
        return host.legal_moves(game, me).await.unwrap_or_default();
    }
    let pieces = host.movable_pieces(game, me).await.unwrap_or_default();
    match pieces.iter().find(|p| p.eq_ignore_ascii_case(from.trim())) {
        Some(piece) => host.piece_moves(game, me, piece).await.unwrap_or_default(),
        None => Vec::new(),
    }
}

/// How long an autocomplete may look things up before it answers with what it has (nothing).
const LOOKUP: Duration = Duration::from_millis(2000);

/// The items `lookup` finds within [`LOOKUP`], else none.
pub(super) async fn in_time(lookup: impl Future<Output = Vec<String>>) -> Vec<String> {
    tokio::time::timeout(LOOKUP, lookup)
        .await
        .unwrap_or_else(|_| {
            tracing::warn!("an autocomplete lookup took too long; no choices");
            Vec::new()
        })
}

pub(super) async fn ac_from(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let p = partial.trim().to_ascii_lowercase();
    choices(in_time(my_pieces(ctx)).await, |o| o.starts_with(&p))
}

pub(super) async fn ac_to(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let from = option_text(&ctx.interaction.data.options, "from").unwrap_or_default();
    let p = partial.trim().to_ascii_lowercase();
    choices(in_time(my_moves(ctx, &from)).await, |m| m.contains(&p))
}

/// The first 25 of `items` whose lower-case text `keep` accepts, as autocomplete choices.
pub(super) fn choices(
    items: Vec<String>,
    keep: impl Fn(&str) -> bool,
) -> CreateAutocompleteResponse {
    let choices = items
        .into_iter()
        .filter(|i| keep(&i.to_ascii_lowercase()))
        .take(25)
        .map(|i| serenity::AutocompleteChoice::new(i.as_str(), i.as_str()))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}
