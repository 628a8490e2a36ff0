//! `hexmeros db backup` and `db restore` (issue 61): a backup made while the bot has the
//! database open and is writing to it holds every move (the WAL's too, which a copy of the file
//! would miss), a game that does not replay is kept and named rather than skipped, and a
//! restore brings the same games back; what must not be overwritten is refused.
#![allow(clippy::unwrap_used)]

use hexmeros_testkit::host::RulesOf;
use std::sync::Arc;

use hexmeros::games::GameKind;
use hexmeros::host::{GameHost, GameId, ManualClock};
use hexmeros::store::Store;
use hexmeros_testkit::{cli, db, host as support};
use support::{T0, act, cmd_move, ensure_players};

/// `plies` moves of a two-player game: the first legal move of whoever holds the Token.
async fn play(host: &GameHost, g: GameId, plies: usize) {
    for _ in 0..plies {
        let st = host.state(g).await.unwrap();
        let p = st.holder_player().unwrap();
        let m = st.rules().legal_moves()[0].clone();
        act(host, g, p, cmd_move(&m)).await;
    }
}

/// A SQLite database with two games in play, kept open by a host (as a running bot keeps it).
async fn running(url: &str) -> (GameHost, Vec<GameId>) {
    let host = GameHost::new(
        Store::open(url).await.unwrap(),
        Arc::new(ManualClock::new(T0)),
    )
    .with_outbox();
    ensure_players(&host, 1..=2).await;
    let mut games = Vec::new();
    for kind in [GameKind::HexDame, GameKind::Hexmeister] {
        let (g, _) = host.create(kind, &[1, 2], None, None).await.unwrap();
        play(&host, g, 4).await;
        games.push(g);
    }
    (host, games)
}

fn export(url: &str, game: GameId) -> String {
    cli::ok(&["export", &game.to_string(), "--db", url], "")
}

#[tokio::test]
async fn a_backup_taken_while_the_bot_writes_restores_every_move() {
    let src = db::TestDb::sqlite();
    let (host, games) = running(&src.url).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backup.db");
    let file_s = file.to_str().unwrap().to_string();

    // The host still has the database open, its last moves in the WAL.
    let wal = src.path().unwrap().join("test.db-wal");
    assert!(
        std::fs::metadata(&wal)
            .map(|m| m.len() > 0)
            .unwrap_or(false),
        "the moves wait in the WAL, as they do under a running bot"
    );
    let out = cli::ok(&["db", "backup", "--to", &file_s, "--db", &src.url], "");
    assert!(
        out.contains("integrity ok; 2 games, 2 of them replay"),
        "{out}"
    );
    assert!(!out.contains("warning"), "{out}");
    let then = export(&src.url, games[0]);
    // The bot goes on: a move after the backup is not in it.
    play(&host, games[0], 1).await;

    let restored = format!("sqlite://{}", dir.path().join("restored.db").display());
    let out = cli::ok(&["db", "restore", "--from", &file_s, "--to", &restored], "");
    assert!(out.contains("checked the backup"), "{out}");
    assert!(out.contains("restored "), "{out}");
    let now = export(&src.url, games[0]);
    let back = export(&restored, games[0]);
    assert_eq!(back, then, "the backup holds every move made before it");
    assert_ne!(now, back, "the move made after the backup is not in it");
    assert_eq!(export(&src.url, games[1]), export(&restored, games[1]));

    // Nothing is overwritten: not the backup, not a database without --replace.
    cli::fails(
        &["db", "backup", "--to", &file_s, "--db", &src.url],
        "",
        "exists already: a backup never overwrites a file",
    );
    cli::fails(
        &["db", "restore", "--from", &file_s, "--to", &restored],
        "",
        "exists: give --replace",
    );
    // With --replace, not while a process has it open (the host, here, on the source).
    cli::fails(
        &[
            "db",
            "restore",
            "--from",
            &file_s,
            "--to",
            &src.url,
            "--replace",
        ],
        "",
        "in use by another process",
    );
    assert_eq!(
        export(&src.url, games[0]),
        now,
        "the refused restore changed nothing"
    );
    host.store().close().await;
    drop(host);
    // Closed, it is moved aside (kept) and the backup takes its place.
    let out = cli::ok(
        &[
            "db",
            "restore",
            "--from",
            &file_s,
            "--to",
            &src.url,
            "--replace",
        ],
        "",
    );
    assert!(out.contains("the old database is kept as "), "{out}");
    assert_eq!(export(&src.url, games[0]), back);
    let aside: Vec<_> = std::fs::read_dir(src.path().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| {
            n.starts_with("test.db.before-restore-") && !n.ends_with("-wal") && !n.ends_with("-shm")
        })
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    let kept = format!("sqlite://{}", src.path().unwrap().join(&aside[0]).display());
    assert_eq!(export(&kept, games[0]), now, "the old database is whole");
}

