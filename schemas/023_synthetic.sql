-- 023_synthetic.sql -- a run whose run.json says "synthetic": true was
-- made by a generator, not captured from a server: the report marks it
-- wherever the run is named, so a sample is never read as an incident.
-- Runs ingested before this migration read it from the run.json kept in
-- meta.
ALTER TABLE runs ADD COLUMN synthetic INTEGER NOT NULL DEFAULT 0; -- 1: run.json "synthetic": true
UPDATE runs SET synthetic = 1
 WHERE meta IS NOT NULL AND json_valid(meta) AND json_type(meta, '$.synthetic') = 'true';
