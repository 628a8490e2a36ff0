//! `hexmeros db copy --from URL --to URL` (issue 20, "move a server's data"): copy a whole store
//! into an empty one (`store::copy`) and prove the copy: every table has the same rows (counted
//! and digested on both sides), and every game of the target replays, through the host's own
//! replay of the stored log, to the same state as in the source.
//!
//! Before anything is written every game of the source is replayed, so a source with a game
//! that no longer replays is refused with the target untouched. The rows go into the target in
//! one transaction; should the check after it fail, the copied rows are deleted again, so the
//! target is left as empty as it was.

use std::collections::BTreeMap;
use std::collections::hash_map::DefaultHasher;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::host::{GameHost, GameState, SystemClock};
use crate::store::copy::{self, CopyError};
use crate::store::open::{is_sqlite_file, sqlite_file};
use crate::store::{Backend, Store};

/// What a game replays to, in short: enough to tell two states apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    pub version: u64,
    pub status: i64,
    /// A digest of the whole state: position, record, seats, timers, motions, points…
    pub digest: u64,
}

impl Replayed {
    pub fn of(s: &GameState) -> Replayed {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = write!(
            text,
            "{}|{}|{:?}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}",
            s.id(),
            s.version(),
            s.status(),
            s.position_json(),
            s.export(),
            s.setup(),
            s.house(),
            s.timers(),
            s.seats(),
            s.record(),
            s.staged(),
            s.declared_upon(),
            s.turn_started(),
            s.reminded(),
            s.timed_out(),
            s.paused_at(),
            s.prefs(),
            s.motions(),
            s.points(),
            s.replacements(),
        );
        let _ = write!(
            text,
            "|{:?}|{:?}|{:?}",
            s.holder_player(),
            s.next_due(),
            s.player_points()
        );
        let mut h = DefaultHasher::new();
        text.hash(&mut h);
        Replayed {
            version: s.version(),
            status: s.status().id(),
            digest: h.finish(),
        }
    }
}

/// What a copy did and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Rows copied per table, in copy order.
    pub tables: Vec<(&'static str, u64)>,
    /// Games replayed on both sides and found the same.
    pub games: usize,
}

impl Summary {
    pub fn rows(&self) -> u64 {
        self.tables.iter().map(|(_, n)| n).sum()
    }

    /// A few lines for the operator.
    pub fn text(&self) -> String {
        let per_table = self
            .tables
            .iter()
            .map(|(t, n)| format!("{t} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "copied {} tables, {} rows: {per_table}\nchecked: every table has the same rows in \
             both databases, and all {} games replay to the same state",
            self.tables.len(),
            self.rows(),
            self.games
        )
    }
}

/// Every game of `store`, replayed by the host from its stored log.
pub async fn replay_all(store: &Store, side: &str) -> Result<BTreeMap<i64, Replayed>, CopyError> {
    let host = GameHost::new(store.clone(), Arc::new(SystemClock));
    let mut ids: Vec<i64> = store.all_games().await?.iter().map(|g| g.id).collect();
    ids.sort_unstable();
    let mut out = BTreeMap::new();
    for id in ids {
        let st = host
            .replay(id)
            .await
            .map_err(|e| CopyError::Check(format!("in the {side} database, {e}")))?;
        out.insert(id, Replayed::of(&st));
    }
    Ok(out)
}

/// Check `target` against `source`, whose games replayed to `expected`: the same rows in every
/// table (counts and digests), and every game replaying to the same state. Returns how many
/// games were checked.
pub async fn check(
    source: &Store,
    target: &Store,
    expected: &BTreeMap<i64, Replayed>,
) -> Result<usize, CopyError> {
    let (ours, theirs) = (copy::digests(source).await?, copy::digests(target).await?);
    for (a, b) in ours.iter().zip(&theirs) {
        if a.rows != b.rows {
            return Err(CopyError::Check(format!(
                "the copy is not whole: the table {} has {} rows in the source and {} in the \
                 target",
                a.table, a.rows, b.rows
            )));
        }
    }
    for (a, b) in ours.iter().zip(&theirs) {
        if a.digest != b.digest {
            return Err(CopyError::Check(format!(
                "the copy differs: the table {} holds other values in the target than in the \
                 source",
                a.table
            )));
        }
    }
    let got = replay_all(target, "target").await?;
    for (id, want) in expected {
        match got.get(id) {
            None => {
                return Err(CopyError::Check(format!(
                    "game #{id} of the source is missing from the target"
                )));
            }
            Some(r) if r != want => {
                return Err(CopyError::Check(format!(
                    "game #{id} replays to another state in the target (version {}, status {}) \
                     than in the source (version {}, status {})",
                    r.version, r.status, want.version, want.status
                )));
            }
            Some(_) => {}
        }
    }
    if let Some(id) = got.keys().find(|id| !expected.contains_key(id)) {
        return Err(CopyError::Check(format!(
            "the target has game #{id}, which the source has not"
        )));
    }
    Ok(got.len())
}

/// A path made absolute with its directory resolved (the file itself need not exist).
fn resolved(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => dir
            .canonicalize()
            .map(|d| d.join(name))
            .unwrap_or_else(|_| abs.clone()),
        _ => abs,
    }
}

