-- Secrets the bot makes itself (issue 46): the key that signs the web board's links. Made once
-- by whichever process asks first (an insert that does nothing when the row is there), so every
-- process of one database signs and checks alike, and a restart keeps every link valid.
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
