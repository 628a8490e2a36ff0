//! The store: games, seats, the append-only event log, players, scores and ratings, over a sqlx
//! pool on SQLite (the default) or PostgreSQL, chosen by the database URL. It knows rows, not
//! rules: the host decides what to write, and every write of a game is one transaction that
//! succeeds only if the game's version did not move, so two processes racing on one game never
//! both commit.
//!
//! Every query is written once, for sqlx's `Any` driver: `$1` placeholders, integer ids, text
//! JSON, `ON CONFLICT`, `RETURNING`, and a `CAST(… AS BIGINT)` on sums (PostgreSQL sums BIGINTs
//! as NUMERIC). Each backend has its own migrations (`migrations/sqlite`, `migrations/postgres`)
//! with the same versions.

mod backup;
pub mod copy;
mod digests;
mod forget;
mod leases;
mod lobbies;
mod notes;
pub mod open;
mod outbox;
mod ratings;
mod retention;
mod secrets;
mod settings;

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyConnection, AnyPool, Executor, Row};
use thiserror::Error;

pub use backup::take_out_of_use;
pub use digests::DigestDue;
pub use forget::{FORGOTTEN_NAME, Forgotten};
pub use leases::Lease;
pub use lobbies::{LobbyRow, LobbyWrite};
pub use notes::Note;
pub use open::{Opening, masked};
pub use outbox::{Done, Entry, NewEntry, OutboxStats};
pub use ratings::{Rating, RatingChange, conservative};
pub use retention::Retained;
pub use settings::SettingsRow;

/// The default database, next to where the bot runs.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://hexmeros.db";

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A database URL of neither backend (its password masked).
    #[error(
        "unsupported database URL {0:?}: use sqlite://FILE (the default) or postgres://USER@HOST/DB"
    )]
    Url(String),
    /// The database cannot be opened, and why (see [`open`]); the URL in it is masked.
    #[error("cannot open the database {0}")]
    Open(String),
    /// Someone else wrote first.
    #[error("the game moved on: version {expected} is stale")]
    Stale { expected: u64 },
    #[error("there is no game #{0}")]
    NoGame(i64),
    /// A write made under a lease that another process has taken over since (or that was
    /// given up): nothing was written, the item is the other process's now.
    #[error("the lease {lease} is held by another process now: nothing was written")]
    LeaseLost { lease: String },
    /// A backup that cannot be made, and why.
    #[error("cannot make the backup: {0}")]
    Backup(String),
    /// A value could not be written (a JSON body).
    #[error("cannot write a value: {0}")]
    Encode(String),
}

/// A `games` row.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: i64,
    pub kind: String,
    pub status: i64,
    pub version: i64,
    pub setup: String,
    pub channel: Option<String>,
    pub created_at: i64,
}

/// One stored event: the version it was based on, its JSON body, when.
#[derive(Clone, Debug)]
pub struct EventRow {
    pub version: i64,
    pub kind: String,
    pub actor: Option<i64>,
    pub body: String,
    pub at: i64,
}

/// Everything one command writes, in one transaction.
#[derive(Clone, Debug, Default)]
pub struct GameWrite {
    pub game: i64,
    /// The version the command was based on; the write fails if the game has moved.
    pub expected: u64,
    pub events: Vec<EventRow>,
    pub status: i64,
    pub house_rules: String,
    pub to_move: Option<i64>,
    pub next_due: Option<i64>,
    pub now: i64,
    /// (seat, new player, version) of replacements made by these events.
    pub replacements: Vec<(u8, i64, u64)>,
    /// Set when the game ends: the kind key, final points (scored games) and finishing ranks
    /// (player, rank) for ratings.
    pub finish: Option<Finish>,
    /// What players must be told because of these events (see `outbox`).
    pub outbox: Vec<NewEntry>,
    /// The lease these events are written under (a game's timers or bots): the write fails
    /// with [`StoreError::LeaseLost`] unless it is still held with its token.
    pub lease: Option<Lease>,
}

/// A new game: its row, its seats (players in seat order) and where its front end started it
/// (`channel`).
#[derive(Clone, Debug, Default)]
pub struct NewGame<'a> {
    pub kind: &'a str,
    pub status: i64,
    pub setup: &'a str,
    pub house_rules: &'a str,
    pub players: &'a [i64],
    pub to_move: Option<i64>,
    pub next_due: Option<i64>,
    pub channel: Option<&'a str>,
    pub now: i64,
}

