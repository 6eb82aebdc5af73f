-- Fair ratings (issue 28). seats.replaced: the host or an admin gave this seat to a computer
-- while its player was away (resigned is set too: the computer plays it from then on). Unlike
-- a resignation, that game then counts neither for nor against the player: their result row
-- gets no player_id and no place, so no rating, totals or history move.
ALTER TABLE seats ADD COLUMN replaced INTEGER NOT NULL DEFAULT 0 CHECK (replaced IN (0, 1));
-- Forget-me finds such rows by user id (they have no player_id); few rows, a small index.
CREATE INDEX game_results_unranked ON game_results (user_id)
    WHERE player_id IS NULL AND user_id IS NOT NULL;
