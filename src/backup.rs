//! `hexmeros db backup` and `hexmeros db restore`: an online backup of a SQLite database into a
//! new file, checked, and the way back.
//!
//! The backup is SQLite's `VACUUM INTO` ([`Store::backup_into`]): every row of every table, as
//! one transaction saw them, while the bot goes on. Nothing is skipped: a game that no longer
//! replays is copied as it is stored, and the summary names it (a warning, not a failure, since
//! that game is exactly what a backup must keep). The new file is then checked: SQLite's
//! integrity check, the rows of each table counted, every game replayed.
//!
//! A restore writes the backup back: into a SQLite file (a new one, or with `--replace` in
//! place of the old one, which is moved aside, never deleted, and only while no bot holds a
//! lease on it), or into an empty PostgreSQL database through `db copy`'s checked copy.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::host::{GameHost, SystemClock};
use crate::store::open::{is_sqlite_file, sqlite_file};
use crate::store::{Backend, Opening, Store, StoreError, copy, masked};

/// What was written and what was found in it.
#[derive(Debug)]
pub struct Checked {
    pub file: PathBuf,
    /// Rows per table (every table a copy carries).
    pub rows: Vec<(&'static str, i64)>,
    pub games: usize,
    /// Games kept as stored that do not replay, with why.
    pub unreplayable: Vec<(i64, String)>,
}

impl Checked {
    /// The summary an operator reads.
    pub fn text(&self, verb: &str) -> String {
        let mut out = String::new();
        let total: i64 = self.rows.iter().map(|r| r.1).sum();
        let _ = write!(
            out,
            "{verb} {}: {total} rows in {} tables, integrity ok; {} games, {} of them replay",
            self.file.display(),
            self.rows.len(),
            self.games,
            self.games - self.unreplayable.len()
        );
        for (id, why) in &self.unreplayable {
            let _ = write!(
                out,
                "\nwarning: game #{id} is kept as stored but does not replay: {why}"
            );
        }
        out
    }
}

/// Errors of a backup or restore, each a sentence.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Copy(#[from] copy::CopyError),
    #[error("{0}")]
    Refused(String),
}

/// Back the database at `url` up into `file` (which must not exist), then check the file.
pub async fn backup(url: &str, file: &Path) -> Result<Checked, BackupError> {
    if Backend::of(url)? == Backend::Postgres {
        return Err(BackupError::Refused(
            "an online backup of PostgreSQL is pg_dump's work: pg_dump -Fc -f hexmeros.dump \
             \"$DATABASE_URL\" (see docs/running.md, Backups)"
                .to_string(),
        ));
    }
    let source = Store::open_as(url, Opening::Existing).await?;
    let made = source.backup_into(file).await;
    source.close().await;
    made?;
    match check(file).await {
        Ok(checked) => Ok(checked),
        Err(e) => {
            // A backup that fails its check is no backup: it does not stay to be trusted.
            let _ = std::fs::remove_file(file);
            Err(BackupError::Refused(format!(
                "the backup written to {} failed its check and was removed: {e}",
                file.display()
            )))
        }
    }
}

/// Open `file` (a SQLite database of this binary's schema) and check it: integrity, rows,
/// every game replayed.
pub async fn check(file: &Path) -> Result<Checked, BackupError> {
    let store = Store::open_as(&url_of(file)?, Opening::Existing).await?;
    let checked = check_store(&store, file).await;
    store.close().await;
    checked
}

async fn check_store(store: &Store, file: &Path) -> Result<Checked, BackupError> {
    let problems = store.integrity_problems().await?;
    if !problems.is_empty() {
        return Err(BackupError::Refused(format!(
            "SQLite's integrity check found: {}",
            problems.join("; ")
        )));
    }
    let rows = copy::counts(store).await?;
    let host = GameHost::new(store.clone(), Arc::new(SystemClock));
    let mut ids: Vec<i64> = store.all_games().await?.iter().map(|g| g.id).collect();
    ids.sort_unstable();
    let mut unreplayable = Vec::new();
    for &id in &ids {
        if let Err(e) = host.replay(id).await {
            unreplayable.push((id, e.to_string()));
        }
    }
    Ok(Checked {
        file: file.to_path_buf(),
        rows,
        games: ids.len(),
        unreplayable,
    })
}

/// A SQLite URL for `file`.
fn url_of(file: &Path) -> Result<String, BackupError> {
    match file.to_str() {
        Some(path) => Ok(format!("sqlite://{path}")),
        None => Err(BackupError::Refused(format!(
            "{} is not a UTF-8 path",
            file.display()
        ))),
    }
}

/// Restore the backup `from` into `to`: see the module's words. Returns the summary.
pub async fn restore(from: &Path, to: &str, replace: bool) -> Result<String, BackupError> {
    if !from.is_file() || !is_sqlite_file(from) {
        return Err(BackupError::Refused(format!(
            "{} is not a backup: not a SQLite file",
            from.display()
        )));
    }
    // The backup is checked before anything of the target is touched.
    let checked = check(from).await?;
    match Backend::of(to)? {
        Backend::Postgres => {
            let summary = crate::copy_check::copy_and_check(&url_of(from)?, to).await?;
            Ok(format!(
                "{}\nrestored into {}: {}",
                checked.text("checked the backup"),
                masked(to),
                summary.text()
            ))
        }
        Backend::Sqlite => {
            let target = sqlite_file(to).ok_or_else(|| {
                BackupError::Refused(format!("{} names no file to restore into", masked(to)))
            })?;
            let mut out = checked.text("checked the backup");
            if target.exists() {
                if !replace {
                    return Err(BackupError::Refused(format!(
                        "{} exists: give --replace to move it aside and restore in its place",
                        target.display()
                    )));
                }
                let aside = set_aside(&target).await?;
                let _ = write!(out, "\nthe old database is kept as {}", aside.display());
            }
            let backup = Store::open_as(&url_of(from)?, Opening::Existing).await?;
            let made = backup.backup_into(&target).await;
            backup.close().await;
            made?;
            let restored = check(&target).await?;
            let _ = write!(out, "\n{}", restored.text("restored"));
            Ok(out)
        }
    }
}

/// Move the SQLite database `file` (and its WAL files) aside, once no process has it open and
/// its WAL is written back; returns where it went. Nothing in this process opens it first:
/// a connection of our own, even closed a moment before, could still hold it.
async fn set_aside(file: &Path) -> Result<PathBuf, BackupError> {
    crate::store::take_out_of_use(file).await?;
    let now = crate::host::Clock::now(&SystemClock);
    let stamp = now / 1000;
    let aside = PathBuf::from(format!("{}.before-restore-{stamp}", file.display()));
    for suffix in ["", "-wal", "-shm"] {
        let from = PathBuf::from(format!("{}{suffix}", file.display()));
        if from.exists() {
            let to = PathBuf::from(format!("{}{suffix}", aside.display()));
            std::fs::rename(&from, &to).map_err(|e| {
                BackupError::Refused(format!(
                    "cannot move {} aside to {}: {e}",
                    from.display(),
                    to.display()
                ))
            })?;
        }
    }
    Ok(aside)
}
