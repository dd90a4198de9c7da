/* store.c -- open, migrate, the prepared-statement table, transactions.
 * The only SQL in cowtail is in store/: ingest inserts (store_ingest.c),
 * analysis results and findings (store_results.c), facts for the doctor
 * (store_facts.c); store_int.h is what they share.
 *
 * Statements live in one enum-indexed table, prepared in store_open and
 * finalized in store_close; values are always bound. Samples go in with a
 * multi-row INSERT of STORE_ROWS rows per statement (one prepare, typed
 * binds): on these machines that is about twice as fast as one row per
 * statement, which is what the ingest benchmark (bench/) measures. */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "mem.h"
#include "schema_sql.h"
#include "store_int.h"

/* The doctor reads the primary's files (and the host's, which belong to no
 * server): a replica's INFO, config, log lines or smaps never stand for
 * the primary's. A run without a primary (a replica's capture alone) is
 * read whole. F: the row's file column; for events, P: its pid (a log two
 * servers wrote into is split per pid). */
#define SERVER_LINK(F)                                                         \
    "SELECT 1 FROM server_files sf_ JOIN servers sv_ ON sv_.run = sf_.run AND" \
    " sv_.seq = sf_.server WHERE sf_.file = " F
#define NO_SERVER_OR_PRIMARY(R, F)                                             \
    " AND (NOT EXISTS (SELECT 1 FROM server_files sf_ WHERE sf_.file = " F ")" \
    " OR NOT EXISTS (SELECT 1 FROM servers sv_ WHERE sv_.run = " R " AND"      \
    " sv_.role = 'primary') OR EXISTS (" SERVER_LINK(F) " AND sv_.role = 'primary'"
#define PRIMARY_SIDE(R, F) NO_SERVER_OR_PRIMARY(R, F) "))"
/* "path:line" of the run's first latency-monitor record where W holds */
#define LATMON_SRC(W)                                                                   \
    " (SELECT fx.path || ':' || lx.line FROM latmon lx JOIN files fx ON fx.id = lx.file" \
    " WHERE lx.run = ?1 AND " W PRIMARY_SIDE("?1", "lx.file")                          \
    " ORDER BY lx.file, lx.line LIMIT 1)"
#define PRIMARY_PID(R, F, P) \
    NO_SERVER_OR_PRIMARY(R, F) " AND sf_.pid IN (0, coalesce(" P ", 0))))"
/* Which server a config value came from, when the run has several:
 * "the primary on port 7301" (NULL otherwise). */
/* A fork child's file, by its own name (smaps_rollup-child-...) or the
 * child's own folder (child/, child-2365/), never a word further up the
 * path (a run folder named killed-children-run is no child's): 1 or 0.
 * BASE(p) is the last part of a path, DIR(p) what comes before it. */
#define PATH_DIR(P) "rtrim(" P ", replace(" P ", '/', ''))"
#define PATH_BASE(P) "substr(" P ", length(" PATH_DIR(P) ") + 1)"
#define CHILD_FILE(P)                                                             \
    "(" PATH_BASE(P) " LIKE '%child%' OR"                                         \
    " " PATH_BASE("rtrim(" PATH_DIR(P) ", '/')") " IN ('child', 'children') OR"  \
    " " PATH_BASE("rtrim(" PATH_DIR(P) ", '/')") " LIKE 'child-%' OR"             \
    " " PATH_BASE("rtrim(" PATH_DIR(P) ", '/')") " LIKE 'child\\_%' ESCAPE '\\')"
#define CONFIG_SERVER                                                          \
    ", CASE WHEN i.section = 'config' AND (SELECT count(*) FROM servers sv_"   \
    " WHERE sv_.run = i.run) > 1 THEN (SELECT 'the ' || sv_.role ||"           \
    " coalesce(' on port ' || sv_.port, '') FROM server_files sf_"             \
    " JOIN servers sv_ ON sv_.run = sf_.run AND sv_.seq = sf_.server"          \
    " WHERE sf_.file = i.file ORDER BY sv_.seq LIMIT 1) END"

