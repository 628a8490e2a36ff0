-- Bots as players (issue 8): a bot is a player row with its level. One row per level, at a
-- reserved negative id (store::bot_id), so a seat's player id alone says whether a bot plays it and
-- a replayed game knows its bots without a lookup. Human rows keep bot_level NULL.
ALTER TABLE players ADD COLUMN bot_level TEXT;
