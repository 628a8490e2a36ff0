//! Private notes (`migrations/*/0008_notes.sql`): a player's lines on a game, oldest first.

use sqlx::Row;

use super::{Store, StoreError};

/// One line of a player's notes on a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub at: i64,
}

impl Store {
    /// Add a line to `player`'s notes on `game`, unless they hold `max` lines already: then
    /// nothing is written and `false` comes back.
    pub async fn add_note(
        &self,
        game: i64,
        player: i64,
        text: &str,
        now: i64,
        max: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO notes (game_id, player_id, text, created_at) \
             SELECT $1, $2, $3, $4 \
             WHERE (SELECT COUNT(*) FROM notes WHERE game_id = $1 AND player_id = $2) < $5",
        )
        .bind(game)
        .bind(player)
        .bind(text)
        .bind(now)
        .bind(max)
        .execute(self.writer())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `player`'s notes on `game`, oldest first.
    pub async fn notes(&self, game: i64, player: i64) -> Result<Vec<Note>, StoreError> {
        let rows = sqlx::query(
            "SELECT text, created_at FROM notes WHERE game_id = $1 AND player_id = $2 ORDER BY id",
        )
        .bind(game)
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(Note {
                    text: r.try_get(0)?,
                    at: r.try_get(1)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// Forget `player`'s notes on `game`; how many lines went.
    pub async fn clear_notes(&self, game: i64, player: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM notes WHERE game_id = $1 AND player_id = $2")
            .bind(game)
            .bind(player)
            .execute(self.writer())
            .await?;
        Ok(done.rows_affected())
    }
}
