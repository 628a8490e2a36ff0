//! Prometheus metrics for `hexmeros serve --metrics ADDR` (or `HEXMEROS_METRICS`): the
//! `metrics` facade's recorder is `metrics-exporter-prometheus`'s, rendered by a small HTTP
//! listener of our own on ADDR: `GET /metrics` in Prometheus' text format, and the probes
//! `GET /healthz` (the process answers) and `GET /readyz` (a gateway shard is connected and the
//! database answers: [`super::health`]). Without the setting no recorder is installed and every
//! measurement below costs next to nothing.
//!
//! What is measured, and where (the host measures its own with the facade's macros):
//! * `hexmeros_commands_total{kind,action,outcome}` and `hexmeros_command_seconds{kind,action}`:
//!   every slash command, button, select menu and reaction, with its log line (`activity`);
//! * `hexmeros_first_callback_seconds`: from an interaction's arrival to its acknowledgement;
//! * `hexmeros_delivery_seconds{priority}`: from an outbox entry's creation (the commit of the
//!   event that caused it) to Discord's confirmation; a turn's board is an `urgent` entry;
//! * `hexmeros_commit_seconds` (host: storing one event), `hexmeros_render_seconds` (drawing
//!   a picture), `hexmeros_bot_think_seconds` (host: a bot's search);
//! * `hexmeros_discord_errors_total{status}`: every failed Discord request, by HTTP status, or
//!   `timeout` / `connection` / `other`;
//! * `hexmeros_gateway_shards_connected`: this process's shards connected to the gateway now;
//! * gauges refreshed every few seconds: `hexmeros_active_games` (unfinished games),
//!   `hexmeros_outbox_pending`, `hexmeros_outbox_oldest_age_seconds` and
//!   `hexmeros_game_cache_entries` (games whose state the host keeps in memory).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::routing::get;
use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use hexmeros::host::GameHost;

use super::health::{Health, readiness};

/// The histograms' buckets, in seconds: from a fast command to a slow Discord.
const BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// How often the gauges are read again.
const GAUGES_EVERY: Duration = Duration::from_secs(5);

/// The recorder installed and its listener bound, not yet answering ([`serve`]).
pub struct Metrics {
    handle: PrometheusHandle,
    listener: std::net::TcpListener,
    addr: SocketAddr,
}

/// Install the recorder and bind `addr` (named `name` in the error, which is one sentence), so
/// that a taken port stops the bot before it connects. Call once, inside the runtime.
pub fn install(name: &str, addr: SocketAddr) -> anyhow::Result<Metrics> {
    let cannot =
        |e: &dyn std::fmt::Display| anyhow::anyhow!("{name}: cannot serve metrics on {addr}: {e}");
    let listener = std::net::TcpListener::bind(addr).map_err(|e| cannot(&e))?;
    listener.set_nonblocking(true).map_err(|e| cannot(&e))?;
    let addr = listener.local_addr().map_err(|e| cannot(&e))?;
    let handle = PrometheusBuilder::new()
        .set_buckets(&BUCKETS)
        .and_then(PrometheusBuilder::install_recorder)
        .map_err(|e| cannot(&e))?;
    describe();
    Ok(Metrics {
        handle,
        listener,
        addr,
    })
}

/// Answer `/metrics`, `/healthz` and `/readyz` from now on, for as long as the process runs;
/// the recorder's upkeep (histograms' old samples) runs beside it.
pub fn serve(metrics: Metrics, health: Arc<Health>, host: Arc<GameHost>) -> anyhow::Result<()> {
    let Metrics {
        handle,
        listener,
        addr,
    } = metrics;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let (upkeep, shards) = (handle.clone(), health.clone());
    tokio::spawn(async move {
        let mut every = tokio::time::interval(GAUGES_EVERY);
        loop {
            every.tick().await;
            upkeep.run_upkeep();
            shards.connected().await;
        }
    });
    let app = axum::Router::new()
        .route("/metrics", get(move || std::future::ready(handle.render())))
        .route("/healthz", get(|| std::future::ready("ok\n")))
        .route(
            "/readyz",
            get(move || {
                let (health, host) = (health.clone(), host.clone());
                async move { ready(&health, &host).await }
            }),
        );
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "the metrics listener stopped");
        }
    });
    tracing::info!(%addr, "serving Prometheus metrics at /metrics, probes at /healthz and /readyz");
    Ok(())
}

/// `/readyz`: a shard connected, and the database answering within two seconds.
async fn ready(health: &Health, host: &GameHost) -> (StatusCode, String) {
    let db = match tokio::time::timeout(Duration::from_secs(2), host.active_games()).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("no answer within 2 s".to_string()),
    };
    let (code, text) = readiness(health.connected().await, db);
    (
        StatusCode::from_u16(code).unwrap_or(StatusCode::SERVICE_UNAVAILABLE),
        text,
    )
}

