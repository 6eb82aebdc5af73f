-- Computer levels and hints (issue 18), as SQLite's 0008_levels.sql. level: how the table's
-- computer players think ('casual': the rule policies; 'expert': search), each level its own
-- rated computer entity. hints: 1 for a practice table where players may ask the expert for a
-- hint; such a table is never rated.
ALTER TABLE tables ADD COLUMN level TEXT NOT NULL DEFAULT 'casual'
    CHECK (level IN ('casual', 'expert'));
ALTER TABLE tables ADD COLUMN hints SMALLINT NOT NULL DEFAULT 0 CHECK (hints IN (0, 1));
