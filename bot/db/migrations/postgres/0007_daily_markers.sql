-- Forget-me keeps today's daily deals played (issue 28), as SQLite's 0013_daily_markers.sql
-- (see there): a non-identifying marker per forgotten attempt, until its day is over.
CREATE TABLE daily_markers (
    marker TEXT NOT NULL PRIMARY KEY,
    day    TEXT NOT NULL
);
