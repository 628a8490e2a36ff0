//! What the host asks a front end to do after a command or a tick. Plain data with player ids and
//! text: the Discord front end maps each to an API call, the terminal prints them.

use super::event::{GameId, PlayerId};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A new game: open its thread (or the terminal's equivalent).
    OpenThread { game: GameId, title: String },
    /// The game has ended for good (aborted).
    CloseThread { game: GameId },
    /// Post the board in the game's thread, with a caption.
    Board {
        game: GameId,
        board: String,
        caption: String,
    },
    /// A public message in the game's thread.
    Say { game: GameId, text: String },
    /// Mention a player in the game's thread.
    Ping {
        game: GameId,
        player: PlayerId,
        text: String,
    },
    /// A direct message (reminders that escalate).
    Dm { player: PlayerId, text: String },
    /// A reply only the acting player sees (a preview, a confirmation).
    Private { player: PlayerId, text: String },
    /// Ask a player in a challenge window (§5.4): "Declare Check / Let it stand" buttons whose
    /// ids carry `version`, so a stale button is refused.
    AskChallenge {
        game: GameId,
        player: PlayerId,
        version: u64,
        text: String,
    },
}

impl Effect {
    /// The game an effect belongs to, if any.
    pub fn game(&self) -> Option<GameId> {
        match self {
            Effect::OpenThread { game, .. }
            | Effect::CloseThread { game }
            | Effect::Board { game, .. }
            | Effect::Say { game, .. }
            | Effect::Ping { game, .. }
            | Effect::AskChallenge { game, .. } => Some(*game),
            Effect::Dm { .. } | Effect::Private { .. } => None,
        }
    }
}
