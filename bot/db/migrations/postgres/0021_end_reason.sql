-- Why a table ended unfinished (issue 33), as SQLite's 0027_end_reason.sql (see it for the
-- meanings).
ALTER TABLE tables ADD COLUMN end_reason TEXT;
