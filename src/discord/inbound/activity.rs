//! One log line for every slash command, component (button, select menu) and reaction when it
//! finishes: the game when known, the user, the action, the outcome and the milliseconds it took.
//! `ok` is logged at debug, `refused` at info, `error` at error (the error itself is logged by
//! [`crate::discord::reply`] with its reference). For example, with `RUST_LOG=hexmeros=debug`:
//!
//! ```text
//! DEBUG hexmeros::discord::activity: command game=1 user=4100000000000001 action="hexmeros move" outcome=ok ms=12
//! ```
//!
//! Slash commands are timed by poise's `pre_command` hook, which stores an [`Invocation`] in
//! the command's invocation data; gateway events by [`Event::run`], which also opens a span that
//! names the game, user and action, so every warning logged while handling the event says whose.
//!
//! The same line counts in the metrics (`hexmeros_commands_total`, `hexmeros_command_seconds`),
//! and the acknowledgement of an interaction times its first callback (see [`acknowledged`]).

use std::cell::Cell;
use std::future::Future;
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::{FullEvent, Interaction, ReactionType};
use tracing::Instrument as _;

use hexmeros::host::GameId;

use crate::discord::names;
use crate::discord::reply::{self, Outcome};
use crate::discord::{Context, Error};

tokio::task_local! {
    /// The outcome of the gateway event being handled: the component handler turns its errors
    /// into replies, so the outcome is noted here rather than returned.
    static OUTCOME: Cell<Outcome>;
    /// When the gateway event being handled arrived.
    static ARRIVED: Instant;
}

/// Note `outcome` for the event being handled (no-op outside [`Event::run`]).
pub fn note(outcome: Outcome) {
    let _ = OUTCOME.try_with(|o| o.set(o.get().max(outcome)));
}

/// The text a component's or reaction's user reads for `err`; the outcome is noted for the
/// event's log line (see [`Event::run`]).
pub fn error_text(err: &anyhow::Error) -> String {
    let (outcome, text) = reply::report(err);
    note(outcome);
    text
}

/// The component interaction or reaction being handled (inside [`Event::run`]) was
/// acknowledged: its first callback's time, from its arrival, goes to the metrics.
pub fn acknowledged() {
    let _ = ARRIVED.try_with(|t| crate::discord::metrics::first_callback(t.elapsed()));
}

/// A slash command was acknowledged (its deferred answer sent): `acknowledged` for commands.
pub async fn command_acknowledged(ctx: Context<'_>) {
    if let Some(i) = ctx.invocation_data::<Invocation>().await {
        crate::discord::metrics::first_callback(i.start.elapsed());
    }
}

/// The log line of a finished interaction.
fn finished(
    kind: &str,
    game: Option<GameId>,
    user: u64,
    action: &str,
    outcome: Outcome,
    took: Option<Duration>,
) {
    let ms = took.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX));
    match outcome {
        Outcome::Ok => tracing::debug!(game, user, action, %outcome, ms, "{kind}"),
        Outcome::Refused => tracing::info!(game, user, action, %outcome, ms, "{kind}"),
        Outcome::Error => tracing::error!(game, user, action, %outcome, ms, "{kind}"),
    }
}

/// What is known of a slash command while it runs.
pub struct Invocation {
    start: Instant,
    game: Option<GameId>,
}

/// poise's `pre_command` hook: start the command's clock.
pub async fn pre_command(ctx: Context<'_>) {
    ctx.set_invocation_data(Invocation {
        start: Instant::now(),
        game: None,
    })
    .await;
}

/// poise's `post_command` hook (the command returned `Ok`).
pub async fn post_command(ctx: Context<'_>) {
    command_finished(ctx, Outcome::Ok).await;
}

/// Record the game a command turned out to be about, for its log line.
pub async fn note_game(ctx: Context<'_>, game: GameId) {
    if let Some(mut i) = ctx.invocation_data::<Invocation>().await {
        i.game = Some(game);
    }
}

