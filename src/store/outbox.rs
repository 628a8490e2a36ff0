//! The outbox (`migrations/*/0005_outbox.sql`): what players must be told, stored with the event
//! that causes it and drained by a front end's deliverer. Entries of one lane (a game's thread, a
//! player's direct messages) are delivered in id order; lanes are independent, and among the lanes'
//! first entries the lower priority number goes first.

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::{Any, AnyConnection, Row, Transaction};

use super::{Backend, Lease, Store, StoreError};

/// An entry to add: its lane, the game and version it belongs to, its priority and its body (the
/// front end's business; the host writes JSON `Effect`s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEntry {
    pub lane: String,
    pub game: Option<i64>,
    pub version: Option<i64>,
    pub priority: i64,
    pub body: String,
}

/// A pending entry as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: i64,
    pub lane: String,
    pub game: Option<i64>,
    pub version: Option<i64>,
    pub priority: i64,
    pub body: String,
    pub created_at: i64,
    pub attempts: i64,
    pub last_error: Option<String>,
    /// When a process first set out to deliver it (marked by `outbox_trying`), if one did.
    pub tried_at: Option<i64>,
    /// Not tried again before this (unix ms), after a failed try.
    pub retry_at: Option<i64>,
    /// Since when Discord has refused it for lack of access, while it does.
    pub blocked_at: Option<i64>,
}

/// How an entry left the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Done {
    pub message: Option<i64>,
    pub outcome: String,
}

/// What an operator reads: how many entries wait, since when the oldest, how many of them failed
/// at least once, and how many were given up for good.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutboxStats {
    pub pending: i64,
    pub oldest_created_at: Option<i64>,
    pub retrying: i64,
    pub retries: i64,
    pub delivered: i64,
    pub dropped: i64,
}

const COLUMNS: &str = "id, lane, game_id, version, priority, body, created_at, attempts, last_error, tried_at, \
     retry_at, blocked_at FROM outbox";

fn entry(r: AnyRow) -> Result<Entry, sqlx::Error> {
    Ok(Entry {
        id: r.try_get(0)?,
        lane: r.try_get(1)?,
        game: r.try_get(2)?,
        version: r.try_get(3)?,
        priority: r.try_get(4)?,
        body: r.try_get(5)?,
        created_at: r.try_get(6)?,
        attempts: r.try_get(7)?,
        last_error: r.try_get(8)?,
        tried_at: r.try_get(9)?,
        retry_at: r.try_get(10)?,
        blocked_at: r.try_get(11)?,
    })
}