static const char *const sql_text[SQL_COUNT] = {
    [SQL_RUN_FIND] = "SELECT id FROM runs WHERE label = ?1",
    [SQL_RUN_ADD] = "INSERT INTO runs(label, path, created_at, ingested_on, uid)"
        " VALUES(?1, ?2, ?3, ?4, lower(hex(randomblob(8))))",
    [SQL_RUN_META] =
        "UPDATE runs SET path = coalesce(?2, path), scenario = coalesce(?3, scenario),"
        " mode = coalesce(?4, mode), host = coalesce(?5, host),"
        " trial = coalesce(?6, trial), meta = coalesce(?7, meta),"
        " synthetic = coalesce(?8, synthetic) WHERE id = ?1",
    /* the same bytes under the same file name: a copy of the file already
     * loaded. Two different files that happen to hold the same bytes (two
     * empty LATENCY replies) are both kept. */
    [SQL_FILE_SEEN] =
        "SELECT 1 FROM files WHERE run = ?1 AND sha256 = ?2 AND (path = ?3 OR"
        " substr(path, -length(?3) - 1) = '/' || ?3)",
    [SQL_FILE_SIZE] = "SELECT 1 FROM files WHERE run = ?1 AND size = ?2",
    [SQL_FILE_ADD] =
        "INSERT INTO files(run, path, size, sha256, parser, ingested_at, host)"
        " VALUES(?1, ?2, ?3, '-' || ?1 || '-' || ?2, ?4, ?5, ?6)",
    [SQL_FILE_END] =
        "UPDATE files SET sha256 = ?2, rows = ?3, rejected = ?4, notes = ?5"
        " WHERE id = ?1",
    [SQL_OP_FIND] = "SELECT id FROM ops WHERE name = ?1",
    [SQL_OP_ADD] = "INSERT INTO ops(name) VALUES(?1)",
    [SQL_SAMPLE_1] =
        "INSERT INTO samples(run, t_us, file, seq, lat_us, op, alt_us)"
        " VALUES(?1,?3,?2,?4,?5,?6,?7)",
    [SQL_SAMPLE_N] = NULL, /* built in store_open: STORE_ROWS value tuples */
    [SQL_REJECT] = "INSERT INTO rejects(file, line, reason, excerpt) VALUES(?1,?2,?3,?4)",
    [SQL_EVENT] =
        "INSERT INTO events(run, file, line, t_us, kind, pid, value, unit, text)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    [SQL_INFO] =
        "INSERT INTO info(run, file, line, dump, t_us, section, key, sub, text, num)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
    [SQL_INFO_N] = NULL, /* built in store_open: STORE_INFO_ROWS value tuples */
    [SQL_STAT] =
        "INSERT INTO stats(run, file, line, t_us, source, key, text, num, unit)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    [SQL_MEM] = "INSERT INTO mem(run, file, t_us, bytes, what) VALUES(?1,?2,?3,?4,?5)",
    [SQL_LATMON] =
        "INSERT INTO latmon(run, file, line, t_us, kind, event, lat_ms, max_ms, text,"
        " none_observed) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
    [SQL_PROC] =
        "INSERT INTO procs(run, file, pid, roles, parent, replica, server, port, version,"
        " line) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
    [SQL_QUIET] =
        "INSERT INTO quiet(run, file, line, kind, t_us, dur_us, n, how)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8)",
    [SQL_LOAD_QUIET] =
        "SELECT kind, t_us, dur_us, n, how FROM quiet WHERE run = ?1"
        " ORDER BY t_us, kind",
    [SQL_INTERVAL] =
        "INSERT INTO intervals(run, file, line, t_us, dur_s, min_us, max_us, avg_us,"
        " count, op) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
    [SQL_PCTL] =
        "INSERT INTO pctl(run, file, line, source, op, t_us, q, value_us, count)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    [SQL_RUNS] =
        "SELECT r.id, r.label, r.scenario, r.mode, r.host, r.trial,"
        " (SELECT count(*) FROM files f WHERE f.run = r.id),"
        " (SELECT count(*) FROM samples s WHERE s.run = r.id),"
        " (SELECT coalesce(sum(rejected), 0) FROM files f WHERE f.run = r.id),"
        " (SELECT count(*) FROM events v WHERE v.run = r.id),"
        " (SELECT min(t_us) FROM samples s WHERE s.run = r.id),"
        " (SELECT max(t_us) FROM samples s WHERE s.run = r.id),"
        " (SELECT group_concat(label, ' ') FROM"
        "   (SELECT label FROM phases p WHERE p.run = r.id ORDER BY idx)),"
        " r.ingested_on, r.synthetic"
        " FROM runs r ORDER BY r.label",
    [SQL_LOAD_SAMPLES] =
        "SELECT t_us, lat_us FROM samples WHERE run = ?1 ORDER BY run, t_us",
    [SQL_LOAD_PCTL] =
        "SELECT p.source, f.path, p.line, p.op, p.q, p.value_us, p.count"
        " FROM pctl p JOIN files f ON f.id = p.file"
        " WHERE p.run = ?1 AND coalesce(p.t_us, 0) = 0"
        " ORDER BY f.path, p.op, p.q, p.line",
    [SQL_LOAD_PCTL_SERIES] =
        "SELECT coalesce(op, ''), t_us, value_us FROM pctl"
        " WHERE run = ?1 AND t_us > 0 AND abs(q - ?2) < 1e-6"
        " ORDER BY op, t_us",
    /* one min() or max() each: both found on the clustered key, no scan */
    [SQL_SAMPLE_BOUNDS] =
        "SELECT (SELECT min(t_us) FROM samples WHERE run = ?1),"
        " (SELECT max(t_us) FROM samples WHERE run = ?1)",
    [SQL_LOAD_LAT] =
        "SELECT lat_us, t_us FROM samples WHERE run = ?1 AND t_us >= ?2 AND t_us < ?3"
        " ORDER BY run, t_us",
    [SQL_LOAD_EVENTS] =
        "SELECT t_us, kind, pid, value, unit, text, line FROM events"
        " WHERE run = ?1 ORDER BY t_us, file, line",
    [SQL_LOAD_PRIMARY_EVENTS] =
        "SELECT t_us, kind, pid, value, unit, text, line FROM events v"
        " WHERE v.run = ?1" PRIMARY_PID("?1", "v.file", "v.pid")
        " ORDER BY t_us, file, line",
    [SQL_HAS_SERVERS] = "SELECT count(*) FROM servers WHERE run = ?1",
    [SQL_LOAD_SERVER_EVENTS] =
        "SELECT t_us, kind, pid, value, unit, text, line FROM events v"
        " WHERE v.run = ?1 AND EXISTS (SELECT 1 FROM server_files sf_ WHERE"
        " sf_.run = ?1 AND sf_.file = v.file AND sf_.server = ?2 AND"
        " sf_.pid IN (0, coalesce(v.pid, 0))) ORDER BY t_us, file, line",
    [SQL_LOAD_INFO] =
        "SELECT i.t_us, i.num FROM info i WHERE i.run = ?1 AND i.key = ?2 AND"
        " i.sub IS NULL AND i.t_us IS NOT NULL AND i.num IS NOT NULL"
        PRIMARY_SIDE("?1", "i.file") " ORDER BY i.t_us",
    [SQL_LOAD_CHILD_STAT] =
        "SELECT s.t_us, s.num FROM stats s JOIN files f ON f.id = s.file WHERE s.run = ?1"
        " AND s.source = ?2 AND s.key = ?3 AND s.t_us IS NOT NULL AND s.num IS NOT NULL"
        " AND " CHILD_FILE("f.path") " ORDER BY s.t_us",
    [SQL_DEL_ANALYSIS] = "DELETE FROM analyses WHERE run = ?1",
    [SQL_DEL_PHASES] = "DELETE FROM phases WHERE run = ?1",
    [SQL_DEL_QUANTILES] = "DELETE FROM quantiles WHERE run = ?1",
    [SQL_DEL_DELTAS] = "DELETE FROM deltas WHERE run = ?1",
    [SQL_DEL_EXCEED] = "DELETE FROM exceed WHERE run = ?1",
    [SQL_PUT_ANALYSIS] =
        "INSERT INTO analyses(run, seed, resamples, method, created_at)"
        " VALUES(?1, ?2, ?3, ?4, ?5)",
    [SQL_PUT_PHASE] =
        "INSERT INTO phases(run, idx, kind, label, t0_us, t1_us, fork_us, child_pid,"
        " source, overlap, open, failed, n, mean_us, min_us, max_us, grid_us, unstable)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)",
    [SQL_PUT_QUANTILE] =
        "INSERT INTO quantiles(run, phase, q, value_us, lo_us, hi_us, n_needed, thin,"
        " n_eff) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    [SQL_PUT_DELTA] =
        "INSERT INTO deltas(run, phase, base, q, base_us, value_us, delta_us, lo_us,"
        " hi_us, ratio, ratio_lo, ratio_hi, verdict, thin, n_eff_base, n_eff_phase,"
        " method, p_up, p_down, test_level, why, local_base)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,"
        "?22)",
    [SQL_PUT_EXCEED] =
        "INSERT INTO exceed(run, phase, base_q, threshold_us, n, count, p, lo, hi,"
        " clusters, p_more) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)",
    [SQL_FACT_INFO_LAST] =
        "SELECT i.num, i.text, f.path, i.line" CONFIG_SERVER
        " FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND i.key = ?2 AND i.sub IS NULL" PRIMARY_SIDE("?1", "i.file")
        " ORDER BY coalesce(i.t_us, 0) DESC, i.file DESC, i.dump DESC LIMIT 1",
    [SQL_FACT_INFO_MAX] =
        "SELECT i.num, i.text, f.path, i.line" CONFIG_SERVER
        " FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND i.key = ?2 AND i.sub IS NULL AND i.num IS NOT NULL"
        PRIMARY_SIDE("?1", "i.file") " ORDER BY i.num DESC LIMIT 1",
    [SQL_FACT_INFO_AT] = /* the first poll at or after ?3, before ?4 */
        "SELECT i.num, i.text, f.path, i.line FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND i.key = ?2 AND i.sub IS NULL AND i.num IS NOT NULL"
        " AND i.t_us >= ?3 AND i.t_us < ?4" PRIMARY_SIDE("?1", "i.file")
        " ORDER BY i.t_us LIMIT 1",
    [SQL_FACT_INFO_SUB_MAX] =
        "SELECT i.num, i.text, f.path, i.line FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND i.key >= ?2 AND i.key < ?2 || '~'" /* the index's range */
        " AND substr(i.key, 1, length(?2)) = ?2 AND i.sub = ?3"
        " AND i.num IS NOT NULL" PRIMARY_SIDE("?1", "i.file")
        " ORDER BY i.num DESC LIMIT 1",
    [SQL_FACT_STAT_MAX] =
        "SELECT s.num, s.text, f.path, s.line FROM stats s JOIN files f ON f.id = s.file"
        " WHERE s.run = ?1 AND s.source = ?2 AND s.key = ?3 AND s.num IS NOT NULL"
        " AND " CHILD_FILE("f.path") " = ?4" PRIMARY_SIDE("?1", "s.file")
        " ORDER BY s.num DESC LIMIT 1",
    [SQL_FACT_STAT_LAST] =
        "SELECT s.num, s.text, f.path, s.line FROM stats s JOIN files f ON f.id = s.file"
        " WHERE s.run = ?1 AND s.source = ?2 AND s.key = ?3" PRIMARY_SIDE("?1", "s.file")
        " ORDER BY coalesce(s.t_us, 0) DESC, s.rowid DESC LIMIT 1",
    [SQL_FACT_EVENT_COUNT] =
        "SELECT (SELECT count(*) FROM events v WHERE v.run = ?1 AND v.kind = ?2"
        PRIMARY_PID("?1", "v.file", "v.pid") "), v.text,"
        " f.path, v.line FROM events v JOIN files f ON f.id = v.file"
        " WHERE v.run = ?1 AND v.kind = ?2" PRIMARY_PID("?1", "v.file", "v.pid")
        " ORDER BY v.t_us LIMIT 1",
    [SQL_FACT_EVENT_MAX] =
        "SELECT v.value, v.text, f.path, v.line FROM events v JOIN files f ON f.id = v.file"
        " WHERE v.run = ?1 AND v.kind = ?2 AND v.value IS NOT NULL"
        PRIMARY_PID("?1", "v.file", "v.pid") " ORDER BY v.value DESC LIMIT 1",
    [SQL_FACT_LATMON] =
        "SELECT count(*),"
        " coalesce(sum(l.kind = 'history' AND l.event = 'fork' AND l.lat_ms IS NOT NULL), 0),"
        " coalesce(sum(l.kind = 'latest' AND l.lat_ms IS NOT NULL), 0),"
        " coalesce(sum(l.kind = 'doctor' AND l.none_observed = 1), 0),"
        /* each fact's own evidence: the first record of its kind (an empty
         * reply lands as one record, so "0 rows" cites that reply) */
        LATMON_SRC("lx.kind = 'history' AND lx.event = 'fork'") ","
        LATMON_SRC("lx.kind = 'latest'") ","
        LATMON_SRC("lx.kind = 'doctor' AND lx.event IS NULL")
        " FROM latmon l JOIN files f ON f.id = l.file WHERE l.run = ?1"
        PRIMARY_SIDE("?1", "l.file"),
    [SQL_FACT_LATMON_THP] =
        "SELECT l.text, f.path, l.line FROM latmon l JOIN files f ON f.id = l.file"
        " WHERE l.run = ?1 AND l.kind = 'doctor' AND l.text LIKE '%huge page%'"
        PRIMARY_SIDE("?1", "l.file") " ORDER BY l.file, l.line LIMIT 1",
    /* a run with samples: only what was stamped during them (a stamp is a
       whole second; LATEST's all-time max has no time: not counted) */
    [SQL_FACT_LATMON_SPIKE] =
        "SELECT CASE WHEN s.t0 IS NULL THEN max(coalesce(l.max_ms, 0), coalesce(l.lat_ms, 0))"
        " ELSE coalesce(l.lat_ms, 0) END AS m, l.event, l.kind,"
        " f.path, l.line FROM latmon l JOIN files f ON f.id = l.file,"
        " (SELECT min(t_us) AS t0, max(t_us) AS t1 FROM samples WHERE run = ?1) s"
        " WHERE l.run = ?1 AND (l.kind IN ('latest', 'history') OR"
        " (l.kind = 'doctor' AND l.event IS NOT NULL))" /* DOCTOR's worst: at a tie, the
                                                        reply that holds its time */
        " AND (s.t0 IS NULL OR (l.kind <> 'doctor' AND l.t_us + 1000000 > s.t0"
        " AND l.t_us <= s.t1))"
        PRIMARY_SIDE("?1", "l.file") " ORDER BY m DESC, l.kind = 'doctor', l.file, l.line"
        " LIMIT 1",
    /* the longest command the latency monitor recorded in [?2, ?3]: its
       stamps are whole seconds, so one stamped up to a second before the
       window may have run in it */
    [SQL_FACT_LATMON_CMD] =
        "SELECT l.lat_ms, l.event, l.t_us, f.path, l.line FROM latmon l"
        " JOIN files f ON f.id = l.file"
        " WHERE l.run = ?1 AND l.kind IN ('latest', 'history')"
        " AND l.event IN ('command', 'fast-command') AND l.lat_ms > 0"
        " AND l.t_us <= ?3 AND l.t_us + 1000000 > ?2" PRIMARY_SIDE("?1", "l.file")
        " ORDER BY l.lat_ms DESC, l.file, l.line LIMIT 1",
    [SQL_LOAD_MEM] =
        "SELECT t_us, bytes, what FROM mem WHERE run = ?1 ORDER BY"
        " CASE WHEN what LIKE '%current%' THEN 0 WHEN what LIKE '%usage%' THEN 1"
        " WHEN what LIKE '%rss%' THEN 2 ELSE 3 END, what, t_us",
    [SQL_LOAD_KSTAT] =
        "SELECT s.t_us, s.source = 'kstat-child', s.text,"
        " MAX(CASE s.key WHEN 'minflt' THEN s.num END),"
        " MAX(CASE s.key WHEN 'majflt' THEN s.num END),"
        " MAX(CASE s.key WHEN 'utime_us' THEN s.num END),"
        " MAX(CASE s.key WHEN 'stime_us' THEN s.num END),"
        " MAX(CASE s.key WHEN 'run_delay_us' THEN s.num END),"
        " MAX(CASE s.key WHEN 'read_bytes' THEN s.num END),"
        " MAX(CASE s.key WHEN 'write_bytes' THEN s.num END), MIN(s.line), f.path"
        " FROM stats s JOIN files f ON f.id = s.file"
        " WHERE s.run = ?1 AND s.source IN ('kstat-main', 'kstat-child') AND s.t_us > 0"
        " GROUP BY s.file, s.line ORDER BY s.t_us, s.source",
    [SQL_LOAD_CMDHIST] =
        "SELECT f.path, s.key, s.text, s.num, s.line FROM stats s JOIN files f ON f.id = s.file"
        " WHERE s.run = ?1 AND s.source = 'latency-histogram' ORDER BY f.path, s.rowid",
    [SQL_MEM_SOURCE] =
        "SELECT m.what, f.path FROM mem m JOIN files f ON f.id = m.file WHERE m.run = ?1"
        " ORDER BY CASE WHEN m.what LIKE '%current%' THEN 0 WHEN m.what LIKE '%usage%' THEN 1"
        " WHEN m.what LIKE '%rss%' THEN 2 ELSE 3 END, m.what, m.t_us LIMIT 1",
    [SQL_LOAD_INTERVALS] =
        "SELECT t_us, dur_s, count, max_us FROM intervals WHERE run = ?1"
        " AND t_us IS NOT NULL AND (coalesce(op, '') = 'throughput') = ?2 ORDER BY t_us",
    [SQL_RES_ANALYSIS] = "SELECT seed, resamples FROM analyses WHERE run = ?1",
    [SQL_RES_PHASES] =
        "SELECT idx, kind, label, t0_us, t1_us, fork_us, child_pid, source, overlap,"
        " open, failed, n, mean_us, min_us, max_us, grid_us, unstable FROM phases"
        " WHERE run = ?1"
        " ORDER BY idx",
    [SQL_RES_QUANTILES] =
        "SELECT phase, q, value_us, lo_us, hi_us, n_needed, thin, n_eff FROM quantiles"
        " WHERE run = ?1 ORDER BY phase, q",
    [SQL_RES_DELTAS] =
        "SELECT phase, base, q, base_us, value_us, delta_us, lo_us, hi_us, ratio,"
        " ratio_lo, ratio_hi, verdict, thin, n_eff_base, n_eff_phase, method, p_up,"
        " p_down, test_level, why, local_base FROM deltas WHERE run = ?1 ORDER BY phase, q",
    [SQL_RES_EXCEED] =
        "SELECT phase, base_q, threshold_us, n, count, p, lo, hi, clusters, p_more FROM exceed"
        " WHERE run = ?1 ORDER BY phase, base_q",
    [SQL_DEL_FINDINGS] = "DELETE FROM findings WHERE run = ?1",
    [SQL_PUT_FINDING] =
        "INSERT INTO findings(run, seq, rule, severity, title, evidence, recommendation)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7)",
    [SQL_LOAD_FINDINGS] =
        "SELECT rule, severity, title, evidence, recommendation FROM findings"
        " WHERE run = ?1 ORDER BY seq",
    [SQL_ADD_REFUSAL] =
        "INSERT INTO refusals(run, label, path, line, parser, code, reason, at)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8) ON CONFLICT(label, path) DO UPDATE SET"
        " run = excluded.run, line = excluded.line, parser = excluded.parser,"
        " code = excluded.code, reason = excluded.reason, at = excluded.at",
    [SQL_FACT_REFUSALS] =
        "SELECT (SELECT count(*) FROM refusals WHERE label = ?1"
        " AND code <> 'unrecognised'), reason, path, line"
        " FROM refusals WHERE label = ?1 AND code <> 'unrecognised'"
        " ORDER BY at, rowid LIMIT 1",
    [SQL_BEGIN] = "BEGIN IMMEDIATE",
    [SQL_COMMIT] = "COMMIT",
    [SQL_ROLLBACK] = "ROLLBACK",
};


