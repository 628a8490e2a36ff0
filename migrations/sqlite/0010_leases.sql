-- Leases (issue 20): work that no interaction ties to a process — a game's timers, a game's
-- bots, an outbox lane — is done by whichever process claims its lease first. A lease names the
-- work, its holder (a process) and when it lapses (unix ms): a process that dies holding one
-- loses it then, and another takes the work over. Claims are one atomic upsert, the same on
-- SQLite and PostgreSQL. Rows are short-lived: a holder deletes its lease when done.
CREATE TABLE leases (
    name     TEXT    PRIMARY KEY,
    owner    TEXT    NOT NULL,
    until_ms BIGINT  NOT NULL
);
