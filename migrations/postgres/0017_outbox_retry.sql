-- When an outbox entry may be tried again (unix ms, by the host's clock) after a failed try,
-- and since when Discord has refused it for lack of access (a 403: a server that removed the
-- bot or its permissions). The deliverer reads only the lanes whose first entry is due, so any
-- number of waiting lanes costs it nothing (issue 60: 256 waiting lanes used to fill its every
-- read), a backoff outlives a restart, and an entry refused for long enough is given up.
ALTER TABLE outbox ADD COLUMN retry_at BIGINT;
ALTER TABLE outbox ADD COLUMN blocked_at BIGINT;
-- A server that removes the bot (GUILD_DELETE) has its games found by server.
CREATE INDEX discord_games_by_guild ON discord_games (guild_id);
