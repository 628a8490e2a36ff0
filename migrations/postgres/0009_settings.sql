-- A person's settings (issue 22, `/hexmeros settings`): their IANA time zone and quiet hours
-- (local wall-clock minutes after midnight; the window wraps past midnight when the end is
-- earlier than the start). They belong to the person, not to a game or a server. No row, or
-- no window: no quiet hours.
CREATE TABLE player_settings (
    player_id   BIGINT  PRIMARY KEY,
    time_zone   TEXT,
    quiet_start BIGINT,
    quiet_end   BIGINT,
    updated_at  BIGINT  NOT NULL
);
