//! The slash commands, registered with Discord when the bot connects, in the background.
//!
//! Registration used to be part of poise's setup, with `?`: a 500, a timeout or a lost answer
//! from Discord on that one request at startup failed the setup, and poise then never gave the
//! framework its data, so the process stayed connected but dead: no outbox, no timers, every
//! event waiting for data that would never come (a stalled outbox stops every server). Now the
//! setup starts the deliverer and the timers first and cannot fail; registering is tried with
//! the wire's retries and, when Discord still refuses it, again later (the commands registered
//! by the previous run stay in Discord meanwhile, so players see no difference).

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{CreateCommand, GuildId, Http};

use crate::discord::Data;
use crate::discord::outbound::failure::{Failure, classify};

/// The pause before the first try after a failed round of tries, doubled each time.
const AGAIN: Duration = Duration::from_secs(30);
/// The longest pause between two rounds.
const AGAIN_MAX: Duration = Duration::from_secs(600);

/// Register `commands` (in `guild` only, for development, or globally) in a task of its own.
pub fn spawn(http: Arc<Http>, data: Data, commands: Vec<CreateCommand>, guild: Option<GuildId>) {
    tokio::spawn(async move { run(&http, &data, &commands, guild).await });
}

async fn run(http: &Http, data: &Data, commands: &[CreateCommand], guild: Option<GuildId>) {
    let mut pause = AGAIN;
    loop {
        let sent = data
            .wire
            .retry("registering the slash commands", || {
                put(http, commands.to_vec(), guild)
            })
            .await;
        let e = match sent {
            Ok(n) => {
                tracing::info!(commands = n, guild = ?guild, "slash commands registered");
                return;
            }
            Err(e) => anyhow::Error::from(e),
        };
        if classify(&e) == Failure::Permanent {
            tracing::error!(error = %e, "Discord refused the slash commands; games go on with those it has");
            return;
        }
        tracing::error!(error = %e, retry_in_s = pause.as_secs(), "the slash commands could not be registered; games go on, and it is tried again");
        tokio::time::sleep(pause).await;
        if data.outbox.stopping() {
            return;
        }
        pause = (pause * 2).min(AGAIN_MAX);
    }
}

/// One registration: Discord replaces the whole list. Returns how many it holds now.
async fn put(
    http: &Http,
    commands: Vec<CreateCommand>,
    guild: Option<GuildId>,
) -> Result<usize, serenity::Error> {
    let made = match guild {
        Some(g) => g.set_commands(http, commands).await?,
        None => serenity::Command::set_global_commands(http, commands).await?,
    };
    Ok(made.len())
}
