-- "Try another way" (issue 33), as SQLite's 0023_replays.sql (see it for the meanings).
ALTER TABLE tables ADD COLUMN replay_of BIGINT;
ALTER TABLE tables ADD COLUMN replay_deal INTEGER;
