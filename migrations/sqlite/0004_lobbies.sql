-- Lobbies (src/host/lobby.rs, issue 17 "consent"): a game that waits until every invited player
-- has joined. The lobby itself is JSON (host::Lobby), rewritten with a version check like a
-- game's row; status and expires_at are kept as columns for the expiry query.
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
CREATE INDEX lobbies_by_status_expiry ON lobbies (status, expires_at);

-- The Discord front end's side (src/discord/lobby.rs; the host never reads it): the server and
-- channel a lobby was opened in, and its message with the Join / Decline buttons.
CREATE TABLE discord_lobbies (
    lobby_id   INTEGER PRIMARY KEY REFERENCES lobbies (id),
    guild_id   BIGINT,
    channel_id BIGINT  NOT NULL,
    message_id BIGINT
);
