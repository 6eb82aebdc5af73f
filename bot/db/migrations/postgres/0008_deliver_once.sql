-- Delivered once across a cluster (issue 29), as SQLite's 0014_deliver_once.sql (see there):
-- the commit's delivery lease (republish_by/until), owed turn notifications, claimed channel
-- posts, notices written with their commit, and turn pings to clean up.
ALTER TABLE tables ADD COLUMN notify_owed INTEGER;
CREATE INDEX tables_owed ON tables (id) WHERE notify_owed IS NOT NULL;

CREATE TABLE table_posts (
    table_id BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    post     TEXT   NOT NULL,
    PRIMARY KEY (table_id, post)
);

CREATE TABLE table_notices (
    table_id  BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    part      INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    data_json TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (table_id, seq, part)
);

CREATE TABLE table_pings (
    table_id   BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (table_id, message_id)
);