static int exec(cow_store *st, const char *sql, cow_err *e)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        if (sqlite3_errcode(st->db) == SQLITE_BUSY)
            sql_fail(st, e, "opening");
        else
            COW_FAIL(e, COW_ESQL, "%s", msg ? msg : sqlite3_errmsg(st->db));
        sqlite3_free(msg);
        return COW_ESQL;
    }
    return COW_OK;
}

/* The connection's settings. Switching a new database to WAL needs its
 * exclusive lock, and SQLite answers SQLITE_BUSY at once there instead of
 * calling the busy handler, so two first opens at once (two ingests into
 * a new database) would fail: retry for as long as the busy timeout. */
static int exec_settings(cow_store *st, const char *sql, cow_err *e)
{
    int slept_ms = 0, rc;

    while ((rc = exec(st, sql, e)) != COW_OK &&
           sqlite3_errcode(st->db) == SQLITE_BUSY && slept_ms < st->busy_ms) {
        usleep(10 * 1000);
        slept_ms += 10;
    }
    return rc;
}

int store_schema_version(cow_store *st)
{
    sqlite3_stmt *q;
    int v = -1;
    if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    return v;
}

/* Apply the migrations the database has not seen, each in a transaction.
 * Two processes may open a new database at once: each migration takes the
 * write lock first (BEGIN IMMEDIATE) and reads user_version again inside
 * it, so the second one finds the work done instead of failing with
 * "table runs already exists". */
