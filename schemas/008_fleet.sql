-- 008_fleet.sql -- where each file came from, for databases combined with
-- `cowtail merge`. A file's identity stays (run label, name, SHA-256).
ALTER TABLE files ADD COLUMN host TEXT;     -- machine that ingested it (NULL: before 008)
ALTER TABLE files ADD COLUMN origin TEXT;   -- database it was merged from (NULL: ingested here)
-- 1: merged with --results-only, its samples were left behind; a later
-- full merge of the same file brings them and sets 0.
ALTER TABLE files ADD COLUMN partial INTEGER NOT NULL DEFAULT 0;
