-- Forget-me keeps today's daily deals played (issue 28). Forgetting a player re-keys their
-- attempts to no one; each attempt at a deal whose day is not over also leaves a marker: a
-- keyed hash (HMAC-SHA256 under a secret kept in bot_state) of the day, the game and the user
-- id, which names no one but recognises the same account asking for that deal again. The daily
-- upkeep deletes the markers of the days that are over (day: for that; marker: the lookup).
CREATE TABLE daily_markers (
    marker TEXT NOT NULL PRIMARY KEY,
    day    TEXT NOT NULL
);
