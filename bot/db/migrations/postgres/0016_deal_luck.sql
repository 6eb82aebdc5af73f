-- Luck and skill per deal (issue 33), as SQLite's 0022_deal_luck.sql (see it for the meanings).
CREATE TABLE deal_luck (
    table_id  BIGINT           NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal_no   INTEGER          NOT NULL CHECK (deal_no >= 1),
    seat      INTEGER          NOT NULL CHECK (seat >= 0),
    user_id   BIGINT           NOT NULL,
    game_id   TEXT             NOT NULL,
    cards     DOUBLE PRECISION NOT NULL,
    play      DOUBLE PRECISION NOT NULL,
    judged    INTEGER          NOT NULL CHECK (judged >= 0),
    decisions INTEGER          NOT NULL CHECK (decisions >= judged),
    at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, deal_no, seat)
);
CREATE INDEX deal_luck_user ON deal_luck (user_id, at);
