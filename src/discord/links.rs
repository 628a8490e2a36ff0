//! The Discord front end's own tables (`migrations/*/0003_discord.sql`): which thread a game lives
//! in, its current turn message, the ballots already posted, direct-message settings, and where
//! each lobby's message is (`0004_lobbies.sql`), and the old turn messages whose buttons are
//! still to come off (`0019_stale_turns.sql`). Kept
//! here, over the store's pool, so the host and the store know nothing of Discord.

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};

use hexmeros::host::GameId;

/// A game's place on Discord.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLink {
    pub game: GameId,
    /// The server the game was started in (none: no server, so no server may name it).
    pub guild: Option<u64>,
    pub parent: u64,
    pub thread: u64,
    pub turn_message: Option<u64>,
    pub turn_version: Option<u64>,
    pub gif_posted: bool,
    /// The pinned status panel, and the text it shows now.
    pub panel_message: Option<u64>,
    pub panel_text: Option<String>,
}

/// Where a lobby lives on Discord.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LobbyLink {
    pub guild: Option<u64>,
    pub channel: u64,
    pub message: Option<u64>,
}

/// A jump link to `place` (a channel or thread, or `channel/message`) in server `guild` (none:
/// a direct message's `@me`).
pub fn jump_url(guild: Option<u64>, place: impl std::fmt::Display) -> String {
    let server = guild.map_or("@me".to_string(), |g| g.to_string());
    format!("https://discord.com/channels/{server}/{place}")
}

#[derive(Clone, Debug)]
pub struct Links {
    pool: AnyPool,
}

// Snowflakes fit in 63 bits (they are milliseconds since 2015 shifted by 22), so the casts to
// the databases' signed 64-bit integers are lossless.
fn sf(id: u64) -> i64 {
    id as i64
}

fn link(r: AnyRow) -> Result<GameLink, sqlx::Error> {
    Ok(GameLink {
        game: r.try_get(0)?,
        guild: r.try_get::<Option<i64>, _>(1)?.map(|v| v as u64),
        parent: r.try_get::<i64, _>(2)? as u64,
        thread: r.try_get::<i64, _>(3)? as u64,
        turn_message: r.try_get::<Option<i64>, _>(4)?.map(|v| v as u64),
        turn_version: r.try_get::<Option<i64>, _>(5)?.map(|v| v as u64),
        gif_posted: r.try_get::<i64, _>(6)? != 0,
        panel_message: r.try_get::<Option<i64>, _>(7)?.map(|v| v as u64),
        panel_text: r.try_get(8)?,
    })
}

/// An old turn message whose buttons are to come off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stale {
    pub message: u64,
    pub game: GameId,
    pub channel: u64,
    /// Failed tries so far.
    pub tries: i64,
}

/// An old turn message's row read as text: `None` unless every id is a positive number (no
/// snowflake is 0 or negative) and the tries a count.
fn stale_of([message, game, channel, tries]: [Option<String>; 4]) -> Option<Stale> {
    let id = |v: Option<String>| v?.trim().parse::<u64>().ok().filter(|&n| n > 0);
    let message = id(message).filter(|&n| i64::try_from(n).is_ok())?;
    let channel = id(channel).filter(|&n| i64::try_from(n).is_ok())?;
    let game = GameId::try_from(id(game)?).ok()?;
    let tries = tries?.trim().parse::<i64>().ok().filter(|&n| n >= 0)?;
    Some(Stale {
        message,
        game,
        channel,
        tries,
    })
}

const STALE_INSERT: &str = "INSERT INTO discord_stale_turns (message_id, game_id, channel_id)";
const STALE_CONFLICT: &str = "ON CONFLICT (message_id) DO NOTHING";

const COLUMNS: &str = "game_id, guild_id, parent_id, thread_id, turn_message, turn_version, \
                       gif_posted, panel_message, panel_text FROM discord_games";

impl Links {
    pub fn new(pool: AnyPool) -> Links {
        Links { pool }
    }

