-- The 30-day leaderboards, precomputed (issue 17). rolling_totals holds, per game, server and
-- human player, the games, wins and points of their results finished at or after
-- rolling_window.since; rolling_games the same over every server. A finishing game adds its
-- results (if not older than since), in the transaction that stores them; the sweeper moves
-- since forward (to the board's start, a minute at a time) and subtracts the results it passes,
-- read back from game_results (their own log: a forgotten player's results, anonymised, are
-- neither added nor subtracted). A board over the games finished since S reads these rows
-- and corrects them by the results between rolling_window.since and S (a minute's worth when
-- the sweeper keeps up), so it is exact whether or not the sweeper has run.
CREATE TABLE rolling_window (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    since REAL    NOT NULL
);
-- Backfill from the results stored so far: the window starts 30 days before now.
INSERT INTO rolling_window (id, since) VALUES (1, CAST(unixepoch() AS REAL) - 2592000.0);

CREATE TABLE rolling_totals (
    game_id   TEXT    NOT NULL,
    guild_id  INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    games     INTEGER NOT NULL CHECK (games >= 0),
    wins      INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    PRIMARY KEY (game_id, guild_id, player_id)
) WITHOUT ROWID;

CREATE TABLE rolling_games (
    game_id   TEXT    NOT NULL,
    player_id INTEGER NOT NULL,
    games     INTEGER NOT NULL CHECK (games >= 0),
    wins      INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
) WITHOUT ROWID;

INSERT INTO rolling_totals (game_id, guild_id, player_id, games, wins, points)
SELECT game_id, guild_id, player_id, COUNT(*), SUM(won), SUM(score) FROM game_results
WHERE player_id > 0 AND finished_at >= (SELECT since FROM rolling_window)
GROUP BY game_id, guild_id, player_id;

INSERT INTO rolling_games (game_id, player_id, games, wins, points)
SELECT game_id, player_id, SUM(games), SUM(wins), SUM(points) FROM rolling_totals
GROUP BY game_id, player_id;
