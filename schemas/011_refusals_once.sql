-- 011_refusals_once.sql -- a file refused whole is recorded once: ingesting
-- the same tree again used to add a second row for every refused file
-- ("2 files of this run were refused" for one). The latest refusal of a
-- file (run label and path) stands; re-ingest replaces it. Files no parser
-- recognised are recorded here too (code 'unrecognised'), so that `rejects`
-- and the report can name them; they are not refusals for the doctor.
DELETE FROM refusals WHERE rowid NOT IN
    (SELECT max(rowid) FROM refusals GROUP BY label, path);
CREATE UNIQUE INDEX refusals_file ON refusals(label, path);
