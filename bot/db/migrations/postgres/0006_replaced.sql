-- Fair ratings (issue 28), as SQLite's 0012_replaced.sql (see there). seats.replaced: the seat
-- was given to a computer while its player was away; that game does not count for them.
ALTER TABLE seats ADD COLUMN replaced SMALLINT NOT NULL DEFAULT 0 CHECK (replaced IN (0, 1));
CREATE INDEX game_results_unranked ON game_results (user_id)
    WHERE player_id IS NULL AND user_id IS NOT NULL;