/// The game (if known) and the time since the command started (if it got that far: a command
/// refused by poise's permission check never starts).
async fn invocation(ctx: Context<'_>) -> (Option<GameId>, Option<Duration>) {
    match ctx.invocation_data::<Invocation>().await {
        Some(i) => (i.game, Some(i.start.elapsed())),
        None => (None, None),
    }
}

/// A span naming the command's game, user and action, for what is logged about it.
pub async fn command_span(ctx: Context<'_>) -> tracing::Span {
    let (game, _) = invocation(ctx).await;
    tracing::info_span!(
        "command",
        game,
        user = ctx.author().id.get(),
        action = %ctx.command().qualified_name
    )
}

/// Log the command's line.
pub async fn command_finished(ctx: Context<'_>, outcome: Outcome) {
    let (game, took) = invocation(ctx).await;
    let action = &ctx.command().qualified_name;
    finished(
        "command",
        game,
        ctx.author().id.get(),
        action,
        outcome,
        took,
    );
    crate::discord::metrics::command("command", action, outcome.label(), took);
}

/// A gateway event that is logged: a component interaction or a reaction by a user.
pub struct Event {
    kind: &'static str,
    game: Option<GameId>,
    user: u64,
    action: String,
    /// Whether `action` is one of the bot's own (a control's action, a reaction it acts on):
    /// anything else is counted in the metrics as `other`, so that strangers' emoji do not each
    /// make a series.
    known: bool,
}

impl Event {
    /// The event's description, or `None` for an event that is not logged (any other event,
    /// and the bot's own reactions). A component's id is `game:action:…`.
    pub fn of(ev: &FullEvent, bot: serenity::UserId) -> Option<Event> {
        match ev {
            FullEvent::InteractionCreate {
                interaction: Interaction::Component(ci),
            } => {
                let mut parts = ci.data.custom_id.split(':');
                let game = parts.next().and_then(|g| g.parse().ok());
                // A lobby's buttons name a lobby, not a game.
                let lobby = crate::discord::ids::ComponentId::decode(&ci.data.custom_id)
                    .is_ok_and(|c| c.action.lobby_join().is_some());
                let game = game.filter(|_| !lobby);
                Some(Event {
                    kind: "component",
                    game,
                    user: ci.user.id.get(),
                    action: parts.next().unwrap_or("?").to_string(),
                    known: crate::discord::ids::ComponentId::decode(&ci.data.custom_id).is_ok(),
                })
            }
            FullEvent::ReactionAdd { add_reaction: r } => {
                let user = r.user_id.filter(|&u| u != bot)?;
                let emoji = match &r.emoji {
                    ReactionType::Unicode(s) => s.clone(),
                    _ => "custom".to_string(),
                };
                let known = [names::PASS, names::TAKE_BACK, names::MY_SIDE].contains(&&*emoji);
                Some(Event {
                    kind: "reaction",
                    game: None,
                    user: user.get(),
                    action: emoji,
                    known,
                })
            }
            _ => None,
        }
    }

    /// Handle the event with `handler`, in a span naming it, and log its line. An error the
    /// handler returns (a failed acknowledgement, storage) is logged here and not passed on.
    pub async fn run(self, handler: impl Future<Output = Result<(), Error>>) -> Result<(), Error> {
        let start = Instant::now();
        let span = tracing::info_span!(
            "event",
            kind = self.kind,
            game = self.game,
            user = self.user,
            action = %self.action
        );
        let handled = async {
            let result = handler.await;
            (result, OUTCOME.with(Cell::get))
        };
        let (result, noted) = OUTCOME
            .scope(Cell::new(Outcome::Ok), ARRIVED.scope(start, handled))
            .instrument(span.clone())
            .await;
        let outcome = match result {
            Ok(()) => noted,
            Err(e) => span.in_scope(|| reply::report(&e).0).max(noted),
        };
        let took = start.elapsed();
        finished(
            self.kind,
            self.game,
            self.user,
            &self.action,
            outcome,
            Some(took),
        );
        let action = if self.known { &self.action } else { "other" };
        crate::discord::metrics::command(self.kind, action, outcome.label(), Some(took));
        Ok(())
    }
}
