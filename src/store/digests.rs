//! The daily digest's queries (issue 49, `migrations/*/0016_digest.sql`): the digests due,
//! read through the `digest_next_at` index; a digest claimed with a conditional update in the
//! transaction that queues it; and the games a player's digest tells of, read through the seats'
//! player index. None of them reads a whole table per player: `tests` checks SQLite's plans.

use sqlx::Row;

use super::settings::{COLUMNS, SettingsRow, settings_row};
use super::{GameSummary, NewEntry, Store, StoreError};

/// A digest that is due: whose, and their settings (`digest_next_at`, when it was due, is the
/// condition of its claim).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigestDue {
    pub player: i64,
    pub settings: SettingsRow,
}

/// The digests due at `$1`, the longest due first, at most `$2`.
fn digests_due_sql() -> String {
    format!(
        "SELECT player_id, {COLUMNS} FROM player_settings \
         WHERE digest_next_at <= $1 ORDER BY digest_next_at LIMIT $2"
    )
}

/// A digest claimed: next due at `$1`, telling of what happened since `$2`, for player `$3`,
/// only if it is still due at `$4`.
const CLAIM: &str = "UPDATE player_settings SET digest_next_at = $1, digest_since = $2 \
                     WHERE player_id = $3 AND digest_next_at = $4";

/// The games player `$1` sits in that are unfinished, or finished after `$2`.
const DIGEST_GAMES: &str = "SELECT DISTINCT g.id, g.kind, g.status, g.to_move, g.version \
     FROM games g JOIN seats s ON s.game_id = g.id \
     WHERE s.player_id = $1 AND s.until_version IS NULL \
     AND (g.status IN (10, 20, 30) OR (g.status = 50 AND g.updated_at > $2)) ORDER BY g.id";

