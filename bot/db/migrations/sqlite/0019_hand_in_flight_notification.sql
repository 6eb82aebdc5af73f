-- The turn notification a hand in flight carries (issue 29).
--
-- A hand sent as a new DM is recorded in ``seat_sending`` (its nonce) before the request, so
-- that a crash before the message is recorded leaves it to the next delivery, which sends it
-- again with that nonce. A hand that carried a turn notification must say so: whoever
-- completes it records that notification sent with it, even while the crashed process's hold
-- on the notification has not lapsed (before, that delivery could not take the notification,
-- so it stayed owed and went out a second time once the hold lapsed). NULL: a plain hand.
ALTER TABLE seat_sending ADD COLUMN notified_seq INTEGER;
