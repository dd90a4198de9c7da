-- 001_init.sql -- cowtail's first schema. Applied once; PRAGMA user_version
-- records the last migration applied. Times are UTC epoch microseconds.

-- A run is one capture folder (one experiment or one incident).
CREATE TABLE runs (
    id        INTEGER PRIMARY KEY,
    label     TEXT NOT NULL UNIQUE,   -- relative path or run.json "label"
    path      TEXT,                   -- folder as given on the command line
    scenario  TEXT,                   -- run.json "scenario"
    mode      TEXT,                   -- run.json "mode": fork / forkless
    host      TEXT,                   -- run.json "host"
    trial     INTEGER,                -- run.json "trial"
    meta      TEXT,                   -- the whole run.json, verbatim
    created_at INTEGER NOT NULL
);

-- Every file ingested, with what was made of it.
CREATE TABLE files (
    id        INTEGER PRIMARY KEY,
    run       INTEGER NOT NULL REFERENCES runs(id),
    path      TEXT NOT NULL,
    size      INTEGER NOT NULL,
    sha256    TEXT NOT NULL,
    parser    TEXT NOT NULL,
    rows      INTEGER NOT NULL DEFAULT 0,  -- records that landed
    rejected  INTEGER NOT NULL DEFAULT 0,  -- lines rejected (see rejects)
    notes     TEXT,                        -- what the parser recognised
    ingested_at INTEGER NOT NULL,
    UNIQUE (run, sha256)
);

-- Per-request latency samples: the main input.
CREATE TABLE ops (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
-- Clustered on (run, t_us): the analysis reads a run's samples in time
-- order, and one B-tree is cheaper to fill than a table plus an index.
-- seq is the sample's ordinal within its file, so the key is unique.
CREATE TABLE samples (
    run    INTEGER NOT NULL,
    t_us   INTEGER NOT NULL,
    file   INTEGER NOT NULL,            -- files(id): the source
    seq    INTEGER NOT NULL,
    lat_us REAL NOT NULL,
    op     INTEGER,                     -- ops(id) or NULL
    PRIMARY KEY (run, t_us, file, seq)
) WITHOUT ROWID;

-- Lines that could not be used, and why.
CREATE TABLE rejects (
    file   INTEGER NOT NULL REFERENCES files(id),
    line   INTEGER NOT NULL,
    reason TEXT NOT NULL,
    excerpt TEXT
);
CREATE INDEX rejects_file ON rejects(file);

-- Server and harness events (log lines, marks).
CREATE TABLE events (
    run   INTEGER NOT NULL,
    file  INTEGER NOT NULL,
    line  INTEGER,
    t_us  INTEGER NOT NULL,
    kind  TEXT NOT NULL,
    pid   INTEGER,
    value REAL,
    unit  TEXT,
    text  TEXT
);
CREATE INDEX events_run_t ON events(run, t_us);

-- INFO fields, one row per field (or sub-field) per dump.
CREATE TABLE info (
    run     INTEGER NOT NULL,
    file    INTEGER NOT NULL,
    line    INTEGER,
    dump    INTEGER NOT NULL,
    t_us    INTEGER,
    section TEXT,
    key     TEXT NOT NULL,
    sub     TEXT,
    text    TEXT,
    num     REAL
);
CREATE INDEX info_run_key ON info(run, key, t_us);

-- Kernel-side values: smaps, meminfo, vmstat, cgroup, THP, sysctl.
CREATE TABLE stats (
    run    INTEGER NOT NULL,
    file   INTEGER NOT NULL,
    line   INTEGER,
    t_us   INTEGER,
    source TEXT NOT NULL,
    key    TEXT NOT NULL,
    text   TEXT,
    num    REAL,
    unit   TEXT
);
CREATE INDEX stats_run_key ON stats(run, source, key);

-- Memory time series.
CREATE TABLE mem (
    run   INTEGER NOT NULL,
    file  INTEGER NOT NULL,
    t_us  INTEGER NOT NULL,
    bytes REAL NOT NULL,
    what  TEXT
);
CREATE INDEX mem_run_t ON mem(run, t_us);

-- The built-in latency monitor: LATENCY LATEST / HISTORY / DOCTOR.
CREATE TABLE latmon (
    run    INTEGER NOT NULL,
    file   INTEGER NOT NULL,
    line   INTEGER,
    t_us   INTEGER,
    kind   TEXT NOT NULL,
    event  TEXT,
    lat_ms REAL,
    max_ms REAL,
    text   TEXT,
    none_observed INTEGER NOT NULL DEFAULT 0
);

-- Per-interval latency summaries (redis-cli --latency-history and similar).
CREATE TABLE intervals (
    run    INTEGER NOT NULL,
    file   INTEGER NOT NULL,
    line   INTEGER,
    t_us   INTEGER,
    dur_s  REAL,
    min_us REAL,
    max_us REAL,
    avg_us REAL,
    count  INTEGER,
    op     TEXT
);

-- Percentile-only sources (memtier, redis-benchmark, HdrHistogram): can be
-- compared and charted, never bootstrapped.
CREATE TABLE pctl (
    run    INTEGER NOT NULL,
    file   INTEGER NOT NULL,
    line   INTEGER,
    source TEXT NOT NULL,
    op     TEXT,
    t_us   INTEGER,
    q      REAL NOT NULL,
    value_us REAL NOT NULL,
    count  INTEGER
);