static int migrate(cow_store *st, cow_err *e)
{
    int v = store_schema_version(st), rc;
    char pragma[64];

    for (;;) {
        if (v > cow_migration_count)
            return COW_FAIL(e, COW_ESQL,
                            "database schema version %d is newer than this "
                            "cowtail knows (%d): use a newer cowtail",
                            v, cow_migration_count);
        if (v == cow_migration_count)
            return COW_OK;
        if ((rc = exec(st, "BEGIN IMMEDIATE", e)) != COW_OK)
            return rc;
        if ((v = store_schema_version(st)) >= cow_migration_count) {
            exec(st, "COMMIT", NULL);
            continue; /* another process migrated while we waited */
        }
        snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
        if ((rc = exec(st, cow_migrations[v], e)) != COW_OK ||
            (rc = exec(st, pragma, e)) != COW_OK) {
            exec(st, "ROLLBACK", NULL);
            return rc;
        }
        if ((rc = exec(st, "COMMIT", e)) != COW_OK)
            return rc;
        v++;
    }
}

void store_timeout_text(int timeout_ms, char *out, size_t cap)
{
    if (timeout_ms >= 60000 && timeout_ms % 60000 == 0)
        snprintf(out, cap, "%d minute%s", timeout_ms / 60000,
                 timeout_ms == 60000 ? "" : "s");
    else
        snprintf(out, cap, "%g s", timeout_ms / 1000.0);
}

