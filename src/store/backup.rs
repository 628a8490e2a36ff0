//! Online backups of a SQLite database: `VACUUM INTO` writes a consistent copy of every page
//! of every table, from one read transaction, while the bot goes on writing (SQLite's WAL lets
//! readers and the writer run side by side). PostgreSQL has `pg_dump` for the same.

use std::path::Path;

use super::{Backend, Store, StoreError};

impl Store {
    /// Write a copy of this SQLite database to `file`, which must not exist yet.
    pub async fn backup_into(&self, file: &Path) -> Result<(), StoreError> {
        if self.backend != Backend::Sqlite {
            return Err(StoreError::Backup(
                "an online backup of PostgreSQL is pg_dump's work: pg_dump -Fc -f hexmeros.dump \
                 DATABASE_URL (see the operators' guide, \"Backups\")"
                    .to_string(),
            ));
        }
        if file.exists() {
            return Err(StoreError::Backup(format!(
                "{} exists already: a backup never overwrites a file",
                file.display()
            )));
        }
        let path = file
            .to_str()
            .ok_or_else(|| StoreError::Backup(format!("{} is not a UTF-8 path", file.display())))?;
        // Through the reading pool: the writer goes on meanwhile.
        sqlx::query("VACUUM INTO $1")
            .bind(path)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// SQLite's own check of every page and index (`PRAGMA integrity_check`): empty when the
    /// file is sound, else what is wrong. PostgreSQL keeps its own: always sound here.
    pub async fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        if self.backend != Backend::Sqlite {
            return Ok(Vec::new());
        }
        let lines: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_all(&self.pool)
            .await?;
        Ok(lines.into_iter().filter(|l| l != "ok").collect())
    }
}

/// Make sure no other process has the SQLite database `file` open, and write its WAL back into
/// it: leaving WAL mode needs the only connection to the file, so it fails while a bot (or any
/// other process) has the database open.
pub async fn take_out_of_use(file: &Path) -> Result<(), StoreError> {
    use sqlx::ConnectOptions as _;
    use sqlx::Connection as _;
    use std::str::FromStr as _;
    sqlx::any::install_default_drivers();
    let path = file
        .to_str()
        .ok_or_else(|| StoreError::Backup(format!("{} is not a UTF-8 path", file.display())))?;
    let opts = sqlx::any::AnyConnectOptions::from_str(&format!("sqlite://{path}"))?;
    // A process that has just closed the file may take a moment to let go of it (SQLite's
    // connections close on their own threads): asked a few times over a few seconds.
    let mut last = String::new();
    for _ in 0..CLOSE_TRIES {
        let mut conn = opts.connect().await?;
        let mode: Result<String, sqlx::Error> = sqlx::query_scalar("PRAGMA journal_mode = DELETE")
            .fetch_one(&mut conn)
            .await;
        let _ = conn.close().await;
        match mode {
            Ok(m) if m.eq_ignore_ascii_case("delete") => return Ok(()),
            Ok(m) => last = format!("it stays in {m} mode"),
            Err(e) => last = e.to_string(),
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    Err(StoreError::Backup(format!(
        "{} is in use by another process (a running bot?): stop it first ({last})",
        file.display()
    )))
}

/// How often [`take_out_of_use`] asks, 200 ms apart.
const CLOSE_TRIES: usize = 15;
