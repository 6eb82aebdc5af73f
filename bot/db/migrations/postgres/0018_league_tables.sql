-- League tables with several humans of one server (issue 34): a table opened in the server's
-- league channel, played in a private thread, holds one entry per human seat.
--
-- league_entries: unique per (table, seat) instead of per table; until_deal: the last deal
-- that counts for a player who left a table that went on without them (the casual computer
-- finished that deal for them; NULL: every deal of the set counts). league_results: one row
-- per deal and human seat of a table. league_scores: one row per entry (table and seat).
-- The result and score rows so far (one human a table) keep their values; scores get the
-- entry's seat.
DROP INDEX league_entries_table;
CREATE UNIQUE INDEX league_entries_table ON league_entries (table_id, seat)
    WHERE table_id IS NOT NULL;
ALTER TABLE league_entries ADD COLUMN until_deal INTEGER;

ALTER TABLE league_results DROP CONSTRAINT league_results_pkey;
ALTER TABLE league_results ADD PRIMARY KEY (table_id, deal_no, seat);

ALTER TABLE league_scores ADD COLUMN seat INTEGER NOT NULL DEFAULT 0;
UPDATE league_scores s SET seat = e.seat FROM league_entries e WHERE e.table_id = s.table_id;
ALTER TABLE league_scores ALTER COLUMN seat DROP DEFAULT;
ALTER TABLE league_scores DROP CONSTRAINT league_scores_pkey;
ALTER TABLE league_scores ADD PRIMARY KEY (session_id, game_id, table_id, seat);