/// Add entries inside a write transaction (the one storing the event that causes them), in one
/// statement: each statement is a round trip to SQLite's worker thread (or to the PostgreSQL
/// server), which cost more than the rows themselves.
pub(super) async fn insert(
    tx: &mut Transaction<'_, Any>,
    entries: &[NewEntry],
    now: i64,
) -> Result<(), StoreError> {
    // SQLite takes at most 32,766 parameters: 6 a row, in chunks well below that.
    for chunk in entries.chunks(1000) {
        let rows: Vec<String> = (0..chunk.len())
            .map(|i| {
                let p = i * 6;
                format!(
                    "(${}, ${}, ${}, ${}, ${}, ${})",
                    p + 1,
                    p + 2,
                    p + 3,
                    p + 4,
                    p + 5,
                    p + 6
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO outbox (lane, game_id, version, priority, body, created_at) VALUES {}",
            rows.join(", ")
        );
        let mut q = sqlx::query(&sql);
        for e in chunk {
            q = q
                .bind(&e.lane)
                .bind(e.game)
                .bind(e.version)
                .bind(e.priority)
                .bind(&e.body)
                .bind(now);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

impl Store {
    /// Add entries that no game event causes (a front end's own messages), in one transaction.
    pub async fn enqueue(&self, entries: &[NewEntry], now: i64) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        insert(&mut tx, entries, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The first pending entry of every lane that is due at `now` (not waiting after a failed
    /// try), most urgent first (then oldest), at most `limit`, after the head `after` (its
    /// priority and id: the next page). A lane whose first entry waits is not read at all, so
    /// any number of them leaves the due ones their places.
    pub async fn outbox_heads(
        &self,
        limit: i64,
        now: i64,
        after: Option<(i64, i64)>,
    ) -> Result<Vec<Entry>, StoreError> {
        let (priority, id) = after.unwrap_or((i64::MIN, i64::MIN));
        let sql = format!(
            "SELECT {COLUMNS} o WHERE o.done_at IS NULL \
             AND (o.retry_at IS NULL OR o.retry_at <= $2) \
             AND (o.priority > $3 OR (o.priority = $3 AND o.id > $4)) \
             AND o.id = (SELECT MIN(p.id) FROM outbox p WHERE p.done_at IS NULL AND p.lane = o.lane) \
             ORDER BY o.priority, o.id LIMIT $1"
        );
        let rows = sqlx::query(&sql)
            .bind(limit)
            .bind(now)
            .bind(priority)
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(entry).collect::<Result<_, _>>()?)
    }

    /// The first pending entry of a lane.
    pub async fn outbox_head(&self, lane: &str) -> Result<Option<Entry>, StoreError> {
        let sql =
            format!("SELECT {COLUMNS} WHERE done_at IS NULL AND lane = $1 ORDER BY id LIMIT 1");
        let row = sqlx::query(&sql)
            .bind(lane)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(entry).transpose()?)
    }

    /// The most urgent priority among the pending entries of `lane` after entry `id` (`None`
    /// when nothing waits behind it).
    pub async fn outbox_behind(&self, lane: &str, id: i64) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(priority) FROM outbox WHERE done_at IS NULL AND lane = $1 AND id > $2",
        )
        .bind(lane)
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<Option<i64>, _>(0)?)
    }

    /// Whether a later pending entry of `lane` has the same `body` as entry `id` (an update that
    /// a later one makes again, such as a status panel's).
    pub async fn outbox_repeated(
        &self,
        lane: &str,
        id: i64,
        body: &str,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM outbox WHERE done_at IS NULL AND lane = $1 AND id > $2 \
             AND body = $3",
        )
        .bind(lane)
        .bind(id)
        .bind(body)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>(0)? > 0)
    }

    /// Every pending entry, oldest first (for operators and tests).
    pub async fn outbox_pending(&self) -> Result<Vec<Entry>, StoreError> {
        let sql = format!("SELECT {COLUMNS} WHERE done_at IS NULL ORDER BY id");
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        Ok(rows.into_iter().map(entry).collect::<Result<_, _>>()?)
    }

    /// Mark an entry done (delivered, or given up with a reason). An entry already done stays
    /// as it was: returns whether this call marked it. Written without waiting for the disk
    /// (see `bookkeeping`); with `lease` (its lane's), only while it is held with its token.
    pub async fn outbox_done(
        &self,
        lease: Option<&Lease>,
        id: i64,
        done: &Done,
        now: i64,
    ) -> Result<bool, StoreError> {
        let q = sqlx::query(
            "UPDATE outbox SET done_at = $1, message_id = $2, outcome = $3 \
             WHERE id = $4 AND done_at IS NULL",
        )
        .bind(now)
        .bind(done.message)
        .bind(&done.outcome)
        .bind(id);
        Ok(self.bookkeeping_under(lease, q).await? == 1)
    }

    /// Mark a pending entry as about to be tried, unless it was before (written as
    /// `outbox_done`: a process that dies after this keeps the mark).
    pub async fn outbox_trying(&self, id: i64, now: i64) -> Result<(), StoreError> {
        let q = sqlx::query(
            "UPDATE outbox SET tried_at = $1 WHERE id = $2 AND done_at IS NULL AND tried_at IS NULL",
        )
        .bind(now)
        .bind(id);
        self.bookkeeping(q).await?;
        Ok(())
    }

    /// Count a failed attempt on a pending entry, which waits until `retry_at` (unix ms) before
    /// its next try; `blocked`: Discord refused it for lack of access (since when is kept from
    /// the first such refusal; any other failure clears it). Written as `outbox_done`.
    pub async fn outbox_failed(
        &self,
        lease: Option<&Lease>,
        id: i64,
        error: &str,
        retry_at: i64,
        blocked: bool,
        now: i64,
    ) -> Result<(), StoreError> {
        let q = sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, last_error = $1, retry_at = $2, \
             blocked_at = CASE WHEN $3 = 1 THEN COALESCE(blocked_at, $4) ELSE NULL END \
             WHERE id = $5 AND done_at IS NULL",
        )
        .bind(error)
        .bind(retry_at)
        .bind(i64::from(blocked))
        .bind(now)
        .bind(id);
        self.bookkeeping_under(lease, q).await?;
        Ok(())
    }

    /// Bring every pending entry waiting after a failure other than a refusal of access forward
    /// to within a second of `now` (spread over it by id, so they do not all go at once): Discord
    /// answered again after an outage. Returns how many.
    pub async fn outbox_hurry(&self, now: i64) -> Result<u64, StoreError> {
        let q = sqlx::query(
            "UPDATE outbox SET retry_at = $1 + (id % 1000) \
             WHERE done_at IS NULL AND blocked_at IS NULL AND retry_at > $1 + 1000",
        )
        .bind(now);
        self.bookkeeping(q).await
    }

    /// The soonest time a pending entry waits for (unix ms), if one waits.
    pub async fn outbox_next_retry(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT MIN(retry_at) FROM outbox WHERE done_at IS NULL")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<Option<i64>, _>(0)?)
    }

    /// Run one bookkeeping write on the writer, on SQLite with `synchronous = NORMAL`: committed
    /// to the WAL without an fsync of its own (the next move's commit, at FULL, syncs it with its
    /// own).
    /// A power cut may lose the mark, never a move; an entry delivered but not marked is sent
    /// again with its nonce, which Discord answers with the message already made. Every
    /// delivery marks its entry, so at FULL a move would cost three fsyncs instead of one. The
    /// connection is set back to FULL before anyone else gets it, or closed if that fails.
    /// PostgreSQL runs it as any write. Returns the rows changed.
    pub(super) async fn bookkeeping<'q>(
        &self,
        q: sqlx::query::Query<'q, Any, AnyArguments<'q>>,
    ) -> Result<u64, StoreError> {
        self.at_normal(async |c| Ok(q.execute(c).await?.rows_affected()))
            .await
    }

    /// `bookkeeping` made under `lease` (an outbox lane's marks): in one transaction that first
    /// checks the lease is still held with its token (`leases::hold`), so a process that lost
    /// the lane writes nothing ([`StoreError::LeaseLost`]). Without a lease, as `bookkeeping`.
    pub(super) async fn bookkeeping_under<'q>(
        &self,
        lease: Option<&Lease>,
        q: sqlx::query::Query<'q, Any, AnyArguments<'q>>,
    ) -> Result<u64, StoreError> {
        let Some(lease) = lease else {
            return self.bookkeeping(q).await;
        };
        self.at_normal(async |c| {
            let mut tx = sqlx::Connection::begin(c).await?;
            if let Err(e) = super::leases::hold(&mut tx, lease).await {
                tx.rollback().await?;
                return Err(e);
            }
            let n = q.execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            Ok(n)
        })
        .await
    }

    /// Run `write` on the writer at `synchronous = NORMAL` on SQLite (see `bookkeeping`), set
    /// back to FULL after it; on PostgreSQL on a writer's connection as it is.
    pub(super) async fn at_normal<T>(
        &self,
        write: impl AsyncFnOnce(&mut AnyConnection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.writer.acquire().await?;
        if self.backend != Backend::Sqlite {
            return write(&mut conn).await;
        }
        sqlx::query("PRAGMA synchronous = NORMAL")
            .execute(&mut *conn)
            .await?;
        let result = write(&mut conn).await;
        if let Err(e) = sqlx::query("PRAGMA synchronous = FULL")
            .execute(&mut *conn)
            .await
        {
            // Never hand out a connection that does not write through.
            let _ = conn.close().await;
            return Err(e.into());
        }
        result
    }

    /// How an entry ended: `None` while it is pending (or if there is none).
    pub async fn outbox_outcome(&self, id: i64) -> Result<Option<Done>, StoreError> {
        let row = sqlx::query(
            "SELECT message_id, outcome FROM outbox WHERE id = $1 AND done_at IS NOT NULL",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some(Done {
                message: r.try_get(0)?,
                outcome: r.try_get::<Option<String>, _>(1)?.unwrap_or_default(),
            }),
            None => None,
        })
    }

    /// The outbox at a glance.
    pub async fn outbox_stats(&self) -> Result<OutboxStats, StoreError> {
        let r = sqlx::query(
            "SELECT \
               CAST(COALESCE(SUM(CASE WHEN done_at IS NULL THEN 1 ELSE 0 END), 0) AS BIGINT), \
               MIN(CASE WHEN done_at IS NULL THEN created_at END), \
               CAST(COALESCE(SUM(CASE WHEN done_at IS NULL AND attempts > 0 THEN 1 ELSE 0 END), 0) \
                 AS BIGINT), \
               CAST(COALESCE(SUM(attempts), 0) AS BIGINT), \
               CAST(COALESCE(SUM(CASE WHEN outcome = 'sent' THEN 1 ELSE 0 END), 0) AS BIGINT), \
               CAST(COALESCE(SUM(CASE WHEN done_at IS NOT NULL AND outcome <> 'sent' THEN 1 ELSE 0 \
                 END), 0) AS BIGINT) \
             FROM outbox",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(OutboxStats {
            pending: r.try_get(0)?,
            oldest_created_at: r.try_get(1)?,
            retrying: r.try_get(2)?,
            retries: r.try_get(3)?,
            delivered: r.try_get(4)?,
            dropped: r.try_get(5)?,
        })
    }

    /// Give up every pending entry of `game` with the reason `outcome` (a game that could not
    /// start: nothing it had to say is sent); returns how many.
    pub async fn outbox_give_up_game(
        &self,
        game: i64,
        outcome: &str,
        now: i64,
    ) -> Result<u64, StoreError> {
        let r = sqlx::query(
            "UPDATE outbox SET done_at = $1, outcome = $2 WHERE game_id = $3 AND done_at IS NULL",
        )
        .bind(now)
        .bind(outcome)
        .bind(game)
        .execute(&self.writer)
        .await?;
        Ok(r.rows_affected())
    }

    /// Give up every pending entry of `lane` with the reason `outcome` (a game's thread that
    /// Discord will not let the bot reach); returns how many.
    pub async fn outbox_give_up_lane(
        &self,
        lane: &str,
        outcome: &str,
        now: i64,
    ) -> Result<u64, StoreError> {
        let r = sqlx::query(
            "UPDATE outbox SET done_at = $1, outcome = $2 WHERE lane = $3 AND done_at IS NULL",
        )
        .bind(now)
        .bind(outcome)
        .bind(lane)
        .execute(&self.writer)
        .await?;
        Ok(r.rows_affected())
    }

    /// Forget entries done before `before` (unix ms); returns how many.
    pub async fn outbox_prune(&self, before: i64) -> Result<u64, StoreError> {
        let r = sqlx::query("DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < $1")
            .bind(before)
            .execute(&self.writer)
            .await?;
        Ok(r.rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use super::{Done, NewEntry};
    use crate::store::Store;

    fn new(lane: &str, priority: i64, body: &str) -> NewEntry {
        NewEntry {
            lane: lane.into(),
            game: None,
            version: None,
            priority,
            body: body.into(),
        }
    }

    #[tokio::test]
    async fn what_waits_behind_an_entry_is_its_lanes_later_pending_entries() {
        let db = crate::store::test_db::TestDb::new().await;
        let s = Store::open(&db.url).await.unwrap();
        s.enqueue(
            &[
                new("g1", 1, "panel"),
                new("g2", 0, "another lane's board"),
                new("g1", 2, "reminder"),
                new("g1", 0, "board"),
            ],
            1,
        )
        .await
        .unwrap();
        let pending = s.outbox_pending().await.unwrap();
        let id = |body: &str| pending.iter().find(|e| e.body == body).unwrap().id;
        assert_eq!(s.outbox_behind("g1", id("panel")).await.unwrap(), Some(0));
        assert_eq!(
            s.outbox_behind("g1", id("reminder")).await.unwrap(),
            Some(0)
        );
        assert_eq!(s.outbox_behind("g1", id("board")).await.unwrap(), None);
        assert_eq!(
            s.outbox_behind("g2", id("another lane's board"))
                .await
                .unwrap(),
            None
        );
        // Done entries wait for nothing.
        let done = Done {
            message: None,
            outcome: "sent".into(),
        };
        s.outbox_done(None, id("board"), &done, 2).await.unwrap();
        assert_eq!(s.outbox_behind("g1", id("panel")).await.unwrap(), Some(2));
    }

    #[tokio::test]
    async fn an_entry_is_repeated_by_a_later_pending_one_of_its_lane_with_its_body() {
        let db = crate::store::test_db::TestDb::new().await;
        let s = Store::open(&db.url).await.unwrap();
        let panel = r#"{"Panel":{"game":1}}"#;
        s.enqueue(
            &[
                new("g1", 1, panel),
                new("g1", 0, "board"),
                new("g2", 1, r#"{"Panel":{"game":2}}"#),
                new("g2", 1, panel),
                new("g1", 1, panel),
            ],
            1,
        )
        .await
        .unwrap();
        let pending = s.outbox_pending().await.unwrap();
        let ids: Vec<i64> = pending.iter().map(|e| e.id).collect();
        assert!(s.outbox_repeated("g1", ids[0], panel).await.unwrap());
        // The last of its lane, and a later body in another lane, repeat nothing.
        assert!(!s.outbox_repeated("g1", ids[4], panel).await.unwrap());
        assert!(
            !s.outbox_repeated("g2", ids[2], &pending[2].body)
                .await
                .unwrap()
        );
        assert!(!s.outbox_repeated("g1", ids[1], "board").await.unwrap());
        // Once the later one is done, the first is the last again.
        let done = Done {
            message: None,
            outcome: "sent".into(),
        };
        s.outbox_done(None, ids[4], &done, 2).await.unwrap();
        assert!(!s.outbox_repeated("g1", ids[0], panel).await.unwrap());
    }

    #[tokio::test]
    async fn heads_are_one_per_lane_most_urgent_first_and_done_entries_leave() {
        let db = crate::store::test_db::TestDb::new().await;
        let s = Store::open(&db.url).await.unwrap();
        s.enqueue(
            &[
                new("g1", 2, "a1"),
                new("g1", 0, "a2"),
                new("g2", 1, "b1"),
                new("p7", 0, "c1"),
            ],
            10,
        )
        .await
        .unwrap();
        let heads = s.outbox_heads(10, 10, None).await.unwrap();
        let bodies: Vec<&str> = heads.iter().map(|e| e.body.as_str()).collect();
        // g1's urgent second entry waits behind its first: a lane keeps its order.
        assert_eq!(bodies, ["c1", "b1", "a1"]);
        assert_eq!(s.outbox_heads(2, 10, None).await.unwrap().len(), 2);
        // The next page starts after the last head read.
        let next = s
            .outbox_heads(2, 10, Some((heads[1].priority, heads[1].id)))
            .await
            .unwrap();
        assert_eq!(next.len(), 1);
        assert_eq!(next[0].body, "a1");
        let a1 = &heads[2];
        s.outbox_failed(None, a1.id, "500", 15, false, 10)
            .await
            .unwrap();
        // Waiting after its failure, the lane is not read until its time.
        let due = |t| {
            let s = &s;
            async move {
                s.outbox_heads(10, t, None)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|e| e.body)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(due(14).await, ["c1", "b1"]);
        assert_eq!(due(15).await, ["c1", "b1", "a1"]);
        let done = Done {
            message: Some(99),
            outcome: "sent".into(),
        };
        assert!(s.outbox_done(None, a1.id, &done, 20).await.unwrap());
        assert!(
            !s.outbox_done(None, a1.id, &done, 21).await.unwrap(),
            "done once"
        );
        assert_eq!(s.outbox_outcome(a1.id).await.unwrap(), Some(done));
        assert_eq!(s.outbox_head("g1").await.unwrap().unwrap().body, "a2");
        let stats = s.outbox_stats().await.unwrap();
        assert_eq!(
            (stats.pending, stats.delivered, stats.retries),
            (3, 1, 1),
            "{stats:?}"
        );
        assert_eq!(stats.oldest_created_at, Some(10));
        assert_eq!(s.outbox_prune(21).await.unwrap(), 1);
        assert_eq!(s.outbox_pending().await.unwrap().len(), 3);
    }

    #[tokio::test]
    async fn waits_are_brought_forward_but_a_refusal_of_access_keeps_its_own() {
        let db = crate::store::test_db::TestDb::new().await;
        let s = Store::open(&db.url).await.unwrap();
        s.enqueue(
            &[new("g1", 0, "a"), new("g2", 0, "b"), new("g3", 0, "c")],
            1,
        )
        .await
        .unwrap();
        let p = s.outbox_pending().await.unwrap();
        // g1 failed transiently (a 500) and waits 5 minutes; g2 was refused access twice.
        s.outbox_failed(None, p[0].id, "500", 300_000, false, 1_000)
            .await
            .unwrap();
        s.outbox_failed(None, p[1].id, "403", 600_000, true, 1_000)
            .await
            .unwrap();
        s.outbox_failed(None, p[1].id, "403", 1_200_000, true, 600_000)
            .await
            .unwrap();
        let p = s.outbox_pending().await.unwrap();
        assert_eq!(p[1].blocked_at, Some(1_000), "since the first refusal");
        assert_eq!(p[1].attempts, 2);
        assert_eq!(s.outbox_next_retry().await.unwrap(), Some(300_000));
        // Discord answered again at 2 s: the 500's wait ends within a second, the 403's stays.
        assert_eq!(s.outbox_hurry(2_000).await.unwrap(), 1);
        let p = s.outbox_pending().await.unwrap();
        assert!(
            (2_000..3_000).contains(&p[0].retry_at.unwrap()),
            "{:?}",
            p[0]
        );
        assert_eq!(p[1].retry_at, Some(1_200_000));
        let heads: Vec<String> = s
            .outbox_heads(10, 3_000, None)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.body)
            .collect();
        assert_eq!(heads, ["a", "c"]);
        // Any other failure ends the refusal's count.
        s.outbox_failed(None, p[1].id, "500", 1_000, false, 700_000)
            .await
            .unwrap();
        assert_eq!(s.outbox_pending().await.unwrap()[1].blocked_at, None);
        // A lane given up leaves the outbox; the others stay.
        assert_eq!(
            s.outbox_give_up_lane("g2", "no access", 800_000)
                .await
                .unwrap(),
            1
        );
        let left: Vec<String> = s
            .outbox_pending()
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.lane)
            .collect();
        assert_eq!(left, ["g1", "g3"]);
    }
}
