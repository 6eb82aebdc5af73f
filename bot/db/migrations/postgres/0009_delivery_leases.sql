-- Claims that lapse (issue 29), as SQLite's 0015_delivery_leases.sql (see there): leased post
-- claims marked posted once sent, leased owed notifications, replaced messages to retire.
ALTER TABLE table_posts ADD COLUMN owner TEXT;
ALTER TABLE table_posts ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE table_posts ADD COLUMN replaces BIGINT;
ALTER TABLE table_posts ADD COLUMN posted INTEGER NOT NULL DEFAULT 1;

ALTER TABLE tables ADD COLUMN notify_by TEXT;
ALTER TABLE tables ADD COLUMN notify_until DOUBLE PRECISION;

CREATE TABLE table_retired (
    table_id   BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (table_id, message_id)
);

-- A hand about to be sent as a new DM: its nonce, recorded before the request and cleared in
-- the step that records the message. A crash in between leaves it here, and the next delivery
-- sends the hand with the same nonce (Discord answers with the message the first request made,
-- if it arrived) and makes that message the seat's hand: no orphan hand with live controls.
CREATE TABLE seat_sending (
    table_id BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    nonce    TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
