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
