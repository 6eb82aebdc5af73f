-- A league table's private thread (issue 34), made once: as SQLite's 0026_league_threads.sql
-- (see it for the meanings).
CREATE TABLE league_threads (
    table_id    BIGINT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner       TEXT,
    lease_until DOUBLE PRECISION,
    thread_id   BIGINT
);
