//! A player's private notes on a game (`/hexmeros note`): kept for them alone, at most
//! [`NOTES_KEPT`] lines, shown under their private board.

use super::{GameHost, GameId, HostError, NOTES_KEPT, PlayerId, Refused};
use crate::host::event::Millis;

/// A line of a player's private notes on a game, and when it was written (Unix milliseconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub at: Millis,
}

impl GameHost {
    /// Add a line to `player`'s private notes on `game` (`/hexmeros note`): only a seated
    /// player, at most [`NOTES_KEPT`] lines. Their notes, oldest first, come back.
    pub async fn add_note(
        &self,
        game: GameId,
        player: PlayerId,
        text: &str,
    ) -> Result<Vec<Note>, HostError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Refused::EmptyNote.into());
        }
        let state = self.state(game).await?;
        state.seat_of(player).ok_or(Refused::NotSeated)?;
        if !self
            .store
            .add_note(game, player, text, self.now(), NOTES_KEPT)
            .await?
        {
            return Err(Refused::TooManyNotes(NOTES_KEPT).into());
        }
        self.notes_of(game, player).await
    }

    async fn notes_of(&self, game: GameId, player: PlayerId) -> Result<Vec<Note>, HostError> {
        let rows = self.store.notes(game, player).await?;
        Ok(rows
            .into_iter()
            .map(|n| Note {
                text: n.text,
                at: n.at,
            })
            .collect())
    }

    /// `player`'s private notes on `game`, oldest first (none for someone not seated).
    pub async fn notes(&self, game: GameId, player: PlayerId) -> Result<Vec<Note>, HostError> {
        let state = self.state(game).await?;
        if state.seat_of(player).is_none() {
            return Ok(Vec::new());
        }
        self.notes_of(game, player).await
    }

    /// Forget `player`'s notes on `game`; how many lines went.
    pub async fn clear_notes(&self, game: GameId, player: PlayerId) -> Result<u64, HostError> {
        let state = self.state(game).await?;
        state.seat_of(player).ok_or(Refused::NotSeated)?;
        Ok(self.store.clear_notes(game, player).await?)
    }
}
