//! Board pictures for Discord, drawn off the async threads (on the picture pool of
//! `hexmeros::background`, below the priority of the threads that answer Discord) by the `view`
//! module: the position from one colour's side with the last moves highlighted, the preview of a
//! staged move, and the replay GIF of a finished game. A picture that cannot be drawn falls back
//! to the text board, so a game never stalls on its picture.
//!
//! Every drawing holds a place in the bounded picture queue (see `limits`). When it is full, a
//! board a user asks for ([`asked_board`]) is refused as "busy", a staged move's preview is
//! shown as text, and what the game itself posts (a turn's board, the replay) waits for a place:
//! it is one per move, not one per request.

use hexmeros::background::{self, Work};
use hexmeros::games::Seat;
use hexmeros::host::{ALT_MAX, GameState, clip};
use hexmeros::host::{ViewOptions, replay_gif_from_export};
use poise::serenity_prelude::CreateAttachment;

use crate::discord::limits::{self, Limits};
use crate::discord::{Data, Error, reply};

/// A board ready to post: the full board as a PNG with, where the board is large, its
/// close-up (`GameState::render_focus`) to show first; or a text picture (sent in a code block).
pub enum Picture {
    Png {
        full: Vec<u8>,
        focus: Option<Vec<u8>>,
        /// The board in words for a screen reader (`GameState::alt_text`): the attachments'
        /// description.
        alt: String,
        /// What the close-up leaves to the full board, in words (most pressing first).
        outside: Vec<String>,
    },
    Text(String),
}

/// The attachments of a drawn board, in the order Discord shows them: the close-up
/// (`focus.png`) first, then the full board (`board.png`), each described by `alt`.
pub fn picture_files(full: Vec<u8>, focus: Option<Vec<u8>>, alt: &str) -> Vec<CreateAttachment> {
    focus
        .map(|f| CreateAttachment::bytes(f, "focus.png").description(described("Close-up. ", alt)))
        .into_iter()
        .chain([CreateAttachment::bytes(full, "board.png").description(described("", alt))])
        .collect()
}

/// The most things a message names as left out of the close-up; more are counted.
const OUTSIDE_NAMED: usize = 4;

/// `content` with a line for what the close-up leaves to the full board, when there is any
/// and the message has room for it (Discord's 2,000 characters).
pub fn with_outside(content: String, outside: &[String]) -> String {
    match outside_line(outside) {
        Some(line) if content.chars().count() + line.chars().count() < 1990 => {
            format!("{content}\n{line}")
        }
        _ => content,
    }
}

/// The message's line for what the close-up leaves to the full board (`None`: nothing).
fn outside_line(outside: &[String]) -> Option<String> {
    if outside.is_empty() {
        return None;
    }
    let mut named: Vec<String> = outside.iter().take(OUTSIDE_NAMED).cloned().collect();
    if outside.len() > OUTSIDE_NAMED {
        named.push(format!("{} more", outside.len() - OUTSIDE_NAMED));
    }
    Some(clip(
        format!(
            "Outside the close-up (on the full board): {}",
            named.join(", ")
        ),
        300,
    ))
}

/// `alt` after `head`, within Discord's limit on a description ([`ALT_MAX`] characters).
pub fn described(head: &str, alt: &str) -> String {
    clip(format!("{head}{alt}"), ALT_MAX)
}

/// The player who sits at `seat`, if any.
fn player_at(state: &GameState, seat: Option<Seat>) -> Option<hexmeros::host::PlayerId> {
    seat.and_then(|s| state.seats().get(s.index()).map(|x| x.player))
}

