//! What a front end may ask about a game besides sending commands: the Token holder's movable
//! pieces and their moves, the Checks a staged move may declare. Each answers only the player
//! who may act on it, so a picker never shows a stranger's moves.

use super::event::{GameId, PlayerId};
use super::say::Refused;
use super::{GameHost, GameState, HostError};
use crate::games::Seat;

impl GameHost {
    /// How many unfinished games (not finished or aborted) `player` sits in.
    pub async fn unfinished_games(&self, player: PlayerId) -> Result<usize, HostError> {
        let n = self.store.unfinished_count(player).await?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// The game's state if `player` is the Token holder's mover, else why not.
    pub async fn turn_of(&self, game: GameId, player: PlayerId) -> Result<GameState, HostError> {
        let state = self.state(game).await?;
        state.require_mover(player)?;
        Ok(state)
    }

    /// Every legal move of `player`, who holds the Token, as text, sorted.
    pub async fn legal_moves(
        &self,
        game: GameId,
        player: PlayerId,
    ) -> Result<Vec<String>, HostError> {
        Ok(self.turn_of(game, player).await?.position().legal_moves())
    }

    /// The pieces (or reserves) `player`, who holds the Token, can move, sorted.
    pub async fn movable_pieces(
        &self,
        game: GameId,
        player: PlayerId,
    ) -> Result<Vec<String>, HostError> {
        Ok(self
            .turn_of(game, player)
            .await?
            .position()
            .movable_pieces())
    }

    /// The legal moves of `piece` (as `movable_pieces` names it) for `player`.
    pub async fn piece_moves(
        &self,
        game: GameId,
        player: PlayerId,
        piece: &str,
    ) -> Result<Vec<String>, HostError> {
        Ok(self
            .turn_of(game, player)
            .await?
            .position()
            .moves_from(piece))
    }

    /// The seats `player` may declare Check on with their staged move.
    pub async fn declarable_checks(
        &self,
        game: GameId,
        player: PlayerId,
    ) -> Result<Vec<Seat>, HostError> {
        let state = self.turn_of(game, player).await?;
        if state.staged().is_none() {
            return Err(Refused::NothingStaged.into());
        }
        Ok(state.declarable())
    }

    /// The stored version of `game` (what another process may have moved it to), `None` for
    /// no such game.
    pub async fn stored_version(&self, game: GameId) -> Result<Option<u64>, HostError> {
        Ok(self.store.version(game).await?.map(|v| v.max(0) as u64))
    }

    /// The secret called `name`, made from `fresh` by whichever process asks first (see
    /// `Store::secret`).
    pub async fn secret(&self, name: &str, fresh: &str) -> Result<String, HostError> {
        Ok(self.store.secret(name, fresh).await?)
    }
}
