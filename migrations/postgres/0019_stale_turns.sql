-- As migrations/sqlite/0019_stale_turns.sql: turn messages whose buttons are to come off
-- (src/discord/outbound/strip.rs); in PostgreSQL every integer is BIGINT, as the code binds them.
CREATE TABLE discord_stale_turns (
    message_id    BIGINT  PRIMARY KEY,
    game_id       BIGINT  NOT NULL REFERENCES games (id),
    channel_id    BIGINT  NOT NULL,   -- the thread the message was posted in
    tries         BIGINT  NOT NULL DEFAULT 0,
    retry_at      BIGINT  NOT NULL DEFAULT 0    -- unix ms: not before (after a failed try)
);
CREATE INDEX discord_stale_turns_due ON discord_stale_turns (retry_at);