int store_busy_fail(cow_store *st, cow_err *e, const char *what)
{
    char t[48];
    int waited = st->gave_up;

    st->gave_up = 0;
    /* SQLite gives up without waiting where waiting could deadlock (a
     * reader upgrading while another holds RESERVED): ask now */
    if (!waited || st->holder[0] == '\0')
        store_lock_holder(st->path, st->holder, sizeof(st->holder));
    store_timeout_text(st->busy_ms, t, sizeof(t));
    if (st->holder[0] && waited)
        return COW_FAIL(e, COW_ESQL, "%s: database is locked by %s: it held the "
                        "write lock for %s; try again when it has finished",
                        what, st->holder, t);
    if (st->holder[0])
        return COW_FAIL(e, COW_ESQL, "%s: database is locked by %s; try again "
                        "when it has finished", what, st->holder);
    if (!waited)
        return COW_FAIL(e, COW_ESQL, "%s: database is locked by another process "
                        "(another cowtail ingest or report?); try again when it "
                        "has finished", what);
    return COW_FAIL(e, COW_ESQL, "%s: database is locked: another process "
                    "(another cowtail ingest or report?) held the write lock "
                    "for %s; try again when it has finished", what, t);
}

/* SQLite's busy handler: sleep and retry for st->busy_ms, saying once
 * (after a second, or half the timeout when it is shorter) who holds the
 * lock and that we are waiting; when giving up, who held it. */
