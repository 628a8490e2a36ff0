//! Opening a database (issue 61): every verb says at once what is wrong with its database,
//! never prints its password, reads `.env` as `serve` does, and a read-only verb creates and
//! upgrades nothing; a database of a newer hexmeros is refused by every verb.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use hexmeros_testkit::{cli, db};

use hexmeros::store::Store;

/// The verbs that open a database, each with `url`.
fn verbs(url: &str) -> Vec<Vec<String>> {
    let url = url.to_string();
    vec![
        vec!["admin".into(), "status".into(), "--db".into(), url.clone()],
        vec!["export".into(), "1".into(), "--db".into(), url.clone()],
        vec![
            "local".into(),
            "--no-png".into(),
            "--db".into(),
            url.clone(),
        ],
    ]
}

/// `hexmeros ARGS` in `dir` is refused (exit 2, one line) with words containing `why`.
#[track_caller]
fn refused_in(dir: &Path, env: &[(&str, &str)], args: &[String], why: &str) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = cli::run_in(dir, env, &args);
    assert_eq!(code, Some(2), "{args:?}: {out}{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    assert!(err.contains(why), "{args:?}: {err:?} lacks {why:?}");
    err
}

#[test]
fn a_file_that_is_not_a_database_is_named_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let words = dir.path().join("notes.db");
    std::fs::write(&words, "shopping: eggs, flour, a new rook").unwrap();
    let mut broken = b"SQLite format 3\0".to_vec();
    broken.extend(std::iter::repeat_n(0xA5u8, 4096));
    std::fs::write(dir.path().join("broken.db"), &broken).unwrap();
    for args in verbs(&format!("sqlite://{}", words.display())) {
        refused_in(dir.path(), &[], &args, "is not a SQLite database");
    }
    // A file with SQLite's header over garbage: corrupt, said so (SQLite calls it one or the
    // other), not a 30-second wait for a pool.
    for args in verbs("sqlite://broken.db") {
        let err = refused_in(
            dir.path(),
            &[],
            &args,
            "cannot open the database sqlite://broken.db",
        );
        assert!(
            err.contains("corrupt") || err.contains("not a SQLite database"),
            "{err}"
        );
    }
    for url in ["sqlite:", "sqlite://"] {
        for args in verbs(url) {
            refused_in(dir.path(), &[], &args, "names no file");
        }
    }
    // Nothing was made beside them.
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["broken.db", "notes.db"]);
}

#[test]
fn a_postgres_that_does_not_answer_is_named_and_its_password_never_printed() {
    let dir = tempfile::tempdir().unwrap();
    // Port 1 on loopback: nothing listens there.
    let url = "postgres://hexmeros:Sw0rdfish-secret@127.0.0.1:1/hexmeros";
    let mut all = verbs(url);
    all.push(vec![
        "import".into(),
        "-".into(),
        "--players".into(),
        "ann".into(),
        "--db".into(),
        url.into(),
    ]);
    for args in all {
        let err = refused_in(dir.path(), &[], &args, "nothing listens at 127.0.0.1:1");
        assert!(!err.contains("Sw0rdfish"), "the password printed: {err}");
        assert!(
            err.contains("postgres://hexmeros:***@127.0.0.1:1/hexmeros"),
            "{err}"
        );
    }
    // `serve` too, before it says anything to Discord.
    let env = [("DISCORD_TOKEN", "x.y.z"), ("DATABASE_URL", url)];
    let err = refused_in(
        dir.path(),
        &env,
        &["serve".into()],
        "nothing listens at 127.0.0.1:1",
    );
    assert!(!err.contains("Sw0rdfish"), "{err}");
    // A URL of no backend is refused with its password masked as well.
    let err = refused_in(
        dir.path(),
        &[],
        &verbs("mysql://root:Sw0rdfish-secret@db/x")[0],
        "unsupported database URL",
    );
    assert!(!err.contains("Sw0rdfish"), "{err}");
}

/// With `HEXMEROS_TEST_POSTGRES` (CI's second pass): a database the server does not have.
#[tokio::test]
async fn a_postgres_database_that_does_not_exist_is_named() {
    let Ok(server) = std::env::var(db::POSTGRES_VAR) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "{}/no_such_database_here",
        server.trim().trim_end_matches('/')
    );
    for args in verbs(&url) {
        refused_in(dir.path(), &[], &args, "has no such database");
    }
}

#[test]
fn read_only_verbs_create_nothing_and_every_verb_reads_dotenv() {
    let dir = tempfile::tempdir().unwrap();
    // No database here: `admin status` and `export` say so and make none.
    refused_in(
        dir.path(),
        &[],
        &["admin".into(), "status".into()],
        "there is no database at hexmeros.db",
    );
    refused_in(
        dir.path(),
        &[],
        &["export".into(), "1".into()],
        "there is no database at",
    );
    assert!(!dir.path().join("hexmeros.db").exists());
    // The bot's folder: its .env names its database, which every verb then opens.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let bot_db = dir.path().join("bot.db");
    runtime.block_on(async {
        Store::open(&format!("sqlite://{}", bot_db.display()))
            .await
            .unwrap()
            .close()
            .await;
    });
    std::fs::write(dir.path().join(".env"), "DATABASE_URL=sqlite://bot.db\n").unwrap();
    let (code, out, err) = cli::run_in(dir.path(), &[], &["admin", "status"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("games: 0 in play"), "{out}");
    refused_in(
        dir.path(),
        &[],
        &["export".into(), "7".into()],
        "no game #7",
    );
    assert!(
        !dir.path().join("hexmeros.db").exists(),
        "another database was made"
    );
}

/// A database whose newest applied migration is `version` (a row written as sqlx writes one).
async fn claim_migration(url: &str, version: i64) {
    let store = Store::open(url).await.unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES ($1, 'from a newer hexmeros', TRUE, $2, 0)",
    )
    .bind(version)
    .bind(vec![0u8; 48])
    .execute(store.writer())
    .await
    .unwrap();
    store.close().await;
}

#[tokio::test]
async fn a_database_of_a_newer_hexmeros_is_refused_and_left_as_it_is() {
    let test_db = db::TestDb::new().await;
    claim_migration(&test_db.url, 9_999).await;
    let dir = tempfile::tempdir().unwrap();
    for args in verbs(&test_db.url) {
        refused_in(dir.path(), &[], &args, "upgraded by a newer hexmeros");
    }
    let env = [
        ("DISCORD_TOKEN", "x.y.z"),
        ("DATABASE_URL", test_db.url.as_str()),
    ];
    refused_in(
        dir.path(),
        &env,
        &["serve".into()],
        "migration 9999, this binary knows up to",
    );
}

#[tokio::test]
async fn a_read_only_verb_upgrades_no_older_database() {
    let test_db = db::TestDb::new().await;
    let store = Store::open(&test_db.url).await.unwrap();
    // The schema as an older binary left it: its newest migration not yet applied.
    let newest: i64 = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(store.writer())
        .await
        .unwrap();
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = $1")
        .bind(newest)
        .execute(store.writer())
        .await
        .unwrap();
    store.close().await;
    let dir = tempfile::tempdir().unwrap();
    let status = vec![
        "admin".into(),
        "status".into(),
        "--db".into(),
        test_db.url.clone(),
    ];
    refused_in(dir.path(), &[], &status, "`hexmeros serve` upgrades it");
    let store = Store::open_as(&test_db.url, hexmeros::store::Opening::Existing).await;
    assert!(store.is_err(), "still not upgraded");
}
