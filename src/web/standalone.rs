//! The board's front end where no other front end delivers anything (local mode, the tests):
//! after a player's action the game's bots play, in a task of their own so the player's answer
//! does not wait for them, and every open board follows through the live stream.

use std::sync::Arc;

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;

use super::Front;
use crate::host::{Effect, GameHost, GameId, PlayerId};

/// Runs the bots after each action; the player reads their private texts on the board.
pub struct Standalone {
    host: Arc<GameHost>,
    pictures: Option<crate::background::PictureQueue>,
}

impl Standalone {
    pub fn new(host: Arc<GameHost>) -> Standalone {
        Standalone {
            host,
            pictures: None,
        }
    }

    /// The same, sharing `queue` with the board (a test's, standing in for another front end).
    pub fn with_pictures(
        host: Arc<GameHost>,
        queue: crate::background::PictureQueue,
    ) -> Standalone {
        Standalone {
            host,
            pictures: Some(queue),
        }
    }
}

impl Front for Standalone {
    fn acted(
        &self,
        game: GameId,
        player: PlayerId,
        effects: Vec<Effect>,
    ) -> BoxFuture<'static, Vec<String>> {
        let host = self.host.clone();
        tokio::spawn(async move {
            if let Err(e) = host.bot_turns(game).await {
                tracing::error!(game, error = %e, "the bots could not play");
            }
        });
        let said = super::said_to(effects, player);
        async move { said }.boxed()
    }

    fn pictures(&self) -> Option<crate::background::PictureQueue> {
        self.pictures.clone()
    }
}
