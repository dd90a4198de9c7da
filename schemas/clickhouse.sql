-- clickhouse.sql -- the tables `cowtail export --clickhouse URL` fills, for
-- ClickHouse 18.16 and later. The exporter runs these statements itself in
-- the database `cowtail` (CREATE ... IF NOT EXISTS); to create them by hand:
--     clickhouse-client --database cowtail --multiquery < schemas/clickhouse.sql
-- `cowtail export --jsonl DIR` writes the same columns, one file per table.
--
-- Every row starts with the run key (host, run) and export_version, the
-- exporting machine's clock in microseconds. Re-exporting a run inserts
-- its rows with a new version, then deletes the older versions of that
-- run (ALTER TABLE ... DELETE, a mutation: asynchronous, applied to the
-- parts that existed when it was issued). A version is complete when its
-- row is in table exports, sent after every other table landed: an export
-- interrupted half-way leaves its rows unmarked (and the older version in
-- place). Until a mutation has finished a query can see two versions, or
-- an unmarked one; the exact form keeps the newest complete one:
--     WHERE (host, run, export_version) IN
--           (SELECT host, run, max(export_version) FROM exports GROUP BY host, run)
-- Times are UTC epoch microseconds, latencies microseconds. Quantiles are
-- cowtail's (type 7, with distribution-free intervals), computed before
-- export; ClickHouse's quantileExact is another definition (see README).

CREATE TABLE IF NOT EXISTS runs (
    host String, run String, export_version UInt64,
    scenario Nullable(String), mode Nullable(String), trial Nullable(Int64),
    path Nullable(String), files Int64, samples Int64,
    t_first_us Nullable(Int64), t_last_us Nullable(Int64),
    seed Nullable(Int64), resamples Nullable(Int64), method Nullable(String),
    ingested_on Nullable(String),   -- the machine that ingested it (not its host)
    uid Nullable(String)            -- tells apart runs of unknown host ('') and one label
) ENGINE = MergeTree() ORDER BY (host, run);
-- ingested_on and uid came with cowtail's migration 017; a runs table made
-- before gains them by hand (18.16 has no ADD COLUMN IF NOT EXISTS):
--     ALTER TABLE cowtail.runs ADD COLUMN ingested_on Nullable(String),
--                              ADD COLUMN uid Nullable(String)

-- The facts of a run the doctor reads, one column each with the file:line
-- it came from (NAME_src), NULL when the captures do not say; the columns
-- of store/store_runfacts.c's table, whose comments give the units.
-- host '' is unknown: such runs are no host's.
CREATE TABLE IF NOT EXISTS run_facts (
    host String, run String, export_version UInt64,
    server_kind Nullable(String), server_kind_src Nullable(String),
    server_version Nullable(String), server_version_src Nullable(String),
    role Nullable(String), role_src Nullable(String),
    kernel_release Nullable(String), kernel_release_src Nullable(String),
    thp_enabled Nullable(String), thp_enabled_src Nullable(String),
    thp_defrag Nullable(String), thp_defrag_src Nullable(String),
    anon_huge_bytes Nullable(Int64), anon_huge_bytes_src Nullable(String),
    used_memory Nullable(Int64), used_memory_src Nullable(String),
    maxmemory Nullable(Int64), maxmemory_src Nullable(String),
    keys Nullable(Int64), keys_src Nullable(String),
    vm_overcommit_memory Nullable(Int64), vm_overcommit_memory_src Nullable(String),
    vm_swappiness Nullable(Int64), vm_swappiness_src Nullable(String),
    repl_diskless_sync Nullable(String), repl_diskless_sync_src Nullable(String),
    save_rules Nullable(String), save_rules_src Nullable(String),
    appendonly Nullable(String), appendonly_src Nullable(String),
    latest_fork_usec Nullable(Int64), latest_fork_usec_src Nullable(String),
    cow_bytes Nullable(Int64), cow_bytes_src Nullable(String),
    persistence Nullable(String), persistence_src Nullable(String),
    stored_at Int64                 -- UTC epoch microseconds
) ENGINE = MergeTree() ORDER BY (host, run);

