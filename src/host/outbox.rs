//! What the host writes to the outbox (`store::outbox`, issue 18): every effect a player must
//! receive, in the transaction of the event that causes it, so that a crash or a Discord outage
//! between the commit and the send loses nothing. Only the acting player's private replies stay
//! out: they are the answer to the command itself, returned to the caller.
//!
//! Also the effects that follow from a change of state rather than from one rule (a motion
//! opened, a turn timer run out, a game finished): derived here from the states before and after
//! each event, so every front end is told of them exactly once.

use crate::store::NewEntry;

use super::bots::for_bot;
use super::event::{Event, PlayerId};
use super::state::{GameState, Status};
use super::{Effect, HostError, to_json};

/// Time-critical: a player is waiting for it (a question, a Token, a ballot, the board).
pub const URGENT: i64 = 0;
/// Everything else said in a thread.
pub const NORMAL: i64 = 1;
/// Reminders: they go after everything else when much is waiting.
pub const REMINDER: i64 = 2;

/// How urgent an effect of `ev` is.
fn priority(e: &Effect, ev: Option<&Event>) -> i64 {
    if matches!(ev, Some(Event::Reminded { .. })) {
        return REMINDER;
    }
    match e {
        Effect::AskChallenge { .. }
        | Effect::Ping { .. }
        | Effect::Board { .. }
        | Effect::Ballot { .. }
        | Effect::OpenThread { .. }
        | Effect::Stalled { .. } => URGENT,
        Effect::Say { .. }
        | Effect::CloseThread { .. }
        | Effect::Replay { .. }
        | Effect::Dm { .. }
        | Effect::Private { .. } => NORMAL,
    }
}

/// The outbox entries for the effects of `ev` (made by `actor`, leaving the game at `version`):
/// all but the actor's own private replies and what is meant for bots.
pub(super) fn entries(
    fx: &[Effect],
    ev: Option<&Event>,
    actor: Option<PlayerId>,
    version: u64,
) -> Result<Vec<NewEntry>, HostError> {
    fx.iter()
        .filter(|e| !for_bot(e) && !is_reply(e, actor))
        .map(|e| {
            Ok(NewEntry {
                lane: e.lane(),
                game: e.game(),
                version: Some(version as i64),
                priority: priority(e, ev),
                body: to_json(&stored(e))?,
            })
        })
        .collect()
}

/// An effect as the outbox keeps it: a board without its text picture (several kilobytes on
/// HexiMeros's 649 cells), which the deliverer draws again from the game at the entry's version.
fn stored(e: &Effect) -> Effect {
    match e {
        Effect::Board { game, caption, .. } => Effect::Board {
            game: *game,
            board: String::new(),
            caption: caption.clone(),
        },
        other => other.clone(),
    }
}

/// A private text for the player who acted: the answer to their command.
pub fn is_reply(e: &Effect, actor: Option<PlayerId>) -> bool {
    matches!(e, Effect::Private { player, .. } if Some(*player) == actor)
}

/// What follows from `before` becoming `after` by one event: a ballot for each motion opened, the
/// stall notice when the Token holder's timer runs out (a person's: bots never stall), and the
/// replay when the game finishes.
pub(super) fn follow_ups(before: &GameState, after: &GameState) -> Vec<Effect> {
    let game = after.id();
    let mut fx: Vec<Effect> = after
        .motions()
        .iter()
        .filter(|m| !before.motions().iter().any(|b| b.id == m.id))
        .map(|m| Effect::Ballot { game, motion: m.id })
        .collect();
    let live = matches!(after.status(), Status::HouseRules | Status::Playing);
    if live
        && after.timed_out()
        && !before.timed_out()
        && let Some(seat) = after.holder()
        && after.bot(seat).is_none()
    {
        fx.push(Effect::Stalled {
            game,
            seat,
            turn: after.record().len(),
        });
    }
    if after.status() == Status::Finished && before.status() != Status::Finished {
        fx.push(Effect::Replay { game });
    }
    fx
}
