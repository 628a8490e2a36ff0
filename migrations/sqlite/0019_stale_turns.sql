-- Turn messages whose buttons are to come off (src/discord/outbound/strip.rs): when a game's
-- next turn message is recorded, or the game ends, the one before it is written here in the same
-- transaction, and a background job removes its controls at the lowest priority, when the
-- game's outbox lane is empty. A row leaves once its message was edited, or Discord said the
-- message is gone (404) or out of reach (403). Kept in the store, so that a restart (even a
-- kill) cleans what the process before it left; one process at a time cleans, under the
-- lease `strip`.
CREATE TABLE discord_stale_turns (
    message_id    BIGINT  PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id),
    channel_id    BIGINT  NOT NULL,   -- the thread the message was posted in
    tries         INTEGER NOT NULL DEFAULT 0,
    retry_at      BIGINT  NOT NULL DEFAULT 0    -- unix ms: not before (after a failed try)
);
CREATE INDEX discord_stale_turns_due ON discord_stale_turns (retry_at);
