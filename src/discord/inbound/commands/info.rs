//! Looking and settings: the board, the record, my games, reminders, the leaderboard, and the
//! server admin's abort, pause and resume.

use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::CreateAttachment;

use hexmeros::host::{AdminAction, Command, NOTES_KEPT, PlayerId, SettingsChange};

use super::{Context, Error, GameChoice, act, game_for, player, private, seat_named};
use crate::discord::inbound::events::{Reply, board_reply, notes_text};
use crate::discord::reply;

/// Show the board privately, from any colour's side.
#[poise::command(slash_command)]
pub(super) async fn board(
    ctx: Context<'_>,
    #[description = "the colour whose side to look from (default: yours)"]
    #[rename = "as"]
    as_: Option<String>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = ctx.author().id.get() as PlayerId;
    ctx.data().limits.picture(me)?;
    let g = game_for(ctx, game).await?;
    let state = ctx.data().host.state(g).await?;
    let viewer = match as_ {
        Some(c) => Some(seat_named(&state, &c)?),
        None => Some(state.seat_of(me).unwrap_or(state.public_side())),
    };
    let reply = board_reply(ctx.data(), &state, viewer, me).await?;
    ctx.send(reply.into_poise()).await?;
    Ok(())
}

/// Your private notes on a game: add a line, show them, or clear them (only you see them)
#[poise::command(slash_command)]
pub(super) async fn note(
    ctx: Context<'_>,
    #[description = "a line to add (none: show your notes)"] text: Option<String>,
    #[description = "forget all your notes on this game"] clear: Option<bool>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let g = game_for(ctx, game).await?;
    let host = &ctx.data().host;
    let said = match (text, clear.unwrap_or(false)) {
        (Some(_), true) => {
            return Err(reply::refused("give a line to add or clear:True, not both"));
        }
        (None, true) => {
            let gone = host.clear_notes(g, me).await?;
            format!("game #{g}: your {gone} notes are forgotten")
        }
        (Some(t), false) => {
            let notes = host.add_note(g, me, &t).await?;
            format!(
                "game #{g}: noted ({} of {NOTES_KEPT} lines){}",
                notes.len(),
                notes_text(&notes)
            )
        }
        (None, false) => {
            let notes = host.notes(g, me).await?;
            if notes.is_empty() {
                format!("game #{g}: you have no notes (add one with /hexmeros note text:…)")
            } else {
                format!("game #{g}:{}", notes_text(&notes))
            }
        }
    };
    private(ctx, said).await
}

