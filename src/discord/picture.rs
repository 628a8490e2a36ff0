//! Board pictures for Discord, drawn off the async threads (`spawn_blocking`).

use hexmeros::games::Seat;
use hexmeros::host::GameState;

/// A board ready to post: a PNG, or a text picture (sent in a code block).
pub enum Picture {
    // Drawn by the view module (merged from the `view` branch).
    #[allow(dead_code)]
    Png(Vec<u8>),
    Text(String),
}

/// The board of a game from `viewer`'s side (the Token holder's when `None`).
pub async fn board(state: &GameState, viewer: Option<Seat>) -> Picture {
    let _ = viewer;
    let game = state.game.clone();
    match tokio::task::spawn_blocking(move || game.show()).await {
        Ok(text) => Picture::Text(text),
        Err(e) => Picture::Text(format!("(the board could not be drawn: {e})")),
    }
}

/// The board with the staged move drawn as a preview, from the mover's side.
pub async fn preview(state: &GameState, viewer: Option<Seat>, staged: &str) -> Picture {
    let _ = viewer;
    match state.preview(staged) {
        Ok((_, after)) => Picture::Text(after.show()),
        Err(e) => Picture::Text(format!("(no preview: {e})")),
    }
}
