//! `hexmeros admin status`: for operators, what the bot still has to deliver and the games in
//! play; `hexmeros admin forget USER`: erase a person's own data on their request; `hexmeros
//! admin retention --days N`: the retention rule, now.

use clap::Subcommand;

use hexmeros::host::Status;
use hexmeros::store::Opening;

use super::db::{host, runtime};

#[derive(Subcommand)]
pub enum AdminCommand {
    /// The outbox (messages players must still be sent: how many, since when, retried, given
    /// up) and the games in play.
    Status {
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Forget a person on their request: their settings, notification and DM state, private
    /// notes, ratings and direct messages are erased and their name replaced; the games they
    /// played stay, as the other players' records.
    Forget {
        /// The person: their Discord user id (or a local player's id).
        #[arg(value_name = "USER")]
        user: String,
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Apply the retention rule now (what `serve` does every hour with
    /// HEXMEROS_RETENTION_DAYS): the private notes on games over for more than DAYS go, and
    /// everything kept about people who have not played for DAYS, as `forget` does.
    Retention {
        /// How many days to keep: at least 1.
        #[arg(long, value_name = "DAYS", value_parser = clap::value_parser!(u32).range(1..))]
        days: u32,
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
}

/// `hexmeros admin …`.
pub fn admin(cmd: AdminCommand) -> anyhow::Result<String> {
    runtime()?.block_on(async move {
        match cmd {
            AdminCommand::Status { db } => status(&host(db, Opening::Existing).await?).await,
            AdminCommand::Forget { user, db } => {
                let id = person(&user)?;
                forget(&host(db, Opening::Existing).await?, id).await
            }
            AdminCommand::Retention { days, db } => {
                let r = host(db, Opening::Existing)
                    .await?
                    .apply_retention(days)
                    .await?;
                Ok(format!(
                    "retention of {days} days: {} private notes of games over erased; {} people \
                     who have not played since forgotten{}",
                    r.notes,
                    r.forgotten.len(),
                    match r.forgotten.is_empty() {
                        true => String::new(),
                        false => format!(
                            " ({})",
                            r.forgotten
                                .iter()
                                .map(i64::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    }
                ))
            }
        }
    })
}

/// `hexmeros admin status`: the outbox at a glance, its waiting entries (the oldest ten) and
/// how many games are in play.
async fn status(host: &hexmeros::host::GameHost) -> anyhow::Result<String> {
    use std::fmt::Write as _;
    let now = host.now();
    let stats = host.outbox_stats().await?;
    let pending = host.outbox_pending().await?;
    let games = host.all_games().await?;
    let status = |g: &hexmeros::host::Listed| g.status;
    let playing = games
        .iter()
        .filter(|g| matches!(status(g), Some(Status::HouseRules | Status::Playing)))
        .count();
    let paused = games
        .iter()
        .filter(|g| status(g) == Some(Status::Paused))
        .count();
    let mut out = String::new();
    let oldest = match stats.oldest_created_at {
        Some(t) => format!(", the oldest waiting {} s", (now - t).max(0) / 1000),
        None => String::new(),
    };
    writeln!(
        out,
        "outbox: {} pending{oldest}; {} of them failed at least once; {} retries in all; \
         {} delivered, {} given up",
        stats.pending, stats.retrying, stats.retries, stats.delivered, stats.dropped
    )?;
    for e in pending.iter().take(10) {
        writeln!(
            out,
            "  #{} {} (priority {}), {} attempts{}",
            e.id,
            e.lane,
            e.priority,
            e.attempts,
            e.last_error
                .as_deref()
                .map(|x| format!(", last error: {x}"))
                .unwrap_or_default()
        )?;
    }
    if pending.len() > 10 {
        writeln!(out, "  … and {} more", pending.len() - 10)?;
    }
    let leases = host.leases().await?;
    let lapsed = leases.iter().filter(|l| l.2 <= now).count();
    writeln!(
        out,
        "leases: {} held, {lapsed} lapsed (their holder stopped; taken over at the next look)",
        leases.len() - lapsed
    )?;
    for (name, owner, until) in leases.iter().take(10) {
        let left = (until - now) / 1000;
        match left > 0 {
            true => writeln!(out, "  {name} held by {owner} for {left} s more")?,
            false => writeln!(out, "  {name} held by {owner}, lapsed {} s ago", -left)?,
        }
    }
    if leases.len() > 10 {
        writeln!(out, "  … and {} more", leases.len() - 10)?;
    }
    write!(
        out,
        "games: {playing} in play, {paused} paused, {} in all",
        games.len()
    )?;
    Ok(out)
}

/// A person's id as typed: a positive number (bots, whose ids are negative, are not people).
fn person(raw: &str) -> anyhow::Result<i64> {
    match raw.trim().parse::<i64>() {
        Ok(id) if id > 0 => Ok(id),
        _ => anyhow::bail!(
            "USER must be a person's id (a Discord user id such as 123456789012345678), not {raw:?}"
        ),
    }
}

/// `hexmeros admin forget USER`: what was erased, table by table.
async fn forget(host: &hexmeros::host::GameHost, id: i64) -> anyhow::Result<String> {
    let f = host.forget_player(id).await?;
    if !f.known && f == (hexmeros::store::Forgotten::default()) {
        anyhow::bail!("nobody with id {id} is known here: nothing was erased");
    }
    Ok(format!(
        "forgot {id}: {} settings, {} DM state, {} notes, {} ratings, {} direct messages erased; \
         shown as \"{}\" in the games they played",
        f.settings,
        f.dm_state,
        f.notes,
        f.ratings,
        f.messages,
        hexmeros::store::FORGOTTEN_NAME
    ))
}
