//! Board pictures for Discord, drawn off the async threads (`spawn_blocking`).

use hexmeros::games::{AnyGame, Seat};

/// A board ready to post: a PNG, or a text picture (sent in a code block).
pub enum Picture {
    // Drawn by the view module (merged from the `view` branch).
    #[allow(dead_code)]
    Png(Vec<u8>),
    Text(String),
}

/// Draw `game` from `viewer`'s side (the Token holder's when `None`).
pub async fn board(game: AnyGame, viewer: Option<Seat>) -> Picture {
    let _ = viewer;
    match tokio::task::spawn_blocking(move || game.show()).await {
        Ok(text) => Picture::Text(text),
        Err(e) => Picture::Text(format!("(the board could not be drawn: {e})")),
    }
}
