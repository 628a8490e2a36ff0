//! Leases (`migrations/*/0010_leases.sql`, `0018_lease_fence.sql`): work that no interaction
//! ties to one process — a game's timers, a game's bots, an outbox lane — goes to whichever
//! process claims it first, so several processes on one database never do the same item twice at
//! once, and an item whose holder died (its lease lapsed) is taken over by another.
//!
//! A claim is one upsert, atomic on both backends: it inserts the lease, or takes it over when it
//! has lapsed or is already the claimant's role's (a restarted process), or renews it for its
//! holder. Nothing is held between statements, so no lock waits on a process that stopped
//! answering.
//!
//! Each lease carries a fencing token ([`Lease::fence`]): it goes up whenever the lease changes
//! hands (another holder, a claim after a lapse or a release, a restarted process of the same
//! role) and stays on a renewal. Every write made under a lease checks, in its own transaction,
//! that the lease is still held with its token ([`hold`]): a process paused past its lease that
//! wakes after another took it over is refused ([`StoreError::LeaseLost`]) and writes nothing.
//! A released lease keeps its row (no holder, lapsed), so a token is never handed out twice.

use sqlx::{Any, Row, Transaction};

use super::{Store, StoreError};

/// A lease held: its name, its holder, and the fencing token it was claimed with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub name: String,
    pub owner: String,
    pub fence: i64,
}

/// Check, in the transaction `tx`, that `lease` is still held with its token, and lock its row
/// until `tx` ends (a claim by another process waits for it): else [`StoreError::LeaseLost`].
/// The write's first statement: on SQLite it takes the write lock at once.
pub(super) async fn hold(tx: &mut Transaction<'_, Any>, lease: &Lease) -> Result<(), StoreError> {
    let held = sqlx::query(
        "UPDATE leases SET fence = fence WHERE name = $1 AND owner = $2 AND fence = $3",
    )
    .bind(&lease.name)
    .bind(&lease.owner)
    .bind(lease.fence)
    .execute(&mut **tx)
    .await?;
    match held.rows_affected() {
        1 => Ok(()),
        _ => Err(StoreError::LeaseLost {
            lease: lease.name.clone(),
        }),
    }
}

impl Store {
    /// Claim the lease `name` for `owner` until `now + ttl_ms`: the lease held (with a new
    /// token) if it was free, had lapsed, had been released, or was held in `owner`'s name
    /// already (a restarted process of the same role takes it back at once, and fences out
    /// its predecessor); `None` if another holder's lease runs.
    pub async fn claim_lease(
        &self,
        name: &str,
        owner: &str,
        now: i64,
        ttl_ms: i64,
    ) -> Result<Option<Lease>, StoreError> {
        self.upsert_lease(name, owner, None, now, ttl_ms).await
    }

    /// Renew `lease` until `now + ttl_ms`: its token is kept if it is still held with it and
    /// has not lapsed; else it is claimed as by [`Store::claim_lease`] (a new token, which the
    /// writes after this carry). `None` if another holder has it now.
    pub async fn renew_lease(
        &self,
        lease: &Lease,
        now: i64,
        ttl_ms: i64,
    ) -> Result<Option<Lease>, StoreError> {
        self.upsert_lease(&lease.name, &lease.owner, Some(lease.fence), now, ttl_ms)
            .await
    }

    async fn upsert_lease(
        &self,
        name: &str,
        owner: &str,
        held: Option<i64>,
        now: i64,
        ttl_ms: i64,
    ) -> Result<Option<Lease>, StoreError> {
        // The token stays only for its holder renewing in time; anything else is a new hand.
        let q = sqlx::query(
            "INSERT INTO leases (name, owner, until_ms, fence) VALUES ($1, $2, $3, 1) \
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, \
             until_ms = excluded.until_ms, \
             fence = CASE WHEN leases.owner = excluded.owner AND leases.fence = $5 \
             AND leases.until_ms > $4 THEN leases.fence ELSE leases.fence + 1 END \
             WHERE leases.until_ms <= $4 OR leases.owner = excluded.owner \
             RETURNING fence",
        )
        .bind(name)
        .bind(owner)
        .bind(now.saturating_add(ttl_ms))
        .bind(now)
        .bind(held.unwrap_or(-1));
        let row = self
            .at_normal(async |c| Ok(q.fetch_optional(c).await?))
            .await?;
        Ok(match row {
            Some(r) => Some(Lease {
                name: name.to_string(),
                owner: owner.to_string(),
                fence: r.try_get(0)?,
            }),
            None => None,
        })
    }

