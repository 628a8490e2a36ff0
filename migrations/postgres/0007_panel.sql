-- The status panel of each game's thread (issue 19), as migrations/sqlite/0007_panel.sql.
ALTER TABLE discord_games ADD COLUMN panel_message BIGINT;
ALTER TABLE discord_games ADD COLUMN panel_text TEXT;
CREATE INDEX discord_games_by_panel ON discord_games (panel_message);
