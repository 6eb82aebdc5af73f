"""Discord plumbing of table delivery: acknowledging interactions first, publishing tables
and hands durably, and noticing failures."""