/// Draw `state` with `opts` holding the queue place `slot`.
async fn draw_in(
    slot: hexmeros::background::Slot,
    state: &GameState,
    opts: ViewOptions,
    head: &str,
) -> Picture {
    let alt = described(head, &state.alt_text(player_at(state, opts.as_seat)));
    let game = state.clone();
    let drawn = background::run(Work::Pictures, move || {
        let drawing = std::time::Instant::now();
        let full = game.render(&opts);
        // The close-up is a help, never a cost to the turn: without it the board alone.
        let focus = match &full {
            Ok(_) => game.render_focus(&opts).unwrap_or_else(|e| {
                tracing::warn!(game = game.id(), error = %e, "no close-up");
                None
            }),
            Err(_) => None,
        };
        crate::discord::metrics::rendered(drawing.elapsed());
        full.map(|full| (full, focus))
    })
    .await;
    drop(slot);
    match drawn {
        Ok(Ok((full, focus))) => {
            let (focus, outside) = match focus {
                Some(f) => (Some(f.png), f.outside),
                None => (None, Vec::new()),
            };
            Picture::Png {
                full,
                focus,
                alt,
                outside,
            }
        }
        Ok(Err(e)) => {
            tracing::warn!(game = state.id(), error = %e, "no picture; the text board instead");
            Picture::Text(state.board_text())
        }
        Err(e) => {
            tracing::error!(game = state.id(), error = %e, "drawing failed; the text board instead");
            Picture::Text(state.board_text())
        }
    }
}

/// The names of the seated players, in seat order, as the pictures' headers show them: the
/// name the host keeps for each (a Discord user's name, a bot's label such as `Bot (easy)`);
/// empty where it has none, and the picture names that seat by its colour. The view cuts long
/// names and drops control and text-direction characters (`view::fit_name`, applied by the host).
pub async fn seat_names(data: &Data, state: &GameState) -> Vec<String> {
    let mut names = Vec::with_capacity(state.seats().len());
    for seat in state.seats() {
        let name = match data.host.player_name(seat.player).await {
            Ok(Some(n)) => n,
            Ok(None) => String::new(),
            Err(e) => {
                tracing::warn!(game = state.id(), error = %e, "no player name for a picture");
                String::new()
            }
        };
        names.push(name);
    }
    names
}

async fn board_options(data: &Data, state: &GameState, viewer: Option<Seat>) -> ViewOptions {
    ViewOptions {
        as_seat: viewer,
        last_moves: state.last_round(),
        turn: Some(state.turn_number()),
        players: seat_names(data, state).await,
        ..ViewOptions::default()
    }
}

/// The board of a game from `viewer`'s side (the Token holder's when `None`), as the game
/// posts it (a turn message), once the picture queue has room.
pub async fn board(data: &Data, state: &GameState, viewer: Option<Seat>) -> Picture {
    match data.limits.render_slot_waiting().await {
        Some(slot) => draw_in(slot, state, board_options(data, state, viewer).await, "").await,
        None => Picture::Text(state.board_text()),
    }
}

/// A board a user asked for (their rate is checked by the caller, before anything else): the
/// private "busy" refusal when the picture queue is full.
pub async fn asked_board(
    data: &Data,
    state: &GameState,
    viewer: Option<Seat>,
) -> Result<Picture, Error> {
    let slot = data
        .limits
        .render_slot()
        .ok_or_else(|| reply::refused(limits::BUSY))?;
    Ok(draw_in(slot, state, board_options(data, state, viewer).await, "").await)
}

/// The board with the staged move `staged` drawn as a preview, from the mover's side; as text
/// when `user` is over their picture rate or the queue is full (the move is staged anyway).
pub async fn preview(
    data: &Data,
    user: hexmeros::host::PlayerId,
    state: &GameState,
    viewer: Option<Seat>,
    staged: &str,
) -> Picture {
    let limits = &data.limits;
    let slot = match limits.render_slot() {
        Some(slot) if limits.picture_allowed(user) => slot,
        _ => return Picture::Text(state.board_text()),
    };
    let opts = ViewOptions {
        as_seat: viewer,
        staged: Some(staged.to_string()),
        turn: Some(state.turn_number()),
        players: seat_names(data, state).await,
        ..ViewOptions::default()
    };
    let head = format!("Preview of the staged move {staged}, not committed yet. ");
    draw_in(slot, state, opts, &head).await
}

/// The replay GIF of a game from its export text, once the picture queue has room.
pub async fn replay(limits: &Limits, export: String) -> Option<Vec<u8>> {
    let slot = limits.render_slot_waiting().await?;
    let drawn = background::run(Work::Pictures, move || replay_gif_from_export(&export)).await;
    drop(slot);
    match drawn {
        Ok(Ok(gif)) => Some(gif),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "no replay GIF");
            None
        }
        Err(e) => {
            tracing::error!(error = %e, "drawing the replay failed");
            None
        }
    }
}
