//! Copying a whole store into another (`hexmeros db copy`, issue 20): every table the store has,
//! row for row with the same ids (so Discord links and buttons keep working), from either backend
//! to either backend, and counting and digesting the tables to prove the copy whole. Replaying
//! the games of both sides is the other half of the check (`crate::copy_check`), which knows the
//! host.
//!
//! The rows are read page by page in key order from one snapshot of the source and written into
//! the target in **one transaction**: a failure leaves the target as empty as it was. Columns are
//! read from the target's schema and must be the same in the source (both are migrated to this
//! binary's version when opened), so a column a future migration adds is copied without a change
//! here; a new table must be added to [`COPIED`] or [`NOT_COPIED`] (a test fails otherwise).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use sqlx::any::{AnyRow, AnyTypeInfoKind};
use sqlx::{Any, AnyConnection, Row, ValueRef};
use thiserror::Error;

use super::{Backend, Store, StoreError};

/// A table `db copy` copies, and the columns of its primary key (the order rows are read in).
#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub name: &'static str,
    pub key: &'static [&'static str],
}

/// Every table of the store that holds data, in an order that writes a referenced row before
/// the rows that refer to it.
pub const COPIED: &[Table] = &[
    Table {
        name: "players",
        key: &["id"],
    },
    Table {
        name: "games",
        key: &["id"],
    },
    Table {
        name: "seats",
        key: &["game_id", "seat", "from_version"],
    },
    Table {
        name: "events",
        key: &["game_id", "version"],
    },
    Table {
        name: "scores",
        key: &["game_id", "player_id"],
    },
    Table {
        name: "ratings",
        key: &["player_id", "kind"],
    },
    Table {
        name: "rating_changes",
        key: &["game_id", "player_id", "kind"],
    },
    Table {
        name: "notes",
        key: &["id"],
    },
    Table {
        name: "player_settings",
        key: &["player_id"],
    },
    Table {
        name: "lobbies",
        key: &["id"],
    },
    Table {
        name: "outbox",
        key: &["id"],
    },
    Table {
        name: "discord_games",
        key: &["game_id"],
    },
    Table {
        name: "discord_ballots",
        key: &["game_id", "motion"],
    },
    Table {
        name: "discord_dm",
        key: &["user_id"],
    },
    Table {
        name: "discord_lobbies",
        key: &["lobby_id"],
    },
    // Old turn messages whose buttons are still to come off: the target's bot cleans them.
    Table {
        name: "discord_stale_turns",
        key: &["message_id"],
    },
    // The web board's signing key: copied, so the links handed out stay valid on the target.
    Table {
        name: "secrets",
        key: &["name"],
    },
];

/// Tables of the schema that are not copied, and why.
pub const NOT_COPIED: &[(&str, &str)] = &[
    (
        "_sqlx_migrations",
        "the target's own record of its migrations, written when it is opened",
    ),
    (
        "leases",
        "who is working what right now (timers, bots, outbox lanes): held by the running \
         processes of the source, and worked again under new leases by the target's",
    ),
    (
        "sqlite_sequence",
        "SQLite's AUTOINCREMENT counters, moved past the copied ids by the inserts themselves",
    ),
];

/// Rows read from the source at a time.
const PAGE: i64 = 500;

/// The most values one INSERT binds (SQLite and PostgreSQL both take far more).
const MAX_BINDS: usize = 4000;

#[derive(Debug, Error)]
pub enum CopyError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// The URLs given are not a source and a target that can be copied.
    #[error("{0}")]
    Usage(String),
    /// The target already holds rows.
    #[error(
        "the target database is not empty (its table {table} has {rows} rows): db copy writes \
         only into an empty database"
    )]
    NotEmpty { table: &'static str, rows: i64 },
    /// The two schemas differ, or a value does not fit its column.
    #[error("{0}")]
    Schema(String),
    /// The copy differs from the source, or the source does not replay.
    #[error("{0}")]
    Check(String),
}

/// How a target column takes its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Int,
    Float,
    Text,
    Blob,
}