-- A server's own facts, one row per server of a run (server: servers.seq;
-- a primary and its replicas), each read from that server's files: the
-- columns of run_facts that store/store_runfacts.c's table marks as a
-- server's. The host's (kernel, THP, sysctl) are in run_facts.
CREATE TABLE IF NOT EXISTS server_facts (
    host String, run String, export_version UInt64, server Int64,
    server_kind Nullable(String), server_kind_src Nullable(String),
    server_version Nullable(String), server_version_src Nullable(String),
    role Nullable(String), role_src Nullable(String),
    anon_huge_bytes Nullable(Int64), anon_huge_bytes_src Nullable(String),
    used_memory Nullable(Int64), used_memory_src Nullable(String),
    maxmemory Nullable(Int64), maxmemory_src Nullable(String),
    keys Nullable(Int64), keys_src Nullable(String),
    repl_diskless_sync Nullable(String), repl_diskless_sync_src Nullable(String),
    save_rules Nullable(String), save_rules_src Nullable(String),
    appendonly Nullable(String), appendonly_src Nullable(String),
    latest_fork_usec Nullable(Int64), latest_fork_usec_src Nullable(String),
    cow_bytes Nullable(Int64), cow_bytes_src Nullable(String),
    stored_at Int64                 -- UTC epoch microseconds
) ENGINE = MergeTree() ORDER BY (host, run, server);

-- The servers of a run (a primary and its replicas), as ingest told them
-- apart; how: what identified it (INFO, log pid, CONFIG port, name).
CREATE TABLE IF NOT EXISTS servers (
    host String, run String, export_version UInt64,
    seq Int64, role String, pid Nullable(Int64), port Nullable(Int64),
    version Nullable(String), run_id Nullable(String), how String, files Int64
) ENGINE = MergeTree() ORDER BY (host, run, seq);

CREATE TABLE IF NOT EXISTS phases (
    host String, run String, export_version UInt64,
    idx Int64, kind String, label String, t0_us Int64, t1_us Int64,
    fork_us Nullable(Int64), child_pid Nullable(Int64), source Nullable(String),
    overlap UInt8, open UInt8, failed UInt8, n Int64,
    mean_us Nullable(Float64), min_us Nullable(Float64), max_us Nullable(Float64),
    grid_us Nullable(Float64)
) ENGINE = MergeTree() ORDER BY (host, run, t0_us, idx);

CREATE TABLE IF NOT EXISTS quantiles (
    host String, run String, export_version UInt64,
    phase Int64, phase_kind String, phase_label String, q Float64,
    value_us Nullable(Float64), lo_us Nullable(Float64), hi_us Nullable(Float64),
    n_needed Nullable(Int64), thin UInt8, n_eff Nullable(Float64)
) ENGINE = MergeTree() ORDER BY (host, run, phase, q);

CREATE TABLE IF NOT EXISTS deltas (
    host String, run String, export_version UInt64,
    phase Int64, phase_kind String, phase_label String, base Int64, q Float64,
    base_us Nullable(Float64), value_us Nullable(Float64), delta_us Nullable(Float64),
    lo_us Nullable(Float64), hi_us Nullable(Float64), ratio Nullable(Float64),
    ratio_lo Nullable(Float64), ratio_hi Nullable(Float64), verdict String, thin UInt8,
    n_eff_base Nullable(Float64), n_eff_phase Nullable(Float64),
    method Nullable(String),                  -- bootstrap / tail-test
    p_up Nullable(Float64), p_down Nullable(Float64), test_level Nullable(Float64)
) ENGINE = MergeTree() ORDER BY (host, run, phase, q);

CREATE TABLE IF NOT EXISTS exceedance (
    host String, run String, export_version UInt64,
    phase Int64, phase_kind String, phase_label String, base_q Float64,
    threshold_us Float64, n Int64, count Int64,
    p Nullable(Float64), lo Nullable(Float64), hi Nullable(Float64),
    clusters Nullable(Int64), p_more Nullable(Float64)
) ENGINE = MergeTree() ORDER BY (host, run, phase, base_q);

CREATE TABLE IF NOT EXISTS findings (
    host String, run String, export_version UInt64,
    seq Int64, rule String, severity String, title String,
    evidence String, recommendation String
) ENGINE = MergeTree() ORDER BY (host, run, seq);

-- what `cowtail check` decided (checks table of the SQLite database): one
-- row per run and limit (scope 'run'), and per host with several runs,
-- judged on their pooled windows (scope 'host', run '').
CREATE TABLE IF NOT EXISTS checks (
    host String, run String, export_version UInt64,
    scope String, limit_name String, limit_value Float64,
    value Nullable(Float64), p Nullable(Float64), p_adjusted Nullable(Float64),
    verdict String, method Nullable(String), correction String, comparisons Int64,
    detail String, runs Int64, evaluated_at Int64   -- UTC epoch microseconds
) ENGINE = MergeTree() ORDER BY (host, run, limit_name);

