-- The Discord front end's own bookkeeping (src/discord/links.rs). The host never reads these
-- tables: they map games to Discord objects so that a restarted bot finds its threads and its
-- buttons keep working. Ids are Discord snowflakes stored as integers.

-- One row per game with a Discord thread.
CREATE TABLE discord_games (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id      BIGINT,
    parent_id     BIGINT  NOT NULL,   -- the channel /hexmeros start was used in
    thread_id     BIGINT  NOT NULL,
    turn_message  BIGINT,             -- the current turn message (buttons, reactions)
    turn_version  BIGINT,             -- the game version that message was posted at
    gif_posted    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX discord_games_by_thread ON discord_games (thread_id);
CREATE INDEX discord_games_by_turn_message ON discord_games (turn_message);

-- Ballots whose Yes/No buttons were posted (so each motion gets one ballot message).
CREATE TABLE discord_ballots (
    game_id INTEGER NOT NULL REFERENCES games (id),
    motion  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, motion)
);

-- Direct messages: players who opted in to reminders by DM, and users whose DMs are closed
-- (Discord error 50007): those are not retried, since repeated 403s get a bot banned.
CREATE TABLE discord_dm (
    user_id   BIGINT  PRIMARY KEY,
    opted_in  INTEGER NOT NULL DEFAULT 0,
    closed_at BIGINT
);
