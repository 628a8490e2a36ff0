-- The host's store (src/store). Portable SQL: integer ids, text JSON, no SQLite-only types, so a
-- Postgres store can follow. The event log is the truth; games.status/version/to_move/next_due
-- are derived from it and kept for queries.

CREATE TABLE players (
    id         INTEGER PRIMARY KEY,   -- Discord user snowflake, or a small local id
    name       TEXT    NOT NULL,
    created_at BIGINT  NOT NULL
);
CREATE INDEX players_by_name ON players (name);

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
CREATE INDEX games_by_status_due ON games (status, next_due);
CREATE INDEX games_by_to_move ON games (to_move);

-- Who sat where, with replacement history: a replaced occupant gets until_version.
CREATE TABLE seats (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seat          INTEGER NOT NULL,
    player_id     BIGINT  NOT NULL,
    from_version  BIGINT  NOT NULL,
    until_version BIGINT,
    PRIMARY KEY (game_id, seat, from_version)
);
CREATE INDEX seats_by_player ON seats (player_id);

-- The append-only log. `version` is the game version the event was based on, so
-- (game_id, version) is unique and two writers can never both append to one version.
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games (id),
    version BIGINT  NOT NULL,
    kind    TEXT    NOT NULL,
    actor   BIGINT,
    body    TEXT    NOT NULL,          -- JSON host::Event
    at      BIGINT  NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- Final points of a scored game (rules/heximeros.md §7), one row per player.
CREATE TABLE scores (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    player_id BIGINT  NOT NULL,
    kind      TEXT    NOT NULL,
    points    INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX scores_by_player ON scores (player_id);

-- Weng-Lin skill ratings per game kind, and 'all' across games.
CREATE TABLE ratings (
    player_id BIGINT  NOT NULL,
    kind      TEXT    NOT NULL,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    games     INTEGER NOT NULL,
    PRIMARY KEY (player_id, kind)
);
