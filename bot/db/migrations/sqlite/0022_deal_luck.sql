-- Luck and skill per deal (issue 33): for each human seat of a finished deal, the expert's
-- evaluation of the hand it was dealt ("cards": the points an expert would expect to score
-- with it) and the points its player's decisions gained or lost against the expert's
-- ("play", summed over the decisions the deal's Review judged: ``judged`` of ``decisions``).
-- /stats averages "play" over a player's latest deals (``deal_luck_user``). Forgetting a player
-- deletes their rows (``bot.db.records.forget``); a table's rows go with it.
CREATE TABLE deal_luck (
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal_no   INTEGER NOT NULL CHECK (deal_no >= 1),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER NOT NULL,
    game_id   TEXT    NOT NULL,
    cards     REAL    NOT NULL,
    play      REAL    NOT NULL,
    judged    INTEGER NOT NULL CHECK (judged >= 0),
    decisions INTEGER NOT NULL CHECK (decisions >= judged),
    at        REAL    NOT NULL,
    PRIMARY KEY (table_id, deal_no, seat)
);
CREATE INDEX deal_luck_user ON deal_luck (user_id, at);
