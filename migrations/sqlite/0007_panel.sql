-- The status panel of each game's thread (issue 19, src/discord/panel.rs): the pinned message
-- edited after every turn, and the text it shows now (an edit is made only when it changes).
ALTER TABLE discord_games ADD COLUMN panel_message BIGINT;
ALTER TABLE discord_games ADD COLUMN panel_text TEXT;
CREATE INDEX discord_games_by_panel ON discord_games (panel_message);
