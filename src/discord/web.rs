//! The web board beside the bot (`serve --web`): what a player does on the board is delivered
//! as if they had pressed a button in Discord (the board in the thread, the next player's ping,
//! the bots' turns), through the same outbox.

use std::sync::{Arc, OnceLock};

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use poise::serenity_prelude::Http;

use hexmeros::host::{Effect, GameId, PlayerId};
use hexmeros::web::Front;

use crate::discord::Data;
use crate::discord::outbound::deliver::{self, Origin};

/// Delivers a board action's effects with the client's HTTP, once the client is up.
pub struct DiscordFront {
    pub data: Data,
    /// Set when the client first connects; before that, the outbox deliverer sends the
    /// effects when it starts (they are in the outbox with their event).
    pub http: Arc<OnceLock<Arc<Http>>>,
    /// The Activity's sign-in, when the bot runs one (`DISCORD_CLIENT_SECRET`).
    pub activity: Option<Arc<dyn hexmeros::web::activity::Activity>>,
}

impl Front for DiscordFront {
    fn acted(
        &self,
        game: GameId,
        player: PlayerId,
        effects: Vec<Effect>,
    ) -> BoxFuture<'static, Vec<String>> {
        let data = self.data.clone();
        let http = self.http.get().cloned();
        async move {
            match http {
                Some(http) => {
                    let origin = Origin {
                        actor: Some(player),
                        ..Origin::default()
                    };
                    deliver::deliver(&http, &data, effects, origin).await
                }
                None => {
                    tracing::info!(
                        game,
                        "a board action before the client connected: the outbox has it"
                    );
                    hexmeros::web::said_to(effects, player)
                }
            }
        }
        .boxed()
    }

    fn pictures(&self) -> Option<hexmeros::background::PictureQueue> {
        Some(self.data.limits.pictures())
    }

    fn activity(&self) -> Option<Arc<dyn hexmeros::web::activity::Activity>> {
        self.activity.clone()
    }

    /// Still a member of the game's server, as Discord said within ten minutes or says now
    /// (the check every command that names a game makes); a failure of ours refuses.
    fn still_member(&self, game: GameId, player: PlayerId) -> BoxFuture<'static, bool> {
        let data = self.data.clone();
        async move {
            match crate::discord::inbound::scope::still_in_its_server(&data, game, player).await {
                Ok(member) => member,
                Err(e) => {
                    tracing::warn!(game, error = %e, "cannot tell whether a board's player is still in its server");
                    false
                }
            }
        }
        .boxed()
    }
}
