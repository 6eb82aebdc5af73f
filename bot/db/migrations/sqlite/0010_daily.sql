-- The daily deal (issue 20). tables.daily_date: the UTC day ('YYYY-MM-DD') of a daily attempt
-- (NULL: an ordinary table). daily_attempts: one row per player, day and game (the primary key
-- is the one-attempt rule); score is the player's result once the attempt is over ('finished';
-- 'abandoned': closed without a result, still the day's one attempt). guild_id: the server the
-- attempt was started from (0: a DM), for that server's board. daily_channels: where a server's
-- admins want the daily announcement; daily_posts: the announcements made, one per server and
-- day (the claim that keeps several processes from posting twice).
ALTER TABLE tables ADD COLUMN daily_date TEXT;

CREATE TABLE daily_attempts (
    day         TEXT    NOT NULL,
    game_id     TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL DEFAULT 0,
    table_id    INTEGER REFERENCES tables (id) ON DELETE SET NULL,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    name        TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'abandoned')),
    score       INTEGER,
    resigned    INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    started_at  REAL    NOT NULL,
    finished_at REAL,
    PRIMARY KEY (day, game_id, user_id)
);
CREATE INDEX daily_board ON daily_attempts (day, game_id, score) WHERE status = 'finished';
CREATE INDEX daily_board_guild ON daily_attempts (day, game_id, guild_id, score)
    WHERE status = 'finished';
CREATE INDEX daily_user ON daily_attempts (user_id, day);
CREATE UNIQUE INDEX daily_table ON daily_attempts (table_id) WHERE table_id IS NOT NULL;

CREATE TABLE daily_channels (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    updated_at REAL    NOT NULL
);

CREATE TABLE daily_posts (
    guild_id   INTEGER NOT NULL,
    day        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    posted_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, day)
);
