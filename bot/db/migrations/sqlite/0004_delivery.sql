-- Field readiness (issue 14): durable publishing, turn notifications and per-player settings.

-- The last seq whose state the channel and every DM fully show (outbox pattern): a table whose
-- shown_seq lags its seq is re-published on start-up and by the sweeper. Tables that exist
-- already were shown by the code that committed them.
ALTER TABLE tables ADD COLUMN shown_seq INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET shown_seq = seq;
CREATE INDEX tables_unshown ON tables (id) WHERE shown_seq < seq;

-- A turn that started after someone else acted: when the player to act gets a real
-- notification (a new message) if they have not acted by then. NULL: none due.
ALTER TABLE tables ADD COLUMN notify_at   REAL;
ALTER TABLE tables ADD COLUMN notify_seat INTEGER;
CREATE INDEX tables_notify ON tables (notify_at)
    WHERE status = 'playing' AND notify_at IS NOT NULL;

-- A player's own settings. notify_delay: seconds before a turn notification (NULL: the
-- default; -1: never).
CREATE TABLE user_settings (
    user_id      INTEGER PRIMARY KEY,
    notify_delay INTEGER CHECK (notify_delay IS NULL OR notify_delay >= -1),
    updated_at   REAL    NOT NULL
);
