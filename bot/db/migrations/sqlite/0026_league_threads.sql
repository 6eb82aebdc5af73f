-- A league table's private thread (issue 34), made once: the host's Start claims it here with
-- a lease before asking Discord for the thread (as a tournament's posts are claimed,
-- 0025_tournament_claims.sql), records the thread once Discord made it (``thread_id``), and
-- lets the claim go when the table started (or failed to). A Start after a crash reuses the
-- recorded thread instead of making another; a second Start while a first is under way (its
-- lease running) is refused. ``bot.db.league_threads``.
CREATE TABLE league_threads (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner       TEXT,                    -- the process starting the table (NULL: nobody now)
    lease_until REAL,
    thread_id   INTEGER                  -- the thread made (NULL: none yet)
);
