-- 021_stalls.sql -- what an open-loop probe says of the periods it could
-- not measure as samples (`cowtail capture`: stalls.csv, probe-gaps.csv).
-- A stall is a period in which the server answered nothing while probe
-- requests waited; a gap is slots the probe did not send (its own lateness,
-- a full send buffer, or the cap of waiting requests).
CREATE TABLE quiet (
    run    INTEGER NOT NULL REFERENCES runs(id),
    file   INTEGER NOT NULL REFERENCES files(id),
    line   INTEGER NOT NULL,
    kind   TEXT NOT NULL,               -- 'stall' or 'gap'
    t_us   INTEGER NOT NULL,            -- start, epoch us
    dur_us INTEGER NOT NULL,            -- length
    n      INTEGER NOT NULL,            -- stall: requests waiting; gap: slots
    how    TEXT                         -- stall: reply / end; gap: late / buffer / cap
);
CREATE INDEX quiet_run ON quiet(run, kind, t_us);
