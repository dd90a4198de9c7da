-- 002_analysis.sql -- results of `cowtail analyze`, replaced per run each
-- time the run is analysed. Latencies in microseconds.

-- How each run was last analysed.
CREATE TABLE analyses (
    run       INTEGER PRIMARY KEY REFERENCES runs(id),
    seed      INTEGER NOT NULL,
    resamples INTEGER NOT NULL,
    method    TEXT NOT NULL,            -- quantile definition: linear / nearest
    created_at INTEGER NOT NULL
);

-- Windows: baseline, bgsave#1, sync-disk#1, aof-rewrite#1, between, after.
CREATE TABLE phases (
    run      INTEGER NOT NULL,
    idx      INTEGER NOT NULL,          -- order in the run
    kind     TEXT NOT NULL,
    label    TEXT NOT NULL,
    t0_us    INTEGER NOT NULL,          -- start, inclusive
    t1_us    INTEGER NOT NULL,          -- end, exclusive
    fork_us  INTEGER,                   -- child start (fork instant)
    child_pid INTEGER,
    source   TEXT,                      -- log / info / derived
    overlap  INTEGER NOT NULL DEFAULT 0,
    open     INTEGER NOT NULL DEFAULT 0, -- no end seen: cut at capture end
    failed   INTEGER NOT NULL DEFAULT 0,
    n        INTEGER NOT NULL,          -- samples in the window
    mean_us  REAL,
    min_us   REAL,
    max_us   REAL,
    grid_us  REAL,                      -- quantisation step (0: none)
    PRIMARY KEY (run, idx)
);

-- One quantile of one phase, with its distribution-free 95% interval.
CREATE TABLE quantiles (
    run     INTEGER NOT NULL,
    phase   INTEGER NOT NULL,           -- phases.idx
    q       REAL NOT NULL,              -- 0.5, 0.9, 0.99, 0.999, 0.9999
    value_us REAL,                      -- estimate (NULL when n = 0)
    lo_us   REAL,                       -- NULL: no finite lower bound
    hi_us   REAL,                       -- NULL: no finite upper bound
    n_needed INTEGER,                   -- n giving both bounds at this q
    thin    INTEGER NOT NULL,           -- fewer than 10 samples expected beyond
    PRIMARY KEY (run, phase, q)
);

-- A phase against the run's baseline at one quantile (bootstrap).
CREATE TABLE deltas (
    run      INTEGER NOT NULL,
    phase    INTEGER NOT NULL,
    base     INTEGER NOT NULL,          -- phases.idx of the baseline
    q        REAL NOT NULL,
    base_us  REAL,
    value_us REAL,
    delta_us REAL,
    lo_us    REAL,
    hi_us    REAL,
    ratio    REAL,
    ratio_lo REAL,
    ratio_hi REAL,
    verdict  TEXT NOT NULL,             -- lift / flat / drop / n/a
    thin     INTEGER NOT NULL,
    PRIMARY KEY (run, phase, q)
);

-- Samples of a phase beyond the baseline's p99 / p99.9, with an exact
-- binomial (Clopper-Pearson) 95% interval of the proportion.
CREATE TABLE exceed (
    run      INTEGER NOT NULL,
    phase    INTEGER NOT NULL,
    base_q   REAL NOT NULL,             -- 0.99 or 0.999
    threshold_us REAL NOT NULL,
    n        INTEGER NOT NULL,
    count    INTEGER NOT NULL,
    p        REAL,
    lo       REAL,
    hi       REAL,
    PRIMARY KEY (run, phase, base_q)
);
