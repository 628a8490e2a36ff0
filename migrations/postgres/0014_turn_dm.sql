-- A person's "a direct message on my turn" (issue 49, `/hexmeros notify turn`): when the Token
-- comes to them, the bot also sends them a DM (the ping in the game's thread stays); 0 (off)
-- unless they turn it on. It belongs to the person, like their quiet hours.
ALTER TABLE player_settings ADD COLUMN turn_dm BIGINT NOT NULL DEFAULT 0;
