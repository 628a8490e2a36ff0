//! `/hexmeros vote …`: house rules, expulsion, skipping or replacing a player, yes and no, and
//! with two players left the claim on time.

use poise::serenity_prelude as serenity;

use hexmeros::games::Seat;
use hexmeros::host::{Command, Motion, PlayerId};

use super::{Context, Error, act, game_for, seat_of_user};

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
    #[description = "the rule's key (see rules/heximeros.md), e.g. archer, scored"] key: String,
    #[description = "its value, e.g. fly_over, false, 12"] value: String,
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
        .ensure_player(by.id.get() as PlayerId, &by.name)
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
    act(ctx, game, Command::Vote { motion, yes: true }).await
}

/// Vote no on an open motion.
#[poise::command(slash_command)]
pub(super) async fn no(
    ctx: Context<'_>,
    #[description = "motion number (needed when several are open to you)"] motion: Option<u64>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Vote { motion, yes: false }).await
}

/// Two players left: claim the game once your opponent's turn timer has run out.
#[poise::command(slash_command)]
pub(super) async fn claim(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::ClaimTime).await
}
