//! Board pictures for Discord, drawn off the async threads (on the picture pool of
//! `hexmeros::background`, below the priority of the threads that answer Discord) by the `view`
//! module: the position from one colour's side with the last moves highlighted, the preview of a
//! staged move, and the replay GIF of a finished game. A picture that cannot be drawn falls back
//! to the text board, so a game never stalls on its picture.

use hexmeros::background::{self, Work};
use hexmeros::games::Seat;
use hexmeros::host::GameState;
use hexmeros::view::{self, ViewOptions};

/// A board ready to post: a PNG, or a text picture (sent in a code block).
pub enum Picture {
    Png(Vec<u8>),
    Text(String),
}

/// Draw `state` with `opts` on the picture pool; the text board when that fails.
async fn draw(state: &GameState, opts: ViewOptions) -> Picture {
    let game = state.clone();
    let drawn = background::run(Work::Pictures, move || game.render(&opts)).await;
    match drawn {
        Ok(Ok(png)) => Picture::Png(png),
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

/// The board of a game from `viewer`'s side (the Token holder's when `None`).
pub async fn board(state: &GameState, viewer: Option<Seat>) -> Picture {
    let opts = ViewOptions {
        as_seat: viewer,
        last_moves: state.last_round(),
        turn: Some(state.turn_number()),
        ..ViewOptions::default()
    };
    draw(state, opts).await
}

/// The board with the staged move `staged` drawn as a preview, from the mover's side.
pub async fn preview(state: &GameState, viewer: Option<Seat>, staged: &str) -> Picture {
    let opts = ViewOptions {
        as_seat: viewer,
        staged: Some(staged.to_string()),
        turn: Some(state.turn_number()),
        ..ViewOptions::default()
    };
    draw(state, opts).await
}

/// The replay GIF of a game from its export text.
pub async fn replay(export: String) -> Option<Vec<u8>> {
    match background::run(Work::Pictures, move || {
        view::replay_gif_from_export(&export)
    })
    .await
    {
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
