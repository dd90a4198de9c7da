-- 020_server_facts.sql -- a server's own facts, one row per server of a run
-- (a primary and its replicas, servers.seq), read from that server's files:
-- the columns of run_facts that store/store_runfacts.c's table marks as a
-- server's, in its order. Host facts (kernel, THP, sysctl) and the run's
-- persistence stay in run_facts. Stored when a run's files have landed,
-- refreshed by the doctor.
CREATE TABLE server_facts (
    run INTEGER NOT NULL REFERENCES runs(id),
    server INTEGER NOT NULL,                          -- servers(seq) of the run
    server_kind TEXT, server_kind_src TEXT,           -- redis / valkey
    server_version TEXT, server_version_src TEXT,
    role TEXT, role_src TEXT,                         -- INFO role: master / slave
    anon_huge_bytes INTEGER, anon_huge_bytes_src TEXT, -- AnonHugePages at the run's first window's start
    used_memory INTEGER, used_memory_src TEXT,        -- bytes
    maxmemory INTEGER, maxmemory_src TEXT,            -- bytes, 0: no limit
    keys INTEGER, keys_src TEXT,                      -- keys of the largest db
    repl_diskless_sync TEXT, repl_diskless_sync_src TEXT, -- yes / no
    save_rules TEXT, save_rules_src TEXT,             -- CONFIG save, as written
    appendonly TEXT, appendonly_src TEXT,             -- yes / no
    latest_fork_usec INTEGER, latest_fork_usec_src TEXT,
    cow_bytes INTEGER, cow_bytes_src TEXT,            -- copy-on-write of the last save
    stored_at INTEGER NOT NULL,                       -- UTC epoch microseconds
    PRIMARY KEY (run, server)
);

-- The answer of a run (app/answer.c decides it once: doctor, summary.md,
-- index.html and the workbook read it), as the last `doctor` or `report`
-- decided it: the window that moved the tail most, the p99.9 verdict with
-- its estimate and bounds, the cause the evidence supports, the gate
-- (report --thresholds) and what to do; line: the answer as doctor prints it.
CREATE TABLE answers (
    run INTEGER PRIMARY KEY REFERENCES runs(id),
    say INTEGER NOT NULL,            -- 1: listed; 0: nothing to say (quiet says why)
    quiet TEXT,                      -- flat / unsure / no-window / no-samples, NULL when listed
    line TEXT NOT NULL,
    window_label TEXT, kind TEXT,    -- the window, "bgsave#1", and its phase kind
    t0_us INTEGER, len_us INTEGER,   -- its start (UTC epoch us) and length
    nwindows INTEGER NOT NULL,       -- fork/save/sync windows of the run
    verdict TEXT,                    -- lift / drop / flat / unsure / n/a (p99.9)
    method TEXT,                     -- bootstrap / tail-test
    base_p999_us REAL, window_p999_us REAL,
    delta_us REAL, delta_lo_us REAL, delta_hi_us REAL,
    worst_us REAL,                   -- worst sample in the window
    fork_ms REAL, cow_mb REAL, cow_pct_used REAL,
    thp TEXT,                        -- unknown / not-backing / backing / off
    transfer TEXT,                   -- disk / diskless (a full sync's window)
    cause TEXT,
    gate TEXT,                       -- pass / fail, NULL without limits
    gate_why TEXT,
    todo TEXT, todo_rule TEXT,
    decided_at INTEGER NOT NULL      -- UTC epoch microseconds
);

-- Each replica's sync attempts, step by step from its own log (app/replsync.c):
-- times UTC epoch us, NULL for a step not seen; durations in seconds.
CREATE TABLE repl_syncs (
    run INTEGER NOT NULL REFERENCES runs(id),
    server INTEGER NOT NULL,         -- servers(seq) of the replica
    attempt INTEGER NOT NULL,        -- 1, 2, ... in time order
    pid INTEGER, port INTEGER,
    attach_line INTEGER,             -- log line of the attach
    mode TEXT,                       -- full / partial, NULL unknown
    outcome TEXT NOT NULL,           -- up / lost / open
    attach_us INTEGER, resync_us INTEGER, recv_us INTEGER, recv_end_us INTEGER,
    flush_us INTEGER, load_us INTEGER, up_us INTEGER, lost_us INTEGER,
    bytes REAL,                      -- as the primary announced, NULL if not said
    attach_to_up_s REAL, wait_s REAL, transfer_s REAL, flush_s REAL, load_s REAL,
    PRIMARY KEY (run, server, attempt)
);

-- The windows of a run (fork, save, rewrite and sync phases) as analyze and
-- check make them from the events, INFO polls and the samples' span:
-- stored when a run's files have landed (so a run that was only checked
-- has them), refreshed by the doctor. idx: the phase's index among all
-- the run's phases (baseline 0), as in phases once analysed.
CREATE TABLE windows (
    run INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL, label TEXT NOT NULL,
    t0_us INTEGER NOT NULL, t1_us INTEGER NOT NULL,
    fork_us INTEGER, child_pid INTEGER, source TEXT,
    overlap INTEGER NOT NULL, open INTEGER NOT NULL, failed INTEGER NOT NULL,
    PRIMARY KEY (run, idx)
);