impl Store {
    /// The digests due at `now`, the longest due first, at most `limit` (read through the
    /// `digest_next_at` index: only the rows due).
    pub async fn digests_due(&self, now: i64, limit: i64) -> Result<Vec<DigestDue>, StoreError> {
        let rows = sqlx::query(&digests_due_sql())
            .bind(now)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(DigestDue {
                    player: r.try_get("player_id")?,
                    settings: settings_row(r)?,
                })
            })
            .collect()
    }

    /// Claim `player`'s digest that was due at `was`: it is next due at `next` and tells of
    /// what happened since `since`, and `entries` (the digest, if there is something to say)
    /// join the outbox, in one transaction and only if the digest was still due at `was`. Two
    /// processes that built the same digest: one claims it, the other's claim changes nothing.
    /// Whether this claim was the one.
    pub async fn claim_digest(
        &self,
        player: i64,
        was: i64,
        next: Option<i64>,
        since: i64,
        entries: &[NewEntry],
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.writer.begin().await?;
        let done = sqlx::query(CLAIM)
            .bind(next)
            .bind(since)
            .bind(player)
            .bind(was)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        super::outbox::insert(&mut tx, entries, now).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// What a player's digest tells of: the games they sit in now that are unfinished (house
    /// rules, playing, paused) or finished after `since` (unix ms), through the seats' player
    /// index (no scan of every game).
    pub async fn digest_games(
        &self,
        player: i64,
        since: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(DIGEST_GAMES)
            .bind(player)
            .bind(since)
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter().map(super::summary).collect()
    }

    /// How the database plans the digest's reads (`EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN`
    /// on PostgreSQL), each query's plan as lines: the benchmark prints them.
    pub async fn digest_query_plans(&self) -> Result<Vec<(String, Vec<String>)>, StoreError> {
        let sqlite = self.backend() == super::Backend::Sqlite;
        let mut out = Vec::new();
        for (name, sql) in [
            ("digests due", digests_due_sql()),
            ("claim", CLAIM.to_string()),
            ("digest games", DIGEST_GAMES.to_string()),
        ] {
            let explain = if sqlite {
                "EXPLAIN QUERY PLAN"
            } else {
                "EXPLAIN"
            };
            let text = format!("{explain} {sql}");
            let mut q = sqlx::query(&text);
            for _ in 0..sql.matches('$').count() {
                q = q.bind(0_i64);
            }
            let rows = q.fetch_all(&self.pool).await?;
            let column = if sqlite { "detail" } else { "QUERY PLAN" };
            let lines = rows
                .iter()
                .map(|r| r.try_get::<String, _>(column))
                .collect::<Result<_, _>>()?;
            out.push((name.to_string(), lines));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::super::test_db::TestDb;
    use super::*;

    /// Each of the digest's queries finds its rows through an index: SQLite's plan searches
    /// (`SEARCH … USING INDEX` or the primary key) and never scans a table.
    #[tokio::test]
    async fn the_digest_reads_through_indexes_never_a_whole_table() {
        let db = TestDb::sqlite();
        let store = Store::open(&db.url).await.unwrap();
        let plans = store.digest_query_plans().await.unwrap();
        assert_eq!(plans.len(), 3);
        for (name, lines) in plans {
            assert!(!lines.is_empty(), "{name}");
            for line in &lines {
                assert!(!line.starts_with("SCAN"), "{name} scans: {lines:?}");
            }
            let searches = lines.iter().filter(|l| l.starts_with("SEARCH")).count();
            assert!(searches >= 1, "{name}: {lines:?}");
        }
    }

    /// A settings change read before a digest was claimed and written after it keeps the
    /// claim's schedule (`keep_schedule`): the digest is not due again that day. Turning the
    /// digest off forgets it; a new hour is written as given, telling of games since the
    /// stored time.
    #[tokio::test]
    async fn a_claim_between_a_settings_read_and_its_write_stands() {
        let db = TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        let on = SettingsRow {
            time_zone: Some("UTC".into()),
            digest_at: Some(8 * 60),
            digest_next_at: Some(1_000),
            digest_since: Some(10),
            ..SettingsRow::default()
        };
        store.set_player_settings(7, &on, false, 0).await.unwrap();
        // The settings are read (due at 1,000), then another process claims the digest.
        let read = store.player_settings(7).await.unwrap().unwrap();
        assert!(
            store
                .claim_digest(7, 1_000, Some(5_000), 1_000, &[], 1_000)
                .await
                .unwrap()
        );
        assert!(
            !store
                .claim_digest(7, 1_000, Some(5_000), 1_000, &[], 1_000)
                .await
                .unwrap()
        );
        // The change is written from what was read: the claim's schedule stands.
        let changed = SettingsRow {
            turn_dm: true,
            ..read.clone()
        };
        store
            .set_player_settings(7, &changed, true, 2)
            .await
            .unwrap();
        let now = store.player_settings(7).await.unwrap().unwrap();
        assert!(now.turn_dm);
        assert_eq!(
            (now.digest_next_at, now.digest_since),
            (Some(5_000), Some(1_000))
        );
        // A new hour: due when given, still telling of games since the last digest.
        let moved = SettingsRow {
            digest_at: Some(9 * 60),
            digest_next_at: Some(9_000),
            digest_since: Some(10),
            ..read.clone()
        };
        store
            .set_player_settings(7, &moved, false, 3)
            .await
            .unwrap();
        let now = store.player_settings(7).await.unwrap().unwrap();
        assert_eq!(
            (now.digest_next_at, now.digest_since),
            (Some(9_000), Some(1_000))
        );
        // Off: nothing is due, and nothing is kept.
        let off = SettingsRow {
            digest_at: None,
            digest_next_at: None,
            digest_since: None,
            ..read
        };
        store.set_player_settings(7, &off, false, 4).await.unwrap();
        let now = store.player_settings(7).await.unwrap().unwrap();
        assert_eq!((now.digest_next_at, now.digest_since), (None, None));
    }
}
