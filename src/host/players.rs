//! Players and the games they are in: what front ends ask of the host besides commands.

use super::event::{GameId, PlayerId};
use super::{GameHost, HostError};
use crate::ai::Level;
use crate::store::GameSummary;

impl GameHost {
    /// Make sure a player with a known id (a Discord user) exists, named `name`.
    pub async fn ensure_player(&self, id: PlayerId, name: &str) -> Result<(), HostError> {
        Ok(self.store.ensure_player(id, name, self.now()).await?)
    }

    /// The player id of the bot of `level` (created on first use). Seat it like any player;
    /// several seats of one game may hold the same bot.
    pub async fn bot_player(&self, level: Level) -> Result<PlayerId, HostError> {
        Ok(self.store.bot_player(level, self.now()).await?)
    }

    /// The local (terminal) player called `name`, created if there is none.
    pub async fn local_player(&self, name: &str) -> Result<PlayerId, HostError> {
        Ok(self.store.local_player(name, self.now()).await?)
    }

    /// The player called `name`, if any.
    pub async fn player_named(&self, name: &str) -> Result<Option<PlayerId>, HostError> {
        Ok(self.store.player_named(name).await?)
    }

    /// A player's name, if the player exists.
    pub async fn player_name(&self, id: PlayerId) -> Result<Option<String>, HostError> {
        Ok(self.store.player_name(id).await?)
    }

    /// Remember where a front end shows a game (a Discord thread id).
    pub async fn set_channel(&self, game: GameId, channel: &str) -> Result<(), HostError> {
        Ok(self.store.set_channel(game, channel).await?)
    }

    /// Every game, newest first.
    pub async fn all_games(&self) -> Result<Vec<GameSummary>, HostError> {
        Ok(self.store.all_games().await?)
    }

    /// The games `player` plays (`only_my_turn`: those where it is their turn).
    pub async fn games_of(
        &self,
        player: PlayerId,
        only_my_turn: bool,
    ) -> Result<Vec<GameSummary>, HostError> {
        Ok(self.store.games_of(player, only_my_turn).await?)
    }
}