impl Class {
    /// The class of a declared column type (SQLite's or PostgreSQL's name for it).
    fn of(declared: &str) -> Class {
        let t = declared.to_ascii_uppercase();
        if t.contains("INT") {
            Class::Int
        } else if t.contains("DOUB") || t.contains("REAL") || t.contains("FLOA") {
            Class::Float
        } else if t.contains("BLOB") || t.contains("BYTEA") {
            Class::Blob
        } else {
            Class::Text
        }
    }
}

/// One value of a row, whichever backend it came from.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Null,
    Int(i64),
    Float(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Val {
    fn read(row: &AnyRow, i: usize) -> Result<Val, sqlx::Error> {
        let raw = row.try_get_raw(i)?;
        if raw.is_null() {
            return Ok(Val::Null);
        }
        let kind = raw.type_info().kind();
        Ok(match kind {
            AnyTypeInfoKind::Null => Val::Null,
            AnyTypeInfoKind::Bool => Val::Int(i64::from(row.try_get::<bool, _>(i)?)),
            k if k.is_integer() => Val::Int(row.try_get(i)?),
            AnyTypeInfoKind::Real => Val::Float(f64::from(row.try_get::<f32, _>(i)?)),
            AnyTypeInfoKind::Double => Val::Float(row.try_get(i)?),
            AnyTypeInfoKind::Blob => Val::Blob(row.try_get(i)?),
            _ => Val::Text(row.try_get(i)?),
        })
    }

    fn hash_into(&self, h: &mut DefaultHasher) {
        match self {
            Val::Null => 0u8.hash(h),
            Val::Int(i) => (1u8, i).hash(h),
            Val::Float(f) => (2u8, f.to_bits()).hash(h),
            Val::Text(s) => (3u8, s).hash(h),
            Val::Blob(b) => (4u8, b).hash(h),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Val::Null => "NULL",
            Val::Int(_) => "an integer",
            Val::Float(_) => "a number",
            Val::Text(_) => "text",
            Val::Blob(_) => "bytes",
        }
    }
}

type AnyQuery<'q> = sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>;

/// Bind `v` for a column of class `class`: NULL typed as the column is (PostgreSQL checks), an
/// integer widened for a floating column, anything else of another class refused.
fn bind<'q>(
    q: AnyQuery<'q>,
    v: &Val,
    class: Class,
    table: &str,
    column: &str,
) -> Result<AnyQuery<'q>, CopyError> {
    Ok(match (v, class) {
        (Val::Null, Class::Int) => q.bind(None::<i64>),
        (Val::Null, Class::Float) => q.bind(None::<f64>),
        (Val::Null, Class::Text) => q.bind(None::<String>),
        (Val::Null, Class::Blob) => q.bind(None::<Vec<u8>>),
        (Val::Int(i), Class::Int) => q.bind(*i),
        (Val::Int(i), Class::Float) => q.bind(*i as f64),
        (Val::Float(f), Class::Float) => q.bind(*f),
        (Val::Text(s), Class::Text) => q.bind(s.clone()),
        (Val::Blob(b), Class::Blob) => q.bind(b.clone()),
        (v, class) => {
            return Err(CopyError::Schema(format!(
                "the source's {table}.{column} holds {} where the target's column takes {class:?} \
                 values",
                v.kind()
            )));
        }
    })
}

/// A name quoted as an SQL identifier (`at`, `version`… are words of SQL).
fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Every table of a store's schema, sorted.
pub async fn schema_tables(store: &Store) -> Result<Vec<String>, StoreError> {
    let sql = match store.backend {
        Backend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
        Backend::Postgres => {
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
             ORDER BY table_name"
        }
    };
    Ok(sqlx::query_scalar(sql).fetch_all(&store.pool).await?)
}

/// The tables of `tables` that are neither copied nor listed as not copied.
pub fn unlisted(tables: &[String]) -> Vec<String> {
    tables
        .iter()
        .filter(|t| {
            !COPIED.iter().any(|c| c.name == t.as_str()) && !NOT_COPIED.iter().any(|(n, _)| n == t)
        })
        .cloned()
        .collect()
}

