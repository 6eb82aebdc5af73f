-- Running unattended (issue 15): what the bot remembers about itself between runs.
-- key 'alive_at': the last time the sweeper ran (downtime is forgiven from it on start-up);
-- keys 'commands:<scope>': the hash of the command tree last synced to that scope.
CREATE TABLE bot_state (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at REAL NOT NULL
) WITHOUT ROWID;

-- Idle tables: lobbies and running games with no change for a long time end.
CREATE INDEX tables_open_updated ON tables (updated_at) WHERE status IN ('lobby', 'playing');
