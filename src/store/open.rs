//! Opening a database, with a diagnosis instead of a time-out (issue 61): the URL checked
//! before anything is opened (`sqlite:` naming no file is refused, a password never printed:
//! [`masked`]), one probe connection that reports at once what is wrong (not a SQLite file,
//! corrupt, no such file, a host that does not answer or refuses, a refused login, no such
//! database), and the schema's version compared with this binary's: a database written by a
//! newer hexmeros is never touched, and a verb that only reads ([`Opening::Existing`]) never
//! creates or upgrades one.

use std::path::PathBuf;
use std::time::Duration;

use sqlx::any::AnyConnectOptions;
use sqlx::{AnyConnection, ConnectOptions as _, Connection as _, Row as _};

use super::{Backend, StoreError};

/// How long the probe may take to connect and answer: a database that says nothing in this
/// time is reported as not answering (rather than waiting out a pool's 30 s).
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// How a verb opens its database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// Create it if missing (SQLite) and bring its schema up to date: `serve`, `local`,
    /// `import`.
    Migrate,
    /// Only an existing database whose schema is this binary's, as it is: read-only verbs
    /// (`admin status`, `export`).
    Existing,
}

/// `url` with its password, if any, replaced by `***`: what every message prints.
pub fn masked(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let Some(at) = authority.rfind('@') else {
        return url.to_string();
    };
    let (user_info, host) = authority.split_at(at);
    match user_info.split_once(':') {
        Some((user, _password)) => format!("{scheme}://{user}:***{host}{tail}"),
        None => url.to_string(),
    }
}

/// The file a SQLite URL names; `None` for an in-memory database.
pub fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = rest.split('?').next().unwrap_or_default();
    if path.is_empty() || path == ":memory:" || url.contains("mode=memory") {
        return None;
    }
    Some(PathBuf::from(path))
}

/// Whether `file` starts as a SQLite database does (an empty file counts: SQLite makes it one).
pub fn is_sqlite_file(file: &std::path::Path) -> bool {
    use std::io::Read as _;
    const HEADER: &[u8; 16] = b"SQLite format 3\0";
    let Ok(mut f) = std::fs::File::open(file) else {
        return false;
    };
    let mut head = Vec::new();
    match f.by_ref().take(16).read_to_end(&mut head) {
        Ok(0) => true,
        Ok(_) => head == HEADER,
        Err(_) => false,
    }
}

/// A failure to open, said in a sentence that names the database (password masked).
fn refused(url: &str, why: impl std::fmt::Display) -> StoreError {
    StoreError::Open(format!("{}: {why}", masked(url)))
}

/// Check `url` before anything is opened: a SQLite URL must name a file or `:memory:`; for
/// [`Opening::Existing`] the file must exist; an existing file must be a SQLite database.
pub fn check_url(url: &str, how: Opening) -> Result<Backend, StoreError> {
    let backend = Backend::of(url)?;
    if backend == Backend::Postgres {
        return Ok(backend);
    }
    let memory = url.contains(":memory:") || url.contains("mode=memory");
    let Some(file) = sqlite_file(url) else {
        if memory {
            return Ok(backend);
        }
        return Err(refused(
            url,
            "names no file: give sqlite://PATH (sqlite://hexmeros.db, the default, is beside \
             where the bot runs)",
        ));
    };
    if !file.exists() {
        return match how {
            Opening::Migrate => Ok(backend),
            Opening::Existing => Err(refused(
                url,
                format!(
                    "there is no database at {} (this verb reads an existing one and creates \
                     none; is DATABASE_URL, or .env in this folder, the bot's?)",
                    file.display()
                ),
            )),
        };
    }
    if file.is_dir() {
        return Err(refused(
            url,
            format!("{} is a folder, not a file", file.display()),
        ));
    }
    if !is_sqlite_file(&file) {
        return Err(refused(
            url,
            format!(
                "{} is not a SQLite database (or cannot be read)",
                file.display()
            ),
        ));
    }
    Ok(backend)
}

