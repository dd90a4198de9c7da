-- 017_run_facts.sql -- a run's host is what the capture says (run.json
-- "host", or `ingest --host`), NULL when unknown; the machine that
-- ingested it is kept apart as ingested_on. A run of unknown host is told
-- apart from another source's run of the same label by uid (random,
-- copied by `merge`); a run made before this migration gets one from what
-- merge copies with it (the ingesting machine and created_at), so two
-- copies of it migrated apart keep one identity. And the facts the doctor
-- reads, one row per run, one column per fact with the file:line it came from (*_src); the
-- columns are store/store_runfacts.c's table, in its order.
ALTER TABLE runs ADD COLUMN ingested_on TEXT;  -- machine that ingested it (NULL: not known)
ALTER TABLE runs ADD COLUMN uid TEXT;          -- identity of the run where host is NULL
UPDATE runs SET ingested_on = (SELECT host FROM files f WHERE f.run = runs.id
                               AND f.host IS NOT NULL ORDER BY f.id LIMIT 1);
-- a merge before this migration wrote the ingesting machine as the host of
-- a run whose run.json named none: unknown again
UPDATE runs SET host = NULL
 WHERE host IS NOT NULL AND host IS ingested_on
   AND (meta IS NULL OR NOT json_valid(meta) OR json_type(meta, '$.host') IS NOT 'text');
UPDATE runs SET uid = coalesce(ingested_on, '') || '@' || created_at;
CREATE TABLE run_facts (
    run INTEGER PRIMARY KEY REFERENCES runs(id),
    server_kind TEXT, server_kind_src TEXT,           -- redis / valkey
    server_version TEXT, server_version_src TEXT,
    role TEXT, role_src TEXT,                         -- INFO role: master / slave
    kernel_release TEXT, kernel_release_src TEXT,     -- from INFO os
    thp_enabled TEXT, thp_enabled_src TEXT,           -- always / madvise / never
    thp_defrag TEXT, thp_defrag_src TEXT,
    anon_huge_bytes INTEGER, anon_huge_bytes_src TEXT, -- server's AnonHugePages at the first window's start
    used_memory INTEGER, used_memory_src TEXT,        -- bytes
    maxmemory INTEGER, maxmemory_src TEXT,            -- bytes, 0: no limit
    keys INTEGER, keys_src TEXT,                      -- keys of the largest db
    vm_overcommit_memory INTEGER, vm_overcommit_memory_src TEXT,
    vm_swappiness INTEGER, vm_swappiness_src TEXT,
    repl_diskless_sync TEXT, repl_diskless_sync_src TEXT, -- yes / no
    save_rules TEXT, save_rules_src TEXT,             -- CONFIG save, as written
    appendonly TEXT, appendonly_src TEXT,             -- yes / no
    latest_fork_usec INTEGER, latest_fork_usec_src TEXT,
    cow_bytes INTEGER, cow_bytes_src TEXT,            -- copy-on-write of the last save
    persistence TEXT, persistence_src TEXT,           -- fork / forkless
    stored_at INTEGER NOT NULL                        -- UTC epoch microseconds
);
