-- Luck caught up (issue 33): the sweeper looks for the deals of the last days whose luck and
-- skill a restart lost (``bot.db.luck.lost``), by the time they finished, every few minutes:
-- without this index, each look reads every deal ever played.
CREATE INDEX deal_results_finished ON deal_results (finished_at);
