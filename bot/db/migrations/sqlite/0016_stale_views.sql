-- No stale message (issue 30).
--
-- A turn reminder sent by DM is withdrawn once the turn is over, as the channel pings of
-- players without DMs are: channel_id names the DM channel it sits in (NULL: the table's
-- channel), seq the commit it was sent at (it goes once the table has moved past that commit;
-- NULL: at the next delivery, as rows from before this migration always did).
ALTER TABLE table_pings ADD COLUMN channel_id INTEGER;
ALTER TABLE table_pings ADD COLUMN seq INTEGER;

-- Each seat's latest "Show my hand" answer (an ephemeral message only its interaction token
-- can edit, for 15 minutes): every delivery of the table redraws it, and it is stamped out
-- of date before the token lapses or when the game ends. Kept here so that whichever process
-- delivers the table next, even after a restart, can do it.
ALTER TABLE seats ADD COLUMN view_app_id INTEGER;
ALTER TABLE seats ADD COLUMN view_token TEXT;
ALTER TABLE seats ADD COLUMN view_message_id INTEGER;
ALTER TABLE seats ADD COLUMN view_at REAL;
CREATE INDEX seats_view_at ON seats (view_at) WHERE view_at IS NOT NULL;
