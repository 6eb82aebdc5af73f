-- DM hands redrawn through their player's own clicks (issue 30's REST budget).
--
-- A click on a DM hand (a decision, a pick) is an interaction whose token may edit that very
-- message (its "@original") for 15 minutes, outside Discord's global rate limit. The seat's
-- latest one is kept here, with the hand message it belongs to and when it was clicked, so
-- that whichever process delivers the table next, even after a restart, redraws the hand
-- through it (e.g. when it becomes the player's turn) instead of a channel edit. The token is
-- a credential: forgotten once it is past its time, refused, or the table ends.
ALTER TABLE seats ADD COLUMN click_app_id INTEGER;
ALTER TABLE seats ADD COLUMN click_token TEXT;
ALTER TABLE seats ADD COLUMN click_message_id INTEGER;
ALTER TABLE seats ADD COLUMN click_at REAL;