#define BUSY_STEP_MS 50
static int on_busy(void *arg, int count)
{
    cow_store *st = arg;
    int slept_ms = count * BUSY_STEP_MS;
    int say_at = st->busy_ms / 2 < 1000 ? st->busy_ms / 2 : 1000;

    if (slept_ms >= st->busy_ms) {
        store_lock_holder(st->path, st->holder, sizeof(st->holder));
        st->gave_up = 1;
        return 0;
    }
    if (st->wait && slept_ms >= say_at && slept_ms - BUSY_STEP_MS < say_at) {
        char who[128];
        store_lock_holder(st->path, who, sizeof(who));
        st->wait(st->wait_ctx, st->path, who, st->busy_ms);
    }
    sqlite3_sleep(BUSY_STEP_MS);
    return 1;
}

static char *multi_insert_sql(void)
{
    const char *head = "INSERT OR FAIL INTO samples(run, t_us, file, seq, lat_us, op, alt_us)"
                       " VALUES";
    size_t cap = strlen(head) + STORE_ROWS * 48 + 1, i;
    char *s = xmalloc(cap), *p = s;
    p += sprintf(p, "%s", head);
    for (i = 0; i < STORE_ROWS; i++) {
        int b = 3 + (int)i * STORE_ROW_BINDS;
        p += sprintf(p, "%s(?1,?%d,?2,?%d,?%d,?%d,?%d)", i ? "," : "", b, b + 1, b + 2,
                     b + 3, b + 4);
    }
    return s;
}

static char *info_insert_sql(void)
{
    const char *head = "INSERT OR FAIL INTO info(run, file, line, dump, t_us, section, key, sub,"
                       " text, num) VALUES";
    size_t cap = strlen(head) + STORE_INFO_ROWS * 64 + 1, i;
    char *s = xmalloc(cap), *p = s;
    p += sprintf(p, "%s", head);
    for (i = 0; i < STORE_INFO_ROWS; i++) {
        int b = 3 + (int)i * STORE_INFO_BINDS;
        p += sprintf(p, "%s(?1,?2,?%d,?%d,?%d,?%d,?%d,?%d,?%d,?%d)", i ? "," : "", b,
                     b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7);
    }
    return s;
}

