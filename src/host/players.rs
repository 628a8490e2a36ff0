//! Players and the games they are in: what front ends ask of the host besides commands.

use super::event::{GameId, PlayerId};
use super::{GameHost, HostError};
use crate::ai::Level;
use crate::store::GameSummary;

/// The player id of the bot of `level`: reserved negative ids (Discord snowflakes and local ids
/// are positive), the same in every database, so whether a seat is a bot follows from its player
/// id alone — also while a game is replayed.
pub const fn bot_id(level: Level) -> PlayerId {
    match level {
        Level::Random => -1,
        Level::Easy => -2,
        Level::Normal => -3,
        Level::Hard => -4,
    }
}

/// The level of the bot with player id `player`, or `None` for a person.
pub fn bot_level(player: PlayerId) -> Option<Level> {
    Level::ALL.into_iter().find(|&l| bot_id(l) == player)
}

impl GameHost {
    /// Make sure a player with a known id (a Discord user) exists, named `name` (renamed when
    /// their name changed since: pictures and tables show it).
    pub async fn ensure_player(&self, id: PlayerId, name: &str) -> Result<(), HostError> {
        // Read first: most calls find the name unchanged and write nothing.
        match self.store.player_name(id).await? {
            Some(known) if known == name => Ok(()),
            Some(_) => Ok(self.store.rename_player(id, name).await?),
            None => Ok(self.store.ensure_player(id, name, self.now()).await?),
        }
    }

    /// The player id of the bot of `level` (created on first use as "Bot (level)"). Seat it
    /// like any player; several seats of one game may hold the same bot.
    pub async fn bot_player(&self, level: Level) -> Result<PlayerId, HostError> {
        let id = bot_id(level);
        self.store
            .add_bot(id, &format!("Bot ({level})"), level.key(), self.now())
            .await?;
        Ok(id)
    }

    /// The level of a stored bot player, `None` for a person (or no such player).
    pub async fn player_bot_level(&self, id: PlayerId) -> Result<Option<Level>, HostError> {
        let key = self.store.player_bot_key(id).await?;
        Ok(key.and_then(|l| l.parse().ok()))
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
