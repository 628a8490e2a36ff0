//! A person's settings (`migrations/*/0009_settings.sql`, `0011_commit_on_pick.sql`,
//! `0014_turn_dm.sql`, `0015_nudge.sql`, `0016_digest.sql`): their time zone, quiet hours, how
//! the move picker commits, which direct messages they asked for and when their daily digest is
//! due, as stored. The host reads them into `host::quiet`
//! values and says what is wrong with a row it cannot read.

use sqlx::Row;

use super::{Store, StoreError};

/// One `player_settings` row as stored (not checked: the host parses it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsRow {
    pub time_zone: Option<String>,
    /// Local minutes after midnight.
    pub quiet_start: Option<i64>,
    pub quiet_end: Option<i64>,
    /// Commit a move when its target is picked (`0011_commit_on_pick.sql`).
    pub commit_on_pick: bool,
    /// A direct message when the Token comes to them (`0014_turn_dm.sql`).
    pub turn_dm: bool,
    /// A direct message when everyone waits on their vote alone (`0015_nudge.sql`).
    pub nudge: bool,
    /// The daily digest's local time of day, minutes after midnight (`0016_digest.sql`).
    pub digest_at: Option<i64>,
    /// When the next digest is due (unix ms); none: no digest is coming.
    pub digest_next_at: Option<i64>,
    /// Since when the next digest tells of finished games (unix ms).
    pub digest_since: Option<i64>,
}

/// The columns of a settings row, in [`settings_row`]'s names.
pub(super) const COLUMNS: &str = "time_zone, quiet_start, quiet_end, commit_on_pick, turn_dm, nudge, \
                       digest_at, digest_next_at, digest_since";

/// How many players one query reads at most (SQLite allows 32,766 parameters).
const CHUNK: usize = 500;

impl Store {
    /// `player`'s settings row, if they ever set any.
    pub async fn player_settings(&self, player: i64) -> Result<Option<SettingsRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM player_settings WHERE player_id = $1"
        ))
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| settings_row(&r)).transpose()
    }

    /// The settings rows of `players` (those that have one), with their player ids.
    pub async fn players_settings(
        &self,
        players: &[i64],
    ) -> Result<Vec<(i64, SettingsRow)>, StoreError> {
        let mut found = Vec::new();
        for chunk in players.chunks(CHUNK) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT player_id, {COLUMNS} FROM player_settings WHERE player_id IN ({})",
                marks.join(", ")
            );
            let mut q = sqlx::query(&sql);
            for p in chunk {
                q = q.bind(*p);
            }
            for r in q.fetch_all(&self.pool).await? {
                found.push((r.try_get(0)?, settings_row(&r)?));
            }
        }
        Ok(found)
    }

    /// Write `player`'s settings, replacing any they had. With `keep_schedule`, when their
    /// digest is next due stays as stored (not as read before: a digest claimed meanwhile is not
    /// made due again); since when it tells of games stays as stored while the digest is on.
    pub async fn set_player_settings(
        &self,
        player: i64,
        row: &SettingsRow,
        keep_schedule: bool,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO player_settings \
             (player_id, time_zone, quiet_start, quiet_end, commit_on_pick, turn_dm, nudge, \
             digest_at, digest_next_at, digest_since, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
             ON CONFLICT (player_id) DO UPDATE SET time_zone = excluded.time_zone, \
             quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, \
             commit_on_pick = excluded.commit_on_pick, turn_dm = excluded.turn_dm, \
             nudge = excluded.nudge, digest_at = excluded.digest_at, \
             digest_next_at = CASE WHEN $12 = 1 THEN player_settings.digest_next_at \
             ELSE excluded.digest_next_at END, \
             digest_since = CASE WHEN excluded.digest_at IS NULL THEN NULL \
             ELSE COALESCE(player_settings.digest_since, excluded.digest_since) END, \
             updated_at = excluded.updated_at",
        )
        .bind(player)
        .bind(&row.time_zone)
        .bind(row.quiet_start)
        .bind(row.quiet_end)
        .bind(i64::from(row.commit_on_pick))
        .bind(i64::from(row.turn_dm))
        .bind(i64::from(row.nudge))
        .bind(row.digest_at)
        .bind(row.digest_next_at)
        .bind(row.digest_since)
        .bind(now)
        .bind(i64::from(keep_schedule))
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// Forget `player`'s settings; whether they had any.
    pub async fn clear_player_settings(&self, player: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM player_settings WHERE player_id = $1")
            .bind(player)
            .execute(self.writer())
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

pub(super) fn settings_row(r: &sqlx::any::AnyRow) -> Result<SettingsRow, StoreError> {
    Ok(SettingsRow {
        time_zone: r.try_get("time_zone")?,
        quiet_start: r.try_get("quiet_start")?,
        quiet_end: r.try_get("quiet_end")?,
        commit_on_pick: r.try_get::<i64, _>("commit_on_pick")? != 0,
        turn_dm: r.try_get::<i64, _>("turn_dm")? != 0,
        nudge: r.try_get::<i64, _>("nudge")? != 0,
        digest_at: r.try_get("digest_at")?,
        digest_next_at: r.try_get("digest_next_at")?,
        digest_since: r.try_get("digest_since")?,
    })
}
