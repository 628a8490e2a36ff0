//! Leases (`migrations/*/0010_leases.sql`): work that no interaction ties to one process — a
//! game's timers, a game's bots, an outbox lane — goes to whichever process claims it first, so
//! several processes on one database never do the same item twice at once, and an item whose
//! holder died (its lease lapsed) is taken over by another.
//!
//! A claim is one upsert, atomic on both backends: it inserts the lease, or takes it over when it
//! has lapsed or is already the claimant's (a renewal). Nothing is held between statements, so
//! no lock waits on a process that stopped answering.

use super::{Store, StoreError};

impl Store {
    /// Claim the lease `name` for `owner` until `now + ttl_ms`: true if `owner` holds it now (it
    /// was free, had lapsed, or was theirs already: then it is renewed), false if another
    /// holder's lease runs.
    pub async fn claim_lease(
        &self,
        name: &str,
        owner: &str,
        now: i64,
        ttl_ms: i64,
    ) -> Result<bool, StoreError> {
        let q = sqlx::query(
            "INSERT INTO leases (name, owner, until_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until_ms = excluded.until_ms \
             WHERE leases.until_ms <= $4 OR leases.owner = excluded.owner",
        )
        .bind(name)
        .bind(owner)
        .bind(now.saturating_add(ttl_ms))
        .bind(now);
        Ok(self.bookkeeping(q).await? == 1)
    }

    /// Give up `owner`'s lease `name` (nothing if it is not theirs: it lapsed and was taken).
    pub async fn release_lease(&self, name: &str, owner: &str) -> Result<(), StoreError> {
        let q = sqlx::query("DELETE FROM leases WHERE name = $1 AND owner = $2")
            .bind(name)
            .bind(owner);
        self.bookkeeping(q).await?;
        Ok(())
    }

    /// Every lease in the table, lapsed or not, soonest to lapse first: (name, holder, until).
    pub async fn leases(&self) -> Result<Vec<(String, String, i64)>, StoreError> {
        Ok(
            sqlx::query_as("SELECT name, owner, until_ms FROM leases ORDER BY until_ms, name")
                .fetch_all(&self.pool)
                .await?,
        )
    }

    /// Who holds the lease `name` and until when, lapsed or not (operators and tests).
    pub async fn lease(&self, name: &str) -> Result<Option<(String, i64)>, StoreError> {
        Ok(
            sqlx::query_as("SELECT owner, until_ms FROM leases WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?,
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::store::Store;
    use crate::store::test_db::TestDb;

    #[tokio::test]
    async fn a_lease_goes_to_one_holder_until_it_lapses_or_is_released() {
        let db = TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        assert!(
            store
                .claim_lease("game:1", "a", 1_000, 60_000)
                .await
                .unwrap()
        );
        // Another process cannot take it while it runs, up to the last millisecond.
        assert!(
            !store
                .claim_lease("game:1", "b", 1_000, 60_000)
                .await
                .unwrap()
        );
        assert!(
            !store
                .claim_lease("game:1", "b", 60_999, 60_000)
                .await
                .unwrap()
        );
        assert_eq!(
            store.lease("game:1").await.unwrap(),
            Some(("a".into(), 61_000))
        );
        // Its holder renews it.
        assert!(
            store
                .claim_lease("game:1", "a", 30_000, 60_000)
                .await
                .unwrap()
        );
        assert_eq!(
            store.lease("game:1").await.unwrap(),
            Some(("a".into(), 90_000))
        );
        // Leases are independent.
        assert!(
            store
                .claim_lease("game:2", "b", 30_000, 60_000)
                .await
                .unwrap()
        );
        // A lapsed lease (its holder died) is taken over.
        assert!(
            store
                .claim_lease("game:1", "b", 90_000, 60_000)
                .await
                .unwrap()
        );
        assert_eq!(
            store.lease("game:1").await.unwrap(),
            Some(("b".into(), 150_000))
        );
        // Releasing someone else's lease does nothing; releasing one's own frees it.
        store.release_lease("game:1", "a").await.unwrap();
        assert!(
            !store
                .claim_lease("game:1", "a", 100_000, 60_000)
                .await
                .unwrap()
        );
        store.release_lease("game:1", "b").await.unwrap();
        assert_eq!(store.lease("game:1").await.unwrap(), None);
        assert!(
            store
                .claim_lease("game:1", "a", 100_000, 60_000)
                .await
                .unwrap()
        );
    }

    #[tokio::test]
    async fn of_many_claims_at_once_exactly_one_wins() {
        let db = TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        let claims = (0..8).map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .claim_lease("lane:g7", &format!("p{i}"), 5_000, 60_000)
                    .await
                    .unwrap()
            })
        });
        let mut won = 0;
        for c in claims {
            won += c.await.unwrap() as usize;
        }
        assert_eq!(won, 1);
    }
}
