-- Private notes (issue 22, `/hexmeros note`): lines a player keeps on a game, shown only to
-- them (with their private board). Kept with the game, never exported or told.
CREATE TABLE notes (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    player_id  BIGINT  NOT NULL,
    text       TEXT    NOT NULL,
    created_at BIGINT  NOT NULL
);
CREATE INDEX notes_by_game_player ON notes (game_id, player_id, id);
