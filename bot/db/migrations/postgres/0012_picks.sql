-- Multi-card choices picked one card at a time (issue 31), as SQLite's 0018_picks.sql (see
-- there): a seat's picks in progress, as JSON {"deal": n, "type": …, "cards": […]}.
ALTER TABLE seats ADD COLUMN picks TEXT;
