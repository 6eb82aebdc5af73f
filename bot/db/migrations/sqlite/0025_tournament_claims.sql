-- Claims on a tournament's Discord posts (issue 34): two processes of a cluster tending one
-- tournament post each of its posts once and make each board's thread and table once.
--
-- A claim is taken in one statement before the Discord call (``bot.db.tournaments.claim``),
-- with a lease: a process killed between its claim and its post leaves a claim that lapses at
-- ``lease_until``, and the next sweep takes it over. The process whose call succeeded records
-- ``done`` and what it made (``made_id``: the message, the thread or the game table). Keys:
-- ``standings:<round>``, ``pairings:<round>``, ``thread:<round>:<board>``,
-- ``table:<round>:<board>``, ``threads-notice`` and ``event`` (the scheduled event closed).
CREATE TABLE tournament_claims (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    claim         TEXT    NOT NULL,
    owner         TEXT,                                -- the process holding it (NULL: done)
    lease_until   REAL,
    done          INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    made_id       INTEGER,
    PRIMARY KEY (tournament_id, claim)
) WITHOUT ROWID;

-- Tournaments over before this migration: their scheduled event is left as it is.
INSERT INTO tournament_claims (tournament_id, claim, done, made_id)
    SELECT id, 'event', 1, event_id FROM tournaments
    WHERE status IN ('finished', 'cancelled') AND event_id IS NOT NULL;