#[derive(Clone, Debug, Default)]
pub struct Finish {
    pub kind: String,
    pub points: Vec<(i64, i32)>,
    pub ranks: Vec<(i64, usize)>,
}

/// A line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub player: i64,
    pub name: String,
    pub points: i64,
    pub games: i64,
}

/// A game in a list.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    pub id: i64,
    pub kind: String,
    pub status: i64,
    pub to_move: Option<i64>,
    pub version: i64,
}

/// Which database a store runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a database URL names, or an error for any other URL.
    pub fn of(url: &str) -> Result<Backend, StoreError> {
        let scheme = url.split(':').next().unwrap_or_default();
        match scheme {
            "sqlite" => Ok(Backend::Sqlite),
            "postgres" | "postgresql" => Ok(Backend::Postgres),
            _ => Err(StoreError::Url(masked(url))),
        }
    }
}

/// The database. Reads share a pool of connections. On SQLite every write goes through one
/// connection of its own, so writers queue in order inside the process instead of colliding on
/// SQLite's lock and sleeping in its busy handler (which put tens of milliseconds on the slowest
/// moves); PostgreSQL takes concurrent writers, so there the writer is the same pool as the
/// readers (the version-guarded writes decide races between them as between processes).
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    pool: AnyPool,
    writer: AnyPool,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("migrations/postgres");

/// What every SQLite connection runs first. FULL: every commit is on disk before the player is
/// told, so a confirmed move survives a power cut as well as a crash (WAL with NORMAL survives
/// only a crash).
const SQLITE_SETUP: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                            PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;";

/// A pool whose connections each run `SQLITE_SETUP` first.
fn sqlite_pool() -> AnyPoolOptions {
    AnyPoolOptions::new().after_connect(|conn: &mut AnyConnection, _| {
        Box::pin(async move {
            conn.execute(SQLITE_SETUP).await?;
            Ok(())
        })
    })
}

/// A SQLite URL that creates its file when missing (as the store always did), unless it says
/// otherwise (`mode=`).
fn sqlite_creating(url: &str) -> String {
    if url.contains("mode=") || url.contains(":memory:") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    }
}

