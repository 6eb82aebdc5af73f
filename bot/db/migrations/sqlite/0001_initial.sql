-- Trionfi initial schema: tables, seats, the append-only action log, per-deal and per-game results.
-- Times are Unix seconds (REAL). JSON columns hold compact JSON text.

CREATE TABLE tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    game_id       TEXT    NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned')),
    owner_id      INTEGER NOT NULL,
    players       INTEGER NOT NULL CHECK (players BETWEEN 2 AND 8),
    options_json  TEXT    NOT NULL DEFAULT '{}',
    seed          INTEGER NOT NULL,
    rules_version INTEGER NOT NULL,
    seq           INTEGER NOT NULL DEFAULT 0,      -- seq of the last action-log entry
    snapshot_json TEXT,                            -- match state; NULL until started
    message_id    INTEGER,                         -- public table message
    turn_deadline REAL,                            -- when the seat to act times out (NULL: none)
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    finished_at   REAL
);

-- At most one open (lobby or playing) table per channel; also the channel lookup.
CREATE UNIQUE INDEX tables_open_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_deadline ON tables (turn_deadline)
    WHERE status = 'playing' AND turn_deadline IS NOT NULL;

CREATE TABLE seats (
    table_id      INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       INTEGER,                         -- NULL for computer players
    name          TEXT    NOT NULL,
    is_bot        INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    dm_channel_id INTEGER,
    dm_message_id INTEGER,
    dm_failed     INTEGER NOT NULL DEFAULT 0 CHECK (dm_failed IN (0, 1)),
    resigned      INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- A user sits at most once per table; active tables of a user.
CREATE UNIQUE INDEX seats_table_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_user ON seats (user_id, table_id) WHERE user_id IS NOT NULL;

-- Append-only event log. The primary key is the last defence against a double-applied click.
CREATE TABLE actions (
    table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL CHECK (seq >= 1),
    kind         TEXT    NOT NULL CHECK (kind IN ('deal', 'act', 'resign')),
    seat         INTEGER,
    payload_json TEXT    NOT NULL,
    created_at   REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TABLE deal_results (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal_no     INTEGER NOT NULL CHECK (deal_no >= 1),
    outcome     TEXT    NOT NULL,
    deltas_json TEXT    NOT NULL,
    detail_json TEXT    NOT NULL DEFAULT '{}',
    finished_at REAL    NOT NULL,
    PRIMARY KEY (table_id, deal_no)
) WITHOUT ROWID;

CREATE TABLE game_results (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    game_id     TEXT    NOT NULL,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,                           -- NULL for computer players
    name        TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    finished_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- Leaderboard: per server and game, grouped by user (humans only).
CREATE INDEX game_results_board ON game_results (guild_id, game_id, user_id, won, score)
    WHERE user_id IS NOT NULL;
CREATE INDEX game_results_user ON game_results (user_id) WHERE user_id IS NOT NULL;
