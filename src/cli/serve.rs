//! `hexmeros serve`: the Discord bot, with its logs on stderr.

use super::db::runtime;
use crate::discord::{ServeArgs, Settings};

/// Run the bot until it is stopped, with `args` as parsed from `matches` (which tells a flag
/// from a variable); `.env` was read before.
pub fn serve(args: ServeArgs, matches: Option<&clap::ArgMatches>) -> anyhow::Result<String> {
    let env = |name: &str| {
        std::env::var(name)
            .ok()
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let settings = Settings::resolve(&args, matches, env)?;
    few_arenas();
    runtime()?.block_on(async move {
        init_logging(settings.log_json);
        crate::discord::serve_with(settings).await?;
        Ok(String::new())
    })
}

/// Two malloc arenas, unless `MALLOC_ARENA_MAX` says otherwise. glibc gives threads that
/// allocate at once arenas of their own (up to eight per core) and hands little of them back:
/// after a burst of boards, drawn on many threads, the bot stayed about 30 MiB larger (the load
/// bench's 600 starts and 600 moves: 165 MiB at its peak, 133 with two arenas, at the same
/// speed). Called before any other thread starts.
fn few_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: mallopt only sets one of the allocator's parameters; no other thread of this
        // process runs yet.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 2);
        }
    }
}

/// The bot's logs, on stderr (serenity's and poise's too): `RUST_LOG` from the environment or
/// `.env` filters them (e.g. `hexmeros=debug,info`), `info` when unset; serenity's HTTP spans
/// only at warn unless `RUST_LOG` names `serenity::http`; as JSON lines when `json`
/// (`HEXMEROS_LOG_FORMAT=json`: one object a line, with the time, level, target and fields).
fn init_logging(json: bool) {
    use std::io::IsTerminal as _;
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
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if json {
        logs.json().with_current_span(false).try_init()
    } else {
        logs.with_ansi(std::io::stderr().is_terminal()).try_init()
    };
    if let Some(e) = bad {
        tracing::warn!(error = %e, "RUST_LOG is not a filter; logging at info");
    }
}
