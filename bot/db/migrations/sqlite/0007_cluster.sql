-- Several processes on one database (issue 17): a table whose shown state lags is re-published
-- by one process at a time. republish_by is the process that claimed it (a random token per
-- service), republish_until when its claim lapses if it never finishes (NULL: unclaimed).
ALTER TABLE tables ADD COLUMN republish_by    TEXT;
ALTER TABLE tables ADD COLUMN republish_until REAL;
