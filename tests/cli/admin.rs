//! `hexmeros admin status`: what an operator reads about the outbox (issue 18, observable).
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::{cli, db};

use hexmeros::store::{Done, NewEntry, Store};

fn entry(lane: &str, body: &str) -> NewEntry {
    NewEntry {
        lane: lane.into(),
        game: None,
        version: None,
        priority: 1,
        body: body.into(),
    }
}

#[tokio::test]
async fn status_counts_pending_retried_delivered_and_given_up_entries() {
    // SQLite, or PostgreSQL in CI's second pass (`support/db.rs`).
    let db = db::TestDb::new().await;
    let url = db.url.clone();
    let store = Store::open(&url).await.unwrap();
    store
        .enqueue(
            &[
                entry("g1", "a"),
                entry("g1", "b"),
                entry("g2", "c"),
                entry("p9", "d"),
            ],
            1_000,
        )
        .await
        .unwrap();
    let all = store.outbox_pending().await.unwrap();
    store
        .outbox_failed(None, all[0].id, "HTTP 503 from Discord", 0, false, 1_000)
        .await
        .unwrap();
    store
        .outbox_failed(None, all[0].id, "HTTP 503 from Discord", 0, false, 1_000)
        .await
        .unwrap();
    let sent = Done {
        message: Some(5),
        outcome: "sent".into(),
    };
    store
        .outbox_done(None, all[2].id, &sent, 2_000)
        .await
        .unwrap();
    let dropped = Done {
        message: None,
        outcome: "failed: 400".into(),
    };
    store
        .outbox_done(None, all[3].id, &dropped, 2_000)
        .await
        .unwrap();
    // A lease held far into the future, and one whose holder stopped long ago.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let year = 365 * 24 * 3_600_000;
    store
        .claim_lease("timers:7", "serve shards 0-1 of 4", now, year)
        .await
        .unwrap();
    store
        .claim_lease("lane:g9", "serve", now - year, 60_000)
        .await
        .unwrap();
    store.close().await;

    let out = cli::ok(&["admin", "status", "--db", &url], "");
    assert!(out.contains("outbox: 2 pending"), "{out}");
    assert!(out.contains("1 of them failed at least once"), "{out}");
    assert!(out.contains("2 retries in all"), "{out}");
    assert!(out.contains("1 delivered, 1 given up"), "{out}");
    assert!(
        out.contains(&format!(
            "#{} g1 (priority 1), 2 attempts, last error: HTTP 503",
            all[0].id
        )),
        "{out}"
    );
    assert!(out.contains("games: 0 in play"), "{out}");
    assert!(out.contains("leases: 1 held, 1 lapsed"), "{out}");
    assert!(
        out.contains("  timers:7 held by serve shards 0-1 of 4 for "),
        "{out}"
    );
    assert!(out.contains("  lane:g9 held by serve, lapsed "), "{out}");
}

#[test]
fn status_of_a_database_that_cannot_be_opened_is_an_error() {
    cli::fails(
        &[
            "admin",
            "status",
            "--db",
            "sqlite:///nonexistent-dir/x/y.db",
        ],
        "",
        "cannot open the database",
    );
}
