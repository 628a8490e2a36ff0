//! The turn and the game's end: move, pass, take back, check, challenge, prefer, resign,
//! concede, draw.

use poise::serenity_prelude as serenity;

use hexmeros::games::notation;
use hexmeros::host::{Actor, ChallengePref, Command, HostError, Motion, PlayerId, Refused};
use poise::CreateReply;

use super::autocomplete::{ac_from, ac_to};
use super::{Context, Error, act, game_for, player, run, seat_named};
use crate::discord::ids::{Action, ComponentId};
use crate::discord::inbound::events::{picture_reply, staged_reply};
use crate::discord::names::title;
use crate::discord::outbound::picture;

/// Stage a move (a private preview); pass the Token with /hexmeros pass or pass:True.
#[poise::command(slash_command, rename = "move")]
pub(super) async fn move_(
    ctx: Context<'_>,
    #[description = "the piece's cell (or the whole move, e.g. Q4-Q8)"]
    #[autocomplete = "ac_from"]
    from: String,
    #[description = "where to (a cell or a listed move)"]
    #[autocomplete = "ac_to"]
    to: Option<String>,
    #[description = "declare Check on this colour with the move"] check: Option<String>,
    #[description = "pass the Token at once"] pass: Option<bool>,
    #[description = "game number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let game = game_for(ctx, game).await?;
    let cmd = Command::Move {
        text: notation::compose(&from, to.as_deref(), check.as_deref()),
        commit: pass.unwrap_or(false),
    };
    let lines = run(ctx, game, Actor::player(me), cmd).await?;
    let reply = staged_reply(ctx.data(), game, me, lines).await?;
    ctx.send(reply.into_poise()).await?;
    Ok(())
}

/// Try a move privately: the board with it, from your side. Nothing is staged or told
#[poise::command(slash_command, rename = "try")]
pub(super) async fn try_(
    ctx: Context<'_>,
    #[description = "a move of the Token holder's, e.g. Q4-Q8 (yours when it is your turn)"]
    #[rename = "move"]
    text: String,
    #[description = "game number (default: this thread's game)"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let game = game_for(ctx, game).await?;
    let data = ctx.data();
    let (canonical, state) = data.host.try_move(game, me, &text).await?;
    let mover = state
        .holder()
        .map(|s| state.seat_title(s))
        .unwrap_or_default();
    let caption = format!(
        "{}: if {mover} played **{canonical}** — only tried: nothing is staged, nobody else sees this",
        title(&state)
    );
    let pic = picture::preview(data, me, &state, state.seat_of(me), &canonical).await;
    ctx.send(picture_reply(caption, pic).into_poise()).await?;
    Ok(())
}

/// When `/hexmeros pass` passes the Token.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum PassWhen {
    #[name = "now"]
    Now,
    #[name = "window-closes"]
    WindowCloses,
}

/// Pass the Token: commit your staged move (now, or once its challenge window closes)
#[poise::command(slash_command)]
pub(super) async fn pass(
    ctx: Context<'_>,
    #[description = "now (default), or window-closes: once the challenge window closes"]
    when: Option<PassWhen>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    let cmd = match when.unwrap_or(PassWhen::Now) {
        PassWhen::Now => Command::Pass,
        PassWhen::WindowCloses => Command::PassWhenClosed,
    };
    act(ctx, game, cmd).await
}

/// Take your staged move back.
#[poise::command(slash_command)]
pub(super) async fn takeback(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::TakeBack).await
}

/// Declare Check on a colour with your staged move.
#[poise::command(slash_command)]
pub(super) async fn check(
    ctx: Context<'_>,
    #[description = "the colour whose Sovereign your move attacks"] colour: String,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let g = game_for(ctx, game).await?;
    let state = ctx.data().host.state(g).await?;
    let seat = seat_named(&state, &colour)?;
    let lines = run(ctx, g, Actor::player(me), Command::Check { seat }).await?;
    let reply = staged_reply(ctx.data(), g, me, lines).await?;
    ctx.send(reply.into_poise()).await?;
    Ok(())
}

/// Answer a challenge window: declare Check upon the mover, or let the move stand.
#[poise::command(slash_command)]
pub(super) async fn challenge(
    ctx: Context<'_>,
    #[description = "true: declare Check upon the mover"] declare: bool,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Challenge { declare }).await
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum PrefChoice {
    #[name = "ask me each time"]
    Ask,
    #[name = "always declare"]
    Always,
    #[name = "never declare"]
    Never,
}

/// Your standing answer to challenge windows.
#[poise::command(slash_command)]
pub(super) async fn prefer(
    ctx: Context<'_>,
    #[description = "what to answer"] answer: PrefChoice,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    let pref = match answer {
        PrefChoice::Ask => ChallengePref::Ask,
        PrefChoice::Always => ChallengePref::AlwaysDeclare,
        PrefChoice::Never => ChallengePref::NeverDeclare,
    };
    act(ctx, game, Command::Prefer(pref)).await
}

/// Resign (asked to confirm); naming a replacement opens a vote on them.
#[poise::command(slash_command)]
pub(super) async fn resign(
    ctx: Context<'_>,
    #[description = "who takes over your seat (the others vote)"] replacement: Option<
        serenity::User,
    >,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let g = game_for(ctx, game).await?;
    let state = ctx.data().host.state(g).await?;
    // Only a seated player is asked; the click is checked again by the host.
    let seat = state
        .seat_of(me)
        .ok_or(HostError::from(Refused::NotSeated))?;
    if let Some(u) = &replacement {
        ctx.data()
            .host
            .ensure_player(u.id.get() as PlayerId, u.display_name())
            .await?;
    }
    let named = replacement.as_ref().map(|u| u.id.get());
    let question = match named {
        Some(u) => format!(
            "Resign {} in {}? The others vote on <@{u}> taking your seat. This cannot be undone.",
            state.seat_title(seat),
            title(&state)
        ),
        None => format!(
            "Resign {} in {}? This cannot be undone.",
            state.seat_title(seat),
            title(&state)
        ),
    };
    let id = ComponentId::new(g, state.version(), Action::Resign { replacement: named });
    let confirm = serenity::CreateButton::new(id.encode())
        .label("Yes, resign")
        .style(serenity::ButtonStyle::Danger);
    let reply = CreateReply::default()
        .content(format!(
            "{question}\n(The button holds until something happens in the game.)"
        ))
        .components(vec![serenity::CreateActionRow::Buttons(vec![confirm])])
        .allowed_mentions(serenity::CreateAllowedMentions::new())
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

/// Concede (only between the last two).
#[poise::command(slash_command)]
pub(super) async fn concede(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Concede).await
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum DrawChoice {
    #[name = "offer"]
    Offer,
    #[name = "accept"]
    Accept,
}

/// Offer or accept a draw (with three or more players: a vote to abandon as a draw).
#[poise::command(slash_command)]
pub(super) async fn draw(
    ctx: Context<'_>,
    #[description = "offer or accept"] action: DrawChoice,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    let cmd = match action {
        DrawChoice::Offer => Command::Propose(Motion::Draw),
        DrawChoice::Accept => Command::AcceptDraw,
    };
    act(ctx, game, cmd).await
}
