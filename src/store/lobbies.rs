//! Lobbies (`migrations/*/0004_lobbies.sql`): a game waiting for its players. The host keeps the
//! lobby as JSON and rewrites it with a version check, so two writers cannot both change one
//! version of a lobby.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Store, StoreError};

/// A `lobbies` row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    pub id: i64,
    pub status: i64,
    pub version: i64,
    pub body: String,
    pub game: Option<i64>,
    pub expires_at: i64,
}

/// One change of a lobby, based on `expected` (its version when read).
#[derive(Clone, Debug)]
pub struct LobbyWrite<'a> {
    pub id: i64,
    pub expected: i64,
    pub status: i64,
    pub body: &'a str,
    pub game: Option<i64>,
    pub now: i64,
}

const COLUMNS: &str = "id, status, version, body, game_id, expires_at FROM lobbies";

fn row(r: AnyRow) -> Result<LobbyRow, sqlx::Error> {
    Ok(LobbyRow {
        id: r.try_get(0)?,
        status: r.try_get(1)?,
        version: r.try_get(2)?,
        body: r.try_get(3)?,
        game: r.try_get(4)?,
        expires_at: r.try_get(5)?,
    })
}

impl Store {
    /// Store a new lobby; returns its id.
    pub async fn create_lobby(
        &self,
        status: i64,
        body: &str,
        expires_at: i64,
        now: i64,
    ) -> Result<i64, StoreError> {
        let r = sqlx::query(
            "INSERT INTO lobbies (status, version, body, expires_at, created_at, updated_at) \
             VALUES ($1, 0, $2, $3, $4, $4) RETURNING id",
        )
        .bind(status)
        .bind(body)
        .bind(expires_at)
        .bind(now)
        .fetch_one(&self.writer)
        .await?;
        Ok(r.try_get(0)?)
    }

    pub async fn lobby(&self, id: i64) -> Result<Option<LobbyRow>, StoreError> {
        let r = sqlx::query(&format!("SELECT {COLUMNS} WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.writer)
            .await?;
        Ok(r.map(row).transpose()?)
    }

    /// Rewrite a lobby if it is still at `w.expected`; false (nothing written) if it moved.
    pub async fn update_lobby(&self, w: &LobbyWrite<'_>) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE lobbies SET status = $1, version = version + 1, body = $2, game_id = $3, \
             updated_at = $4 WHERE id = $5 AND version = $6",
        )
        .bind(w.status)
        .bind(w.body)
        .bind(w.game)
        .bind(w.now)
        .bind(w.id)
        .bind(w.expected)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The lobbies waiting for players (status 0), through the status index.
    pub async fn open_lobbies(&self) -> Result<Vec<LobbyRow>, StoreError> {
        let rows = sqlx::query(&format!("SELECT {COLUMNS} WHERE status = 0 ORDER BY id"))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(row).collect::<Result<_, _>>()?)
    }

    /// Lobbies in `status` whose time ran out by `now`, oldest first.
    pub async fn lobbies_due(&self, status: i64, now: i64) -> Result<Vec<LobbyRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} WHERE status = $1 AND expires_at <= $2 ORDER BY expires_at, id"
        ))
        .bind(status)
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(row).collect::<Result<_, _>>()?)
    }
}
