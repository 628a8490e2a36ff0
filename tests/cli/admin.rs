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

/// `hexmeros admin forget USER` (issue 61): a person's own data goes (settings, DM state,
/// private notes, ratings, their direct messages), their name is replaced, and the games they
/// played stay whole for the others; another person's data is untouched. SQLite, or
/// PostgreSQL in CI's second pass.
#[tokio::test]
async fn forget_erases_a_persons_own_data_and_leaves_the_games() {
    use hexmeros::games::GameKind;
    use hexmeros::host::{GameHost, SystemClock};
    let db = db::TestDb::new().await;
    let url = db.url.clone();
    let store = Store::open(&url).await.unwrap();
    let host = GameHost::new(store.clone(), std::sync::Arc::new(SystemClock));
    let (ann, bob) = (1_200_000_000_000_000_001_i64, 1_200_000_000_000_000_002_i64);
    host.ensure_player(ann, "ann").await.unwrap();
    host.ensure_player(bob, "bob").await.unwrap();
    let (game, _) = host
        .create(GameKind::HexDame, &[ann, bob], None, None)
        .await
        .unwrap();
    let w = store.writer();
    for p in [ann, bob] {
        sqlx::query("INSERT INTO player_settings (player_id, time_zone, updated_at) VALUES ($1, 'Europe/Berlin', 0)")
            .bind(p)
            .execute(w)
            .await
            .unwrap();
        sqlx::query("INSERT INTO discord_dm (user_id, opted_in) VALUES ($1, 1)")
            .bind(p)
            .execute(w)
            .await
            .unwrap();
        sqlx::query("INSERT INTO ratings (player_id, kind, mu, sigma, games) VALUES ($1, 'hexdame', 25.0, 8.0, 1)")
            .bind(p)
            .execute(w)
            .await
            .unwrap();
        assert!(store.add_note(game, p, "my plan", 0, 10).await.unwrap());
        store
            .enqueue(&[entry(&format!("p{p}"), "a DM")], 1_000)
            .await
            .unwrap();
    }
    let count = async |sql: &str, p: i64| -> i64 {
        sqlx::query_scalar(sql).bind(p).fetch_one(w).await.unwrap()
    };
    let events_before = count("SELECT COUNT(*) FROM events WHERE game_id = $1", game).await;

    cli::fails(
        &["admin", "forget", "bot", "--db", &url],
        "",
        "USER must be a person's id",
    );
    cli::fails(
        &["admin", "forget", "0", "--db", &url],
        "",
        "USER must be a person's id",
    );
    cli::fails(
        &["admin", "forget", "42", "--db", &url],
        "",
        "nobody with id 42",
    );
    let out = cli::ok(&["admin", "forget", &ann.to_string(), "--db", &url], "");
    assert_eq!(
        out.trim_end(),
        format!(
            "forgot {ann}: 1 settings, 1 DM state, 1 notes, 1 ratings, 1 direct messages \
             erased; shown as \"a former player\" in the games they played"
        )
    );
    for (table, column) in [
        ("player_settings", "player_id"),
        ("discord_dm", "user_id"),
        ("notes", "player_id"),
        ("ratings", "player_id"),
    ] {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE {column} = $1");
        assert_eq!(count(&sql, ann).await, 0, "{table} still holds ann");
        assert_eq!(count(&sql, bob).await, 1, "{table} lost bob's");
    }
    let lane = |p: i64| format!("p{p}");
    let dms = async |p: i64| -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE lane = $1")
            .bind(lane(p))
            .fetch_one(w)
            .await
            .unwrap()
    };
    assert_eq!((dms(ann).await, dms(bob).await), (0, 1));
    assert_eq!(
        host.player_name(ann).await.unwrap().as_deref(),
        Some("a former player")
    );
    assert_eq!(host.player_name(bob).await.unwrap().as_deref(), Some("bob"));
    // The game is whole: its seats and moves replay for bob.
    assert_eq!(
        count("SELECT COUNT(*) FROM events WHERE game_id = $1", game).await,
        events_before
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM seats WHERE player_id = $1", ann).await,
        1
    );
    let state = host.state(game).await.unwrap();
    assert_eq!(state.id(), game);
}

/// `hexmeros admin retention --days N` (issue 61): the private notes on a game over for more
/// than N days go, and so does everything of a person who has not played since; a game still
/// going keeps its players and notes, and the games stay whole. SQLite, or PostgreSQL in CI's
/// second pass.
#[tokio::test]
async fn retention_erases_what_is_past_its_time_and_keeps_the_games() {
    use hexmeros::games::GameKind;
    use hexmeros::host::{GameHost, SystemClock};
    let db = db::TestDb::new().await;
    let url = db.url.clone();
    let store = Store::open(&url).await.unwrap();
    let host = GameHost::new(store.clone(), std::sync::Arc::new(SystemClock));
    let (ann, bob, cy) = (
        1_300_000_000_000_000_001_i64,
        1_300_000_000_000_000_002,
        1_300_000_000_000_000_003,
    );
    for (p, name) in [(ann, "ann"), (bob, "bob"), (cy, "cy")] {
        host.ensure_player(p, name).await.unwrap();
    }
    let (old, _) = host
        .create(GameKind::HexDame, &[ann, bob], None, None)
        .await
        .unwrap();
    let (going, _) = host
        .create(GameKind::HexDame, &[bob, cy], None, None)
        .await
        .unwrap();
    let w = store.writer();
    // The first game ended a year ago; everyone first came long ago.
    sqlx::query("UPDATE games SET status = 50, updated_at = 0 WHERE id = $1")
        .bind(old)
        .execute(w)
        .await
        .unwrap();
    sqlx::query("UPDATE players SET created_at = 0")
        .execute(w)
        .await
        .unwrap();
    for (game, p) in [(old, ann), (old, bob), (going, cy)] {
        assert!(store.add_note(game, p, "my plan", 0, 10).await.unwrap());
    }
    sqlx::query("INSERT INTO ratings (player_id, kind, mu, sigma, games) VALUES ($1, 'hexdame', 25.0, 8.0, 1)")
        .bind(ann)
        .execute(w)
        .await
        .unwrap();
    let events: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM events")
        .fetch_one(w)
        .await
        .unwrap();

    cli::fails(
        &["admin", "retention", "--days", "0", "--db", &url],
        "",
        "--days",
    );
    let out = cli::ok(&["admin", "retention", "--days", "30", "--db", &url], "");
    assert_eq!(
        out.trim_end(),
        format!(
            "retention of 30 days: 2 private notes of games over erased; 1 people who have not \
             played since forgotten ({ann})"
        )
    );
    let notes: Vec<i64> = sqlx::query_scalar("SELECT player_id FROM notes ORDER BY id")
        .fetch_all(w)
        .await
        .unwrap();
    assert_eq!(notes, vec![cy], "only the going game's note stays");
    assert_eq!(
        host.player_name(ann).await.unwrap().as_deref(),
        Some("a former player")
    );
    assert_eq!(host.player_name(bob).await.unwrap().as_deref(), Some("bob"));
    let ratings: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ratings")
        .fetch_one(w)
        .await
        .unwrap();
    assert_eq!(ratings, 0);
    let after: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM events")
        .fetch_one(w)
        .await
        .unwrap();
    assert_eq!(after, events, "the games' records stay whole");
    // A second run has nothing left to do.
    let out = cli::ok(&["admin", "retention", "--days", "30", "--db", &url], "");
    assert!(
        out.contains(": 0 private notes of games over erased; 0 people"),
        "{out}"
    );
}
