-- The Discord front end's own bookkeeping (src/discord/links.rs), as
-- migrations/sqlite/0003_discord.sql. Ids are Discord snowflakes stored as BIGINT; flags are
-- BIGINT 0/1, as the code binds them.

-- One row per game with a Discord thread.
CREATE TABLE discord_games (
    game_id       BIGINT  PRIMARY KEY REFERENCES games (id),
    guild_id      BIGINT,
    parent_id     BIGINT  NOT NULL,   -- the channel /hexmeros start was used in
    thread_id     BIGINT  NOT NULL,
    turn_message  BIGINT,             -- the current turn message (buttons, reactions)
    turn_version  BIGINT,             -- the game version that message was posted at
    gif_posted    BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX discord_games_by_thread ON discord_games (thread_id);
CREATE INDEX discord_games_by_turn_message ON discord_games (turn_message);

-- Ballots whose Yes/No buttons were posted (so each motion gets one ballot message).
CREATE TABLE discord_ballots (
    game_id BIGINT  NOT NULL REFERENCES games (id),
    motion  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, motion)
);

-- Direct messages: players who opted in to reminders by DM, and users whose DMs are closed.
CREATE TABLE discord_dm (
    user_id   BIGINT  PRIMARY KEY,
    opted_in  BIGINT  NOT NULL DEFAULT 0,
    closed_at BIGINT
);
