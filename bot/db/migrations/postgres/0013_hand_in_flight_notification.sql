-- The turn notification a hand in flight carries (issue 29), as SQLite's
-- 0018_hand_in_flight_notification.sql (see there): whoever completes a hand whose sending a
-- crash cut records the notification it carried sent with it. NULL: a plain hand.
ALTER TABLE seat_sending ADD COLUMN notified_seq BIGINT;