/// The `# HELP` lines.
fn describe() {
    describe_counter!(
        "hexmeros_commands_total",
        "Slash commands, buttons, select menus and reactions handled, by outcome"
    );
    describe_histogram!(
        "hexmeros_command_seconds",
        metrics::Unit::Seconds,
        "How long handling a command, click or reaction took"
    );
    describe_histogram!(
        "hexmeros_first_callback_seconds",
        metrics::Unit::Seconds,
        "From an interaction's arrival to its acknowledgement"
    );
    describe_histogram!(
        "hexmeros_delivery_seconds",
        metrics::Unit::Seconds,
        "From an outbox entry's creation to its delivery to Discord"
    );
    describe_histogram!(
        "hexmeros_commit_seconds",
        metrics::Unit::Seconds,
        "How long storing one game event took"
    );
    describe_histogram!(
        "hexmeros_render_seconds",
        metrics::Unit::Seconds,
        "How long drawing a board picture took"
    );
    describe_histogram!(
        "hexmeros_bot_think_seconds",
        metrics::Unit::Seconds,
        "How long a bot's search for one move took"
    );
    describe_counter!(
        "hexmeros_discord_errors_total",
        "Failed Discord requests, by HTTP status (or timeout, connection, other)"
    );
    describe_gauge!("hexmeros_active_games", "Unfinished games");
    describe_gauge!(
        "hexmeros_outbox_pending",
        "Outbox entries not delivered yet"
    );
    describe_gauge!(
        "hexmeros_outbox_oldest_age_seconds",
        metrics::Unit::Seconds,
        "Age of the oldest outbox entry not delivered yet (0 when none)"
    );
    describe_counter!(
        "hexmeros_web_pictures_total",
        "The web board's pictures: drawn, cached, busy (503) or too_fast (429)"
    );
    describe_gauge!(
        "hexmeros_gateway_shards_connected",
        "This process's shards connected to Discord's gateway"
    );
    describe_gauge!(
        "hexmeros_game_cache_entries",
        "Games whose state the host keeps in memory"
    );
}

/// A command, click or reaction finished: `kind` is `command`, `component` or `reaction`.
pub fn command(kind: &'static str, action: &str, outcome: &'static str, took: Option<Duration>) {
    let action = action.to_string();
    counter!("hexmeros_commands_total", "kind" => kind, "action" => action.clone(), "outcome" => outcome)
        .increment(1);
    if let Some(took) = took {
        histogram!("hexmeros_command_seconds", "kind" => kind, "action" => action).record(took);
    }
}

/// An interaction was acknowledged `took` after it arrived.
pub fn first_callback(took: Duration) {
    histogram!("hexmeros_first_callback_seconds").record(took);
}

/// An outbox entry of `priority` was delivered `age_ms` after it was written.
pub fn delivered(priority: i64, age_ms: i64) {
    let priority = match priority {
        hexmeros::host::URGENT => "urgent",
        hexmeros::host::REMINDER => "reminder",
        _ => "normal",
    };
    histogram!("hexmeros_delivery_seconds", "priority" => priority)
        .record(age_ms.max(0) as f64 / 1000.0);
}

/// A board picture took `took` to draw.
pub fn rendered(took: Duration) {
    histogram!("hexmeros_render_seconds").record(took);
}

/// A Discord request failed, with its label (`wire::error_status`: the HTTP status, else what
/// went wrong).
pub fn discord_error(status: &str) {
    counter!("hexmeros_discord_errors_total", "status" => status.to_string()).increment(1);
}

/// Read the gauges every few seconds, for ever (spawned when metrics are served).
pub async fn gauges(host: Arc<GameHost>) {
    let mut every = tokio::time::interval(GAUGES_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match host.active_games().await {
            Ok(n) => gauge!("hexmeros_active_games").set(n as f64),
            Err(e) => tracing::warn!(error = %e, "no active games count for the metrics"),
        }
        match host.outbox_stats().await {
            Ok(s) => {
                let age = s.oldest_created_at.map_or(0, |t| (host.now() - t).max(0));
                gauge!("hexmeros_outbox_pending").set(s.pending as f64);
                gauge!("hexmeros_outbox_oldest_age_seconds").set(age as f64 / 1000.0);
            }
            Err(e) => tracing::warn!(error = %e, "no outbox stats for the metrics"),
        }
        gauge!("hexmeros_game_cache_entries").set(host.cached_games() as f64);
    }
}
