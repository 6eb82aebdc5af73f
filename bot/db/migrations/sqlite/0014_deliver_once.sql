-- Delivered once across a cluster (issue 29).
--
-- republish_by / republish_until become the table's delivery lease: the process whose service
-- commits a change takes it in the commit's transaction and renews it while it delivers or
-- holds a retry; another process re-publishes the table only once it has lapsed.
--
-- A turn notification the sweeper found due is owed (notify_owed: the seat, at the table's
-- current seq) until the delivery that sends it as a new DM takes it: a crash in between leaves
-- it owed, and the re-publisher sends it.
ALTER TABLE tables ADD COLUMN notify_owed INTEGER;
CREATE INDEX tables_owed ON tables (id) WHERE notify_owed IS NOT NULL;

-- Channel posts (deal summaries "deal:N", the result "final", notices "notice:SEQ:PART"),
-- each claimed here before it is sent: a post goes out once, whichever process sends it.
CREATE TABLE table_posts (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    post     TEXT    NOT NULL,
    PRIMARY KEY (table_id, post)
) WITHOUT ROWID;

-- Public notices written with the commit that caused them ("ran out of time", "resigned", a
-- player left, the table was ended…): kind and data, worded when posted. Deleted once shown.
CREATE TABLE table_notices (
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    part      INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    data_json TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (table_id, seq, part)
) WITHOUT ROWID;

-- Channel pings of a turn notification (players without DMs), deleted once the turn is over,
-- by whichever process delivers the table next.
CREATE TABLE table_pings (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, message_id)
) WITHOUT ROWID;
