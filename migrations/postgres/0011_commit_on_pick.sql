-- A person's "commit when I pick a target" (issue 45, `/hexmeros settings commit_on_pick`): the
-- move picker passes the Token as soon as a target (or a promotion's choice) is picked, with no
-- Pass step; 0 (off) unless they turn it on. A move that opens a challenge window stays staged.
ALTER TABLE player_settings ADD COLUMN commit_on_pick BIGINT NOT NULL DEFAULT 0;
