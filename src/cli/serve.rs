//! `hexmeros serve`: the Discord bot, with its logs on stderr.

use super::db::runtime;

/// Run the bot until it is stopped.
pub fn serve(
    db: Option<String>,
    metrics: Option<String>,
    shards: Option<String>,
    total_shards: Option<String>,
    web: Option<String>,
) -> anyhow::Result<String> {
    runtime()?.block_on(async move {
        init_logging();
        crate::discord::serve_from_env(db, metrics, shards, total_shards, web).await?;
        Ok(String::new())
    })
}

/// The bot's logs, on stderr (serenity's and poise's too): `RUST_LOG` from the environment or
/// `.env` filters them (e.g. `hexmeros=debug,info`), `info` when unset; serenity's HTTP spans
/// only at warn unless `RUST_LOG` names `serenity::http`.
fn init_logging() {
    use std::io::IsTerminal as _;
    // A missing .env is fine: the variables may come from the environment.
    let _ = dotenvy::dotenv();
    let wanted = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let (filter, bad) = match wanted
        .as_deref()
        .map(tracing_subscriber::EnvFilter::try_new)
    {
        Some(Ok(f)) => (f, None),
        Some(Err(e)) => (tracing_subscriber::EnvFilter::new("info"), Some(e)),
        None => (tracing_subscriber::EnvFilter::new("info"), None),
    };
    // serenity opens an info span per HTTP request that records the whole request in Debug
    // form: an uploaded board picture as a list of numbers, tens of kilobytes of text per
    // request (most of the bot's CPU under load). Off unless RUST_LOG names serenity::http.
    let filter = match "serenity::http=warn".parse() {
        Ok(quiet)
            if !wanted
                .as_deref()
                .is_some_and(|w| w.contains("serenity::http")) =>
        {
            filter.add_directive(quiet)
        }
        _ => filter,
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
    if let Some(e) = bad {
        tracing::warn!(error = %e, "RUST_LOG is not a filter; logging at info");
    }
}