-- The windows of a run (fork, save, rewrite, sync) as analyze and check
-- make them, stored when the run's files landed: a run only checked (no
-- analyze or report, so no phases rows) has them. idx as in phases.
CREATE TABLE IF NOT EXISTS windows (
    host String, run String, export_version UInt64,
    idx Int64, kind String, label String, t0_us Int64, t1_us Int64,
    fork_us Nullable(Int64), child_pid Nullable(Int64), source Nullable(String),
    overlap UInt8, open UInt8, failed UInt8
) ENGINE = MergeTree() ORDER BY (host, run, t0_us, idx);

-- The answer of each run as the last `doctor` or `report` decided it
-- (app/answer.c): the window that moved the tail most, the p99.9 verdict
-- with its estimate and bounds, the cause, the gate, what to do; line: as
-- doctor prints it; say 0: nothing to say (quiet: flat, unsure, no-window,
-- no-samples).
CREATE TABLE IF NOT EXISTS answers (
    host String, run String, export_version UInt64,
    say UInt8, quiet Nullable(String), line String,
    window_label Nullable(String), kind Nullable(String),
    t0_us Nullable(Int64), len_us Nullable(Int64), nwindows Int64,
    verdict Nullable(String), method Nullable(String),
    base_p999_us Nullable(Float64), window_p999_us Nullable(Float64),
    delta_us Nullable(Float64), delta_lo_us Nullable(Float64), delta_hi_us Nullable(Float64),
    worst_us Nullable(Float64), fork_ms Nullable(Float64), cow_mb Nullable(Float64),
    cow_pct_used Nullable(Float64), thp Nullable(String), transfer Nullable(String),
    cause Nullable(String), gate Nullable(String), gate_why Nullable(String),
    todo Nullable(String), todo_rule Nullable(String),
    decided_at Int64                          -- UTC epoch microseconds
) ENGINE = MergeTree() ORDER BY (host, run);

-- Each replica's sync attempts, step by step from its own log (server:
-- servers.seq); step times UTC epoch us (NULL: not seen), durations s.
CREATE TABLE IF NOT EXISTS repl_syncs (
    host String, run String, export_version UInt64,
    server Int64, attempt Int64, pid Nullable(Int64), port Nullable(Int64),
    attach_line Nullable(Int64), mode Nullable(String), outcome String,
    attach_us Nullable(Int64), resync_us Nullable(Int64), recv_us Nullable(Int64),
    recv_end_us Nullable(Int64), flush_us Nullable(Int64), load_us Nullable(Int64),
    up_us Nullable(Int64), lost_us Nullable(Int64), bytes Nullable(Float64),
    attach_to_up_s Nullable(Float64), wait_s Nullable(Float64),
    transfer_s Nullable(Float64), flush_s Nullable(Float64), load_s Nullable(Float64)
) ENGINE = MergeTree() ORDER BY (host, run, server, attempt);

-- The inputs that did not land whole: kind refused (code: parse, unit,
-- clock, limit, ...) or unrecognised (not read), or rejected (landed, with
-- `rejected` lines rejected of `rows` records, the first at `line`).
-- run: the run label, which a refused file's run may not have in runs
-- (such a label has no row in exports; a re-export replaces its rows too).
CREATE TABLE IF NOT EXISTS inputs (
    host String, run String, export_version UInt64,
    path String, kind String, code Nullable(String), reason Nullable(String),
    line Nullable(Int64), rejected Int64, rows Int64
) ENGINE = MergeTree() ORDER BY (host, run, path);

-- only with --samples
CREATE TABLE IF NOT EXISTS samples (
    host String, run String, export_version UInt64,
    t_us Int64, lat_us Float64, op Nullable(String), file String, seq Int64
) ENGINE = MergeTree() ORDER BY (host, run, t_us);

-- The mark: one row per run when a version is complete (every table
-- above landed); tables: the ones sent, comma-separated ("samples" among
-- them only with --samples). Read the version to use from here.
CREATE TABLE IF NOT EXISTS exports (
    host String, run String, export_version UInt64, tables String
) ENGINE = MergeTree() ORDER BY (host, run);
