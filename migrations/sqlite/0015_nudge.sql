-- A person's "tell me when everyone waits on me" (issue 49, `/hexmeros notify nudge`): when the
-- others have all voted on a motion and only their vote is missing, a direct message says so;
-- 0 (off) unless they turn it on.
ALTER TABLE player_settings ADD COLUMN nudge BIGINT NOT NULL DEFAULT 0;