int store_open(const char *path, cow_store **out, cow_err *e)
{
    return store_open_wait(path, NULL, NULL, 0, out, e);
}

/* Errors of a file system that is full, or will not give the -shm file
 * its pages. */
static int disk_full(int errcode)
{
    return (errcode & 0xff) == SQLITE_FULL || (errcode & 0xff) == SQLITE_IOERR ||
           (errcode & 0xff) == SQLITE_CANTOPEN;
}

/* On a full file system, what analyze and doctor write goes to copies
 * of the result tables in memory (TEMP tables: an unqualified name finds
 * temp before main), so they work and print; nothing of it is kept. */
static int overlay_results(cow_store *st, cow_err *e)
{
    static const char *const sql =
        "CREATE TEMP TABLE analyses AS SELECT * FROM main.analyses;"
        "CREATE TEMP TABLE phases AS SELECT * FROM main.phases;"
        "CREATE TEMP TABLE quantiles AS SELECT * FROM main.quantiles;"
        "CREATE TEMP TABLE deltas AS SELECT * FROM main.deltas;"
        "CREATE TEMP TABLE exceed AS SELECT * FROM main.exceed;"
        "CREATE TEMP TABLE findings AS SELECT * FROM main.findings;"
        "CREATE TEMP TABLE run_facts AS SELECT * FROM main.run_facts;"
        "CREATE UNIQUE INDEX temp.run_facts_run ON run_facts(run);"
        "CREATE TEMP TABLE server_facts AS SELECT * FROM main.server_facts;"
        "CREATE UNIQUE INDEX temp.server_facts_run ON server_facts(run, server);"
        "CREATE TEMP TABLE answers AS SELECT * FROM main.answers;"
        "CREATE UNIQUE INDEX temp.answers_run ON answers(run);"
        "CREATE TEMP TABLE windows AS SELECT * FROM main.windows;"
        "CREATE UNIQUE INDEX temp.windows_run ON windows(run, idx);"
        "CREATE TEMP TABLE repl_syncs AS SELECT * FROM main.repl_syncs;"
        "CREATE UNIQUE INDEX temp.repl_syncs_run ON repl_syncs(run, server, attempt);"
        "CREATE INDEX temp.analyses_run ON analyses(run);"
        "CREATE INDEX temp.phases_run ON phases(run);"
        "CREATE INDEX temp.quantiles_run ON quantiles(run);"
        "CREATE INDEX temp.deltas_run ON deltas(run);"
        "CREATE INDEX temp.exceed_run ON exceed(run);"
        "CREATE INDEX temp.findings_run ON findings(run);";
    return exec(st, sql, e);
}

/* Open path; `full`: the database's file system is full, so hold the
 * database exclusively, the WAL index in this process's memory (no -shm
 * file to grow), nothing created. *sqlite_rc: SQLite's extended error
 * code when the open failed. */
static int open_store(const char *path, cow_store_wait_fn wait, void *ctx,
                      int timeout_ms, int full, cow_store **out, int *sqlite_rc,
                      cow_err *e)
{
    cow_store *st = xcalloc(1, sizeof(*st));
    char *multi = NULL, *infos = NULL;
    int i, rc;

    st->wait = wait;
    st->wait_ctx = ctx;
    st->busy_ms = timeout_ms > 0 ? timeout_ms : COW_STORE_BUSY_MS;
    st->full = full;
    st->path = xstrdup(path);
    *out = NULL;
    *sqlite_rc = SQLITE_OK;
    /* URIs on (merge attaches its inputs read-only as file:...?mode=ro); a
     * path of ours that reads as one keeps its meaning behind "./" */
    {
        char *own = strncmp(path, "file:", 5) == 0 ? sqlite3_mprintf("./%s", path) : NULL;
        rc = sqlite3_open_v2(own ? own : path, &st->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI |
                             (full ? 0 : SQLITE_OPEN_CREATE), NULL);
        sqlite3_free(own);
    }
    if (rc != SQLITE_OK) {
        *sqlite_rc = st->db ? sqlite3_extended_errcode(st->db) : SQLITE_NOMEM;
        rc = COW_FAIL(e, COW_ESQL, "cannot open database %s: %s", path,
                      st->db ? sqlite3_errmsg(st->db) : "out of memory");
        store_close(st);
        return rc;
    }
    sqlite3_busy_handler(st->db, on_busy, st);
    /* page_size only takes on a new database (before WAL is set) */
    if ((rc = exec_settings(st, full ? "PRAGMA locking_mode = EXCLUSIVE;"
                              " PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;"
                            : "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL;"
                              " PRAGMA synchronous = NORMAL;"
                              " PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;",
                   e)) != COW_OK ||
        (rc = migrate(st, e)) != COW_OK ||
        (full && (rc = overlay_results(st, e)) != COW_OK)) {
        char msg[sizeof(e->msg)];
        *sqlite_rc = sqlite3_extended_errcode(st->db);
        snprintf(msg, sizeof(msg), "%s", e->msg);
        COW_FAIL(e, rc, "database %s: %s", path, msg);
        store_close(st);
        return rc;
    }
    multi = multi_insert_sql();
    infos = info_insert_sql();
    for (i = 0; i < SQL_COUNT; i++) {
        const char *sql = i == SQL_SAMPLE_N ? multi : i == SQL_INFO_N ? infos : sql_text[i];
        if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &st->stmt[i], NULL) != SQLITE_OK) {
            *sqlite_rc = sqlite3_extended_errcode(st->db);
            rc = COW_FAIL(e, COW_ESQL, "preparing statement %d: %s", i,
                          sqlite3_errmsg(st->db));
            free(multi);
            free(infos);
            store_close(st);
            return rc;
        }
    }
    free(multi);
    free(infos);
    *out = st;
    return COW_OK;
}

