-- A database made before the migrations moved to migrations/sqlite/ (hexmeros admin status on
-- a new file at commit 1284277, then one player added), dumped with sqlite3 .dump: its
-- _sqlx_migrations rows carry the checksums of that layout. src/store/mod.rs opens it.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
);
INSERT INTO _sqlx_migrations VALUES(1,'init','2026-11-26 07:34:20',1,X'0a12d4bb1d6a03b2693bf127d862a2a979eda85422138127788994c1bbd2df24cb7e78edf7127b34e09d8d0f87ab2b6c',2051154);
INSERT INTO _sqlx_migrations VALUES(2,'bots','2026-11-26 07:34:20',1,X'6480afa088cbbbe581374dba40fb1436ca1262922d761986583908fc240863a818a82299d5aa6ccf56eb7e4df684f849',1040450);
INSERT INTO _sqlx_migrations VALUES(3,'discord','2026-11-26 07:34:20',1,X'7b801a7afb5ac7301fb3a3829b6f86b1b152cc14869141638bc1cf7b19732f1d9f96adb67c6c84e7ed296ba2f07e1d56',2958207);
INSERT INTO _sqlx_migrations VALUES(4,'lobbies','2026-11-26 07:34:20',1,X'7c983015e0e0d3d2d41088010018afe2dec89bb6b746c58adbb0c593a71043d1c923e93a72445762216349b446b03bee',2317247);
INSERT INTO _sqlx_migrations VALUES(5,'outbox','2026-11-26 07:34:20',1,X'e1bfdab8bdeebbe6a1bb8b05dfbb02ee537fdfdd0eb5d0b7e821c0a2739d93eaa2110d9f7314ec2d1de84404fa7e3e5d',2166654);
INSERT INTO _sqlx_migrations VALUES(6,'rating changes','2026-11-26 07:34:20',1,X'edd1f81839f5d04557ef22a6e81034c4f697f673a89440e91446213b36a6a05895d25f18dfe00ec5e2919d6f8551d07a',1746911);
INSERT INTO _sqlx_migrations VALUES(7,'panel','2026-11-26 07:34:20',1,X'ac78a888ceff28863144cbd67b70e9f18b0d9e75c57cf090eef405ee7a0bc27c9ae0e66797a0e331c4c2fb77a19443b3',2233056);
INSERT INTO _sqlx_migrations VALUES(8,'notes','2026-11-26 07:34:20',1,X'69f7c4a5d669f79d4a7da50a55daffa6eab2bf976ac3f54e12b5818d5135154fee494c987b64c87ab9000749408983ee',1965839);
CREATE TABLE players (
    id         INTEGER PRIMARY KEY,   -- Discord user snowflake, or a small local id
    name       TEXT    NOT NULL,
    created_at BIGINT  NOT NULL
, bot_level TEXT);
INSERT INTO players VALUES(404,'old-timer',1700000000000,NULL);
CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT    NOT NULL,     -- GameKind::key(), stable forever
    status      INTEGER NOT NULL,     -- host::Status ids: 10 house rules, 20 playing, 30 paused, 50 finished, 60 aborted
    version     BIGINT  NOT NULL DEFAULT 0,  -- number of events in the log
    setup       TEXT    NOT NULL,     -- JSON host::Setup
    house_rules TEXT    NOT NULL,     -- JSON, the rules in force (derived)
    channel     TEXT,                 -- the front end's thread or channel id
    to_move     BIGINT,               -- player holding the Token (derived)
    next_due    BIGINT,               -- earliest timer deadline, unix ms (derived)
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
CREATE TABLE seats (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seat          INTEGER NOT NULL,
    player_id     BIGINT  NOT NULL,
    from_version  BIGINT  NOT NULL,
    until_version BIGINT,
    PRIMARY KEY (game_id, seat, from_version)
);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games (id),
    version BIGINT  NOT NULL,
    kind    TEXT    NOT NULL,
    actor   BIGINT,
    body    TEXT    NOT NULL,          -- JSON host::Event
    at      BIGINT  NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TABLE scores (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    player_id BIGINT  NOT NULL,
    kind      TEXT    NOT NULL,
    points    INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE TABLE ratings (
    player_id BIGINT  NOT NULL,
    kind      TEXT    NOT NULL,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    games     INTEGER NOT NULL,
    PRIMARY KEY (player_id, kind)
);
CREATE TABLE discord_games (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id      BIGINT,
    parent_id     BIGINT  NOT NULL,   -- the channel /hexmeros start was used in
    thread_id     BIGINT  NOT NULL,
    turn_message  BIGINT,             -- the current turn message (buttons, reactions)
    turn_version  BIGINT,             -- the game version that message was posted at
    gif_posted    INTEGER NOT NULL DEFAULT 0
, access_warned_at BIGINT, panel_message BIGINT, panel_text TEXT);
CREATE TABLE discord_ballots (
    game_id INTEGER NOT NULL REFERENCES games (id),
    motion  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, motion)
);
CREATE TABLE discord_dm (
    user_id   BIGINT  PRIMARY KEY,
    opted_in  INTEGER NOT NULL DEFAULT 0,
    closed_at BIGINT
);
CREATE TABLE lobbies (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    status     INTEGER NOT NULL,     -- host::LobbyStatus ids: 0 open, 1 started, 2 cancelled, 3 expired
    version    BIGINT  NOT NULL DEFAULT 0,
    body       TEXT    NOT NULL,     -- JSON host::Lobby
    game_id    INTEGER REFERENCES games (id),  -- the game it became, once started
    expires_at BIGINT  NOT NULL,     -- unix ms
    created_at BIGINT  NOT NULL,
    updated_at BIGINT  NOT NULL
);
CREATE TABLE discord_lobbies (
    lobby_id   INTEGER PRIMARY KEY REFERENCES lobbies (id),
    guild_id   BIGINT,
    channel_id BIGINT  NOT NULL,
    message_id BIGINT
);
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
CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    player_id    BIGINT  NOT NULL,
    kind         TEXT    NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player_id, kind)
);
CREATE TABLE notes (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    player_id  BIGINT  NOT NULL,
    text       TEXT    NOT NULL,
    created_at BIGINT  NOT NULL
);
DELETE FROM sqlite_sequence;
CREATE INDEX players_by_name ON players (name);
CREATE INDEX games_by_status_due ON games (status, next_due);
CREATE INDEX games_by_to_move ON games (to_move);
CREATE INDEX seats_by_player ON seats (player_id);
CREATE INDEX scores_by_player ON scores (player_id);
CREATE INDEX discord_games_by_thread ON discord_games (thread_id);
CREATE INDEX discord_games_by_turn_message ON discord_games (turn_message);
CREATE INDEX lobbies_by_status_expiry ON lobbies (status, expires_at);
CREATE INDEX outbox_pending ON outbox (done_at, lane, id);
CREATE INDEX discord_games_by_panel ON discord_games (panel_message);
CREATE INDEX notes_by_game_player ON notes (game_id, player_id, id);
COMMIT;
