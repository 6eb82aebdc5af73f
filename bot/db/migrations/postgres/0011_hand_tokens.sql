-- DM hands redrawn through their player's own clicks (issue 30's REST budget), as SQLite's
-- 0017_hand_tokens.sql (see there): each seat's latest click on its DM hand, whose token
-- edits that message for 15 minutes outside the global rate limit.
ALTER TABLE seats ADD COLUMN click_app_id BIGINT;
ALTER TABLE seats ADD COLUMN click_token TEXT;
ALTER TABLE seats ADD COLUMN click_message_id BIGINT;
ALTER TABLE seats ADD COLUMN click_at DOUBLE PRECISION;
