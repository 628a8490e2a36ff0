-- The transactional outbox (issue 18): everything a player must be told, written in the same
-- transaction as the event that causes it, and drained by the front end's deliverer in order per
-- lane (a game's thread, or a player's direct messages). An entry is done only once the front end
-- has confirmed it (with the message id it got) or decided it can never be delivered (outcome).
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    lane       TEXT    NOT NULL,      -- 'g<game>' or 'p<player>': entries of a lane go out in id order
    game_id    INTEGER,               -- the game it is about, if any
    version    BIGINT,                -- the game's version after the event that made it
    priority   INTEGER NOT NULL,      -- 0 time-critical, 1 normal, 2 reminders
    body       TEXT    NOT NULL,      -- JSON host::Effect
    created_at BIGINT  NOT NULL,      -- unix ms
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    done_at    BIGINT,                -- NULL while pending
    message_id BIGINT,                -- the message the front end made for it
    outcome    TEXT                   -- 'sent', or why it was dropped
);
CREATE INDEX outbox_pending ON outbox (done_at, lane, id);

-- The Discord front end's side (src/discord/links.rs): when the server was told that the bot
-- lost access to a game's thread (it is told once).
ALTER TABLE discord_games ADD COLUMN access_warned_at BIGINT;