/// The game's moves, one round a line, with the list and the replay text as files
///
/// The files: the same list (`moves-<game>.txt`) and the replay text `hexmeros import` reads
/// (`hexmeros-<game>.txt`).
#[poise::command(slash_command)]
pub(super) async fn history(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let g = game_for(ctx, game).await?;
    let text = ctx.data().host.export(g).await?;
    let state = ctx.data().host.state(g).await?;
    let rounds = state.move_list();
    let moves = state.record().len();
    let head = format!(
        "**{} #{g}**: {moves} record line{} in {} round{}",
        state.kind().name(),
        if moves == 1 { "" } else { "s" },
        rounds.len(),
        if rounds.len() == 1 { "" } else { "s" },
    );
    ctx.send(
        CreateReply::default()
            .content(history_text(&head, &rounds))
            .attachment(CreateAttachment::bytes(
                rounds.join("\n").into_bytes(),
                format!("moves-{g}.txt"),
            ))
            .attachment(CreateAttachment::bytes(
                text.into_bytes(),
                format!("hexmeros-{g}.txt"),
            ))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

/// The reply's text: the heading and as many of the latest rounds as fit in a message (the
/// whole list is in the file).
fn history_text(head: &str, rounds: &[String]) -> String {
    const ROOM: usize = 1800;
    let mut shown: Vec<&str> = Vec::new();
    let mut used = head.len() + 16;
    for r in rounds.iter().rev() {
        if used + r.len() + 1 > ROOM {
            break;
        }
        used += r.len() + 1;
        shown.push(r);
    }
    shown.reverse();
    if shown.is_empty() {
        return format!("{head}\nno moves yet");
    }
    let earlier = if shown.len() < rounds.len() {
        format!("\n(rounds 1–{} in the file)", rounds.len() - shown.len())
    } else {
        String::new()
    };
    format!("{head}{earlier}\n```\n{}\n```", shown.join("\n"))
}

/// Your games in every server, most urgent first (here or in a DM with the bot)
#[poise::command(slash_command)]
pub(super) async fn games(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let page = crate::discord::inbound::mine::page(
        ctx.http(),
        ctx.data(),
        ctx.author().id,
        ctx.guild_id(),
        0,
    )
    .await?;
    ctx.send(Reply::new(page.text, page.buttons).into_poise())
        .await?;
    Ok(())
}

/// How your turns reach you besides the thread's ping; none shows your choices
#[poise::command(slash_command)]
pub(super) async fn notify(
    ctx: Context<'_>,
    #[description = "a direct message too when the Token comes to you"] turn: Option<bool>,
    #[description = "turn reminders by direct message too"] dm: Option<bool>,
    #[description = "a direct message when everyone waits on your vote or answer alone"]
    nudge: Option<bool>,
    #[description = "a daily digest by direct message at this hour of your time zone (8, 19:30, 7pm), or off"]
    #[max_length = 20]
    digest: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let data = ctx.data();
    let user = ctx.author().id.get();
    if let Some(on) = dm {
        data.links.set_dm_opt_in(user, on).await?;
    }
    let change = SettingsChange {
        turn_dm: turn,
        nudge,
        digest: digest.clone(),
        ..SettingsChange::default()
    };
    let settings = data.host.set_settings(me, &change).await?;
    let digest_on = digest.is_some() && settings.digest.is_some();
    if turn == Some(true) || nudge == Some(true) || digest_on {
        // Asked again: their DMs are tried again, even if they were found closed.
        data.links.reopen_dms(user).await?;
    }
    let (reminders, closed) = data.links.dm_state(user).await?;
    let head = if turn.is_some() || dm.is_some() || nudge.is_some() || digest.is_some() {
        "saved"
    } else {
        "your notifications"
    };
    let text = notify_text(&settings, reminders, closed);
    private(ctx, format!("{head}\n{text}")).await
}

/// What `/hexmeros notify` shows: how a turn, its reminders and a vote waiting on the player
/// alone reach them.
fn notify_text(s: &hexmeros::host::PlayerSettings, reminders: bool, closed: bool) -> String {
    let choice = |what: &str, on: bool, option: &str| {
        let (state, change) = if on {
            ("on", "False to stop")
        } else {
            ("off", "True to have it")
        };
        format!("{what}: {state} ({option}: {change})")
    };
    let mut lines = vec![
        choice(
            "🔔 your turn: a ping in the game's thread, always; a direct message too",
            s.turn_dm,
            "turn",
        ),
        choice(
            "⏰ reminders of a turn waiting on you: in the thread; by direct message too",
            reminders,
            "dm",
        ),
        choice(
            "🕰️ a direct message when everyone has voted on a motion, or answered in a \
             challenge window, but you",
            s.nudge,
            "nudge",
        ),
        match s.digest {
            Some(at) => format!(
                "📬 a daily digest by direct message: at {at} your time, after your quiet hours \
                 if they hold it, when there is something to say (digest: off to stop)"
            ),
            None => "📬 a daily digest by direct message: off (digest: an hour of your time \
                     zone, such as 8 or 19:30, to have it)"
                .to_string(),
        },
    ];
    if closed {
        lines.push(
            "📪 your direct messages are closed to me, so none is sent: allow direct messages \
             from this server's members, then turn a DM option on again"
                .to_string(),
        );
    }
    lines.join("\n")
}

/// Server admin: abort, pause or resume a game (Manage Server).
#[poise::command(
    slash_command,
    subcommands("abort", "pause", "resume"),
    subcommand_required,
    guild_only,
    required_permissions = "MANAGE_GUILD"
)]
pub(super) async fn admin(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Abort a game for good.
#[poise::command(slash_command, required_permissions = "MANAGE_GUILD")]
pub(super) async fn abort(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Admin(AdminAction::Abort)).await
}

/// Pause a game's timers and moves.
#[poise::command(slash_command, required_permissions = "MANAGE_GUILD")]
pub(super) async fn pause(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Admin(AdminAction::Pause)).await
}

/// Resume a paused game.
#[poise::command(slash_command, required_permissions = "MANAGE_GUILD")]
pub(super) async fn resume(
    ctx: Context<'_>,
    #[description = "game number"] game: Option<i64>,
) -> Result<(), Error> {
    act(ctx, game, Command::Admin(AdminAction::Resume)).await
}

/// Leaderboards: HexiMeros points and skill ratings.
#[poise::command(slash_command)]
pub(super) async fn score(
    ctx: Context<'_>,
    #[description = "one game (default: all)"] game: Option<GameChoice>,
) -> Result<(), Error> {
    ctx.defer().await?;
    let kind = game.map(GameChoice::kind);
    let host = &ctx.data().host;
    let mut text = format!(
        "**Leaderboard — {}**\n",
        kind.map(|k| k.name()).unwrap_or("all games")
    );
    let standings = host.leaderboard(kind).await?;
    if standings.is_empty() {
        text.push_str("no scored games yet\n");
    }
    for (i, s) in standings.iter().take(20).enumerate() {
        text.push_str(&format!(
            "{}. {} — {} points ({} games)\n",
            i + 1,
            s.name,
            s.points,
            s.games
        ));
    }
    let ratings = host.ratings(kind).await?;
    if !ratings.is_empty() {
        text.push_str("**Ratings**\n");
        for (i, r) in ratings.iter().take(20).enumerate() {
            text.push_str(&format!(
                "{}. {} — {:.1} ({} games)\n",
                i + 1,
                r.name,
                r.shown(),
                r.games
            ));
        }
    }
    let reply = reply::fitted(text, false).allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(reply).await?;
    Ok(())
}
