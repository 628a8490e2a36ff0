//! Forgetting a person (issue 61; Discord's developer policy asks a bot to delete a user's data
//! on request): everything kept about them that is theirs alone goes, in one transaction — their
//! settings and notification choices, their direct-message state, their private notes, their
//! ratings, and the direct messages sent or waiting for them — and their name becomes
//! [`FORGOTTEN_NAME`]. What the other players' games are made of stays: the seats, moves,
//! results and rating changes of the games they played, which the others' records replay.

use super::{Store, StoreError};

/// The name a forgotten person is shown by in the games they played (until they use the bot
/// again, which gives it their name anew).
pub const FORGOTTEN_NAME: &str = "a former player";

/// What forgetting a person removed, table by table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// Their settings row (time zone, quiet hours, notification choices, digest).
    pub settings: u64,
    /// Their direct-message state (opted in, closed DMs).
    pub dm_state: u64,
    /// Their private notes on games.
    pub notes: u64,
    /// Their skill ratings (each game's and the overall one).
    pub ratings: u64,
    /// The direct messages sent or waiting for them (their outbox lane).
    pub messages: u64,
    /// Whether they were known at all (a player row, now renamed).
    pub known: bool,
}

impl Store {
    /// Forget `player` (see the module's words); nothing changes unless all of it does.
    pub async fn forget_player(&self, player: i64) -> Result<Forgotten, StoreError> {
        let mut tx = self.writer.begin().await?;
        let mut delete = async |sql: &str| -> Result<u64, StoreError> {
            Ok(sqlx::query(sql)
                .bind(player)
                .execute(&mut *tx)
                .await?
                .rows_affected())
        };
        let settings = delete("DELETE FROM player_settings WHERE player_id = $1").await?;
        let dm_state = delete("DELETE FROM discord_dm WHERE user_id = $1").await?;
        let notes = delete("DELETE FROM notes WHERE player_id = $1").await?;
        let ratings = delete("DELETE FROM ratings WHERE player_id = $1").await?;
        let messages = sqlx::query("DELETE FROM outbox WHERE lane = $1")
            .bind(format!("p{player}"))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let known = sqlx::query("UPDATE players SET name = $1 WHERE id = $2")
            .bind(FORGOTTEN_NAME)
            .bind(player)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        tx.commit().await?;
        Ok(Forgotten {
            settings,
            dm_state,
            notes,
            ratings,
            messages,
            known,
        })
    }
}
