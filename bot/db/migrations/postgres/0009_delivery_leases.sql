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
