-- Table life (issue 8): turn clocks with a half-time reminder, seats that time out, rematches,
-- and per-server settings.

-- Seconds a human has for each decision (NULL: no clock). The deadline itself stays in
-- tables.turn_deadline; reminder_at is when the half-time DM is due (NULL once sent).
ALTER TABLE tables ADD COLUMN turn_clock  INTEGER;
ALTER TABLE tables ADD COLUMN reminder_at REAL;
ALTER TABLE tables ADD COLUMN rematch_of  INTEGER REFERENCES tables (id) ON DELETE SET NULL;

CREATE INDEX tables_reminder ON tables (reminder_at)
    WHERE status = 'playing' AND reminder_at IS NOT NULL;
CREATE INDEX tables_guild_open ON tables (guild_id) WHERE status IN ('lobby', 'playing');

-- Consecutive turns a human let run out: 1 marks the seat away, 2 or more lets the computer
-- play it until the human presses "I'm back" (reset to 0 by any own action).
ALTER TABLE seats ADD COLUMN expiries INTEGER NOT NULL DEFAULT 0 CHECK (expiries >= 0);

CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY,
    channels_json       TEXT    NOT NULL DEFAULT '[]',  -- where tables may open; [] = anywhere
    turn_clock          TEXT    NOT NULL DEFAULT 'off'
                        CHECK (turn_clock IN ('off', 'relaxed', 'normal', 'fast')),
    computers_allowed   INTEGER NOT NULL DEFAULT 1 CHECK (computers_allowed IN (0, 1)),
    global_leaderboards INTEGER NOT NULL DEFAULT 1 CHECK (global_leaderboards IN (0, 1)),
    updated_at          REAL    NOT NULL
);
