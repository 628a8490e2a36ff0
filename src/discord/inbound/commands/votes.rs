//! `/hexmeros vote …`: house rules, expulsion, skipping or replacing a player, yes and no, and
//! with two players left the claim on time.

use std::time::Duration;

use poise::serenity_prelude as serenity;
use serde_json::Value;
use serenity::CreateAutocompleteResponse;

use hexmeros::games::Seat;
use hexmeros::games::house_menu::{self, HouseRule};
use hexmeros::host::{Command, HostError, Motion, PlayerId, Refused};

use super::autocomplete::{caller_game, option_text};
use super::{Context, Data, Error, act, game_for, seat_of_user};

/// Votes on house rules, expelling, skipping or replacing a player; yes/no; a claim on time.
#[poise::command(
    slash_command,
    subcommands("house_rule", "expel", "skip", "replace", "yes", "no", "claim"),
    subcommand_required
)]
pub(super) async fn vote(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Propose a house rule before the first Token pass (value: JSON or a word).
#[poise::command(slash_command, rename = "house-rule")]
pub(super) async fn house_rule(
    ctx: Context<'_>,
    #[description = "the rule's key (see /hexmeros house-rules), e.g. archer, scored"]
    #[autocomplete = "ac_rule_key"]
    key: String,
    #[description = "its value, e.g. fly_over, false, 12"]
    #[autocomplete = "ac_rule_value"]
    value: String,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    // Bare words are strings: `archer fly_over`.
    let value = serde_json::from_str(value.trim())
        .unwrap_or_else(|_| serde_json::Value::String(value.trim().to_string()));
    let cmd = Command::Propose(Motion::HouseRule {
        key: key.trim().to_string(),
        value,
    });
    act(ctx, game, cmd).await
}

/// How long a house rule autocomplete may look the game up before it answers with nothing.
const LOOKUP: Duration = Duration::from_millis(2000);

/// The house rules of the game the command is about (an option, else the thread's), each with
/// its value in force; none when there is no such game here.
async fn menu_of(ctx: poise::ApplicationContext<'_, Data, Error>) -> Vec<(HouseRule, Value)> {
    let lookup = async {
        let (game, _) = caller_game(ctx).await?;
        let state = ctx.data().host.state(game).await.ok()?;
        Some(state.house_menu())
    };
    tokio::time::timeout(LOOKUP, lookup)
        .await
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// The rules whose key or name has the typed text, as `Name (key) · now: X`.
fn key_choices(menu: &[(HouseRule, Value)], typed: &str) -> CreateAutocompleteResponse {
    let typed = typed.trim().to_ascii_lowercase();
    let choices = menu
        .iter()
        .filter(|(r, _)| r.key.contains(&typed) || r.name.to_ascii_lowercase().contains(&typed))
        .take(25)
        .map(|(r, now)| {
            let name = format!(
                "{} ({}) · now: {}",
                r.name,
                r.key,
                house_menu::value_text(now)
            );
            serenity::AutocompleteChoice::new(name, r.key)
        })
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// A value as `vote house-rule` reads it: a bare word for a word, else JSON.
fn value_arg(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The values the menu offers for `key`, those that start with the typed text.
fn value_choices(
    menu: &[(HouseRule, Value)],
    key: &str,
    typed: &str,
) -> CreateAutocompleteResponse {
    let typed = typed.trim().to_ascii_lowercase();
    let choices = menu
        .iter()
        .find(|(r, _)| r.key == key.trim())
        .map(|(r, now)| {
            r.allowed
                .offered()
                .iter()
                .map(|v| (value_arg(v), v == now))
                .filter(|(arg, _)| arg.starts_with(&typed))
                .take(25)
                .map(|(arg, is_now)| {
                    let name = if is_now {
                        format!("{arg} (now)")
                    } else {
                        arg.clone()
                    };
                    serenity::AutocompleteChoice::new(name, arg)
                })
                .collect()
        })
        .unwrap_or_default();
    CreateAutocompleteResponse::new().set_choices(choices)
}

async fn ac_rule_key(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    key_choices(&menu_of(ctx).await, partial)
}

async fn ac_rule_value(
    ctx: poise::ApplicationContext<'_, Data, Error>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let key = option_text(&ctx.interaction.data.options, "key").unwrap_or_default();
    value_choices(&menu_of(ctx).await, &key, partial)
}

/// Seat-naming motions need the game's state to turn a user into a seat.
pub(super) async fn seat_motion(
    ctx: Context<'_>,
    game: Option<i64>,
    user: &serenity::User,
    make: impl FnOnce(Seat) -> Motion,
) -> Result<(), Error> {
    let g = game_for(ctx, game).await?;
    let state = ctx.data().host.state(g).await?;
    let seat = seat_of_user(&state, user)?;
    act(ctx, Some(g), Command::Propose(make(seat))).await
}

/// Propose to expel a player (unanimous; −500 when scored).
#[poise::command(slash_command)]
pub(super) async fn expel(
    ctx: Context<'_>,
    #[description = "the player"] player: serenity::User,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    seat_motion(ctx, game, &player, |seat| Motion::Expel { seat }).await
}

/// Propose to pass a stalled player's Token without a move.
#[poise::command(slash_command)]
pub(super) async fn skip(
    ctx: Context<'_>,
    #[description = "the stalled player"] player: serenity::User,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    seat_motion(ctx, game, &player, |seat| Motion::Skip { seat }).await
}

/// Propose that someone takes over a stalled player's seat.
#[poise::command(slash_command)]
pub(super) async fn replace(
    ctx: Context<'_>,
    #[description = "the stalled player to replace"] player: serenity::User,
    #[description = "who takes over"] by: serenity::User,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.data()
        .host
        .ensure_player(by.id.get() as PlayerId, by.display_name())
        .await?;
    let newcomer = by.id.get() as PlayerId;
    seat_motion(ctx, game, &player, move |seat| Motion::Replace {
        seat,
        player: newcomer,
    })
    .await
}

/// Vote yes on an open motion.
#[poise::command(slash_command)]
pub(super) async fn yes(
    ctx: Context<'_>,
    #[description = "motion number (needed when several are open to you)"] motion: Option<u64>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ballot(ctx, game, motion, true).await
}

/// Vote no on an open motion.
#[poise::command(slash_command)]
pub(super) async fn no(
    ctx: Context<'_>,
    #[description = "motion number (needed when several are open to you)"] motion: Option<u64>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ballot(ctx, game, motion, false).await
}

/// A vote on motion number `motion` of the game (as players read it: 1 for the game's first),
/// or on the one open motion the voter may vote on.
async fn ballot(
    ctx: Context<'_>,
    game: Option<i64>,
    motion: Option<u64>,
    yes: bool,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let g = game_for(ctx, game).await?;
    let motion = match motion {
        Some(n) => Some(
            ctx.data()
                .host
                .state(g)
                .await?
                .motion_by_number(n)
                .ok_or(HostError::from(Refused::NoSuchMotion(n)))?,
        ),
        None => None,
    };
    act(ctx, Some(g), Command::Vote { motion, yes }).await
}

/// Two players left: claim the game once your opponent's turn timer has run out.
#[poise::command(slash_command)]
pub(super) async fn claim(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::ClaimTime).await
}