    /// Give up `lease` (nothing if it is no longer held with its token: it lapsed and was
    /// taken). Its row stays, with no holder, so the next claim gets a new token.
    pub async fn release_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        let q = sqlx::query(
            "UPDATE leases SET owner = '', until_ms = 0 \
             WHERE name = $1 AND owner = $2 AND fence = $3",
        )
        .bind(&lease.name)
        .bind(&lease.owner)
        .bind(lease.fence);
        self.bookkeeping(q).await?;
        Ok(())
    }

    /// Every lease held or lapsed (not those given up), soonest to lapse first: (name, holder,
    /// until).
    pub async fn leases(&self) -> Result<Vec<(String, String, i64)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT name, owner, until_ms FROM leases WHERE owner <> '' ORDER BY until_ms, name",
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// Who holds the lease `name` and until when, lapsed or not; `None` if nobody claimed it or
    /// it was given up (operators and tests).
    pub async fn lease(&self, name: &str) -> Result<Option<(String, i64)>, StoreError> {
        Ok(
            sqlx::query_as("SELECT owner, until_ms FROM leases WHERE name = $1 AND owner <> ''")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?,
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::store::test_db::TestDb;
    use crate::store::{Done, GameWrite, Lease, NewEntry, NewGame, Store, StoreError};

    /// `owner`'s claim of `name` at `now` for a minute: its token, `None` if refused.
    async fn claim(store: &Store, name: &str, owner: &str, now: i64) -> Option<i64> {
        let lease = store.claim_lease(name, owner, now, 60_000).await.unwrap();
        lease.map(|l| l.fence)
    }

    #[tokio::test]
    async fn a_lease_goes_to_one_holder_until_it_lapses_or_is_released() {
        let db = TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        let a = store
            .claim_lease("game:1", "a", 1_000, 60_000)
            .await
            .unwrap()
            .unwrap();
        // Another process cannot take it while it runs, up to the last millisecond.
        assert_eq!(claim(&store, "game:1", "b", 1_000).await, None);
        assert_eq!(claim(&store, "game:1", "b", 60_999).await, None);
        assert_eq!(
            store.lease("game:1").await.unwrap(),
            Some(("a".into(), 61_000))
        );
        // Its holder renews it, keeping its token.
        let a2 = store.renew_lease(&a, 30_000, 60_000).await.unwrap();
        assert_eq!(a2.as_ref(), Some(&a));
        assert_eq!(
            store.lease("game:1").await.unwrap(),
            Some(("a".into(), 90_000))
        );
        // Leases are independent.
        assert!(claim(&store, "game:2", "b", 30_000).await.is_some());
        // A lapsed lease (its holder died) is taken over.
        let b = store
            .claim_lease("game:1", "b", 90_000, 60_000)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            store.lease("game:1").await.unwrap(),
            Some(("b".into(), 150_000))
        );
        // Releasing someone else's lease does nothing; releasing one's own frees it.
        store.release_lease(&a).await.unwrap();
        assert_eq!(claim(&store, "game:1", "a", 100_000).await, None);
        store.release_lease(&b).await.unwrap();
        assert_eq!(store.lease("game:1").await.unwrap(), None);
        assert!(
            store
                .leases()
                .await
                .unwrap()
                .iter()
                .all(|l| l.0 != "game:1")
        );
        assert!(claim(&store, "game:1", "a", 100_000).await.is_some());
    }

    /// The fencing token goes up whenever the lease changes hands — another holder, a claim
    /// after a lapse or a release, a restarted process of the same role — and never comes
    /// back; a renewal in time keeps it. Both backends.
    #[tokio::test]
    async fn a_lease_gets_a_new_token_whenever_it_changes_hands() {
        let db = TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        let a = store
            .claim_lease("lane:g1", "a", 0, 60_000)
            .await
            .unwrap()
            .unwrap();
        let renewed = store.renew_lease(&a, 59_999, 60_000).await.unwrap();
        assert_eq!(renewed.map(|l| l.fence), Some(a.fence), "renewed in time");
        // Lapsed, and taken by another process: a new token.
        let b = store
            .claim_lease("lane:g1", "b", 200_000, 60_000)
            .await
            .unwrap()
            .unwrap();
        assert!(b.fence > a.fence);
        // The first process wakes: its renewal is refused, its release does nothing.
        assert_eq!(store.renew_lease(&a, 200_001, 60_000).await.unwrap(), None);
        store.release_lease(&a).await.unwrap();
        assert_eq!(
            store.lease("lane:g1").await.unwrap(),
            Some(("b".into(), 260_000))
        );
        // Released, then claimed again by its last holder: a new token all the same.
        store.release_lease(&b).await.unwrap();
        let b2 = claim(&store, "lane:g1", "b", 200_002).await.unwrap();
        assert!(b2 > b.fence);
        // Renewed after a lapse nobody used: a new token.
        let held = Lease {
            fence: b2,
            ..b.clone()
        };
        let late = store.renew_lease(&held, 300_000, 60_000).await.unwrap();
        let b3 = late.unwrap().fence;
        assert!(b3 > b2);
        // A restarted process of the same role takes it back at once, with a new token.
        let restarted = claim(&store, "lane:g1", "b", 300_001).await.unwrap();
        assert!(restarted > b3);
    }

    /// A process paused past its lease wakes after another took it over: its writes under the
    /// lease (a game's event, an outbox lane's marks) are refused with `LeaseLost` and change
    /// nothing — even where the game's version would let them through — while the new holder's
    /// go through. Both backends.
    #[tokio::test]
    async fn writes_under_a_lease_taken_over_are_refused() {
        let db = TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        store.ensure_player(1, "p1", 0).await.unwrap();
        let game = NewGame {
            kind: "hexdame",
            setup: "{}",
            house_rules: "{}",
            players: &[1],
            ..NewGame::default()
        };
        let g = store.create_game(&game, |_| Ok(Vec::new())).await.unwrap();
        let entry = NewEntry {
            lane: "g1".into(),
            game: Some(g),
            version: Some(1),
            priority: 1,
            body: "{}".into(),
        };
        let write = |lease: &Lease, at: i64| GameWrite {
            game: g,
            expected: 0,
            events: vec![crate::store::EventRow {
                version: 0,
                kind: "timed_out".into(),
                actor: None,
                body: "{}".into(),
                at,
            }],
            house_rules: "{}".into(),
            now: at,
            outbox: vec![entry.clone()],
            lease: Some(lease.clone()),
            ..GameWrite::default()
        };
        let a = store
            .claim_lease("timers:1", "a", 0, 60_000)
            .await
            .unwrap()
            .unwrap();
        // Paused past the lease; another process takes it over and has not written yet.
        let b = store
            .claim_lease("timers:1", "b", 61_000, 60_000)
            .await
            .unwrap()
            .unwrap();
        let err = store.append(&write(&a, 62_000)).await.unwrap_err();
        assert!(matches!(err, StoreError::LeaseLost { .. }), "{err}");
        assert!(err.to_string().contains("timers:1"), "{err}");
        assert_eq!(store.version(g).await.unwrap(), Some(0), "nothing written");
        assert!(store.outbox_pending().await.unwrap().is_empty());
        store.append(&write(&b, 62_000)).await.unwrap();
        assert_eq!(store.version(g).await.unwrap(), Some(1));
        // The outbox lane's marks likewise.
        let id = store.outbox_pending().await.unwrap()[0].id;
        let a = store
            .claim_lease("lane:g1", "a", 0, 60_000)
            .await
            .unwrap()
            .unwrap();
        let b = store
            .claim_lease("lane:g1", "b", 61_000, 60_000)
            .await
            .unwrap()
            .unwrap();
        let sent = Done {
            message: Some(7),
            outcome: "sent".into(),
        };
        let err = store.outbox_done(Some(&a), id, &sent, 62_000).await;
        assert!(matches!(err, Err(StoreError::LeaseLost { .. })), "{err:?}");
        let err = store
            .outbox_failed(Some(&a), id, "500", 0, false, 62_000)
            .await;
        assert!(matches!(err, Err(StoreError::LeaseLost { .. })), "{err:?}");
        let pending = store.outbox_pending().await.unwrap();
        assert_eq!(
            (pending.len(), pending[0].attempts),
            (1, 0),
            "nothing marked"
        );
        assert!(
            store
                .outbox_done(Some(&b), id, &sent, 62_000)
                .await
                .unwrap()
        );
        assert!(store.outbox_pending().await.unwrap().is_empty());
        // Given up, the lease fences its last holder out too.
        store.release_lease(&b).await.unwrap();
        let err = store.outbox_done(Some(&b), id, &sent, 63_000).await;
        assert!(matches!(err, Err(StoreError::LeaseLost { .. })), "{err:?}");
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
            won += c.await.unwrap().is_some() as usize;
        }
        assert_eq!(won, 1);
    }
}
