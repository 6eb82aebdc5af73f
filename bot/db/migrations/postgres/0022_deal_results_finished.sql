-- Luck caught up (issue 33), as SQLite's 0028_deal_results_finished.sql (see it for why).
CREATE INDEX deal_results_finished ON deal_results (finished_at);
