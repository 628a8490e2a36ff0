//! The slash commands: `/hexmeros …` and `/score`. Each one acknowledges the interaction first
//! (Discord's 3-second rule), parses its options, calls the host once and hands the effects to
//! `deliver`. Errors are answered privately by `on_error`; the host guarantees that a refused
//! command changed nothing.

use poise::serenity_prelude as serenity;

use hexmeros::games::{GameKind, Seat};
use hexmeros::host::{Actor, Command, GameId, PlayerId};

use crate::discord::inbound::activity;
use crate::discord::inbound::scope::{self, Scope};
use crate::discord::outbound::deliver::{self, Origin};
use crate::discord::reply;
use crate::discord::reply::Outcome;
use crate::discord::{Context, Data, Error};

mod autocomplete;
mod away;
mod house;
mod info;
mod play;
mod queue;
mod rules;
mod settings;
mod start;
mod votes;

use away::away;
use house::house_rules;
use info::{admin, board, games, history, note, notify, score};
use play::{challenge, check, concede, draw, move_, pass, prefer, resign, takeback, try_};
use queue::queue;
use rules::rules;
use settings::settings;
use start::start;
use votes::vote;

pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![hexmeros(), score()]
}

/// Answer any error privately; the state is unchanged whenever one is returned. A refusal
/// shows its sentence; an internal error an apology with the reference it is logged under.
pub async fn on_error(err: poise::FrameworkError<'_, Data, Error>) {
    match err {
        poise::FrameworkError::Command { error, ctx, .. } => {
            let span = activity::command_span(ctx).await;
            let (outcome, text) = span.in_scope(|| reply::report(&error));
            answer(ctx, outcome, text).await;
        }
        poise::FrameworkError::MissingUserPermissions { ctx, .. } => {
            let text = "⚠️ only members with the Manage Server permission may do that";
            answer(ctx, Outcome::Refused, text.to_string()).await;
        }
        // Options of another shape than the command's (a client that still shows an older
        // version of the command, or a forged interaction): said, not left unanswered.
        poise::FrameworkError::CommandStructureMismatch {
            ctx, description, ..
        } => {
            tracing::warn!(command = %ctx.command().qualified_name, description, "options of another shape");
            let text = "⚠️ I could not read that: its options are not the ones this command \
                        takes (if Discord shows an older version of the command, try again in a \
                        minute)";
            answer(
                poise::Context::Application(ctx),
                Outcome::Refused,
                text.to_string(),
            )
            .await;
        }
        poise::FrameworkError::GuildOnly { ctx, .. } => {
            let text = "⚠️ that is done in a server's channel; in a direct message with me, \
                        /hexmeros games, notify and settings work, and a game's commands with \
                        its game number";
            answer(ctx, Outcome::Refused, text.to_string()).await;
        }
        poise::FrameworkError::CommandCheckFailed {
            error: Some(error),
            ctx,
            ..
        } => {
            let (outcome, text) = reply::report(&error);
            answer(ctx, outcome, text).await;
        }
        poise::FrameworkError::ArgumentParse { error, ctx, .. } => {
            // The parser's words may quote what was typed: a short piece of it.
            let text = format!(
                "⚠️ I could not read that: {}",
                reply::clip(&error.to_string())
            );
            answer(ctx, Outcome::Refused, text).await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "error while handling an error");
            }
        }
    }
}

/// poise's check of every command, before anything else runs (in memory only): a text option
/// longer than any this bot reads is refused at once, so nothing it says can echo it at length.
/// Autocomplete passes (it only filters its choices by the text).
pub async fn guard(ctx: Context<'_>) -> Result<bool, Error> {
    let poise::Context::Application(a) = ctx else {
        return Ok(true);
    };
    if a.interaction_type == poise::CommandInteractionType::Autocomplete {
        return Ok(true);
    }
    match reply::overlong_option(&a.interaction.data.options) {
        Some((name, chars)) => Err(reply::refused(format!(
            "the {} option is too long ({chars} characters; at most {})",
            reply::clip(&name),
            reply::MAX_OPTION
        ))),
        None => Ok(true),
    }
}

/// The commands whose answer everyone in the channel sees; every other one answers privately.
const PUBLIC: [&str; 1] = ["score"];

/// Commands that acknowledge themselves as their first step, because whether the answer is
/// public depends on their options: `start` answers a lobby privately, a game started at once
/// publicly (it reads nothing but its options before deferring).
const SELF_ACKNOWLEDGED: [&str; 1] = ["hexmeros start"];

/// poise's `pre_command` hook: acknowledge the interaction before the command touches the
/// database or draws anything (Discord's 3-second rule), privately unless the command is
/// public; then start its log line. A command's own defer after this is a no-op.
pub async fn acknowledge(ctx: Context<'_>) {
    activity::pre_command(ctx).await;
    let name = &ctx.command().qualified_name;
    if SELF_ACKNOWLEDGED.iter().any(|p| p == name) {
        return;
    }
    if let poise::Context::Application(a) = ctx {
        let public = PUBLIC.iter().any(|p| p == name);
        if let Err(e) = a.defer_response(!public).await {
            tracing::warn!(user = ctx.author().id.get(), error = %e, "cannot acknowledge a command");
        } else {
            activity::command_acknowledged(ctx).await;
        }
    }
}

/// Send a failed command's private answer, then log its line.
async fn answer(ctx: Context<'_>, outcome: Outcome, text: String) {
    let reply = reply::private(text);
    if let Err(e) = ctx.send(reply).await {
        tracing::warn!(
            user = ctx.author().id.get(),
            action = %ctx.command().qualified_name,
            error = %e,
            "cannot send an error reply"
        );
    }
    activity::command_finished(ctx, outcome).await;
}

