//! Whether the bot is up, for a service manager's or an orchestrator's probes: how many of
//! this process's shards hold a gateway connection now (read from the running client's shard
//! manager, which serenity keeps up to date), counted in `hexmeros_gateway_shards_connected`
//! and answered on the metrics listener (`metrics::serve`): `/healthz` while the process runs,
//! `/readyz` when a shard is connected and the database answers. A READY is logged as the
//! "connected" line, a connection's drop as a warning.

use std::sync::{Arc, Mutex};

use poise::serenity_prelude as serenity;
use serenity::{ConnectionStage, FullEvent, ShardManager};

/// The running client's shards (the client is built again after a failed start).
#[derive(Default)]
pub struct Health {
    manager: Mutex<Option<Arc<ShardManager>>>,
}

impl Health {
    /// Watch the shards of the client just built.
    pub fn watch(&self, manager: Arc<ShardManager>) {
        *self.manager.lock().unwrap_or_else(|e| e.into_inner()) = Some(manager);
    }

    /// How many of this process's shards are connected now (also set as the gauge).
    pub async fn connected(&self) -> usize {
        let manager = self
            .manager
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let n = match manager {
            Some(m) => m
                .runners
                .lock()
                .await
                .values()
                .filter(|r| r.stage == ConnectionStage::Connected)
                .count(),
            None => 0,
        };
        metrics::gauge!("hexmeros_gateway_shards_connected").set(n as f64);
        n
    }
}

/// Log what `ev` says of the connection: READY (the bot is connected and ready) and a
/// connected shard's drop.
pub fn observe(ev: &FullEvent) {
    match ev {
        FullEvent::Ready { data_about_bot: r } => tracing::info!(
            bot = %r.user.name,
            id = %r.user.id,
            shard = r.shard.map_or(0, |s| s.id.0),
            servers = r.guilds.len(),
            invite = %super::permissions::invite_url(r.application.id.get()),
            "connected to Discord and ready"
        ),
        FullEvent::ShardStageUpdate { event }
            if event.old == ConnectionStage::Connected
                && event.new != ConnectionStage::Connected =>
        {
            tracing::warn!(
                shard = event.shard_id.0,
                stage = ?event.new,
                "the gateway connection dropped; serenity reconnects"
            );
        }
        _ => {}
    }
}

/// What `/readyz` answers: ready (200) when at least one shard is connected and the database
/// answered (`db`: its error otherwise); else 503, saying which is missing.
pub fn readiness(connected: usize, db: Result<(), String>) -> (u16, String) {
    match (connected, db) {
        (0, _) => (
            503,
            "not ready: no gateway connection to Discord yet\n".into(),
        ),
        (_, Err(e)) => (
            503,
            format!("not ready: the database does not answer: {e}\n"),
        ),
        (n, Ok(())) => (
            200,
            format!("ready: {n} shard(s) connected, the database answers\n"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_needs_a_connected_shard_and_a_database_that_answers() {
        assert_eq!(readiness(1, Ok(())).0, 200);
        assert_eq!(readiness(3, Ok(())).0, 200);
        let (code, why) = readiness(0, Ok(()));
        assert_eq!(code, 503);
        assert!(why.contains("gateway"), "{why}");
        let (code, why) = readiness(1, Err("timed out".into()));
        assert_eq!(code, 503);
        assert!(
            why.contains("database") && why.contains("timed out"),
            "{why}"
        );
    }
}
