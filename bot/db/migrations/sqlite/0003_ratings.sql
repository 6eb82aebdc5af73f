-- Ratings, statistics and game records (issue 7): who placed where, per-player ratings per game,
-- running totals per server, and the indexes the leaderboards, /stats and /history read.

-- A finished game's rows now say who the rated entity was (the Discord user id, or a computer
-- player level: -1 = the standard computer; NULL once the player asked to be forgotten), the
-- placing (1 = best; tied players share it; a resigned player ranks last), how many deals the
-- match lasted, and the display rating after the game with its change.
ALTER TABLE game_results ADD COLUMN player_id    INTEGER;
ALTER TABLE game_results ADD COLUMN place        INTEGER;
ALTER TABLE game_results ADD COLUMN deals        INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN rating       REAL;
ALTER TABLE game_results ADD COLUMN rating_delta REAL;

-- Results stored before this migration: same placing rule (winners, then score; resigned players
-- share the last place), deals from deal_results. They count in totals (games, wins, points) but
-- were never rated.
UPDATE game_results SET player_id = COALESCE(user_id, -1);
UPDATE game_results AS g SET place = r.place
FROM (
    SELECT g2.table_id, g2.seat,
           RANK() OVER (PARTITION BY g2.table_id
                        ORDER BY COALESCE(s.resigned, 0),
                                 IIF(COALESCE(s.resigned, 0), 0, g2.won) DESC,
                                 IIF(COALESCE(s.resigned, 0), 0, g2.score) DESC) AS place
    FROM game_results g2
    LEFT JOIN seats s ON s.table_id = g2.table_id AND s.seat = g2.seat
) AS r
WHERE r.table_id = g.table_id AND r.seat = g.seat;
UPDATE game_results
SET deals = (SELECT COUNT(*) FROM deal_results d WHERE d.table_id = game_results.table_id);

DROP INDEX game_results_board;
DROP INDEX game_results_user;
-- /stats, /history and rating trends: one player's games, newest last.
CREATE INDEX game_results_player ON game_results (player_id, finished_at)
    WHERE player_id IS NOT NULL;
-- Leaderboards over the last 30 days: one server's games, and every server's (covering).
CREATE INDEX game_results_guild_recent ON game_results (guild_id, game_id, finished_at);
CREATE INDEX game_results_recent
    ON game_results (game_id, finished_at, player_id, guild_id, won, score)
    WHERE player_id IS NOT NULL;

-- One row per player (or computer level) per game, over every server: the openskill
-- Plackett–Luce mu and sigma, the conservative rating shown and ranked on (mu - 3 sigma,
-- computed by the services; NULL until rated), rated games, and all-time totals. Global
-- leaderboards read these rows directly; /stats reads a player's rows.
CREATE TABLE player_games (
    game_id    TEXT    NOT NULL,
    player_id  INTEGER NOT NULL,
    mu         REAL,
    sigma      REAL,
    rating     REAL,
    rated      INTEGER NOT NULL DEFAULT 0 CHECK (rated >= 0),
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    points     INTEGER NOT NULL DEFAULT 0,
    deals      INTEGER NOT NULL DEFAULT 0,
    last_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, player_id)
) WITHOUT ROWID;
CREATE INDEX player_games_player ON player_games (player_id);

-- The same totals per server: server leaderboards, and the games of servers whose admins keep
-- them off global leaderboards (subtracted from the global rows when asked for).
CREATE TABLE player_totals (
    game_id   TEXT    NOT NULL,
    guild_id  INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    deals     INTEGER NOT NULL,
    last_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, guild_id, player_id)
) WITHOUT ROWID;
CREATE INDEX player_totals_player ON player_totals (player_id);

INSERT INTO player_totals (game_id, guild_id, player_id, games, wins, points, deals, last_at)
SELECT game_id, guild_id, player_id, COUNT(*), SUM(won), SUM(score), SUM(deals), MAX(finished_at)
FROM game_results WHERE player_id IS NOT NULL
GROUP BY game_id, guild_id, player_id;

INSERT INTO player_games (game_id, player_id, games, wins, points, deals, last_at)
SELECT game_id, player_id, SUM(games), SUM(wins), SUM(points), SUM(deals), MAX(last_at)
FROM player_totals GROUP BY game_id, player_id;

-- The name each human last played under (leaderboards show it; forget-me deletes it).
CREATE TABLE players (
    player_id  INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    updated_at REAL NOT NULL
);

-- The bare ``name`` next to MAX(finished_at) is SQLite's "bare column of the max row".
INSERT INTO players (player_id, name, updated_at)
SELECT player_id, name, MAX(finished_at) FROM game_results WHERE player_id > 0
GROUP BY player_id;
