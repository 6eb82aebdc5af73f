-- No stale message (issue 30), as SQLite's 0016_stale_views.sql (see there): DM reminders
-- recorded with the turn pings (their channel, their commit), and each seat's latest
-- "Show my hand" answer, redrawn through its interaction token.
ALTER TABLE table_pings ADD COLUMN channel_id BIGINT;
ALTER TABLE table_pings ADD COLUMN seq INTEGER;

ALTER TABLE seats ADD COLUMN view_app_id BIGINT;
ALTER TABLE seats ADD COLUMN view_token TEXT;
ALTER TABLE seats ADD COLUMN view_message_id BIGINT;
ALTER TABLE seats ADD COLUMN view_at DOUBLE PRECISION;
CREATE INDEX seats_view_at ON seats (view_at) WHERE view_at IS NOT NULL;
