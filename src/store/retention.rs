//! Keeping people's data only as long as the operator says (`HEXMEROS_RETENTION_DAYS`): past
//! the cut-off, the private notes on games that are over go, and so does everything kept about
//! a person who has not played since, exactly as forgetting them on request would (see
//! [`Store::forget_player`]). The games themselves stay: they are the other players' records.

use sqlx::Row as _;

use super::{FORGOTTEN_NAME, Store, StoreError};

/// What one pass of the retention rule removed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Retained {
    /// Private notes on games over before the cut-off.
    pub notes: u64,
    /// People forgotten: nothing of theirs (a game, a setting, their first use) is as recent as
    /// the cut-off, and no game of theirs is still going.
    pub forgotten: Vec<i64>,
}

/// A game's status ids that mean "over" (`host::Status`: finished, aborted).
const OVER: &str = "(50, 60)";

impl Store {
    /// Apply the retention rule at `cutoff` (unix ms): see the module's words. Bots are never
    /// forgotten (they are not people), nor is anyone already forgotten with nothing left.
    pub async fn apply_retention(&self, cutoff: i64) -> Result<Retained, StoreError> {
        let notes = sqlx::query(&format!(
            "DELETE FROM notes WHERE game_id IN \
             (SELECT id FROM games WHERE status IN {OVER} AND updated_at < $1)"
        ))
        .bind(cutoff)
        .execute(&self.writer)
        .await?
        .rows_affected();
        let rows = sqlx::query(&format!(
            "SELECT p.id FROM players p \
             WHERE p.bot_level IS NULL AND p.id > 0 AND p.created_at < $1 \
               AND NOT EXISTS (SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id \
                   WHERE s.player_id = p.id AND (g.status NOT IN {OVER} OR g.updated_at >= $1)) \
               AND NOT EXISTS (SELECT 1 FROM player_settings t \
                   WHERE t.player_id = p.id AND t.updated_at >= $1) \
               AND (p.name <> $2 \
                   OR EXISTS (SELECT 1 FROM player_settings t WHERE t.player_id = p.id) \
                   OR EXISTS (SELECT 1 FROM discord_dm d WHERE d.user_id = p.id) \
                   OR EXISTS (SELECT 1 FROM notes n WHERE n.player_id = p.id) \
                   OR EXISTS (SELECT 1 FROM ratings r WHERE r.player_id = p.id)) \
             ORDER BY p.id"
        ))
        .bind(cutoff)
        .bind(FORGOTTEN_NAME)
        .fetch_all(&self.writer)
        .await?;
        let mut forgotten = Vec::with_capacity(rows.len());
        for row in rows {
            let id: i64 = row.try_get(0)?;
            self.forget_player(id).await?;
            forgotten.push(id);
        }
        Ok(Retained { notes, forgotten })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::store::Store;
    use crate::store::test_db::TestDb;

    async fn exec(s: &Store, sql: &str) {
        sqlx::query(sql).execute(s.writer()).await.unwrap();
    }

    #[tokio::test]
    async fn notes_of_old_finished_games_and_people_idle_since_go_and_nothing_else() {
        // SQLite, or PostgreSQL in CI's second pass.
        let db = TestDb::new().await;
        let s = Store::open(&db.url).await.unwrap();
        // Ann played game 1, over at 100; Bob plays game 2, still going; Cy played game 3,
        // over at 5000 (after the cut-off); Dee only chose settings, at 100; a bot sat in 1.
        for (id, name, at) in [
            (11, "ann", 10),
            (12, "bob", 10),
            (13, "cy", 10),
            (14, "dee", 10),
        ] {
            s.ensure_player(id, name, at).await.unwrap();
        }
        exec(
            &s,
            "INSERT INTO players (id, name, created_at, bot_level) VALUES (-1, 'bot', 0, 'easy')",
        )
        .await;
        for (id, status, updated) in [(1, 50, 100), (2, 20, 100), (3, 60, 5000)] {
            sqlx::query(
                "INSERT INTO games (id, kind, status, setup, house_rules, created_at, updated_at) \
                 VALUES ($1, 'hexdame', $2, '{}', '{}', 0, $3)",
            )
            .bind(id)
            .bind(status)
            .bind(updated)
            .execute(s.writer())
            .await
            .unwrap();
        }
        for (game, player) in [(1, 11), (1, -1), (2, 12), (3, 13)] {
            sqlx::query(
                "INSERT INTO seats (game_id, seat, player_id, from_version) VALUES ($1, $2, $2, 0)",
            )
            .bind(game)
            .bind(player)
            .execute(s.writer())
            .await
            .unwrap();
        }
        for (game, player) in [(1, 11), (2, 12), (3, 13)] {
            assert!(s.add_note(game, player, "plan", 0, 10).await.unwrap());
        }
        exec(&s, "INSERT INTO player_settings (player_id, time_zone, updated_at) VALUES (14, 'UTC', 100)").await;
        exec(&s, "INSERT INTO ratings (player_id, kind, mu, sigma, games) VALUES (11, 'hexdame', 25.0, 8.0, 1)").await;

        let r = s.apply_retention(1000).await.unwrap();
        assert_eq!(
            r.notes, 1,
            "only game 1's note: game 2 goes on, game 3 ended after"
        );
        assert_eq!(r.forgotten, vec![11, 14]);
        let names: Vec<String> = sqlx::query_scalar("SELECT name FROM players ORDER BY id")
            .fetch_all(s.writer())
            .await
            .unwrap();
        assert_eq!(
            names,
            ["bot", "a former player", "bob", "cy", "a former player"]
        );
        let ratings: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ratings")
            .fetch_one(s.writer())
            .await
            .unwrap();
        assert_eq!(ratings, 0);
        // The games and their seats stay.
        let seats: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM seats")
            .fetch_one(s.writer())
            .await
            .unwrap();
        assert_eq!(seats, 4);
        // A second pass finds nothing more: the forgotten are not forgotten again.
        assert_eq!(s.apply_retention(1000).await.unwrap(), Default::default());
        // A later cut-off reaches Cy's game too.
        let r = s.apply_retention(6000).await.unwrap();
        assert_eq!((r.notes, r.forgotten), (1, vec![13]));
    }
}
