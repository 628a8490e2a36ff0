-- A person's daily digest (issue 49, `/hexmeros notify digest`): the local time of day it comes
-- at (minutes after midnight in their time zone; none: no digest), when it is next due (unix
-- ms, the hour deferred past their quiet hours; indexed, so the timer reads only the digests
-- due), and since when the next one tells of finished games (unix ms: the last digest, or when
-- the digest was turned on).
ALTER TABLE player_settings ADD COLUMN digest_at INTEGER;
ALTER TABLE player_settings ADD COLUMN digest_next_at BIGINT;
ALTER TABLE player_settings ADD COLUMN digest_since BIGINT;
CREATE INDEX player_settings_by_digest ON player_settings (digest_next_at);
