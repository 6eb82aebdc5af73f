-- Multi-card choices picked one card at a time (issue 31: the écart as toggle buttons).
--
-- A seat's picks in progress (the cards toggled so far for its discard) are kept with the
-- seat, not in the message or in memory: they survive a restart, whichever process answers
-- the next toggle, and only that seat's player sees them (they are drawn on their own hand).
-- JSON: {"deal": n, "type": "discard", "cards": ["S2", …]}; picks of another deal or another
-- kind of choice are ignored, so nothing needs clearing when the decision is made.
ALTER TABLE seats ADD COLUMN picks TEXT;
