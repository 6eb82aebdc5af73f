-- Claims on a tournament's Discord posts (issue 34), as SQLite's 0025_tournament_claims.sql
-- (see it for the meanings).
CREATE TABLE tournament_claims (
    tournament_id BIGINT   NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    claim         TEXT     NOT NULL,
    owner         TEXT,
    lease_until   DOUBLE PRECISION,
    done          SMALLINT NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    made_id       BIGINT,
    PRIMARY KEY (tournament_id, claim)
);

INSERT INTO tournament_claims (tournament_id, claim, done, made_id)
    SELECT id, 'event', 1, event_id FROM tournaments
    WHERE status IN ('finished', 'cancelled') AND event_id IS NOT NULL;
