-- Tournaments inside one server (issue 34): a host opens one, players register, and each
-- Swiss round seats them at ordinary game tables (one thread per table where the bot may make
-- threads). Times are Unix seconds.
--
-- A tournament's tables name it (``tables.tournament_id``) and say whether they are rated
-- (``tables.rated``: unrated unless the host chose a rated tournament). Where the bot cannot
-- make threads, a round's tables share the tournament's channel: the one-open-table-per-channel
-- rule applies to the other tables only.
ALTER TABLE tables ADD COLUMN tournament_id INTEGER;
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
DROP INDEX tables_open_channel;
CREATE UNIQUE INDEX tables_open_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing') AND tournament_id IS NULL;
CREATE INDEX tables_open_in_channel ON tables (channel_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE tournaments (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    game_id          TEXT    NOT NULL,
    players          INTEGER NOT NULL CHECK (players BETWEEN 2 AND 8),  -- seats per table
    rounds           INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 12),
    deals            INTEGER,                          -- deals per table; NULL: the game's
    turn_clock       INTEGER,                          -- seconds per decision; NULL: none
    starts_at        REAL,                             -- NULL: when the host starts it
    rated            INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    seed             INTEGER NOT NULL,
    language         TEXT    NOT NULL DEFAULT 'en',
    status           TEXT    NOT NULL DEFAULT 'open'
                     CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round            INTEGER NOT NULL DEFAULT 0,       -- the round being played (0: none yet)
    message_id       INTEGER,                          -- the registration post
    event_id         INTEGER,                          -- the Discord scheduled event, if any
    threads          INTEGER NOT NULL DEFAULT 1 CHECK (threads IN (0, 1)),  -- 0: refused
    pairings_posted  INTEGER NOT NULL DEFAULT 0,       -- last round whose pairings were posted
    standings_posted INTEGER NOT NULL DEFAULT 0,       -- last round whose standings were posted
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
CREATE INDEX tournaments_active ON tournaments (status) WHERE status IN ('open', 'running');
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    joined_at     REAL    NOT NULL,
    left_round    INTEGER,                             -- the round they left in (NULL: still in)
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

-- A round's tables ("boards"), made before their game table exists so that a restart between
-- the two finds what is left to make.
CREATE TABLE tournament_boards (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    board         INTEGER NOT NULL CHECK (board >= 1),
    seats_json    TEXT    NOT NULL,                    -- [user id or null (a computer), …]
    thread_id     INTEGER,
    table_id      INTEGER REFERENCES tables (id) ON DELETE SET NULL,
    PRIMARY KEY (tournament_id, round, board)
) WITHOUT ROWID;
CREATE INDEX tournament_boards_table ON tournament_boards (table_id) WHERE table_id IS NOT NULL;

-- Each entrant's result in each round, written when the round ends.
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    place         INTEGER NOT NULL,
    points        INTEGER NOT NULL,                    -- tournament points, in half points
    score         INTEGER NOT NULL,                    -- the game score at the table
    left_table    INTEGER NOT NULL DEFAULT 0 CHECK (left_table IN (0, 1)),
    PRIMARY KEY (tournament_id, round, user_id)
) WITHOUT ROWID;
