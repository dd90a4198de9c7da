-- 010_checks.sql -- what `cowtail check` decided, one row per run (or host)
-- and limit of the thresholds file. Each `check` judges every run of the
-- database and replaces every row, in one transaction; `merge` brings the
-- rows of runs (and hosts) that have none in the database merged into.
CREATE TABLE checks (
    run         INTEGER REFERENCES runs(id), -- NULL for a host's pooled judgement
    host        TEXT,             -- run.json host (NULL: unknown); the host judged
    scope       TEXT NOT NULL,    -- run / host
    limit_name  TEXT NOT NULL,    -- key of the thresholds file, e.g. max_p999_lift_ms
    limit_value REAL NOT NULL,    -- the limit (require_thp_off: 0/1)
    value       REAL,             -- measured (ms, fraction, bytes, samples); NULL unknown
    p           REAL,             -- one-sided p of "over the limit"; NULL: no test
    p_adjusted  REAL,             -- after the correction over the family
    verdict     TEXT NOT NULL,    -- pass / fail / n/a
    method      TEXT,             -- bootstrap / tail-test / binomial / reported
    correction  TEXT NOT NULL,    -- holm / bh
    comparisons INTEGER NOT NULL, -- size of the family the correction ran over
    detail      TEXT NOT NULL,
    runs        INTEGER NOT NULL, -- runs behind the judgement (1 for a run)
    evaluated_at INTEGER NOT NULL -- UTC epoch microseconds of the check
);
CREATE INDEX checks_by_run ON checks(run);
