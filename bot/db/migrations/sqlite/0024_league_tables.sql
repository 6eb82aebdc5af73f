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

CREATE TABLE league_results_new (
    table_id   INTEGER NOT NULL,
    deal_no    INTEGER NOT NULL,
    session_id INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    seat       INTEGER NOT NULL,
    score      INTEGER NOT NULL,
    resigned   INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    PRIMARY KEY (table_id, deal_no, seat)
);
INSERT INTO league_results_new
    SELECT table_id, deal_no, session_id, game_id, seat, score, resigned FROM league_results;
DROP TABLE league_results;
ALTER TABLE league_results_new RENAME TO league_results;
-- Covering: the scoring pass reads the results in this order from the index alone.
CREATE INDEX league_results_board
    ON league_results (session_id, game_id, deal_no, seat, score, table_id, resigned);

CREATE TABLE league_scores_new (
    session_id INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    table_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    mp         INTEGER NOT NULL,
    top        INTEGER NOT NULL,
    pct        REAL    NOT NULL,
    deals      INTEGER NOT NULL,
    resigned   INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    PRIMARY KEY (session_id, game_id, table_id, seat)
);
INSERT INTO league_scores_new
    SELECT s.session_id, s.game_id, s.table_id, s.user_id, s.guild_id, s.name, s.mp, s.top,
           s.pct, s.deals, s.resigned, COALESCE(e.seat, 0)
    FROM league_scores s LEFT JOIN league_entries e ON e.table_id = s.table_id;
DROP TABLE league_scores;
ALTER TABLE league_scores_new RENAME TO league_scores;
CREATE INDEX league_scores_rank ON league_scores (session_id, game_id, pct);
CREATE INDEX league_scores_entrant ON league_scores (session_id, game_id, user_id);
CREATE INDEX league_scores_user ON league_scores (user_id);
