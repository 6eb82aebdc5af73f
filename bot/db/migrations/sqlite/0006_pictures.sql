-- Pictures of tables and hands (issue 16): a server default, and each player's own choice.
ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1));
-- NULL: follow the server's default.
ALTER TABLE user_settings ADD COLUMN pictures INTEGER CHECK (pictures IS NULL OR pictures IN (0, 1));
