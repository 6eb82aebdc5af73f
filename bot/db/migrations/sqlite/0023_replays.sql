-- "Try another way" (issue 33): a finished deal replayed privately, in its player's DMs, from
-- one of their own decisions, with the same cards, against the expert; unrated. The replay is
-- an ordinary table whose channel is the player's DM channel, and these name the deal it
-- replays (the table and the deal's number); NULL for every other table.
ALTER TABLE tables ADD COLUMN replay_of INTEGER;
ALTER TABLE tables ADD COLUMN replay_deal INTEGER;