/// Whether two URLs name the same database: the same SQLite file, or the same PostgreSQL
/// server and database (whoever logs in).
fn same_database(a: &str, b: &str) -> bool {
    match (Backend::of(a), Backend::of(b)) {
        (Ok(Backend::Sqlite), Ok(Backend::Sqlite)) => match (sqlite_file(a), sqlite_file(b)) {
            (Some(x), Some(y)) => resolved(&x) == resolved(&y),
            _ => false,
        },
        (Ok(Backend::Postgres), Ok(Backend::Postgres)) => {
            match (url::Url::parse(a), url::Url::parse(b)) {
                (Ok(x), Ok(y)) => {
                    x.host_str() == y.host_str()
                        && x.port().unwrap_or(5432) == y.port().unwrap_or(5432)
                        && x.path().trim_matches('/') == y.path().trim_matches('/')
                }
                _ => a == b,
            }
        }
        _ => false,
    }
}

/// Refuse what cannot be a copy's source and target, before anything is opened.
fn check_urls(from: &str, to: &str) -> Result<(), CopyError> {
    for (side, url) in [("--from", from), ("--to", to)] {
        let backend = Backend::of(url).map_err(|e| CopyError::Usage(format!("{side}: {e}")))?;
        if backend == Backend::Sqlite && sqlite_file(url).is_none() {
            return Err(CopyError::Usage(format!(
                "{side}: an in-memory database cannot be copied from or into; name a file"
            )));
        }
    }
    if same_database(from, to) {
        return Err(CopyError::Usage(
            "--from and --to name the same database: copy into another one".into(),
        ));
    }
    for (side, url) in [("source", from), ("target", to)] {
        if Backend::of(url).ok() != Some(Backend::Sqlite) {
            continue;
        }
        let Some(file) = sqlite_file(url) else {
            continue;
        };
        if !file.exists() {
            if side == "source" {
                return Err(CopyError::Usage(format!(
                    "the source database file {} does not exist",
                    file.display()
                )));
            }
            continue;
        }
        // SQLite would wait out the pool's timeout on a file that is not a database.
        if !is_sqlite_file(&file) {
            return Err(CopyError::Usage(format!(
                "the {side} file {} is not a SQLite database",
                file.display()
            )));
        }
    }
    Ok(())
}

/// Copy the store at `from` into the empty store at `to` and check the copy (see the module).
pub async fn copy_and_check(from: &str, to: &str) -> Result<Summary, CopyError> {
    check_urls(from, to)?;
    let source = Store::open(from)
        .await
        .map_err(|e| CopyError::Usage(format!("cannot open the source database: {e}")))?;
    // Every game of the source replays before the target is even opened (or made).
    let expected = match replay_all(&source, "source").await {
        Ok(e) => e,
        Err(e) => {
            source.close().await;
            return Err(e);
        }
    };
    let target = match Store::open(to).await {
        Ok(t) => t,
        Err(e) => {
            source.close().await;
            return Err(CopyError::Usage(format!(
                "cannot open the target database: {e}"
            )));
        }
    };
    let result = copy_into(&source, &target, &expected).await;
    source.close().await;
    target.close().await;
    result
}

/// Copy `source` into the empty `target` and check the copy against `expected` (what every game
/// of the source replayed to, `replay_all`). A check that fails deletes the copied rows again.
pub async fn copy_into(
    source: &Store,
    target: &Store,
    expected: &BTreeMap<i64, Replayed>,
) -> Result<Summary, CopyError> {
    copy::check_empty(target).await?;
    let tables = copy::copy_rows(source, target).await?;
    match check(source, target, expected).await {
        Ok(games) => Ok(Summary { tables, games }),
        Err(e) => {
            let undone = match copy::empty(target).await {
                Ok(()) => "the copied rows were deleted from the target again".to_string(),
                Err(e2) => format!("deleting the copied rows from the target failed too: {e2}"),
            };
            Err(CopyError::Check(format!("{e}; {undone}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_database_is_found_under_other_spellings() {
        let dir = std::env::temp_dir();
        let a = format!("sqlite://{}", dir.join("x.db").display());
        let b = format!("sqlite://{}/./x.db?mode=rwc", dir.display());
        assert!(same_database(&a, &b));
        assert!(!same_database(
            &a,
            &format!("sqlite://{}", dir.join("y.db").display())
        ));
        assert!(same_database(
            "postgres://ann@db.example:5432/hex",
            "postgresql://bob:secret@db.example/hex"
        ));
        assert!(!same_database(
            "postgres://ann@db.example/hex",
            "postgres://ann@db.example/hex2"
        ));
        assert!(!same_database(
            "postgres://ann@db.example/hex",
            "postgres://ann@db.example:5433/hex"
        ));
        assert!(!same_database(&a, "postgres://ann@db.example/hex"));
        assert_eq!(sqlite_file("sqlite::memory:"), None);
        assert_eq!(sqlite_file("sqlite:x.db"), Some(PathBuf::from("x.db")));
    }
}
