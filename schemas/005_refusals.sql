-- 005_refusals.sql -- files refused whole at ingest (clock problems,
-- unknown units, too many bad lines): nothing of them landed, but the
-- doctor must be able to say so. Written after the file's rollback.
CREATE TABLE refusals (
    run     INTEGER,                    -- runs(id) when the run exists
    label   TEXT NOT NULL,              -- run label (the run may not exist)
    path    TEXT NOT NULL,
    line    INTEGER,
    parser  TEXT,
    code    TEXT NOT NULL,              -- parse, unit, clock, limit, ...
    reason  TEXT NOT NULL,
    at      INTEGER NOT NULL
);
CREATE INDEX refusals_label ON refusals(label);
