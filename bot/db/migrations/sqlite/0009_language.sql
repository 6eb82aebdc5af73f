-- Languages (issue 19). tables.language: the public table's language, chosen when it opens.
-- seats.language: the language of the client a player joined from (their DMs' language
-- unless they chose one). guild_settings.language: the server's default for new tables (NULL:
-- the server's Discord language). user_settings.language: a player's own choice for their DMs
-- (NULL: as they joined).
ALTER TABLE tables ADD COLUMN language TEXT NOT NULL DEFAULT 'en'
    CHECK (language IN ('en', 'fr', 'it'));
ALTER TABLE seats ADD COLUMN language TEXT CHECK (language IS NULL OR language IN ('en', 'fr', 'it'));
ALTER TABLE guild_settings ADD COLUMN language TEXT
    CHECK (language IS NULL OR language IN ('en', 'fr', 'it'));
ALTER TABLE user_settings ADD COLUMN language TEXT
    CHECK (language IS NULL OR language IN ('en', 'fr', 'it'));