impl Store {
    /// Open (creating if missing, for SQLite) the database at `url` and bring its schema up to
    /// date: `sqlite://FILE` or `postgres://USER@HOST/DB`.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_as(url, Opening::Migrate).await
    }

    /// Open the database at `url` as `how` says, after checking it (see [`open`]): what is
    /// wrong with it is said at once, a database of a newer hexmeros is refused, and
    /// [`Opening::Existing`] creates and upgrades nothing.
    pub async fn open_as(url: &str, how: Opening) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = open::check_url(url, how)?;
        let (migrator, text) = match backend {
            Backend::Sqlite if how == Opening::Migrate => {
                (&SQLITE_MIGRATIONS, sqlite_creating(url))
            }
            Backend::Sqlite => (&SQLITE_MIGRATIONS, url.to_string()),
            Backend::Postgres => (&POSTGRES_MIGRATIONS, url.to_string()),
        };
        let opts = AnyConnectOptions::from_str(&text).map_err(|e| open::diagnosis(url, &e))?;
        let known = migrator.iter().map(|m| m.version).max().unwrap_or(0);
        open::probe(url, &opts, backend, how, known).await?;
        let migrate = how == Opening::Migrate;
        match backend {
            Backend::Sqlite => Store::open_sqlite(url, opts, migrate).await,
            Backend::Postgres => Store::open_postgres(opts, migrate).await,
        }
    }

    async fn open_sqlite(
        url: &str,
        opts: AnyConnectOptions,
        migrate: bool,
    ) -> Result<Store, StoreError> {
        let writer = sqlite_pool()
            .max_connections(1)
            .connect_with(opts.clone())
            .await?;
        if migrate {
            SQLITE_MIGRATIONS.run(&writer).await?;
        }
        // An in-memory database exists once per connection: there, one connection does all.
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        let pool = if in_memory {
            writer.clone()
        } else {
            sqlite_pool().max_connections(8).connect_with(opts).await?
        };
        Ok(Store {
            backend: Backend::Sqlite,
            pool,
            writer,
        })
    }

    async fn open_postgres(opts: AnyConnectOptions, migrate: bool) -> Result<Store, StoreError> {
        let pool = AnyPoolOptions::new()
            .max_connections(10)
            .idle_timeout(Duration::from_secs(60))
            .connect_with(opts)
            .await?;
        // Two processes starting at once take turns: sqlx holds an advisory lock while it
        // migrates.
        if migrate {
            POSTGRES_MIGRATIONS.run(&pool).await?;
        }
        Ok(Store {
            backend: Backend::Postgres,
            writer: pool.clone(),
            pool,
        })
    }

    /// The backend this store runs on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Close the pool (tests reopen the same file to prove nothing was lost).
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }

    /// The writing connection, for front ends that keep tables of their own and for tests that
    /// break rows on purpose.
    pub fn writer(&self) -> &AnyPool {
        &self.writer
    }

    /// Add a player with a known id (a Discord user), or keep the existing row.
    pub async fn ensure_player(&self, id: i64, name: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO players (id, name, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(name)
        .bind(now)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Add the bot player `id` (a reserved negative id) called `name`, playing at level `key`,
    /// or keep the existing row. Seat it like any player.
    pub async fn add_bot(
        &self,
        id: i64,
        name: &str,
        key: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO players (id, name, created_at, bot_level) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(name)
        .bind(now)
        .bind(key)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The level key of a stored bot player, `None` for a person (or no such player).
    pub async fn player_bot_key(&self, id: i64) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT bot_level FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get(0)?,
            None => None,
        })
    }

    /// The id of the local player called `name`, creating one if there is none.
    pub async fn local_player(&self, name: &str, now: i64) -> Result<i64, StoreError> {
        if let Some(id) = self.player_named(name).await? {
            return Ok(id);
        }
        // The next id above every positive one (Discord snowflakes included; bots are negative),
        // chosen in the statement: PostgreSQL has no rowid to pick it. A concurrent writer that
        // took the same id first leaves no row, and the next try picks the one after it.
        for _ in 0..16 {
            let row = sqlx::query(
                "INSERT INTO players (id, name, created_at) \
                 SELECT COALESCE(MAX(id), 0) + 1, $1, $2 FROM players WHERE id > 0 \
                 ON CONFLICT (id) DO NOTHING RETURNING id",
            )
            .bind(name)
            .bind(now)
            .fetch_optional(&self.writer)
            .await?;
            if let Some(row) = row {
                return Ok(row.try_get(0)?);
            }
        }
        Err(StoreError::Db(sqlx::Error::Protocol(format!(
            "could not find a free player id for {name:?}"
        ))))
    }

    pub async fn player_named(&self, name: &str) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT id FROM players WHERE name = $1 ORDER BY id LIMIT 1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// A player's name as it is now (a Discord user who changed their display name).
    pub async fn rename_player(&self, id: i64, name: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    pub async fn player_name(&self, id: i64) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT name FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Create a game with its seats and the outbox entries announcing it (`announce`, given the
    /// new id), in one transaction. Returns its id.
    pub async fn create_game(
        &self,
        g: &NewGame<'_>,
        announce: impl FnOnce(i64) -> Result<Vec<NewEntry>, StoreError>,
    ) -> Result<i64, StoreError> {
        let mut tx = self.writer.begin().await?;
        let row = sqlx::query(
            "INSERT INTO games (kind, status, version, setup, house_rules, to_move, next_due, \
             channel, created_at, updated_at) VALUES ($1, $2, 0, $3, $4, $5, $6, $7, $8, $8) \
             RETURNING id",
        )
        .bind(g.kind)
        .bind(g.status)
        .bind(g.setup)
        .bind(g.house_rules)
        .bind(g.to_move)
        .bind(g.next_due)
        .bind(g.channel)
        .bind(g.now)
        .fetch_one(&mut *tx)
        .await?;
        let id: i64 = row.try_get(0)?;
        for (seat, p) in g.players.iter().enumerate() {
            sqlx::query(
                "INSERT INTO seats (game_id, seat, player_id, from_version) VALUES ($1, $2, $3, 0)",
            )
            .bind(id)
            .bind(seat as i64)
            .bind(p)
            .execute(&mut *tx)
            .await?;
        }
        outbox::insert(&mut tx, &announce(id)?, g.now).await?;
        tx.commit().await?;
        Ok(id)
    }

    pub async fn set_channel(&self, game: i64, channel: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET channel = $1 WHERE id = $2")
            .bind(channel)
            .bind(game)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    pub async fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(GAME_ROW)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(game_row).transpose()
    }

    /// A game's row and its whole log, read in one transaction: the same snapshot of both, even
    /// while a writer (this process's or another's) commits a move between the two reads.
    pub async fn game_and_log(
        &self,
        id: i64,
    ) -> Result<Option<(GameRow, Vec<EventRow>)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.backend == Backend::Postgres {
            // PostgreSQL's default (READ COMMITTED) takes a new snapshot per statement; SQLite's
            // read transaction is one snapshot already.
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                .execute(&mut *tx)
                .await?;
        }
        let row = sqlx::query(GAME_ROW)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row.map(game_row).transpose()? else {
            tx.rollback().await?;
            return Ok(None);
        };
        let events = sqlx::query(EVENT_ROWS)
            .bind(id)
            .fetch_all(&mut *tx)
            .await?
            .into_iter()
            .map(event_row)
            .collect::<Result<Vec<_>, _>>()?;
        tx.rollback().await?;
        Ok(Some((row, events)))
    }

    /// The game's current version (number of events), if it exists.
    pub async fn version(&self, id: i64) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT version FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// The whole log of a game, oldest first.
    pub async fn events(&self, id: i64) -> Result<Vec<EventRow>, StoreError> {
        let rows = sqlx::query(EVENT_ROWS)
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter().map(event_row).collect()
    }

    /// Append events and update the game row, in one transaction that fails with `Stale` if the
    /// game's version is no longer `w.expected`.
    pub async fn append(&self, w: &GameWrite) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        let new_version = w.expected + w.events.len() as u64;
        // Under a lease, its fence comes first (a write on SQLite: it takes the write lock at
        // once): a process that lost the lease writes nothing, whatever the version says.
        if let Some(lease) = &w.lease
            && let Err(e) = leases::hold(&mut tx, lease).await
        {
            tx.rollback().await?;
            return Err(e);
        }
        // The version test comes next: it decides the race between writers.
        let done = sqlx::query(
            "UPDATE games SET version = $1, status = $2, house_rules = $3, to_move = $4, \
             next_due = $5, updated_at = $6 WHERE id = $7 AND version = $8",
        )
        .bind(new_version as i64)
        .bind(w.status)
        .bind(&w.house_rules)
        .bind(w.to_move)
        .bind(w.next_due)
        .bind(w.now)
        .bind(w.game)
        .bind(w.expected as i64)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Err(match self.version(w.game).await? {
                None => StoreError::NoGame(w.game),
                Some(_) => StoreError::Stale {
                    expected: w.expected,
                },
            });
        }
        for e in &w.events {
            sqlx::query(
                "INSERT INTO events (game_id, version, kind, actor, body, at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(w.game)
            .bind(e.version)
            .bind(&e.kind)
            .bind(e.actor)
            .bind(&e.body)
            .bind(e.at)
            .execute(&mut *tx)
            .await?;
        }
        for &(seat, player, version) in &w.replacements {
            sqlx::query(
                "UPDATE seats SET until_version = $1 WHERE game_id = $2 AND seat = $3 \
                 AND until_version IS NULL",
            )
            .bind(version as i64)
            .bind(w.game)
            .bind(seat as i64)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO seats (game_id, seat, player_id, from_version) VALUES ($1, $2, $3, $4)",
            )
            .bind(w.game)
            .bind(seat as i64)
            .bind(player)
            .bind(version as i64)
            .execute(&mut *tx)
            .await?;
        }
        if let Some(f) = &w.finish {
            for &(player, points) in &f.points {
                sqlx::query(
                    "INSERT INTO scores (game_id, player_id, kind, points) VALUES ($1, $2, $3, $4)",
                )
                .bind(w.game)
                .bind(player)
                .bind(&f.kind)
                .bind(points)
                .execute(&mut *tx)
                .await?;
            }
            ratings::update(&mut tx, self.backend, w.game, &f.kind, &f.ranks).await?;
        }
        outbox::insert(&mut tx, &w.outbox, w.now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Games whose next timer is due at `now`.
    pub async fn due_games(&self, now: i64) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status IN (10, 20) AND next_due IS NOT NULL \
             AND next_due <= $1 ORDER BY next_due",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// When a game's next timer is due, computed again without a new event (a reminder that
    /// waits for the end of quiet hours); only while the game is still at `version`.
    pub async fn set_next_due(
        &self,
        game: i64,
        version: i64,
        due: Option<i64>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET next_due = $1 WHERE id = $2 AND version = $3")
            .bind(due)
            .bind(game)
            .bind(version)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// When a game's next timer is due (unix ms), if it has one.
    pub async fn next_due(&self, game: i64) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT next_due FROM games WHERE id = $1")
                .bind(game)
                .fetch_optional(&self.pool)
                .await?
                .flatten(),
        )
    }

    /// Take a game off the timer list (a game whose log no longer replays).
    pub async fn stop_timers(&self, game: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET next_due = NULL WHERE id = $1")
            .bind(game)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Games a player sits in (current occupant), newest first; `only_turn` keeps those where
    /// the player holds the Token.
    pub async fn games_of(
        &self,
        player: i64,
        only_turn: bool,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let sql = if only_turn {
            "SELECT id, kind, status, to_move, version FROM games \
             WHERE to_move = $1 AND status IN (10, 20) ORDER BY id DESC"
        } else {
            "SELECT DISTINCT g.id, g.kind, g.status, g.to_move, g.version FROM games g \
             JOIN seats s ON s.game_id = g.id \
             WHERE s.player_id = $1 AND s.until_version IS NULL ORDER BY g.id DESC"
        };
        let rows = sqlx::query(sql).bind(player).fetch_all(&self.pool).await?;
        rows.into_iter().map(summary).collect()
    }

    /// How many unfinished games (house rules, playing or paused) a player sits in now.
    pub async fn unfinished_count(&self, player: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(DISTINCT g.id) FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.player_id = $1 AND s.until_version IS NULL AND g.status IN (10, 20, 30)",
        )
        .bind(player)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get(0)?)
    }

    /// How many games are unfinished (house rules, playing or paused).
    pub async fn active_games(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM games WHERE status IN (10, 20, 30)")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get(0)?)
    }

    /// Every game, newest first.
    pub async fn all_games(&self) -> Result<Vec<GameSummary>, StoreError> {
        let rows =
            sqlx::query("SELECT id, kind, status, to_move, version FROM games ORDER BY id DESC")
                .fetch_all(&self.pool)
                .await?;
        rows.into_iter().map(summary).collect()
    }

    /// Accumulated points per player (§7), for one game kind or all.
    pub async fn leaderboard(&self, kind: Option<&str>) -> Result<Vec<Standing>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.player_id, COALESCE(p.name, ''), CAST(SUM(s.points) AS BIGINT), COUNT(*) \
             FROM scores s \
             LEFT JOIN players p ON p.id = s.player_id \
             WHERE $1 IS NULL OR s.kind = $1 \
             GROUP BY s.player_id, p.name ORDER BY SUM(s.points) DESC, s.player_id",
        )
        .bind(kind)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(Standing {
                    player: r.try_get(0)?,
                    name: r.try_get(1)?,
                    points: r.try_get(2)?,
                    games: r.try_get(3)?,
                })
            })
            .collect()
    }

    /// Ratings for a kind key (or `all`), best conservative rating (μ−3σ) first.
    pub async fn ratings(&self, kind: &str) -> Result<Vec<Rating>, StoreError> {
        ratings::list(&self.pool, kind).await
    }

    /// What game `game` changed in its players' ratings of a kind key (or `all`).
    pub async fn rating_changes(
        &self,
        game: i64,
        kind: &str,
    ) -> Result<Vec<RatingChange>, StoreError> {
        ratings::changes(&self.pool, game, kind).await
    }
}

