-- The 30-day leaderboards, precomputed (issue 17), as SQLite's 0010_rolling.sql (see there).
CREATE TABLE rolling_window (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    since DOUBLE PRECISION NOT NULL
);
INSERT INTO rolling_window (id, since)
VALUES (1, CAST(EXTRACT(EPOCH FROM now()) AS DOUBLE PRECISION) - 2592000.0);

CREATE TABLE rolling_totals (
    game_id   TEXT    NOT NULL,
    guild_id  BIGINT  NOT NULL,
    player_id BIGINT  NOT NULL,
    games     INTEGER NOT NULL CHECK (games >= 0),
    wins      INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    PRIMARY KEY (game_id, guild_id, player_id)
);

CREATE TABLE rolling_games (
    game_id   TEXT    NOT NULL,
    player_id BIGINT  NOT NULL,
    games     INTEGER NOT NULL CHECK (games >= 0),
    wins      INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

INSERT INTO rolling_totals (game_id, guild_id, player_id, games, wins, points)
SELECT game_id, guild_id, player_id, COUNT(*), SUM(won), SUM(score) FROM game_results
WHERE player_id > 0 AND finished_at >= (SELECT since FROM rolling_window)
GROUP BY game_id, guild_id, player_id;

INSERT INTO rolling_games (game_id, player_id, games, wins, points)
SELECT game_id, player_id, SUM(games), SUM(wins), SUM(points) FROM rolling_totals
GROUP BY game_id, player_id;