/* Is the file system holding path out of space (for the message)? */
static int fs_full(const char *path)
{
    struct statvfs sv;
    const char *slash = strrchr(path, '/');
    char *dir = slash == NULL ? xstrdup(".") : xstrndup(path, (size_t)(slash - path) + 1);
    int full = statvfs(dir, &sv) == 0 && sv.f_bavail == 0;
    free(dir);
    return full;
}

/* A failed open on a full file system says so. */
static int say_full(const char *path, int src, int rc, cow_err *e)
{
    if (rc != COW_OK && disk_full(src) && fs_full(path)) {
        char msg[sizeof(e->msg)];
        snprintf(msg, sizeof(msg), "%s", e->msg);
        COW_FAIL(e, rc, "%s: its file system is full: free space and try again "
                 "(commands that only read still work)", msg);
    }
    return rc;
}

int store_open_wait(const char *path, cow_store_wait_fn wait, void *ctx,
                    int timeout_ms, cow_store **out, cow_err *e)
{
    int src, rc = open_store(path, wait, ctx, timeout_ms, 0, out, &src, e);
    return say_full(path, src, rc, e);
}

int store_open_read(const char *path, cow_store_wait_fn wait, void *ctx,
                    int timeout_ms, cow_store **out, cow_err *e)
{
    cow_err first = COW_ERR_INIT;
    int src, rc;

    if ((rc = open_store(path, wait, ctx, timeout_ms, 0, out, &src, &first)) == COW_OK) {
        /* the -shm file was there already, but the file system is full:
         * what analyze and doctor write still goes to memory (one
         * connection: workers could not see the TEMP tables) */
        if (fs_full(path)) {
            (*out)->full = 1;
            if ((rc = overlay_results(*out, e)) != COW_OK) {
                store_close(*out);
                *out = NULL;
                return rc;
            }
        }
        return COW_OK;
    }
    /* a full file system cannot give a new -shm file its 32 KiB: read
     * holding the database exclusively, the WAL index in memory */
    if (disk_full(src) && access(path, F_OK) == 0 &&
        open_store(path, wait, ctx, timeout_ms, 1, out, &src, e) == COW_OK)
        return COW_OK;
    *e = first;
    return say_full(path, src, rc, e);
}

int store_is_full(const cow_store *st)
{
    return st->full;
}

void store_set_latency_from(cow_store *st, int from)
{
    st->latency_from = from;
    st->alt_run = 0;
}

int store_latency_from(const cow_store *st)
{
    return st->latency_from;
}

int store_open_reader(cow_store *st, cow_store **out, cow_err *e)
{
    int rc;

    *out = NULL;
    /* in memory, or held exclusively (a full file system): no other
     * connection can see it */
    if (st->full || st->path[0] == '\0' || strcmp(st->path, ":memory:") == 0 ||
        strncmp(st->path, "file:", 5) == 0)
        return COW_FAIL(e, COW_EUSAGE, "database %s: no second connection to it",
                        st->path);
    if ((rc = store_open_wait(st->path, st->wait, st->wait_ctx, st->busy_ms, out, e)) !=
        COW_OK)
        return rc;
    /* a reader scans a run's key range once: a small page cache will do */
    if ((rc = exec(*out, "PRAGMA cache_size = -8192;", e)) != COW_OK) {
        store_close(*out);
        *out = NULL;
        return rc;
    }
    (*out)->latency_from = st->latency_from;
    return rc;
}

void store_close(cow_store *st)
{
    size_t i;
    if (st == NULL)
        return;
    for (i = 0; i < SQL_COUNT; i++)
        sqlite3_finalize(st->stmt[i]);
    for (i = 0; i < (size_t)st->nadhoc; i++)
        sqlite3_finalize(st->adhoc[i]);
    for (i = 0; i < st->nops; i++)
        free(st->ops[i].copy);
    free(st->ops);
    sqlite3_close(st->db);
    free(st->path);
    free(st);
}

int store_begin(cow_store *st, cow_err *e)
{
    return step_done(st, st->stmt[SQL_BEGIN], e, "begin");
}

int store_commit(cow_store *st, cow_err *e)
{
    return step_done(st, st->stmt[SQL_COMMIT], e, "commit");
}

void store_rollback(cow_store *st)
{
    if (!sqlite3_get_autocommit(st->db))
        step_done(st, st->stmt[SQL_ROLLBACK], NULL, "rollback");
}

const char *store_sqlite_version(void)
{
    return sqlite3_libversion();
}
