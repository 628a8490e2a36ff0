//! A fresh database for each test, on either backend of the store: a temporary SQLite file by
//! default, or, when the environment variable `HEXMEROS_TEST_POSTGRES` holds a PostgreSQL server
//! URL (`postgres://postgres@127.0.0.1:5433`, as `.ci/postgres.sh` prints), a new database of a
//! unique name created on that server and dropped when the test is done. The store, host and
//! Discord end-to-end tests take their URL from here, so `.ci/run` runs them on both backends.
//!
//! Take it with `use hexmeros_testkit::db;` (the store's unit tests include the file with
//! `#[path]`).
#![allow(dead_code)] // each test file uses what it needs

use std::sync::atomic::{AtomicUsize, Ordering};

use sqlx::{Connection, Executor, PgConnection};

/// The variable naming the PostgreSQL server the tests create their databases on.
pub const POSTGRES_VAR: &str = "HEXMEROS_TEST_POSTGRES";

/// One test's database; its file or PostgreSQL database goes when this is dropped.
pub struct TestDb {
    /// What `Store::open` takes.
    pub url: String,
    /// The temporary directory of a SQLite file.
    dir: Option<tempfile::TempDir>,
    /// The server and the name of a PostgreSQL database.
    postgres: Option<(String, String)>,
}

impl TestDb {
    /// A database on the backend the environment chooses.
    pub async fn new() -> TestDb {
        match std::env::var(POSTGRES_VAR) {
            Ok(server) if !server.trim().is_empty() => TestDb::postgres(server.trim()).await,
            _ => TestDb::sqlite(),
        }
    }

    /// A temporary SQLite file, whatever the environment says: for tests about SQLite itself
    /// (its PRAGMAs, a corrupt file, the file's path).
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("test.db").display());
        TestDb {
            url,
            dir: Some(dir),
            postgres: None,
        }
    }

    /// Whether this is a PostgreSQL database.
    pub fn is_postgres(&self) -> bool {
        self.postgres.is_some()
    }

    /// A new, empty database on the PostgreSQL server at `server`. Panics if the server cannot
    /// be reached: a run asked for PostgreSQL must not quietly test SQLite instead.
    async fn postgres(server: &str) -> TestDb {
        static SEQ: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let name = format!(
            "hexmeros_test_{}_{}_{nanos}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = PgConnection::connect(server).await.unwrap_or_else(|e| {
            panic!("{POSTGRES_VAR}={server}: cannot connect to the PostgreSQL server: {e}")
        });
        admin
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .unwrap();
        admin.close().await.unwrap();
        let mut url = url::Url::parse(server).unwrap();
        url.set_path(&name);
        TestDb {
            url: url.to_string(),
            dir: None,
            postgres: Some((server.to_string(), name)),
        }
    }

    /// The directory a SQLite file is in (none on PostgreSQL).
    pub fn path(&self) -> Option<&std::path::Path> {
        self.dir.as_ref().map(|d| d.path())
    }
}

impl Drop for TestDb {
    /// Drop a PostgreSQL database (with its connections: the test is over), so a run of the
    /// whole suite does not fill the server's disk. Runs on a thread of its own, since a test's
    /// runtime may be the one dropping it.
    fn drop(&mut self) {
        let Some((server, name)) = self.postgres.take() else {
            return;
        };
        let dropped = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let mut admin = PgConnection::connect(&server).await?;
                admin
                    .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
                    .await?;
                admin.close().await
            })
        })
        .join();
        if let Ok(Err(e)) = dropped {
            eprintln!("could not drop a test database: {e}");
        }
    }
}
