-- What each rated game did to its players' ratings (issue 19, the results table): the rating
-- before and after, per player and per kind (the game's kind and 'all'), written in the
-- transaction that rates the game, so a results message delivered late (after a crash, or after
-- later games changed the ratings again) shows the change this game made. Games finished before
-- this table have no rows: their results show no change.
CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    player_id    BIGINT  NOT NULL,
    kind         TEXT    NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player_id, kind)
);
