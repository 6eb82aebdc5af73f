-- Why a table ended unfinished, when its players are told on the table itself: ``replaced``,
-- a "Try another way" replay (issue 33) its player replaced with a new one (or with a daily
-- deal) in their DMs; its old messages say so, and its old buttons are refused with that
-- reason. NULL: finished, or ended for a reason said elsewhere (a notice) or not at all.
ALTER TABLE tables ADD COLUMN end_reason TEXT;
