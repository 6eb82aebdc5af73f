-- League nights (issue 34): duplicate sessions between servers.
--
-- tables.league_session / league_deals: a league entry's table (NULL: any other table) and the
-- number of deals of its set (the match ends after them). league_guilds: the servers whose
-- admins joined the league, and the channel of their announcements. league_sessions: one per
-- week (window starts_at..ends_at, deals per set; scored_at/changed_at: when its scores were
-- last computed and when a result last arrived; in_season: its scores are in the season's
-- sums, which count a session once its window is over). league_entries: one per player, session and
-- game (the primary key is the one-entry rule), with the server it was started from and the
-- seat held. league_results: the entrant's score at each deal (the comparisons read them);
-- resigned: the casual computer played it for them. league_scores: each entry's matchpoints
-- for the session, written by the scoring pass (standings read them); league_season: each
-- player's sums over the season's sessions, kept by the same pass. league_markers: keyed
-- hashes naming no one, left by forget-me so a forgotten entrant cannot enter again.
-- league_events: the announcement (scheduled event) made per server and session.
ALTER TABLE tables ADD COLUMN league_session INTEGER;
ALTER TABLE tables ADD COLUMN league_deals INTEGER;

CREATE TABLE league_guilds (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    joined_at  REAL    NOT NULL
);

CREATE TABLE league_sessions (
    id         INTEGER PRIMARY KEY,
    week       TEXT    NOT NULL UNIQUE,
    season     INTEGER NOT NULL,
    starts_at  REAL    NOT NULL,
    ends_at    REAL    NOT NULL,
    deals      INTEGER NOT NULL CHECK (deals BETWEEN 1 AND 12),
    changed_at REAL    NOT NULL DEFAULT 0,
    scored_at  REAL,
    in_season  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX league_sessions_season ON league_sessions (season);

CREATE TABLE league_entries (
    session_id INTEGER NOT NULL REFERENCES league_sessions (id),
    game_id    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    table_id   INTEGER REFERENCES tables (id) ON DELETE SET NULL,
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    name       TEXT    NOT NULL,
    started_at REAL    NOT NULL,
    PRIMARY KEY (session_id, game_id, user_id)
);
CREATE UNIQUE INDEX league_entries_table ON league_entries (table_id) WHERE table_id IS NOT NULL;
CREATE INDEX league_entries_user ON league_entries (user_id);

CREATE TABLE league_results (
    table_id   INTEGER NOT NULL,
    deal_no    INTEGER NOT NULL,
    session_id INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    seat       INTEGER NOT NULL,
    score      INTEGER NOT NULL,
    resigned   INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    PRIMARY KEY (table_id, deal_no)
);
-- Covering: the scoring pass reads the results in this order from the index alone.
CREATE INDEX league_results_board
    ON league_results (session_id, game_id, deal_no, seat, score, table_id, resigned);

CREATE TABLE league_scores (
    session_id INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    table_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    mp         INTEGER NOT NULL,
    top        INTEGER NOT NULL,
    pct        REAL    NOT NULL,
    deals      INTEGER NOT NULL,
    resigned   INTEGER NOT NULL,
    PRIMARY KEY (session_id, game_id, table_id)
);
CREATE INDEX league_scores_rank ON league_scores (session_id, game_id, pct);
CREATE INDEX league_scores_entrant ON league_scores (session_id, game_id, user_id);
CREATE INDEX league_scores_user ON league_scores (user_id);

CREATE TABLE league_season (
    season     INTEGER  NOT NULL,
    game_id    TEXT     NOT NULL,
    user_id    INTEGER   NOT NULL,
    guild_id   INTEGER   NOT NULL,
    name       TEXT     NOT NULL,
    mp         INTEGER  NOT NULL,
    top        INTEGER  NOT NULL,
    pct        REAL NOT NULL,
    deals      INTEGER  NOT NULL,
    resigned   INTEGER NOT NULL,
    PRIMARY KEY (season, game_id, user_id)
);
CREATE INDEX league_season_rank ON league_season (season, game_id, pct);
CREATE INDEX league_season_user ON league_season (user_id);

CREATE TABLE league_markers (
    marker     TEXT    NOT NULL PRIMARY KEY,
    session_id INTEGER NOT NULL
);

CREATE TABLE league_events (
    guild_id   INTEGER NOT NULL,
    session_id INTEGER NOT NULL,
    event_id   INTEGER,
    made_at    REAL    NOT NULL,
    PRIMARY KEY (guild_id, session_id)
);
