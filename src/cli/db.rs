//! `hexmeros db copy`, `db backup`, `db restore`, `export` and `import`, and what every verb on a database shares: its
//! URL (flag, then `DATABASE_URL`, then the embedded SQLite default), the runtime and the host.

use std::io::Read;

use clap::Subcommand;

use hexmeros::store::Opening;

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
    /// Back the database up into a new SQLite FILE while the bot runs (SQLite's VACUUM INTO),
    /// then check the file: its integrity, the rows of every table, every game replayed (a game
    /// that does not replay is kept as stored, and named). For PostgreSQL use pg_dump.
    Backup {
        /// The file to write; it must not exist.
        #[arg(long, value_name = "FILE")]
        to: std::path::PathBuf,
        /// The database to back up; default: $DATABASE_URL, else sqlite://hexmeros.db.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Restore a backup FILE into a database, after checking it: a new SQLite file, an existing
    /// one with --replace (moved aside, once no bot has it open), or an empty PostgreSQL one.
    Restore {
        /// The backup made by `db backup`.
        #[arg(long, value_name = "FILE")]
        from: std::path::PathBuf,
        /// Where to restore it: sqlite://FILE or postgres://USER@HOST/DB.
        #[arg(long, value_name = "URL")]
        to: String,
        /// Move an existing SQLite file aside (FILE.before-restore-TIME) and restore in its
        /// place.
        #[arg(long)]
        replace: bool,
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

/// The database at `url` opened as `how` says, or what is wrong with it, in one sentence that
/// names it (its password masked).
pub async fn open(url: &str, how: Opening) -> anyhow::Result<hexmeros::store::Store> {
    use hexmeros::store::{Store, StoreError, masked};
    Store::open_as(url, how).await.map_err(|e| match e {
        StoreError::Open(_) | StoreError::Url(_) => anyhow::anyhow!("{e}"),
        other => anyhow::anyhow!("cannot open the database {}: {other}", masked(url)),
    })
}

/// The host over the verb's database (see [`database_url`]), opened as `how` says: read-only
/// verbs ([`Opening::Existing`]) create and upgrade nothing.
pub async fn host(db: Option<String>, how: Opening) -> anyhow::Result<hexmeros::host::GameHost> {
    let url = database_url(db);
    let store = open(&url, how).await?;
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
            DbCommand::Backup { to, db } => {
                let url = database_url(db);
                Ok(hexmeros::backup::backup(&url, &to)
                    .await?
                    .text("backed up into"))
            }
            DbCommand::Restore { from, to, replace } => {
                Ok(hexmeros::backup::restore(&from, &to, replace).await?)
            }
        }
    })
}

/// `hexmeros export GAME`: a stored game as replay text.
pub fn export(game: i64, db: Option<String>) -> anyhow::Result<String> {
    runtime()?.block_on(async move { Ok(host(db, Opening::Existing).await?.export(game).await?) })
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
    for (i, n) in players.iter().enumerate() {
        if players[..i].iter().any(|m| m.eq_ignore_ascii_case(n)) {
            anyhow::bail!("--players names {n} twice: each seat needs its own player");
        }
    }
    runtime()?.block_on(async move {
        let host = host(db, Opening::Migrate).await?;
        let mut ids = Vec::new();
        for n in &players {
            ids.push(host.local_player(n).await?);
        }
        let id = host.import(&text, &ids).await?;
        Ok(format!("imported as game #{id}"))
    })
}
