//! `hexmeros db copy`, `export` and `import`, and what every verb on a database shares: its
//! URL (flag, then `DATABASE_URL`, then the embedded SQLite default), the runtime and the host.

use std::io::Read;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum DbCommand {
    /// Copy every game, player, rating, link, lobby, note, setting and outbox entry (with their
    /// ids) from one database into an empty one, then check the copy: the same rows in every
    /// table, and every game replaying to the same state. Stop the bot first.
    Copy {
        /// The database to copy: sqlite://FILE or postgres://USER@HOST/DB.
        #[arg(long, value_name = "URL")]
        from: String,
        /// The empty database to copy into (a new SQLite file is created).
        #[arg(long, value_name = "URL")]
        to: String,
    },
}

pub fn database_url(db: Option<String>) -> String {
    db.or_else(|| std::env::var("DATABASE_URL").ok())
        .filter(|u| !u.trim().is_empty())
        .unwrap_or_else(|| hexmeros::store::DEFAULT_DATABASE_URL.to_string())
}

pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    // The Discord front end's futures nest deep (serenity's event dispatch, poise, a command,
    // the host, sqlx); unoptimized (a debug build) they are several times larger, and under load
    // a worker's default 2 MiB stack overflowed. 8 MiB is address space; only what is used is
    // resident.
    Ok(tokio::runtime::Builder::new_multi_thread()
        .thread_stack_size(8 * 1024 * 1024)
        .enable_all()
        .build()?)
}

pub async fn host(db: Option<String>) -> anyhow::Result<hexmeros::host::GameHost> {
    let url = database_url(db);
    let store = hexmeros::store::Store::open(&url)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the database {url}: {e}"))?;
    Ok(hexmeros::host::GameHost::new(
        store,
        std::sync::Arc::new(hexmeros::host::SystemClock),
    ))
}

/// `hexmeros db …`.
pub fn db(cmd: DbCommand) -> anyhow::Result<String> {
    runtime()?.block_on(async move {
        match cmd {
            DbCommand::Copy { from, to } => {
                let summary = hexmeros::copy_check::copy_and_check(&from, &to).await?;
                Ok(summary.text())
            }
        }
    })
}

/// `hexmeros export GAME`: a stored game as replay text.
pub fn export(game: i64, db: Option<String>) -> anyhow::Result<String> {
    runtime()?.block_on(async move { Ok(host(db).await?.export(game).await?) })
}

/// `hexmeros import FILE --players …`: a game from replay text, seating the named local players.
pub fn import(file: String, players: Vec<String>, db: Option<String>) -> anyhow::Result<String> {
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        s
    } else {
        std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?
    };
    runtime()?.block_on(async move {
        let host = host(db).await?;
        let mut ids = Vec::new();
        for n in &players {
            ids.push(host.local_player(n).await?);
        }
        let id = host.import(&text, &ids).await?;
        Ok(format!("imported as game #{id}"))
    })
}
