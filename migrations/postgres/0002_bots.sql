-- Bots as players (issue 8): as migrations/sqlite/0002_bots.sql.
ALTER TABLE players ADD COLUMN bot_level TEXT;
