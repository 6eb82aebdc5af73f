-- Claims that lapse (issue 29): a crash between a claim and its request must not lose what
-- was claimed.
--
-- A channel post is claimed with a lease (owner, lease_until) and marked posted once Discord
-- accepted it; a claim whose owner's lease lapsed is taken again by whoever re-publishes the
-- table (the request carries a nonce derived from the post, so Discord answers a repeat with
-- the message it already made). replaces: the table message the post turns into itself, kept
-- so that a re-claim edits that one too. Rows from before this migration were sent (or lost
-- for good): they stay posted.
ALTER TABLE table_posts ADD COLUMN owner TEXT;
ALTER TABLE table_posts ADD COLUMN lease_until REAL;
ALTER TABLE table_posts ADD COLUMN replaces INTEGER;
ALTER TABLE table_posts ADD COLUMN posted INTEGER NOT NULL DEFAULT 1;

-- An owed turn notification is taken with a lease too (notify_by, notify_until) and cleared
-- only in the step that records the hand it was sent with.
ALTER TABLE tables ADD COLUMN notify_by TEXT;
ALTER TABLE tables ADD COLUMN notify_until REAL;

-- Messages replaced by a new one (a hand re-sent as a new DM, a table message posted anew),
-- recorded in the step that records their successor and retired (deleted) by the next
-- delivery of the table, whichever process makes it: a crash before the delete must not leave
-- them behind with live controls.
CREATE TABLE table_retired (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, message_id)
);

-- A hand about to be sent as a new DM: its nonce, recorded before the request and cleared in
-- the step that records the message. A crash in between leaves it here, and the next delivery
-- sends the hand with the same nonce (Discord answers with the message the first request made,
-- if it arrived) and makes that message the seat's hand: no orphan hand with live controls.
CREATE TABLE seat_sending (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    nonce    TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