    /// Where lobby `lobby`'s message is, if it was posted from Discord.
    pub async fn lobby(&self, lobby: i64) -> Result<Option<LobbyLink>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT guild_id, channel_id, message_id FROM discord_lobbies WHERE lobby_id = $1",
        )
        .bind(lobby)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(LobbyLink {
                guild: r.try_get::<Option<i64>, _>(0)?.map(|g| g as u64),
                channel: r.try_get::<i64, _>(1)? as u64,
                message: r.try_get::<Option<i64>, _>(2)?.map(|m| m as u64),
            })
        })
        .transpose()
    }

    /// Record where lobby `lobby` lives (again, once its message is posted).
    pub async fn set_lobby(&self, lobby: i64, l: LobbyLink) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO discord_lobbies (lobby_id, guild_id, channel_id, message_id) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (lobby_id) DO UPDATE SET message_id = $4",
        )
        .bind(lobby)
        .bind(l.guild.map(sf))
        .bind(sf(l.channel))
        .bind(l.message.map(sf))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn insert(
        &self,
        game: GameId,
        guild: Option<u64>,
        parent: u64,
        thread: u64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO discord_games (game_id, guild_id, parent_id, thread_id) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO UPDATE SET thread_id = $4",
        )
        .bind(game)
        .bind(guild.map(sf))
        .bind(sf(parent))
        .bind(sf(thread))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn by_game(&self, game: GameId) -> Result<Option<GameLink>, sqlx::Error> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} WHERE game_id = $1"))
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        row.map(link).transpose()
    }

    pub async fn by_thread(&self, thread: u64) -> Result<Option<GameLink>, sqlx::Error> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} WHERE thread_id = $1 ORDER BY game_id DESC LIMIT 1"
        ))
        .bind(sf(thread))
        .fetch_optional(&self.pool)
        .await?;
        row.map(link).transpose()
    }

    /// The games started in server `guild`, oldest first.
    pub async fn games_in_guild(&self, guild: u64) -> Result<Vec<GameId>, sqlx::Error> {
        let rows =
            sqlx::query("SELECT game_id FROM discord_games WHERE guild_id = $1 ORDER BY game_id")
                .bind(sf(guild))
                .fetch_all(&self.pool)
                .await?;
        rows.into_iter().map(|r| r.try_get(0)).collect()
    }

    /// The game whose turn message or status panel `message` is (the messages that take ✅ ↩️
    /// 🔄 reactions).
    pub async fn by_reactable(&self, message: u64) -> Result<Option<GameLink>, sqlx::Error> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} WHERE turn_message = $1 UNION ALL \
             SELECT {COLUMNS} WHERE panel_message = $1 LIMIT 1"
        ))
        .bind(sf(message))
        .fetch_optional(&self.pool)
        .await?;
        row.map(link).transpose()
    }

    /// Record the status panel's message and the text it shows.
    pub async fn set_panel(
        &self,
        game: GameId,
        message: u64,
        text: &str,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE discord_games SET panel_message = $1, panel_text = $2 WHERE game_id = $3",
        )
        .bind(sf(message))
        .bind(text)
        .bind(game)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Record the new turn message, unless a newer one (a higher version) is already recorded:
    /// deliveries of two commands may finish out of order. The one it replaces (or this one,
    /// when a newer is recorded) is written down in the same transaction for its buttons to
    /// come off ([`stale`](Self::next_stale)).
    pub async fn set_turn(
        &self,
        game: GameId,
        message: u64,
        version: u64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        // The game's row first (a write): two deliveries of one game take turns from here, so
        // neither misses the message the other replaced.
        sqlx::query("UPDATE discord_games SET gif_posted = gif_posted WHERE game_id = $1")
            .bind(game)
            .execute(&mut *tx)
            .await?;
        sqlx::query(&format!(
            "{STALE_INSERT} SELECT turn_message, game_id, thread_id FROM discord_games \
             WHERE game_id = $1 AND turn_message IS NOT NULL AND turn_message <> $2 \
               AND (turn_version IS NULL OR turn_version <= $3) {STALE_CONFLICT}"
        ))
        .bind(game)
        .bind(sf(message))
        .bind(version as i64)
        .execute(&mut *tx)
        .await?;
        let recorded = sqlx::query(
            "UPDATE discord_games SET turn_message = $1, turn_version = $2 \
             WHERE game_id = $3 AND (turn_version IS NULL OR turn_version <= $2)",
        )
        .bind(sf(message))
        .bind(version as i64)
        .bind(game)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if recorded == 0 {
            // Out of date as soon as posted.
            self.stale_message(&mut tx, game, message).await?;
        }
        tx.commit().await
    }

    /// The game has no live turn any more (it ended, or is paused): its turn message's buttons
    /// come off too. Its version stays, so a late delivery of an older turn is still refused.
    pub async fn retire_turn(&self, game: GameId) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(&format!(
            "{STALE_INSERT} SELECT turn_message, game_id, thread_id FROM discord_games \
             WHERE game_id = $1 AND turn_message IS NOT NULL {STALE_CONFLICT}"
        ))
        .bind(game)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE discord_games SET turn_message = NULL WHERE game_id = $1")
            .bind(game)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    async fn stale_message(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        game: GameId,
        message: u64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(&format!(
            "{STALE_INSERT} SELECT $2, game_id, thread_id FROM discord_games \
             WHERE game_id = $1 {STALE_CONFLICT}"
        ))
        .bind(game)
        .bind(sf(message))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// The old turn message whose buttons are to come off next, due at `now` (unix ms): the
    /// oldest first. A row no message can have (an id that is not a positive number, say from
    /// a hand-edited or damaged database) is logged and deleted rather than read again and
    /// again: one bad row never stops the cleaning of the others.
    pub async fn next_stale(&self, now: i64) -> Result<Option<Stale>, sqlx::Error> {
        loop {
            // Read as text, so that a value of the wrong type is a bad row, not an error.
            let row = sqlx::query(
                "SELECT CAST(message_id AS TEXT), CAST(game_id AS TEXT), \
                 CAST(channel_id AS TEXT), CAST(tries AS TEXT) FROM discord_stale_turns \
                 WHERE retry_at <= $1 ORDER BY message_id LIMIT 1",
            )
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let text = |i: usize| row.try_get::<Option<String>, _>(i).ok().flatten();
            let key = text(0).unwrap_or_default();
            if let Some(stale) = stale_of([text(0), text(1), text(2), text(3)]) {
                return Ok(Some(stale));
            }
            tracing::error!(
                message_id = %key,
                game_id = ?text(1),
                channel_id = ?text(2),
                "an old turn message's row cannot be read (not a message of Discord's); forgotten"
            );
            let gone = match text(0) {
                Some(key) => {
                    sqlx::query(
                        "DELETE FROM discord_stale_turns WHERE CAST(message_id AS TEXT) = $1",
                    )
                    .bind(key)
                    .execute(&self.pool)
                    .await?
                }
                None => {
                    sqlx::query("DELETE FROM discord_stale_turns WHERE message_id IS NULL")
                        .execute(&self.pool)
                        .await?
                }
            };
            if gone.rows_affected() == 0 {
                // Never read the same bad row for ever: the next look, after a pause, tries again.
                return Err(sqlx::Error::RowNotFound);
            }
        }
    }

    /// When the next old turn message falls due (unix ms), if any is waiting.
    pub async fn next_stale_at(&self) -> Result<Option<i64>, sqlx::Error> {
        sqlx::query("SELECT MIN(retry_at) FROM discord_stale_turns")
            .fetch_one(&self.pool)
            .await?
            .try_get::<Option<i64>, _>(0)
    }

    /// The old turn message's buttons are off (or it is gone): forget it.
    pub async fn stale_done(&self, stale: &Stale) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM discord_stale_turns WHERE message_id = $1")
            .bind(sf(stale.message))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The edit failed for now: try again at `retry_at` (unix ms).
    pub async fn stale_failed(&self, stale: &Stale, retry_at: i64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE discord_stale_turns SET tries = tries + 1, retry_at = $1 \
             WHERE message_id = $2",
        )
        .bind(retry_at)
        .bind(sf(stale.message))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Leave the old turn message for later (`retry_at`, unix ms) without counting a try: its
    /// game's outbox lane has something to say first.
    pub async fn postpone_stale(&self, stale: &Stale, retry_at: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE discord_stale_turns SET retry_at = $1 WHERE message_id = $2")
            .bind(retry_at)
            .bind(sf(stale.message))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Note that the server was told the bot lacks access to a game's thread; true if this
    /// call did it (it is told once).
    pub async fn claim_access_warning(&self, game: GameId, now: i64) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "UPDATE discord_games SET access_warned_at = $1 \
             WHERE game_id = $2 AND access_warned_at IS NULL",
        )
        .bind(now)
        .bind(game)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn set_dm_opt_in(&self, user: u64, on: bool) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO discord_dm (user_id, opted_in) VALUES ($1, $2) \
             ON CONFLICT (user_id) DO UPDATE SET opted_in = $2, closed_at = NULL",
        )
        .bind(sf(user))
        .bind(on as i64)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Whether this user asked for reminders by DM, and whether their DMs were found closed.
    pub async fn dm_state(&self, user: u64) -> Result<(bool, bool), sqlx::Error> {
        let row = sqlx::query("SELECT opted_in, closed_at FROM discord_dm WHERE user_id = $1")
            .bind(sf(user))
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => (
                r.try_get::<i64, _>(0)? != 0,
                r.try_get::<Option<i64>, _>(1)?.is_some(),
            ),
            None => (false, false),
        })
    }

    /// Try this user's DMs again (they asked for DMs once more): forget they were closed.
    pub async fn reopen_dms(&self, user: u64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE discord_dm SET closed_at = NULL WHERE user_id = $1")
            .bind(sf(user))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether reminders may go to this user by DM: opted in, and the DM was not found closed.
    pub async fn dm_open(&self, user: u64) -> Result<bool, sqlx::Error> {
        let row = sqlx::query("SELECT opted_in, closed_at FROM discord_dm WHERE user_id = $1")
            .bind(sf(user))
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<i64, _>(0)? != 0 && r.try_get::<Option<i64>, _>(1)?.is_none(),
            None => false,
        })
    }

    /// Whether a DM to this user is known to fail (so even a reply to a reaction is not tried).
    pub async fn dm_closed(&self, user: u64) -> Result<bool, sqlx::Error> {
        let row = sqlx::query("SELECT closed_at FROM discord_dm WHERE user_id = $1")
            .bind(sf(user))
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<Option<i64>, _>(0)?.is_some(),
            None => false,
        })
    }

    pub async fn mark_dm_closed(&self, user: u64, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO discord_dm (user_id, opted_in, closed_at) VALUES ($1, 0, $2) \
             ON CONFLICT (user_id) DO UPDATE SET closed_at = $2",
        )
        .bind(sf(user))
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
