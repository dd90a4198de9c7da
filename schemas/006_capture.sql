-- 006_capture.sql -- how each server log's clock was settled: its zone
-- given (--log-tz, run.json log_tz), inferred from a pair of a UTC source
-- and a log line naming the same instant, assumed UTC, or found not to
-- match the samples (then the run is not analysed until a zone is given).
CREATE TABLE clocks (
    run      INTEGER NOT NULL,
    file     INTEGER NOT NULL,          -- files(id) of the log
    decided  TEXT NOT NULL,             -- given, inferred, assumed, mismatch
    off_s    INTEGER,                   -- local time minus UTC, seconds
    evidence TEXT,                      -- which pair decided, with file:line
    PRIMARY KEY (run, file)
);
