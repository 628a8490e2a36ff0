//! The store: games, seats, the append-only event log, players, scores and ratings, over a sqlx
//! pool on SQLite. It knows rows, not rules: the host decides what to write, and every write of a
//! game is one transaction that succeeds only if the game's version did not move.
//!
//! SQL is kept portable (`$1` placeholders, integer ids, text JSON) so a Postgres store can
//! follow.

mod lobbies;
mod notes;
mod outbox;
mod ratings;
mod settings;

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};
use thiserror::Error;

pub use lobbies::{LobbyRow, LobbyWrite};
pub use notes::Note;
pub use outbox::{Done, Entry, NewEntry, OutboxStats};
pub use ratings::{Rating, RatingChange, conservative};
pub use settings::SettingsRow;

/// The default database, next to where the bot runs.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://hexmeros.db";

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// Someone else wrote first.
    #[error("the game moved on: version {expected} is stale")]
    Stale { expected: u64 },
    #[error("there is no game #{0}")]
    NoGame(i64),
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

/// The database. Reads share a pool of connections; every write goes through one connection of
/// its own, so writers queue in order inside the process instead of colliding on SQLite's lock
/// and sleeping in its busy handler (which put tens of milliseconds on the slowest moves).
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    writer: SqlitePool,
}

impl Store {
    /// Open (creating if missing) the database at `url` and bring its schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let opts = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: every commit is on disk before the player is told, so a confirmed move
            // survives a power cut as well as a crash (WAL with NORMAL survives only a crash).
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(opts.clone())
            .await?;
        sqlx::migrate!().run(&writer).await?;
        // An in-memory database exists once per connection: there, one connection does all.
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        let pool = if in_memory {
            writer.clone()
        } else {
            SqlitePoolOptions::new()
                .max_connections(8)
                .connect_with(opts)
                .await?
        };
        Ok(Store { pool, writer })
    }

    /// Close the pool (tests reopen the same file to prove nothing was lost).
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }

    /// The writing connection, for front ends that keep tables of their own and for tests that
    /// break rows on purpose.
    pub fn writer(&self) -> &SqlitePool {
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
        let row =
            sqlx::query("INSERT INTO players (name, created_at) VALUES ($1, $2) RETURNING id")
                .bind(name)
                .bind(now)
                .fetch_one(&self.writer)
                .await?;
        Ok(row.try_get(0)?)
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
        // The version test comes first: it takes the write lock at once and decides the race.
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
            ratings::update(&mut tx, w.game, &f.kind, &f.ranks).await?;
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
            "SELECT s.player_id, COALESCE(p.name, ''), SUM(s.points), COUNT(*) FROM scores s \
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

fn summary(r: sqlx::sqlite::SqliteRow) -> Result<GameSummary, StoreError> {
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

fn game_row(r: sqlx::sqlite::SqliteRow) -> Result<GameRow, StoreError> {
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

fn event_row(r: sqlx::sqlite::SqliteRow) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        version: r.try_get(0)?,
        kind: r.try_get(1)?,
        actor: r.try_get(2)?,
        body: r.try_get(3)?,
        at: r.try_get(4)?,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A confirmed move must survive a power cut, not only a crash: every connection, the
    /// writer's and the readers', runs with `synchronous = FULL` (2) on a WAL journal.
    #[tokio::test]
    async fn every_connection_writes_through_to_disk() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let store = Store::open(&url).await.unwrap();
        for pool in [&store.writer, &store.pool] {
            let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
                .fetch_one(pool)
                .await
                .unwrap();
            assert_eq!(sync, 2, "synchronous must be FULL (2)");
            let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
                .fetch_one(pool)
                .await
                .unwrap();
            assert_eq!(journal, "wal");
        }
        // Outbox bookkeeping is written at NORMAL, and the writer is FULL again after it.
        store.ensure_player(1, "p1", 0).await.unwrap();
        let done = crate::store::Done {
            message: None,
            outcome: "sent".into(),
        };
        store.outbox_done(1, &done, 0).await.unwrap();
        store.outbox_failed(1, "x").await.unwrap();
        let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&store.writer)
            .await
            .unwrap();
        assert_eq!(sync, 2, "the writer must be FULL again after bookkeeping");
        store.close().await;
    }
}
