//! The timer task: the host's timers (turn clocks, reminders, ballots, challenge windows) run
//! every few seconds, and lobbies past their time are closed.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude::Http;

use crate::discord::Data;

/// Run the host's timers every `every`. What they produce is in the outbox: the deliverer is
/// woken and sends it in priority order, so a storm of due reminders neither holds up this loop
/// nor goes before a Token ping.
pub async fn tick_loop(http: Arc<Http>, data: Data, every: Duration) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        data.limits.forget_idle();
        match data.host.tick().await {
            Ok(fx) if !fx.is_empty() => data.outbox.wake(),
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "timers failed"),
        }
        crate::discord::inbound::lobby::expire(&http, &data).await;
    }
}
