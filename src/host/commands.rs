//! From a player's command to the event it stores, checking who may send it.

use super::event::{Event, Motion};
use super::say::{self, Refused};
use super::{Actor, Command, Effect, GameState, PlayerId};
use crate::games::Seat;

/// Turn a command into the event it stores (and any private word for the sender), checking who
/// may send it.
pub(super) fn event_for(
    state: &GameState,
    actor: Actor,
    cmd: Command,
) -> Result<(Event, Vec<Effect>), Refused> {
    if let Command::Admin(action) = cmd {
        if !actor.admin {
            return Err(Refused::NotAdmin);
        }
        return Ok((Event::Admin { action }, Vec::new()));
    }
    let seat = state.seat_of(actor.player).ok_or(Refused::NotSeated)?;
    if mover_only(&cmd) {
        state.require_mover(actor.player)?;
    }
    let mut extra = Vec::new();
    let ev = match cmd {
        Command::Move { text, commit } => {
            let (text, asked) = state.prepare_stage(&text)?;
            stage_or_commit(seat, text, asked, commit, actor.player, &mut extra)
        }
        Command::Check { seat: target } => {
            let (text, asked) = state.prepare_stage(&state.declaration(target)?)?;
            Event::Staged { seat, text, asked }
        }
        Command::CheckAndPass { seat: target } => {
            let (text, asked) = state.prepare_stage(&state.declaration(target)?)?;
            stage_or_commit(seat, text, asked, true, actor.player, &mut extra)
        }
        Command::TakeBack => Event::TakenBack { seat },
        Command::Pass => {
            let st = state.staged().ok_or(Refused::NothingStaged)?;
            Event::Committed {
                seat,
                text: st.text.clone(),
            }
        }
        Command::PassWhenClosed => Event::PassWhenClosed { seat },
        Command::Challenge { declare } => Event::Answered { seat, declare },
        Command::Prefer(pref) => Event::Preference { seat, pref },
        Command::Resign { replacement: None } => Event::Resigned { seat },
        Command::Resign {
            replacement: Some(player),
        } => Event::ResignedFor { seat, player },
        Command::Concede => Event::Conceded { seat },
        Command::Propose(motion) => Event::Proposed { seat, motion },
        Command::Vote { motion, yes } => Event::Ballot {
            motion: match motion {
                Some(id) => id,
                None => the_open_motion(state, seat)?,
            },
            seat,
            yes,
        },
        Command::AcceptDraw => Event::Ballot {
            motion: the_draw_offer(state)?,
            seat,
            yes: true,
        },
        Command::ClaimTime => Event::TimeClaimed { seat },
        Command::Queue {
            text,
            sovereign_safe,
            if_reply,
        } => state.prepare_queue(actor.player, &text, sovereign_safe, if_reply.as_deref())?,
        Command::ClearQueue => {
            state.queued(seat).ok_or(Refused::NothingQueued)?;
            Event::QueueCleared { seat }
        }
        Command::Admin(_) => return Err(Refused::NotAdmin),
    };
    Ok((ev, extra))
}

/// Whether only the Token holder may send `cmd`.
fn mover_only(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Move { .. }
            | Command::TakeBack
            | Command::Check { .. }
            | Command::CheckAndPass { .. }
            | Command::Pass
            | Command::PassWhenClosed
    )
}

/// A prepared move `text` by `seat`: committed at once when `commit` and nobody is `asked` to
/// answer a challenge window; staged otherwise (telling a committing `player` that a window is
/// open).
fn stage_or_commit(
    seat: Seat,
    text: String,
    asked: Vec<Seat>,
    commit: bool,
    player: PlayerId,
    extra: &mut Vec<Effect>,
) -> Event {
    if commit && asked.is_empty() {
        return Event::Committed { seat, text };
    }
    if commit {
        extra.push(Effect::Private {
            player,
            text: say::WINDOW_STILL_OPEN.into(),
        });
    }
    Event::Staged { seat, text, asked }
}

/// Whether a control (a button) made at version `made` for `cmd` still acts on what it was made
/// for: a preview's on the staged move it showed, a challenge button on its window, a ballot on
/// its motion. Anything older is refused and changes nothing.
pub(super) fn require_fresh(state: &GameState, cmd: &Command, made: u64) -> Result<(), Refused> {
    match cmd {
        Command::Pass
        | Command::PassWhenClosed
        | Command::TakeBack
        | Command::Check { .. }
        | Command::CheckAndPass { .. } => state.require_preview_since(made),
        Command::Challenge { .. } => state.require_window_since(made),
        // A confirmation holds while the game stands as it was when it was asked for.
        Command::Resign { .. } if state.version() != made => Err(Refused::StaleConfirmation),
        Command::Vote {
            motion: Some(id), ..
        } => state.require_open_motion(*id),
        _ => Ok(()),
    }
}

/// The one open motion `seat` votes on (a vote that names none). With several open to `seat`,
/// the vote must name its motion, even when `seat` has already voted on all but one.
fn the_open_motion(state: &GameState, seat: Seat) -> Result<u64, Refused> {
    let open: Vec<u64> = state
        .motions()
        .iter()
        .filter(|m| state.voters(&m.motion).contains(&seat))
        .map(|m| m.id)
        .collect();
    match open.as_slice() {
        [one] => Ok(*one),
        [] => Err(Refused::NoMotionToVote),
        _ => Err(Refused::SeveralMotions),
    }
}

/// The open draw offer (or abandon vote): what `draw accept` answers, and nothing else.
fn the_draw_offer(state: &GameState) -> Result<u64, Refused> {
    state
        .motions()
        .iter()
        .find(|m| m.motion == Motion::Draw)
        .map(|m| m.id)
        .ok_or(Refused::NoDrawOffered)
}