/// The game an option names, else the game of the thread the command is used in, else the
/// caller's only game where it is their turn; only a game this server (or, in a DM, the
/// caller) may name (see `scope`).
async fn game_for(ctx: Context<'_>, game: Option<i64>) -> Result<GameId, Error> {
    let scope = Scope::of(ctx.guild_id(), ctx.author().id);
    let user = ctx.author().id.get();
    let game = resolve_game(ctx.data(), scope, ctx.channel_id().get(), user, game).await?;
    activity::note_game(ctx, game).await;
    Ok(game)
}

async fn resolve_game(
    data: &Data,
    scope: Scope,
    channel: u64,
    user: u64,
    game: Option<i64>,
) -> Result<GameId, Error> {
    if let Some(g) = game {
        return scope::admit(data, scope, g).await;
    }
    if let Some(link) = data.links.by_thread(channel).await? {
        return scope::admit(data, scope, link.game).await;
    }
    let mut mine = Vec::new();
    for g in data.host.my_turn(user as PlayerId).await? {
        if scope::may_name(data, scope, g.id).await? {
            mine.push(g.id);
        }
    }
    match mine.as_slice() {
        [one] => Ok(*one),
        [] => Err(reply::refused(
            "which game? use this in a game's thread, or give the game option",
        )),
        _ => Err(reply::refused(
            "it is your turn in several games: give the game option (see /hexmeros games)",
        )),
    }
}

/// Whether the caller may start a game seating `bots` bots now (see `limits`); else the
/// refusal, before anything is stored.
async fn admit_start(ctx: Context<'_>, bots: Option<u8>) -> Result<(), Error> {
    let me = ctx.author().id.get() as PlayerId;
    let bots = u32::from(bots.unwrap_or(0).min(6));
    ctx.data().limits.admit_start(ctx.data(), me, bots).await
}

/// The acting player, recorded with their name for leaderboards.
async fn player(ctx: Context<'_>) -> Result<PlayerId, Error> {
    let u = ctx.author();
    let id = u.id.get() as PlayerId;
    let data = ctx.data();
    data.host.ensure_player(id, u.display_name()).await?;
    Ok(id)
}

fn origin(ctx: Context<'_>, actor: PlayerId) -> Origin {
    Origin {
        channel: Some(ctx.channel_id()),
        guild: ctx.guild_id(),
        actor: Some(actor),
    }
}

async fn private(ctx: Context<'_>, text: impl Into<String>) -> Result<(), Error> {
    let text = text.into();
    let text = if text.trim().is_empty() {
        "done".to_string()
    } else {
        text
    };
    ctx.send(reply::private(text)).await?;
    Ok(())
}

/// Run one host command for the caller and reply privately with what the host says to them.
async fn act(ctx: Context<'_>, game: Option<i64>, cmd: Command) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let me = player(ctx).await?;
    let game = game_for(ctx, game).await?;
    let actor = Actor {
        player: me,
        admin: is_admin(ctx),
    };
    let lines = run(ctx, game, actor, cmd).await?;
    private(ctx, lines.join("\n")).await
}

/// Send one host command and deliver its effects: the lines for the actor alone.
async fn run(
    ctx: Context<'_>,
    game: GameId,
    actor: Actor,
    cmd: Command,
) -> Result<Vec<String>, Error> {
    let done = ctx.data().host.handle(game, actor, cmd, None).await?;
    let http = &ctx.serenity_context().http;
    Ok(deliver::deliver(http, ctx.data(), done.effects, origin(ctx, actor.player)).await)
}

fn is_admin(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        poise::Context::Prefix(_) => false,
    }
}

/// The seat of a colour name in a game.
fn seat_named(state: &hexmeros::host::GameState, name: &str) -> Result<Seat, Error> {
    state.seat_named(name).ok_or_else(|| {
        let names: Vec<&str> = state
            .all_seats()
            .into_iter()
            .map(|s| state.seat_name(s))
            .collect();
        reply::refused(format!(
            "no seat called {name:?} (seats: {})",
            names.join(", ")
        ))
    })
}

fn seat_of_user(state: &hexmeros::host::GameState, user: &serenity::User) -> Result<Seat, Error> {
    state.seat_of(user.id.get() as PlayerId).ok_or_else(|| {
        reply::refused(format!(
            "{} is not playing in game #{}",
            user.name,
            state.id()
        ))
    })
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum GameChoice {
    #[name = "HexiMeros (6 players)"]
    HexiMeros,
    #[name = "HexDame (2)"]
    HexDame,
    #[name = "Hexmeister (2)"]
    Hexmeister,
    #[name = "HexaEquo (2)"]
    HexaEquo,
    #[name = "Harmegedo (2-6)"]
    Harmegedo,
}

impl GameChoice {
    fn kind(self) -> GameKind {
        match self {
            GameChoice::HexiMeros => GameKind::HexiMeros,
            GameChoice::HexDame => GameKind::HexDame,
            GameChoice::Hexmeister => GameKind::Hexmeister,
            GameChoice::HexaEquo => GameKind::HexaEquo,
            GameChoice::Harmegedo => GameKind::Harmegedo,
        }
    }
}

/// Hexagonal board games: start, move, vote, look at boards.
#[poise::command(
    slash_command,
    subcommands(
        "start",
        "move_",
        "try_",
        "queue",
        "pass",
        "takeback",
        "check",
        "challenge",
        "prefer",
        "resign",
        "concede",
        "draw",
        "vote",
        "board",
        "history",
        "note",
        "games",
        "rules",
        "notify",
        "settings",
        "house_rules",
        "away",
        "admin"
    ),
    subcommand_required
)]
pub async fn hexmeros(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}