#[tokio::test]
async fn a_game_that_does_not_replay_is_backed_up_and_named_not_skipped() {
    let src = db::TestDb::sqlite();
    let (host, games) = running(&src.url).await;
    sqlx::query("UPDATE events SET body = $1 WHERE game_id = $2 AND version = 1")
        .bind("{\"no\": \"such event\"}")
        .bind(games[1])
        .execute(host.store().writer())
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backup.db");
    let out = cli::ok(
        &[
            "db",
            "backup",
            "--to",
            file.to_str().unwrap(),
            "--db",
            &src.url,
        ],
        "",
    );
    assert!(out.contains("2 games, 1 of them replay"), "{out}");
    assert!(
        out.contains(&format!(
            "warning: game #{} is kept as stored but does not replay",
            games[1]
        )),
        "{out}"
    );
    // The row is there, as it was.
    let backup = Store::open(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    let body: String =
        sqlx::query_scalar("SELECT body FROM events WHERE game_id = $1 AND version = 1")
            .bind(games[1])
            .fetch_one(backup.writer())
            .await
            .unwrap();
    assert_eq!(body, "{\"no\": \"such event\"}");
}

#[test]
fn bad_backups_and_restores_are_refused_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_backup = dir.path().join("notes.txt");
    std::fs::write(&not_a_backup, "hello").unwrap();
    cli::fails(
        &[
            "db",
            "restore",
            "--from",
            not_a_backup.to_str().unwrap(),
            "--to",
            &format!("sqlite://{}", dir.path().join("x.db").display()),
        ],
        "",
        "is not a backup: not a SQLite file",
    );
    assert!(!dir.path().join("x.db").exists());
    // PostgreSQL is pg_dump's: said before any connection is tried.
    cli::fails(
        &[
            "db",
            "backup",
            "--to",
            dir.path().join("b.db").to_str().unwrap(),
            "--db",
            "postgres://bot:hunter2@127.0.0.1:1/none",
        ],
        "",
        "pg_dump",
    );
    // A database that is not there is not backed up as an empty one.
    cli::fails(
        &[
            "db",
            "backup",
            "--to",
            dir.path().join("b.db").to_str().unwrap(),
            "--db",
            &format!("sqlite://{}", dir.path().join("missing.db").display()),
        ],
        "",
        "there is no database at",
    );
    assert!(!dir.path().join("b.db").exists());
}

/// A backup restores into the other backend too: SQLite here, PostgreSQL in CI's second pass
/// (an empty database, through `db copy`'s checked copy).
#[tokio::test]
async fn a_backup_restores_into_an_empty_database_of_either_backend() {
    let src = db::TestDb::sqlite();
    let (host, games) = running(&src.url).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backup.db");
    cli::ok(
        &[
            "db",
            "backup",
            "--to",
            file.to_str().unwrap(),
            "--db",
            &src.url,
        ],
        "",
    );
    host.store().close().await;
    let dst = db::TestDb::new().await;
    let out = cli::ok(
        &[
            "db",
            "restore",
            "--from",
            file.to_str().unwrap(),
            "--to",
            &dst.url,
        ],
        "",
    );
    assert!(out.contains("checked the backup"), "{out}");
    for g in games {
        assert_eq!(export(&src.url, g), export(&dst.url, g));
    }
    // Once more into the same (no longer empty) database: refused, nothing written twice.
    let why = match dst.path() {
        Some(_) => "exists: give --replace",
        None => "is not empty",
    };
    cli::fails(
        &[
            "db",
            "restore",
            "--from",
            file.to_str().unwrap(),
            "--to",
            &dst.url,
        ],
        "",
        why,
    );
}
