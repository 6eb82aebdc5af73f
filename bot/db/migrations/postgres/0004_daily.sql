-- The daily deal (issue 20), as SQLite's 0010_daily.sql (see it for the meanings).
ALTER TABLE tables ADD COLUMN daily_date TEXT;

CREATE TABLE daily_attempts (
    day         TEXT     NOT NULL,
    game_id     TEXT     NOT NULL,
    user_id     BIGINT   NOT NULL,
    guild_id    BIGINT   NOT NULL DEFAULT 0,
    table_id    BIGINT   REFERENCES tables (id) ON DELETE SET NULL,
    seat        INTEGER  NOT NULL CHECK (seat >= 0),
    name        TEXT     NOT NULL,
    status      TEXT     NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'abandoned')),
    score       INTEGER,
    resigned    SMALLINT NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    started_at  DOUBLE PRECISION NOT NULL,
    finished_at DOUBLE PRECISION,
    PRIMARY KEY (day, game_id, user_id)
);
CREATE INDEX daily_board ON daily_attempts (day, game_id, score) WHERE status = 'finished';
CREATE INDEX daily_board_guild ON daily_attempts (day, game_id, guild_id, score)
    WHERE status = 'finished';
CREATE INDEX daily_user ON daily_attempts (user_id, day);
CREATE UNIQUE INDEX daily_table ON daily_attempts (table_id) WHERE table_id IS NOT NULL;

CREATE TABLE daily_channels (
    guild_id   BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE daily_posts (
    guild_id   BIGINT NOT NULL,
    day        TEXT   NOT NULL,
    channel_id BIGINT NOT NULL,
    posted_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, day)
);