/// The columns of `table` (name, class) as `conn` sees them, in the table's order.
async fn columns(
    conn: &mut AnyConnection,
    backend: Backend,
    table: &str,
) -> Result<Vec<(String, Class)>, CopyError> {
    let rows = match backend {
        Backend::Sqlite => {
            sqlx::query("SELECT name, type FROM pragma_table_info($1) ORDER BY cid")
                .bind(table)
                .fetch_all(&mut *conn)
                .await?
        }
        Backend::Postgres => {
            sqlx::query(
                "SELECT CAST(column_name AS TEXT), CAST(data_type AS TEXT) \
                 FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = $1 \
                 ORDER BY ordinal_position",
            )
            .bind(table)
            .fetch_all(&mut *conn)
            .await?
        }
    };
    let cols = rows
        .iter()
        .map(|r| {
            Ok((
                r.try_get::<String, _>(0)?,
                Class::of(&r.try_get::<String, _>(1)?),
            ))
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    if cols.is_empty() {
        return Err(CopyError::Schema(format!(
            "the database has no table {table}"
        )));
    }
    Ok(cols)
}

/// One page of `table` after the key `after` (the first page with `None`), in key order.
async fn page(
    conn: &mut AnyConnection,
    table: &Table,
    cols: &[String],
    after: Option<&[Val]>,
) -> Result<Vec<Vec<Val>>, CopyError> {
    let list = cols.iter().map(|c| ident(c)).collect::<Vec<_>>().join(", ");
    let key = table
        .key
        .iter()
        .map(|c| ident(c))
        .collect::<Vec<_>>()
        .join(", ");
    let mut sql = format!("SELECT {list} FROM {}", ident(table.name));
    if after.is_some() {
        let marks = (1..=table.key.len())
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        sql.push_str(&format!(" WHERE ({key}) > ({marks})"));
    }
    sql.push_str(&format!(" ORDER BY {key} LIMIT {PAGE}"));
    let mut q = sqlx::query(&sql);
    if let Some(after) = after {
        for v in after {
            q = match v {
                Val::Int(i) => q.bind(*i),
                Val::Float(f) => q.bind(*f),
                Val::Text(s) => q.bind(s.clone()),
                Val::Blob(b) => q.bind(b.clone()),
                Val::Null => q.bind(None::<i64>),
            };
        }
    }
    let rows = q.fetch_all(&mut *conn).await?;
    rows.iter()
        .map(|r| (0..cols.len()).map(|i| Val::read(r, i)).collect())
        .collect::<Result<Vec<_>, sqlx::Error>>()
        .map_err(CopyError::from)
}

/// The key of `row` (whose columns are `cols`).
fn key_of(table: &Table, cols: &[String], row: &[Val]) -> Result<Vec<Val>, CopyError> {
    table
        .key
        .iter()
        .map(|k| {
            cols.iter()
                .position(|c| c == k)
                .and_then(|i| row.get(i).cloned())
                .ok_or_else(|| {
                    CopyError::Schema(format!("the table {} has no key column {k}", table.name))
                })
        })
        .collect()
}

/// Visit every row of every copied table of `store`, page by page in key order, in one read
/// transaction (one snapshot of the whole store).
async fn each_page<F>(store: &Store, cols_of: &[Vec<String>], mut f: F) -> Result<(), CopyError>
where
    F: AsyncPageFn,
{
    let mut tx = store.pool.begin().await?;
    if store.backend == Backend::Postgres {
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .execute(&mut *tx)
            .await?;
    }
    for (at, (t, cols)) in COPIED.iter().zip(cols_of).enumerate() {
        let mut after: Option<Vec<Val>> = None;
        loop {
            let rows = page(&mut tx, t, cols, after.as_deref()).await?;
            let Some(last) = rows.last() else { break };
            after = Some(key_of(t, cols, last)?);
            let full = rows.len() as i64 == PAGE;
            f.call(at, rows).await?;
            if !full {
                break;
            }
        }
    }
    tx.rollback().await?;
    Ok(())
}

/// What `each_page` does with a page (an async closure that borrows its state).
trait AsyncPageFn {
    /// `rows` of the table `COPIED[at]`.
    async fn call(&mut self, at: usize, rows: Vec<Vec<Val>>) -> Result<(), CopyError>;
}

/// What one table holds: its rows and a digest of their values in key order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDigest {
    pub table: &'static str,
    pub rows: u64,
    pub digest: u64,
}

struct Digester {
    out: Vec<TableDigest>,
    hasher: DefaultHasher,
}

impl AsyncPageFn for &mut Digester {
    async fn call(&mut self, at: usize, rows: Vec<Vec<Val>>) -> Result<(), CopyError> {
        let table = &COPIED[at];
        if self.out.last().map(|d| d.table) != Some(table.name) {
            self.hasher = DefaultHasher::new();
            self.out.push(TableDigest {
                table: table.name,
                rows: 0,
                digest: 0,
            });
        }
        for row in &rows {
            for v in row {
                v.hash_into(&mut self.hasher);
            }
        }
        if let Some(d) = self.out.last_mut() {
            d.rows += rows.len() as u64;
            d.digest = self.hasher.finish();
        }
        Ok(())
    }
}

/// Every copied table of `store`: how many rows, and a digest of all their values (the same on
/// both backends for the same rows).
pub async fn digests(store: &Store) -> Result<Vec<TableDigest>, CopyError> {
    let mut conn = store.pool.acquire().await?;
    let mut cols_of = Vec::new();
    for t in COPIED {
        let cols = columns(&mut conn, store.backend, t.name).await?;
        cols_of.push(cols.into_iter().map(|(c, _)| c).collect::<Vec<_>>());
    }
    drop(conn);
    let mut d = Digester {
        out: Vec::new(),
        hasher: DefaultHasher::new(),
    };
    each_page(store, &cols_of, &mut d).await?;
    // Tables without rows were never visited.
    Ok(COPIED
        .iter()
        .map(|t| {
            d.out
                .iter()
                .find(|x| x.table == t.name)
                .cloned()
                .unwrap_or(TableDigest {
                    table: t.name,
                    rows: 0,
                    digest: DefaultHasher::new().finish(),
                })
        })
        .collect())
}

/// Rows per copied table, in copy order.
pub async fn counts(store: &Store) -> Result<Vec<(&'static str, i64)>, CopyError> {
    let mut out = Vec::new();
    for t in COPIED {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", ident(t.name)))
            .fetch_one(&store.pool)
            .await?;
        out.push((t.name, n));
    }
    Ok(out)
}

/// Refuse a target that holds any row in a copied table.
pub async fn check_empty(target: &Store) -> Result<(), CopyError> {
    for (table, rows) in counts(target).await? {
        if rows > 0 {
            return Err(CopyError::NotEmpty { table, rows });
        }
    }
    Ok(())
}

struct Writer<'t> {
    tx: &'t mut AnyConnection,
    cols_of: &'t [Vec<(String, Class)>],
    copied: Vec<(&'static str, u64)>,
}

impl AsyncPageFn for &mut Writer<'_> {
    async fn call(&mut self, at: usize, rows: Vec<Vec<Val>>) -> Result<(), CopyError> {
        let table = &COPIED[at];
        let cols = &self.cols_of[at];
        let list = cols
            .iter()
            .map(|(c, _)| ident(c))
            .collect::<Vec<_>>()
            .join(", ");
        let per_insert = (MAX_BINDS / cols.len().max(1)).max(1);
        for chunk in rows.chunks(per_insert) {
            let mut n = 0;
            let values = chunk
                .iter()
                .map(|_| {
                    let marks = (0..cols.len())
                        .map(|_| {
                            n += 1;
                            format!("${n}")
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    format!("({marks})")
                })
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!("INSERT INTO {} ({list}) VALUES {values}", ident(table.name));
            let mut q = sqlx::query(&sql);
            for row in chunk {
                for (v, (name, class)) in row.iter().zip(cols) {
                    q = bind(q, v, *class, table.name, name)?;
                }
            }
            q.execute(&mut *self.tx).await?;
        }
        match self.copied.last_mut() {
            Some((t, n)) if *t == table.name => *n += rows.len() as u64,
            _ => self.copied.push((table.name, rows.len() as u64)),
        }
        Ok(())
    }
}

/// On PostgreSQL, move every identity or serial column's sequence past the largest id of its
/// table (to 1 when it has none), so the next game, lobby, note or outbox entry gets a new id.
async fn reset_sequences(conn: &mut AnyConnection) -> Result<(), CopyError> {
    for t in COPIED {
        let idents: Vec<String> = sqlx::query_scalar(
            "SELECT CAST(column_name AS TEXT) FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = $1 \
             AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')",
        )
        .bind(t.name)
        .fetch_all(&mut *conn)
        .await?;
        for c in idents {
            let sql = format!(
                "SELECT setval(pg_get_serial_sequence($1, $2), \
                 COALESCE((SELECT MAX({col}) FROM {table}), 0) + 1, false)",
                col = ident(&c),
                table = ident(t.name)
            );
            sqlx::query(&sql)
                .bind(t.name)
                .bind(&c)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}

/// Copy every row of every copied table of `source` into `target`, which must be empty, in one
/// transaction of the target. Returns the rows copied per table (in copy order, every table).
pub async fn copy_rows(
    source: &Store,
    target: &Store,
) -> Result<Vec<(&'static str, u64)>, CopyError> {
    check_empty(target).await?;
    let mut src = source.pool.acquire().await?;
    let mut tx = target.writer.begin().await?;
    let mut cols_of = Vec::new();
    let mut names_of = Vec::new();
    for t in COPIED {
        let theirs = columns(&mut src, source.backend, t.name).await?;
        let ours = columns(&mut tx, target.backend, t.name).await?;
        let mut a: Vec<&String> = theirs.iter().map(|(c, _)| c).collect();
        let mut b: Vec<&String> = ours.iter().map(|(c, _)| c).collect();
        a.sort();
        b.sort();
        if a != b {
            return Err(CopyError::Schema(format!(
                "the table {} has other columns in the source ({}) than in the target ({})",
                t.name,
                a.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
                b.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            )));
        }
        names_of.push(ours.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>());
        cols_of.push(ours);
    }
    drop(src);
    // Checked again inside the transaction: nobody wrote into the target since.
    for t in COPIED {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", ident(t.name)))
            .fetch_one(&mut *tx)
            .await?;
        if n > 0 {
            return Err(CopyError::NotEmpty {
                table: t.name,
                rows: n,
            });
        }
    }
    let mut w = Writer {
        tx: &mut tx,
        cols_of: &cols_of,
        copied: Vec::new(),
    };
    each_page(source, &names_of, &mut w).await?;
    let copied = w.copied;
    if target.backend == Backend::Postgres {
        reset_sequences(&mut tx).await?;
    }
    tx.commit().await?;
    Ok(COPIED
        .iter()
        .map(|t| {
            let n = copied
                .iter()
                .find(|(n, _)| *n == t.name)
                .map_or(0, |(_, n)| *n);
            (t.name, n)
        })
        .collect())
}

/// Delete every copied row from `target` (a copy whose check failed), in one transaction, and
/// start its ids again from 1: it is as empty as it was.
pub async fn empty(target: &Store) -> Result<(), CopyError> {
    let mut tx = target.writer.begin().await?;
    for t in COPIED.iter().rev() {
        sqlx::query(&format!("DELETE FROM {}", ident(t.name)))
            .execute(&mut *tx)
            .await?;
    }
    match target.backend {
        Backend::Postgres => reset_sequences(&mut tx).await?,
        Backend::Sqlite => {
            sqlx::query("DELETE FROM sqlite_sequence")
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}