/// What a probe's failure means, in words an operator acts on.
pub fn diagnosis(url: &str, e: &sqlx::Error) -> StoreError {
    let place = match url::Url::parse(url) {
        Ok(u) if u.scheme().starts_with("postgres") => {
            let host = u.host_str().unwrap_or("localhost").to_string();
            let port = u.port().unwrap_or(5432);
            format!("{host}:{port}")
        }
        _ => "the database".to_string(),
    };
    let why = match e {
        sqlx::Error::Database(db) => match db.code().as_deref() {
            // SQLite's result codes.
            Some("26") => "the file is not a SQLite database".to_string(),
            Some("11") => "the database file is corrupt (restore a backup)".to_string(),
            Some("14") => {
                "the file cannot be opened (does its folder exist, and may the bot write there?)"
                    .to_string()
            }
            Some("8") => "the database file is read-only to the bot".to_string(),
            // PostgreSQL's SQLSTATEs.
            Some("28P01") => {
                let user = url::Url::parse(url)
                    .map(|u| u.username().to_string())
                    .unwrap_or_default();
                format!("{place} refused the login of user {user:?} (wrong password?)")
            }
            Some("28000") => format!("{place} refused the login ({})", db.message()),
            Some("3D000") => format!("{place} has no such database ({})", db.message()),
            Some("42501") => format!("{place} refused access ({})", db.message()),
            _ => format!("the database refused: {}", db.message()),
        },
        sqlx::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
            format!("nothing listens at {place} (connection refused): is PostgreSQL running there?")
        }
        sqlx::Error::Io(io) => format!("cannot reach {place}: {io}"),
        sqlx::Error::Tls(t) => format!("the TLS connection to {place} failed: {t}"),
        sqlx::Error::PoolTimedOut => {
            format!(
                "{place} did not answer within {} s",
                PROBE_TIMEOUT.as_secs()
            )
        }
        sqlx::Error::Configuration(c) => format!("the URL is not one the database takes: {c}"),
        other => other.to_string(),
    };
    refused(url, why)
}

/// The newest migration `conn`'s database has applied, `None` when it has no schema yet.
async fn applied(conn: &mut AnyConnection, backend: Backend) -> Result<Option<i64>, sqlx::Error> {
    let has_table: i64 = match backend {
        Backend::Sqlite => sqlx::query(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' \
                 AND name = '_sqlx_migrations'",
        )
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?,
        Backend::Postgres => sqlx::query(
            "SELECT COUNT(*) FROM information_schema.tables \
                 WHERE table_name = '_sqlx_migrations' AND table_schema = current_schema()",
        )
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?,
    };
    if has_table == 0 {
        return Ok(None);
    }
    let row = sqlx::query("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&mut *conn)
        .await?;
    row.try_get::<Option<i64>, _>(0)
}

/// Connect once to `opts` (within [`PROBE_TIMEOUT`]), say what is wrong if that fails, and
/// compare the schema's version with `known` (this binary's newest migration): newer is
/// refused; for [`Opening::Existing`], older or none is refused too.
pub async fn probe(
    url: &str,
    opts: &AnyConnectOptions,
    backend: Backend,
    how: Opening,
    known: i64,
) -> Result<(), StoreError> {
    let connected = tokio::time::timeout(PROBE_TIMEOUT, async {
        let mut conn = opts.connect().await?;
        let version = applied(&mut conn, backend).await;
        let _ = conn.close().await;
        version
    })
    .await;
    let version = match connected {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => return Err(diagnosis(url, &e)),
        Err(_) => return Err(diagnosis(url, &sqlx::Error::PoolTimedOut)),
    };
    match (version, how) {
        (Some(v), _) if v > known => Err(refused(
            url,
            format!(
                "this database was upgraded by a newer hexmeros (its schema is at migration {v}, \
                 this binary knows up to {known}); run that version, or restore the backup made \
                 before the upgrade (see docs/running.md, Upgrading)"
            ),
        )),
        (None, Opening::Existing) => Err(refused(
            url,
            "this is not a hexmeros database (it has no schema); is DATABASE_URL the bot's?",
        )),
        (Some(v), Opening::Existing) if v < known => Err(refused(
            url,
            format!(
                "this database's schema is at migration {v} and this binary's at {known}: \
                 `hexmeros serve` upgrades it (back it up first), or use the binary that wrote it"
            ),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_never_printed() {
        assert_eq!(
            masked("postgres://bot:s3cret@db.example:5433/hex?sslmode=require"),
            "postgres://bot:***@db.example:5433/hex?sslmode=require"
        );
        assert_eq!(masked("postgres://bot@db/hex"), "postgres://bot@db/hex");
        assert_eq!(masked("sqlite://hexmeros.db"), "sqlite://hexmeros.db");
        // A password holding '@' or ':' is still hidden whole.
        assert_eq!(
            masked("postgres://bot:p@ss:w@db/hex"),
            "postgres://bot:***@db/hex"
        );
    }

    #[test]
    fn a_sqlite_url_must_name_a_file() {
        for bad in ["sqlite:", "sqlite://", "sqlite://?mode=rwc"] {
            let e = check_url(bad, Opening::Migrate).unwrap_err().to_string();
            assert!(e.contains("names no file"), "{bad}: {e}");
        }
        assert!(check_url("sqlite::memory:", Opening::Migrate).is_ok());
        let dir = tempfile::tempdir().unwrap();
        let missing = format!("sqlite://{}", dir.path().join("none.db").display());
        assert!(check_url(&missing, Opening::Migrate).is_ok());
        let e = check_url(&missing, Opening::Existing)
            .unwrap_err()
            .to_string();
        assert!(e.contains("there is no database at"), "{e}");
        let text = dir.path().join("notes.db");
        std::fs::write(&text, "not a database at all, just words").unwrap();
        let e = check_url(&format!("sqlite://{}", text.display()), Opening::Migrate)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not a SQLite database"), "{e}");
    }
}