fn summary(r: AnyRow) -> Result<GameSummary, StoreError> {
    Ok(GameSummary {
        id: r.try_get(0)?,
        kind: r.try_get(1)?,
        status: r.try_get(2)?,
        to_move: r.try_get(3)?,
        version: r.try_get(4)?,
    })
}

const GAME_ROW: &str =
    "SELECT id, kind, status, version, setup, channel, created_at FROM games WHERE id = $1";

const EVENT_ROWS: &str =
    "SELECT version, kind, actor, body, at FROM events WHERE game_id = $1 ORDER BY version";

fn game_row(r: AnyRow) -> Result<GameRow, StoreError> {
    Ok(GameRow {
        id: r.try_get(0)?,
        kind: r.try_get(1)?,
        status: r.try_get(2)?,
        version: r.try_get(3)?,
        setup: r.try_get(4)?,
        channel: r.try_get(5)?,
        created_at: r.try_get(6)?,
    })
}

fn event_row(r: AnyRow) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        version: r.try_get(0)?,
        kind: r.try_get(1)?,
        actor: r.try_get(2)?,
        body: r.try_get(3)?,
        at: r.try_get(4)?,
    })
}

/// A fresh database for the store's unit tests: SQLite, or PostgreSQL when
/// `HEXMEROS_TEST_POSTGRES` names a server (the integration tests' helper).
#[cfg(test)]
#[path = "../../tests/support/db.rs"]
pub(crate) mod test_db;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A confirmed move must survive a power cut, not only a crash: every connection, the
    /// writer's and the readers', runs with `synchronous = FULL` (2) on a WAL journal, with a
    /// busy timeout and foreign keys. SQLite only: these are SQLite's settings.
    #[tokio::test]
    async fn every_connection_writes_through_to_disk() {
        let db = test_db::TestDb::sqlite();
        let store = Store::open(&db.url).await.unwrap();
        assert_eq!(store.backend(), Backend::Sqlite);
        // Several readers at once, so more than one reading connection is checked.
        let mut readers = Vec::new();
        for _ in 0..3 {
            readers.push(store.pool.acquire().await.unwrap());
        }
        let mut writer = store.writer.acquire().await.unwrap();
        for conn in readers.iter_mut().chain([&mut writer]) {
            let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
                .fetch_one(&mut **conn)
                .await
                .unwrap();
            assert_eq!(sync, 2, "synchronous must be FULL (2)");
            let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
                .fetch_one(&mut **conn)
                .await
                .unwrap();
            assert_eq!(journal, "wal");
            let busy: i64 = sqlx::query_scalar("PRAGMA busy_timeout")
                .fetch_one(&mut **conn)
                .await
                .unwrap();
            assert_eq!(busy, 10_000);
            let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
                .fetch_one(&mut **conn)
                .await
                .unwrap();
            assert_eq!(fk, 1);
        }
        drop(readers);
        drop(writer);
        // Outbox bookkeeping is written at NORMAL, and the writer is FULL again after it.
        store.ensure_player(1, "p1", 0).await.unwrap();
        let done = crate::store::Done {
            message: None,
            outcome: "sent".into(),
        };
        store.outbox_done(None, 1, &done, 0).await.unwrap();
        store
            .outbox_failed(None, 1, "x", 5, false, 0)
            .await
            .unwrap();
        let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&store.writer)
            .await
            .unwrap();
        assert_eq!(sync, 2, "the writer must be FULL again after bookkeeping");
        store.close().await;
    }

    /// A database made before the migrations moved to `migrations/sqlite/` (its
    /// `_sqlx_migrations` rows hold the checksums of that layout) opens, keeps its rows, and is
    /// not migrated again. SQLite only: older databases are SQLite files.
    #[tokio::test]
    async fn a_database_of_the_old_migrations_layout_opens() {
        let db = test_db::TestDb::sqlite();
        let dump = include_str!("../../tests/data/sqlite_before_pg.sql");
        {
            use sqlx::{ConnectOptions, Connection};
            let mut conn = sqlx::sqlite::SqliteConnectOptions::from_str(&db.url)
                .unwrap()
                .create_if_missing(true)
                .connect()
                .await
                .unwrap();
            sqlx::raw_sql(dump).execute(&mut conn).await.unwrap();
            conn.close().await.unwrap();
        }
        let store = Store::open(&db.url).await.unwrap();
        assert_eq!(
            store.player_name(404).await.unwrap().as_deref(),
            Some("old-timer")
        );
        let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(applied, SQLITE_MIGRATIONS.iter().count() as i64);
        // And it works as a new one does: a local player gets the next free id.
        assert_eq!(store.local_player("newcomer", 1).await.unwrap(), 405);
        store.close().await;
    }

    #[test]
    fn a_url_of_another_database_is_refused_with_the_two_that_work() {
        assert_eq!(Backend::of("sqlite://x.db").unwrap(), Backend::Sqlite);
        assert_eq!(Backend::of("sqlite::memory:").unwrap(), Backend::Sqlite);
        assert_eq!(Backend::of("postgres://u@h/db").unwrap(), Backend::Postgres);
        assert_eq!(
            Backend::of("postgresql://u@h/db").unwrap(),
            Backend::Postgres
        );
        for bad in ["mysql://u@h/db", "hexmeros.db", ""] {
            let err = Backend::of(bad).unwrap_err().to_string();
            assert!(err.contains("unsupported database URL"), "{err}");
            assert!(err.contains("postgres://"), "{err}");
        }
    }

    /// Local players get ids above every positive id (a Discord user's included) and never a
    /// bot's negative one; the same name is the same player. Both backends.
    #[tokio::test]
    async fn local_players_get_the_next_free_positive_id() {
        let db = test_db::TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        store.add_bot(-3, "bot", "normal", 0).await.unwrap();
        assert_eq!(store.local_player("ann", 0).await.unwrap(), 1);
        store.ensure_player(1000, "discord", 0).await.unwrap();
        assert_eq!(store.local_player("bob", 0).await.unwrap(), 1001);
        assert_eq!(store.local_player("ann", 0).await.unwrap(), 1);
        store.close().await;
    }

    /// A HexDame game between `players` that the first wins with `points`, in one write.
    async fn finish_a_game(store: &Store, players: [i64; 2], points: i32) {
        let g = store
            .create_game(
                &NewGame {
                    kind: "hexdame",
                    status: 20,
                    setup: "{}",
                    house_rules: "{}",
                    players: &players,
                    now: 5,
                    ..NewGame::default()
                },
                |_| Ok(Vec::new()),
            )
            .await
            .unwrap();
        store
            .append(&GameWrite {
                game: g,
                expected: 0,
                events: vec![EventRow {
                    version: 0,
                    kind: "end".into(),
                    actor: Some(players[0]),
                    body: "{}".into(),
                    at: 6,
                }],
                status: 50,
                house_rules: "{}".into(),
                now: 6,
                finish: Some(Finish {
                    kind: "hexdame".into(),
                    points: vec![(players[0], points), (players[1], 0)],
                    ranks: vec![(players[0], 1), (players[1], 2)],
                }),
                ..GameWrite::default()
            })
            .await
            .unwrap();
    }

    /// Games with a player in common that finish at the same moment each count in that player's
    /// rating: none reads a rating another is changing (on PostgreSQL several writers run at
    /// once).
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn games_finishing_at_once_all_count_in_a_shared_rating() {
        let db = test_db::TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        let n = 12;
        for p in 1..=n + 1 {
            store.ensure_player(p, &format!("p{p}"), 0).await.unwrap();
        }
        let mut tasks = Vec::new();
        for p in 2..=n + 1 {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                finish_a_game(&store, [1, p], 1).await;
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        for kind in ["hexdame", "all"] {
            let ratings = store.ratings(kind).await.unwrap();
            let one = ratings.iter().find(|r| r.player == 1).unwrap();
            assert_eq!(one.games, n, "{kind}");
        }
        store.close().await;
    }

    /// The queries whose result types differ between the backends (sums, counts) read back as
    /// the same numbers on both.
    #[tokio::test]
    async fn sums_and_counts_read_as_integers() {
        let db = test_db::TestDb::new().await;
        let store = Store::open(&db.url).await.unwrap();
        for p in [1, 2] {
            store.ensure_player(p, &format!("p{p}"), 0).await.unwrap();
        }
        for points in [3, 4] {
            finish_a_game(&store, [1, 2], points).await;
        }
        let board = store.leaderboard(Some("hexdame")).await.unwrap();
        assert_eq!(board[0].player, 1);
        assert_eq!((board[0].points, board[0].games), (7, 2));
        assert_eq!(store.leaderboard(None).await.unwrap(), board);
        assert_eq!(store.leaderboard(Some("chess")).await.unwrap(), []);
        assert_eq!(store.unfinished_count(1).await.unwrap(), 0);
        assert_eq!(store.active_games().await.unwrap(), 0);
        let ratings = store.ratings("all").await.unwrap();
        assert_eq!(ratings.len(), 2);
        assert_eq!(ratings[0].games, 2);
        store.close().await;
    }
}
