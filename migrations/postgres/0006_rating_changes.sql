-- What each rated game did to its players' ratings (issue 19), as
-- migrations/sqlite/0006_rating_changes.sql.
CREATE TABLE rating_changes (
    game_id      BIGINT  NOT NULL REFERENCES games (id),
    player_id    BIGINT  NOT NULL,
    kind         TEXT    NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player_id, kind)
);
