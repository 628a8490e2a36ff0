//! Secrets the bot makes itself (`migrations/*/0012_secrets.sql`): made once by whichever
//! process asks first, then read by every process of the database.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// The secret called `name`: `fresh` is stored if there is none yet (an insert that does
    /// nothing when another process stored one first), then the stored value is read back, so
    /// every process gets the same.
    pub async fn secret(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        sqlx::query(
            "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(fresh)
        .execute(self.writer())
        .await?;
        let row = sqlx::query("SELECT value FROM secrets WHERE name = $1")
            .bind(name)
            .fetch_one(self.writer())
            .await?;
        Ok(row.try_get(0)?)
    }
}
