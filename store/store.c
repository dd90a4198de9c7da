/* store.c -- SQLite open/migrate/insert/query. The only SQL in cowtail.
 *
 * Statements live in one enum-indexed table, prepared in store_open and
 * finalized in store_close; values are always bound. Samples go in with a
 * multi-row INSERT of STORE_ROWS rows per statement (one prepare, typed
 * binds): on these machines that is about twice as fast as one row per
 * statement, which is what the ingest benchmark (bench/) measures. */
#include "store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "mem.h"
#include "schema_sql.h"
#include "store_int.h"

/* Sample rows per multi-row INSERT: run and file are bound once (?1, ?2),
 * each row binds 4 values, so 512 rows bind 2,050 values (< 32,766).
 * Measured with bench/ingest.sh: 512 rows and 16 KiB pages cut the
 * writer's time by about a fifth against 64 rows and 4 KiB pages. */
#define STORE_ROW_BINDS 4
#define STORE_ROWS 512

enum {
    SQL_RUN_FIND,
    SQL_RUN_ADD,
    SQL_RUN_META,
    SQL_FILE_SEEN,
    SQL_FILE_SIZE,
    SQL_FILE_ADD,
    SQL_FILE_END,
    SQL_OP_FIND,
    SQL_OP_ADD,
    SQL_SAMPLE_1,
    SQL_SAMPLE_N,
    SQL_REJECT,
    SQL_EVENT,
    SQL_INFO,
    SQL_STAT,
    SQL_MEM,
    SQL_LATMON,
    SQL_INTERVAL,
    SQL_PCTL,
    SQL_RUNS,
    SQL_LOAD_SAMPLES,
    SQL_COUNT_SAMPLES,
    SQL_SAMPLE_SPAN,
    SQL_LOAD_LAT,
    SQL_LOAD_EVENTS,
    SQL_LOAD_INFO,
    SQL_DEL_ANALYSIS,
    SQL_DEL_PHASES,
    SQL_DEL_QUANTILES,
    SQL_DEL_DELTAS,
    SQL_DEL_EXCEED,
    SQL_PUT_ANALYSIS,
    SQL_PUT_PHASE,
    SQL_PUT_QUANTILE,
    SQL_PUT_DELTA,
    SQL_PUT_EXCEED,
    SQL_FACT_INFO_LAST,
    SQL_FACT_INFO_MAX,
    SQL_FACT_INFO_SUB_MAX,
    SQL_FACT_STAT_MAX,
    SQL_FACT_STAT_LAST,
    SQL_FACT_EVENT_COUNT,
    SQL_FACT_EVENT_MAX,
    SQL_FACT_LATMON,
    SQL_LOAD_MEM,
    SQL_LOAD_INTERVALS,
    SQL_RES_ANALYSIS,
    SQL_RES_PHASES,
    SQL_RES_QUANTILES,
    SQL_RES_DELTAS,
    SQL_RES_EXCEED,
    SQL_DEL_FINDINGS,
    SQL_PUT_FINDING,
    SQL_LOAD_FINDINGS,
    SQL_ADD_REFUSAL,
    SQL_FACT_REFUSALS,
    SQL_BEGIN,
    SQL_COMMIT,
    SQL_ROLLBACK,
    SQL_COUNT
};

static const char *const sql_text[SQL_COUNT] = {
    [SQL_RUN_FIND] = "SELECT id FROM runs WHERE label = ?1",
    [SQL_RUN_ADD] = "INSERT INTO runs(label, path, created_at) VALUES(?1, ?2, ?3)",
    [SQL_RUN_META] =
        "UPDATE runs SET path = coalesce(?2, path), scenario = coalesce(?3, scenario),"
        " mode = coalesce(?4, mode), host = coalesce(?5, host),"
        " trial = coalesce(?6, trial), meta = coalesce(?7, meta) WHERE id = ?1",
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
        "INSERT INTO samples(run, t_us, file, seq, lat_us, op) VALUES(?1,?3,?2,?4,?5,?6)",
    [SQL_SAMPLE_N] = NULL, /* built in store_open: STORE_ROWS value tuples */
    [SQL_REJECT] = "INSERT INTO rejects(file, line, reason, excerpt) VALUES(?1,?2,?3,?4)",
    [SQL_EVENT] =
        "INSERT INTO events(run, file, line, t_us, kind, pid, value, unit, text)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    [SQL_INFO] =
        "INSERT INTO info(run, file, line, dump, t_us, section, key, sub, text, num)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
    [SQL_STAT] =
        "INSERT INTO stats(run, file, line, t_us, source, key, text, num, unit)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    [SQL_MEM] = "INSERT INTO mem(run, file, t_us, bytes, what) VALUES(?1,?2,?3,?4,?5)",
    [SQL_LATMON] =
        "INSERT INTO latmon(run, file, line, t_us, kind, event, lat_ms, max_ms, text,"
        " none_observed) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
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
        "   (SELECT label FROM phases p WHERE p.run = r.id ORDER BY idx))"
        " FROM runs r ORDER BY r.label",
    [SQL_LOAD_SAMPLES] =
        "SELECT t_us, lat_us FROM samples WHERE run = ?1 ORDER BY run, t_us",
    [SQL_COUNT_SAMPLES] = "SELECT count(*) FROM samples WHERE run = ?1",
    [SQL_SAMPLE_SPAN] =
        "SELECT count(*), min(t_us), max(t_us) FROM samples WHERE run = ?1",
    [SQL_LOAD_LAT] =
        "SELECT lat_us FROM samples WHERE run = ?1 AND t_us >= ?2 AND t_us < ?3"
        " ORDER BY run, t_us",
    [SQL_LOAD_EVENTS] =
        "SELECT t_us, kind, pid, value, unit, text, line FROM events"
        " WHERE run = ?1 ORDER BY t_us, file, line",
    [SQL_LOAD_INFO] =
        "SELECT t_us, num FROM info WHERE run = ?1 AND key = ?2 AND sub IS NULL"
        " AND t_us IS NOT NULL AND num IS NOT NULL ORDER BY t_us",
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
        " source, overlap, open, failed, n, mean_us, min_us, max_us, grid_us)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)",
    [SQL_PUT_QUANTILE] =
        "INSERT INTO quantiles(run, phase, q, value_us, lo_us, hi_us, n_needed, thin)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8)",
    [SQL_PUT_DELTA] =
        "INSERT INTO deltas(run, phase, base, q, base_us, value_us, delta_us, lo_us,"
        " hi_us, ratio, ratio_lo, ratio_hi, verdict, thin)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)",
    [SQL_PUT_EXCEED] =
        "INSERT INTO exceed(run, phase, base_q, threshold_us, n, count, p, lo, hi)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    [SQL_FACT_INFO_LAST] =
        "SELECT i.num, i.text, f.path, i.line FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND i.key = ?2 AND i.sub IS NULL"
        " ORDER BY coalesce(i.t_us, 0) DESC, i.file DESC, i.dump DESC LIMIT 1",
    [SQL_FACT_INFO_MAX] =
        "SELECT i.num, i.text, f.path, i.line FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND i.key = ?2 AND i.sub IS NULL AND i.num IS NOT NULL"
        " ORDER BY i.num DESC LIMIT 1",
    [SQL_FACT_INFO_SUB_MAX] =
        "SELECT i.num, i.text, f.path, i.line FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND substr(i.key, 1, length(?2)) = ?2 AND i.sub = ?3"
        " AND i.num IS NOT NULL ORDER BY i.num DESC LIMIT 1",
    [SQL_FACT_STAT_MAX] =
        "SELECT s.num, s.text, f.path, s.line FROM stats s JOIN files f ON f.id = s.file"
        " WHERE s.run = ?1 AND s.source = ?2 AND s.key = ?3 AND s.num IS NOT NULL"
        " AND (f.path LIKE '%child%') = ?4 ORDER BY s.num DESC LIMIT 1",
    [SQL_FACT_STAT_LAST] =
        "SELECT s.num, s.text, f.path, s.line FROM stats s JOIN files f ON f.id = s.file"
        " WHERE s.run = ?1 AND s.source = ?2 AND s.key = ?3"
        " ORDER BY coalesce(s.t_us, 0) DESC, s.rowid DESC LIMIT 1",
    [SQL_FACT_EVENT_COUNT] =
        "SELECT (SELECT count(*) FROM events WHERE run = ?1 AND kind = ?2), v.text,"
        " f.path, v.line FROM events v JOIN files f ON f.id = v.file"
        " WHERE v.run = ?1 AND v.kind = ?2 ORDER BY v.t_us LIMIT 1",
    [SQL_FACT_EVENT_MAX] =
        "SELECT v.value, v.text, f.path, v.line FROM events v JOIN files f ON f.id = v.file"
        " WHERE v.run = ?1 AND v.kind = ?2 AND v.value IS NOT NULL"
        " ORDER BY v.value DESC LIMIT 1",
    [SQL_FACT_LATMON] =
        "SELECT count(*),"
        " coalesce(sum(l.kind = 'history' AND l.event = 'fork' AND l.lat_ms IS NOT NULL), 0),"
        " coalesce(sum(l.kind = 'latest' AND l.lat_ms IS NOT NULL), 0),"
        " coalesce(sum(l.kind = 'doctor' AND l.none_observed = 1), 0),"
        " min(f.path), min(l.line)"
        " FROM latmon l JOIN files f ON f.id = l.file WHERE l.run = ?1",
    [SQL_LOAD_MEM] =
        "SELECT t_us, bytes, what FROM mem WHERE run = ?1 ORDER BY"
        " CASE WHEN what LIKE '%current%' THEN 0 WHEN what LIKE '%usage%' THEN 1"
        " WHEN what LIKE '%rss%' THEN 2 ELSE 3 END, what, t_us",
    [SQL_LOAD_INTERVALS] =
        "SELECT t_us, dur_s, count, max_us FROM intervals WHERE run = ?1"
        " AND t_us IS NOT NULL AND (coalesce(op, '') = 'throughput') = ?2 ORDER BY t_us",
    [SQL_RES_ANALYSIS] = "SELECT seed, resamples FROM analyses WHERE run = ?1",
    [SQL_RES_PHASES] =
        "SELECT idx, kind, label, t0_us, t1_us, fork_us, child_pid, source, overlap,"
        " open, failed, n, mean_us, min_us, max_us, grid_us FROM phases WHERE run = ?1"
        " ORDER BY idx",
    [SQL_RES_QUANTILES] =
        "SELECT phase, q, value_us, lo_us, hi_us, n_needed, thin FROM quantiles"
        " WHERE run = ?1 ORDER BY phase, q",
    [SQL_RES_DELTAS] =
        "SELECT phase, base, q, base_us, value_us, delta_us, lo_us, hi_us, ratio,"
        " ratio_lo, ratio_hi, verdict, thin FROM deltas WHERE run = ?1 ORDER BY phase, q",
    [SQL_RES_EXCEED] =
        "SELECT phase, base_q, threshold_us, n, count, p, lo, hi FROM exceed"
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
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8)",
    [SQL_FACT_REFUSALS] =
        "SELECT (SELECT count(*) FROM refusals WHERE label = ?1), reason, path, line"
        " FROM refusals WHERE label = ?1 ORDER BY at, rowid LIMIT 1",
    [SQL_BEGIN] = "BEGIN IMMEDIATE",
    [SQL_COMMIT] = "COMMIT",
    [SQL_ROLLBACK] = "ROLLBACK",
};

typedef struct opcache {
    const char *name;   /* the caller's pointer (interned by the parser) */
    char *copy;         /* our copy, to compare when the pointer differs */
    int64_t id;         /* ops.id */
} opcache;

struct cow_store {
    sqlite3 *db;                 /* the connection */
    sqlite3_stmt *stmt[SQL_COUNT]; /* prepared statements */
    opcache *ops;                /* op name -> id, small */
    size_t nops, capops;
    int64_t seq_file;            /* file whose samples are being numbered */
    int64_t seq;                 /* last samples.seq given in that file */
};

static char *col_dup(sqlite3_stmt *q, int i);

sqlite3 *store_db(cow_store *st)
{
    return st->db;
}

/* Copy SQLite's message into e. */
static int sql_fail(cow_store *st, cow_err *e, const char *what)
{
    return COW_FAIL(e, COW_ESQL, "%s: %s", what, sqlite3_errmsg(st->db));
}

static int exec(cow_store *st, const char *sql, cow_err *e)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        COW_FAIL(e, COW_ESQL, "%s", msg ? msg : sqlite3_errmsg(st->db));
        sqlite3_free(msg);
        return COW_ESQL;
    }
    return COW_OK;
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

/* Apply the migrations the database has not seen, each in a transaction. */
static int migrate(cow_store *st, cow_err *e)
{
    int v = store_schema_version(st), rc;
    char pragma[64];

    if (v > cow_migration_count)
        return COW_FAIL(e, COW_ESQL,
                        "database schema version %d is newer than this "
                        "cowtail knows (%d): use a newer cowtail",
                        v, cow_migration_count);
    for (; v < cow_migration_count; v++) {
        if ((rc = exec(st, "BEGIN", e)) != COW_OK)
            return rc;
        snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
        if ((rc = exec(st, cow_migrations[v], e)) != COW_OK ||
            (rc = exec(st, pragma, e)) != COW_OK) {
            exec(st, "ROLLBACK", NULL);
            return rc;
        }
        if ((rc = exec(st, "COMMIT", e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static char *multi_insert_sql(void)
{
    const char *head = "INSERT INTO samples(run, t_us, file, seq, lat_us, op) VALUES";
    size_t cap = strlen(head) + STORE_ROWS * 40 + 1, i;
    char *s = xmalloc(cap), *p = s;
    p += sprintf(p, "%s", head);
    for (i = 0; i < STORE_ROWS; i++) {
        int b = 3 + (int)i * STORE_ROW_BINDS;
        p += sprintf(p, "%s(?1,?%d,?2,?%d,?%d,?%d)", i ? "," : "", b, b + 1, b + 2,
                     b + 3);
    }
    return s;
}

int store_open(const char *path, cow_store **out, cow_err *e)
{
    cow_store *st = xcalloc(1, sizeof(*st));
    char *multi = NULL;
    int i, rc;

    *out = NULL;
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        rc = COW_FAIL(e, COW_ESQL, "cannot open database %s: %s", path,
                      st->db ? sqlite3_errmsg(st->db) : "out of memory");
        store_close(st);
        return rc;
    }
    sqlite3_busy_timeout(st->db, 5000);
    /* page_size only takes on a new database (before WAL is set) */
    if ((rc = exec(st, "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL;"
                       " PRAGMA synchronous = NORMAL;"
                       " PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;",
                   e)) != COW_OK ||
        (rc = migrate(st, e)) != COW_OK) {
        char msg[sizeof(e->msg)];
        snprintf(msg, sizeof(msg), "%s", e->msg);
        COW_FAIL(e, rc, "database %s: %s", path, msg);
        store_close(st);
        return rc;
    }
    multi = multi_insert_sql();
    for (i = 0; i < SQL_COUNT; i++) {
        const char *sql = i == SQL_SAMPLE_N ? multi : sql_text[i];
        if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &st->stmt[i], NULL) != SQLITE_OK) {
            rc = COW_FAIL(e, COW_ESQL, "preparing statement %d: %s", i,
                          sqlite3_errmsg(st->db));
            free(multi);
            store_close(st);
            return rc;
        }
    }
    free(multi);
    *out = st;
    return COW_OK;
}

void store_close(cow_store *st)
{
    size_t i;
    if (st == NULL)
        return;
    for (i = 0; i < SQL_COUNT; i++)
        sqlite3_finalize(st->stmt[i]);
    for (i = 0; i < st->nops; i++)
        free(st->ops[i].copy);
    free(st->ops);
    sqlite3_close(st->db);
    free(st);
}

/* Run a prepared statement that returns no rows. */
static int step_done(cow_store *st, sqlite3_stmt *q, cow_err *e, const char *what)
{
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc != SQLITE_DONE)
        return sql_fail(st, e, what);
    return COW_OK;
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

static void bind_text(sqlite3_stmt *q, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, i);
}

static void bind_num(sqlite3_stmt *q, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_double(q, i, v);
}

static void bind_t(sqlite3_stmt *q, int i, int64_t t)
{
    if (t)
        sqlite3_bind_int64(q, i, t);
    else
        sqlite3_bind_null(q, i);
}

int store_run_upsert(cow_store *st, const cow_run_meta *m, int64_t *run_id,
                     cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_RUN_FIND];
    int rc;

    sqlite3_bind_text(q, 1, m->label, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    *run_id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "finding run");
    if (*run_id == 0) {
        q = st->stmt[SQL_RUN_ADD];
        sqlite3_bind_text(q, 1, m->label, -1, SQLITE_STATIC);
        bind_text(q, 2, m->path);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)time(NULL));
        if ((rc = step_done(st, q, e, "adding run")) != COW_OK)
            return rc;
        *run_id = sqlite3_last_insert_rowid(st->db);
    }
    q = st->stmt[SQL_RUN_META];
    sqlite3_bind_int64(q, 1, *run_id);
    bind_text(q, 2, m->path);
    bind_text(q, 3, m->scenario);
    bind_text(q, 4, m->mode);
    bind_text(q, 5, m->host);
    if (m->trial >= 0)
        sqlite3_bind_int64(q, 6, m->trial);
    bind_text(q, 7, m->meta);
    return step_done(st, q, e, "updating run");
}

int store_file_seen(cow_store *st, int64_t run, const char *sha256,
                    const char *name, int *seen, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FILE_SEEN];
    int rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, sha256, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "looking up file digest");
    *seen = rc == SQLITE_ROW;
    return COW_OK;
}

int store_file_size_seen(cow_store *st, int64_t run, int64_t size, int *seen,
                         cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FILE_SIZE];
    int rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, size);
    rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "looking up file size");
    *seen = rc == SQLITE_ROW;
    return COW_OK;
}

/* This machine's name, recorded with each file it ingests (provenance once
 * databases are merged); NULL when the system will not say. */
static const char *this_host(void)
{
    static char name[256];
    static int done;
    if (!done) {
        if (gethostname(name, sizeof(name) - 1) != 0)
            name[0] = '\0';
        done = 1;
    }
    return name[0] ? name : NULL;
}

int store_file_begin(cow_store *st, int64_t run, const char *path,
                     int64_t size, const char *parser, int64_t *file_id,
                     cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FILE_ADD];
    int rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, size);
    sqlite3_bind_text(q, 4, parser, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)time(NULL));
    bind_text(q, 6, this_host());
    if ((rc = step_done(st, q, e, "adding file")) != COW_OK)
        return rc;
    *file_id = sqlite3_last_insert_rowid(st->db);
    return COW_OK;
}

int store_file_end(cow_store *st, int64_t file, const char *sha256,
                   int64_t rows, int64_t rejected, const char *notes,
                   cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FILE_END];
    sqlite3_bind_int64(q, 1, file);
    sqlite3_bind_text(q, 2, sha256, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, rows);
    sqlite3_bind_int64(q, 4, rejected);
    bind_text(q, 5, notes);
    return step_done(st, q, e, "finishing file");
}

/* ops.id of a name; 0 for NULL. The parser interns names, so the pointer
 * compare almost always hits. */
static int op_id(cow_store *st, const char *name, int64_t *id, cow_err *e)
{
    sqlite3_stmt *q;
    size_t i;
    int rc;

    *id = 0;
    if (name == NULL)
        return COW_OK;
    for (i = 0; i < st->nops; i++) /* pointers first: names are interned */
        if (st->ops[i].name == name) {
            *id = st->ops[i].id;
            return COW_OK;
        }
    for (i = 0; i < st->nops; i++)
        if (strcmp(st->ops[i].copy, name) == 0) {
            st->ops[i].name = name;
            *id = st->ops[i].id;
            return COW_OK;
        }
    q = st->stmt[SQL_OP_FIND];
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(q, 0);
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "finding op");
    if (*id == 0) {
        q = st->stmt[SQL_OP_ADD];
        sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
        if ((rc = step_done(st, q, e, "adding op")) != COW_OK)
            return rc;
        *id = sqlite3_last_insert_rowid(st->db);
    }
    st->ops = xgrow(st->ops, sizeof(opcache), st->nops + 1, &st->capops);
    st->ops[st->nops].name = name;
    st->ops[st->nops].copy = xstrdup(name);
    st->ops[st->nops++].id = *id;
    return COW_OK;
}

/* Bind t_us, seq, lat_us, op of one sample at parameters b..b+3. */
static int bind_sample(cow_store *st, sqlite3_stmt *q, int b, int64_t file,
                       const cow_sample *s, cow_err *e)
{
    int64_t op;
    int rc;
    if ((rc = op_id(st, s->op, &op, e)) != COW_OK)
        return rc;
    if (file != st->seq_file) {
        st->seq_file = file;
        st->seq = 0;
    }
    sqlite3_bind_int64(q, b, s->t_us);
    sqlite3_bind_int64(q, b + 1, ++st->seq);
    sqlite3_bind_double(q, b + 2, s->lat_us);
    if (op)
        sqlite3_bind_int64(q, b + 3, op);
    else
        sqlite3_bind_null(q, b + 3);
    return COW_OK;
}

int store_add_samples(cow_store *st, int64_t run, int64_t file,
                      const cow_sample *s, size_t n, cow_err *e)
{
    size_t i = 0, j;
    int rc;

    for (; i + STORE_ROWS <= n; i += STORE_ROWS) {
        sqlite3_stmt *q = st->stmt[SQL_SAMPLE_N];
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int64(q, 2, file);
        for (j = 0; j < STORE_ROWS; j++)
            if ((rc = bind_sample(st, q, 3 + (int)j * STORE_ROW_BINDS, file, &s[i + j],
                                  e)) != COW_OK)
                return rc;
        rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc != SQLITE_DONE)
            return sql_fail(st, e, "adding samples");
    }
    for (; i < n; i++) {
        sqlite3_stmt *q = st->stmt[SQL_SAMPLE_1];
        sqlite3_bind_int64(q, 1, run);
        sqlite3_bind_int64(q, 2, file);
        if ((rc = bind_sample(st, q, 3, file, &s[i], e)) != COW_OK)
            return rc;
        if ((rc = step_done(st, q, e, "adding sample")) != COW_OK)
            return rc;
    }
    return COW_OK;
}

/* Keep at most this much of a rejected line. */
#define STORE_EXCERPT 200

static int add_reject(cow_store *st, int64_t file, const cow_reject *r, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_REJECT];
    size_t n = r->n < STORE_EXCERPT ? r->n : STORE_EXCERPT;
    sqlite3_bind_int64(q, 1, file);
    sqlite3_bind_int64(q, 2, r->line);
    sqlite3_bind_text(q, 3, r->reason, -1, SQLITE_STATIC);
    if (r->text)
        sqlite3_bind_text(q, 4, r->text, (int)n, SQLITE_STATIC);
    return step_done(st, q, e, "adding reject");
}

int store_add_rec(cow_store *st, int64_t run, int64_t file, const cow_rec *r,
                  cow_err *e)
{
    sqlite3_stmt *q;

    switch ((enum cow_rec_kind)r->kind) {
    case COW_REC_REJECT:
        return add_reject(st, file, &r->u.reject, e);
    case COW_REC_EVENT: {
        const cow_event *v = &r->u.event;
        q = st->stmt[SQL_EVENT];
        sqlite3_bind_int64(q, 3, v->line);
        sqlite3_bind_int64(q, 4, v->t_us);
        bind_text(q, 5, v->kind);
        if (v->pid)
            sqlite3_bind_int64(q, 6, v->pid);
        bind_num(q, 7, v->value);
        bind_text(q, 8, v->unit);
        bind_text(q, 9, v->text);
        break;
    }
    case COW_REC_INFO: {
        const cow_info *v = &r->u.info;
        q = st->stmt[SQL_INFO];
        sqlite3_bind_int64(q, 3, v->line);
        sqlite3_bind_int64(q, 4, v->dump);
        bind_t(q, 5, v->t_us);
        bind_text(q, 6, v->section);
        bind_text(q, 7, v->key);
        bind_text(q, 8, v->sub);
        bind_text(q, 9, v->text);
        bind_num(q, 10, v->num);
        break;
    }
    case COW_REC_STAT: {
        const cow_stat *v = &r->u.stat;
        q = st->stmt[SQL_STAT];
        sqlite3_bind_int64(q, 3, v->line);
        bind_t(q, 4, v->t_us);
        bind_text(q, 5, v->source);
        bind_text(q, 6, v->key);
        bind_text(q, 7, v->text);
        bind_num(q, 8, v->num);
        bind_text(q, 9, v->unit);
        break;
    }
    case COW_REC_MEM: {
        const cow_mem *v = &r->u.mem;
        q = st->stmt[SQL_MEM];
        sqlite3_bind_int64(q, 3, v->t_us);
        sqlite3_bind_double(q, 4, v->bytes);
        bind_text(q, 5, v->what);
        break;
    }
    case COW_REC_LATMON: {
        const cow_latmon *v = &r->u.latmon;
        q = st->stmt[SQL_LATMON];
        sqlite3_bind_int64(q, 3, v->line);
        bind_t(q, 4, v->t_us);
        bind_text(q, 5, v->kind);
        bind_text(q, 6, v->event);
        bind_num(q, 7, v->lat_ms);
        bind_num(q, 8, v->max_ms);
        bind_text(q, 9, v->text);
        sqlite3_bind_int(q, 10, v->none_observed);
        break;
    }
    case COW_REC_INTERVAL: {
        const cow_interval *v = &r->u.interval;
        q = st->stmt[SQL_INTERVAL];
        sqlite3_bind_int64(q, 3, v->line);
        bind_t(q, 4, v->t_us);
        bind_num(q, 5, v->dur_s);
        bind_num(q, 6, v->min_us);
        bind_num(q, 7, v->max_us);
        bind_num(q, 8, v->avg_us);
        sqlite3_bind_int64(q, 9, v->count);
        bind_text(q, 10, v->op);
        break;
    }
    case COW_REC_PCTL: {
        const cow_pctl *v = &r->u.pctl;
        q = st->stmt[SQL_PCTL];
        sqlite3_bind_int64(q, 3, v->line);
        bind_text(q, 4, v->source);
        bind_text(q, 5, v->op);
        bind_t(q, 6, v->t_us);
        sqlite3_bind_double(q, 7, v->q);
        sqlite3_bind_double(q, 8, v->value_us);
        if (v->count)
            sqlite3_bind_int64(q, 9, v->count);
        break;
    }
    case COW_REC_SAMPLE:
    case COW_REC_NOTE:
    default:
        return COW_FAIL(e, COW_EINTERNAL, "store_add_rec: record kind %d "
                        "has its own entry point", r->kind);
    }
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, file);
    return step_done(st, q, e, "adding record");
}

/* ------------------------------------------------------------ analysis */

int store_load_samples(cow_store *st, int64_t run, int64_t **t_us,
                       double **lat_us, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_COUNT_SAMPLES];
    size_t cap, k = 0;
    int rc;

    *t_us = NULL;
    *lat_us = NULL;
    *n = 0;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    cap = rc == SQLITE_ROW ? (size_t)sqlite3_column_int64(q, 0) : 0;
    sqlite3_reset(q);
    if (rc != SQLITE_ROW)
        return sql_fail(st, e, "counting samples");
    *t_us = xmalloc((cap ? cap : 1) * sizeof(int64_t));
    *lat_us = xmalloc((cap ? cap : 1) * sizeof(double));
    q = st->stmt[SQL_LOAD_SAMPLES];
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && k < cap) {
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*lat_us)[k++] = sqlite3_column_double(q, 1);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        free(*t_us);
        free(*lat_us);
        *t_us = NULL;
        *lat_us = NULL;
        return sql_fail(st, e, "loading samples");
    }
    *n = k;
    return COW_OK;
}

int store_sample_span(cow_store *st, int64_t run, size_t *n, int64_t *t_first_us,
                      int64_t *t_last_us, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_SAMPLE_SPAN];
    int rc;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    *n = rc == SQLITE_ROW ? (size_t)sqlite3_column_int64(q, 0) : 0;
    *t_first_us = rc == SQLITE_ROW ? sqlite3_column_int64(q, 1) : 0;
    *t_last_us = rc == SQLITE_ROW ? sqlite3_column_int64(q, 2) : 0;
    sqlite3_reset(q);
    if (rc != SQLITE_ROW)
        return sql_fail(st, e, "counting samples");
    return COW_OK;
}

int store_load_latencies(cow_store *st, int64_t run, int64_t t0_us, int64_t t1_us,
                         double **lat, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_LAT];
    size_t cap = 0, k = 0;
    int rc;

    *lat = NULL;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, t0_us);
    sqlite3_bind_int64(q, 3, t1_us);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (k == cap)
            *lat = xgrow(*lat, sizeof(double), k + 1, &cap);
        (*lat)[k++] = sqlite3_column_double(q, 0);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE) {
        free(*lat);
        *lat = NULL;
        *n = 0;
        return sql_fail(st, e, "loading latencies");
    }
    return COW_OK;
}

static const char *pool_dup(cow_event_set *s, sqlite3_stmt *q, int i, size_t *cap)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    if (t == NULL)
        return NULL;
    s->pool = xgrow(s->pool, sizeof(char *), s->npool + 1, cap);
    s->pool[s->npool] = xstrdup((const char *)t);
    return s->pool[s->npool++];
}

int store_load_events(cow_store *st, int64_t run, cow_event_set *out, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_EVENTS];
    size_t cap = 0, pcap = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_event *v;
        out->v = xgrow(out->v, sizeof(cow_event), out->n + 1, &cap);
        v = &out->v[out->n++];
        v->t_us = sqlite3_column_int64(q, 0);
        v->kind = pool_dup(out, q, 1, &pcap);
        v->pid = (long)sqlite3_column_int64(q, 2);
        v->value = sqlite3_column_type(q, 3) == SQLITE_NULL ? NAN
                                                            : sqlite3_column_double(q, 3);
        v->unit = pool_dup(out, q, 4, &pcap);
        v->text = pool_dup(out, q, 5, &pcap);
        v->line = (long)sqlite3_column_int64(q, 6);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE) {
        store_free_events(out);
        return sql_fail(st, e, "loading events");
    }
    return COW_OK;
}

void store_free_events(cow_event_set *s)
{
    size_t i;
    for (i = 0; i < s->npool; i++)
        free(s->pool[i]);
    free(s->pool);
    free(s->v);
    memset(s, 0, sizeof(*s));
}

int store_load_info_series(cow_store *st, int64_t run, const char *key,
                           int64_t **t_us, double **num, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_INFO];
    size_t cap = 0, cap2 = 0, k = 0;
    int rc;

    *t_us = NULL;
    *num = NULL;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *t_us = xgrow(*t_us, sizeof(int64_t), k + 1, &cap);
        *num = xgrow(*num, sizeof(double), k + 1, &cap2);
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*num)[k++] = sqlite3_column_double(q, 1);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE)
        return sql_fail(st, e, "loading INFO series");
    return COW_OK;
}

int store_analysis_begin(cow_store *st, int64_t run, uint64_t seed,
                         int resamples, const char *method, cow_err *e)
{
    static const int dels[] = {SQL_DEL_ANALYSIS, SQL_DEL_PHASES, SQL_DEL_QUANTILES,
                               SQL_DEL_DELTAS, SQL_DEL_EXCEED};
    sqlite3_stmt *q;
    size_t i;
    int rc;

    for (i = 0; i < sizeof(dels) / sizeof(dels[0]); i++) {
        q = st->stmt[dels[i]];
        sqlite3_bind_int64(q, 1, run);
        if ((rc = step_done(st, q, e, "clearing old results")) != COW_OK)
            return rc;
    }
    q = st->stmt[SQL_PUT_ANALYSIS];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)seed);
    sqlite3_bind_int(q, 3, resamples);
    sqlite3_bind_text(q, 4, method, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)time(NULL));
    return step_done(st, q, e, "recording analysis");
}

int store_put_phase(cow_store *st, int64_t run, const cow_phase_row *p, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_PUT_PHASE];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, p->idx);
    bind_text(q, 3, p->kind);
    bind_text(q, 4, p->label);
    sqlite3_bind_int64(q, 5, p->t0_us);
    sqlite3_bind_int64(q, 6, p->t1_us);
    bind_t(q, 7, p->fork_us);
    if (p->child_pid)
        sqlite3_bind_int64(q, 8, p->child_pid);
    bind_text(q, 9, p->source);
    sqlite3_bind_int(q, 10, p->overlap);
    sqlite3_bind_int(q, 11, p->open);
    sqlite3_bind_int(q, 12, p->failed);
    sqlite3_bind_int64(q, 13, p->n);
    bind_num(q, 14, p->mean_us);
    bind_num(q, 15, p->min_us);
    bind_num(q, 16, p->max_us);
    bind_num(q, 17, p->grid_us);
    return step_done(st, q, e, "storing phase");
}

int store_put_quantile(cow_store *st, int64_t run, const cow_quantile_row *r,
                       cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_PUT_QUANTILE];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, r->phase);
    sqlite3_bind_double(q, 3, r->q);
    bind_num(q, 4, r->value_us);
    bind_num(q, 5, r->lo_us);
    bind_num(q, 6, r->hi_us);
    sqlite3_bind_int64(q, 7, r->n_needed);
    sqlite3_bind_int(q, 8, r->thin);
    return step_done(st, q, e, "storing quantile");
}

int store_put_delta(cow_store *st, int64_t run, const cow_delta_row *d,
                    cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_PUT_DELTA];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, d->phase);
    sqlite3_bind_int(q, 3, d->base);
    sqlite3_bind_double(q, 4, d->q);
    bind_num(q, 5, d->base_us);
    bind_num(q, 6, d->value_us);
    bind_num(q, 7, d->delta_us);
    bind_num(q, 8, d->lo_us);
    bind_num(q, 9, d->hi_us);
    bind_num(q, 10, d->ratio);
    bind_num(q, 11, d->ratio_lo);
    bind_num(q, 12, d->ratio_hi);
    bind_text(q, 13, d->verdict);
    sqlite3_bind_int(q, 14, d->thin);
    return step_done(st, q, e, "storing delta");
}

int store_put_exceed(cow_store *st, int64_t run, const cow_exceed_row *x,
                     cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_PUT_EXCEED];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, x->phase);
    sqlite3_bind_double(q, 3, x->base_q);
    sqlite3_bind_double(q, 4, x->threshold_us);
    sqlite3_bind_int64(q, 5, x->n);
    sqlite3_bind_int64(q, 6, x->count);
    bind_num(q, 7, x->p);
    bind_num(q, 8, x->lo);
    bind_num(q, 9, x->hi);
    return step_done(st, q, e, "storing exceedance");
}

/* ------------------------------------------------------------- facts */

static double col_num(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

/* Step q (bound by the caller); a row fills f from columns num, text,
 * path, line. */
static int fact_row(cow_store *st, sqlite3_stmt *q, cow_fact *f, cow_err *e)
{
    int rc = sqlite3_step(q);
    memset(f, 0, sizeof(*f));
    f->num = NAN;
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(q, 1);
        const unsigned char *p = sqlite3_column_text(q, 2);
        f->known = 1;
        f->num = col_num(q, 0);
        snprintf(f->text, sizeof(f->text), "%s", t ? (const char *)t : "");
        if (p)
            snprintf(f->src, sizeof(f->src), "%s:%lld", (const char *)p,
                     (long long)sqlite3_column_int64(q, 3));
    }
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading facts");
    return COW_OK;
}

static int fact_key(cow_store *st, int stmt, int64_t run, const char *key,
                    cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[stmt];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    return fact_row(st, q, f, e);
}

int store_fact_info_last(cow_store *st, int64_t run, const char *key, cow_fact *f,
                         cow_err *e)
{
    return fact_key(st, SQL_FACT_INFO_LAST, run, key, f, e);
}

int store_fact_info_max(cow_store *st, int64_t run, const char *key, cow_fact *f,
                        cow_err *e)
{
    return fact_key(st, SQL_FACT_INFO_MAX, run, key, f, e);
}

int store_fact_info_sub_max(cow_store *st, int64_t run, const char *key_prefix,
                            const char *sub, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_INFO_SUB_MAX];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, key_prefix, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, sub, -1, SQLITE_STATIC);
    return fact_row(st, q, f, e);
}

int store_fact_stat_max(cow_store *st, int64_t run, const char *source,
                        const char *key, int child, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_STAT_MAX];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, child != 0);
    return fact_row(st, q, f, e);
}

int store_fact_stat_last(cow_store *st, int64_t run, const char *source,
                         const char *key, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_STAT_LAST];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
    return fact_row(st, q, f, e);
}

int store_fact_event_count(cow_store *st, int64_t run, const char *kind,
                           cow_fact *f, cow_err *e)
{
    int rc = fact_key(st, SQL_FACT_EVENT_COUNT, run, kind, f, e);
    if (rc == COW_OK && !f->known) {
        f->known = 1; /* no such event: a count of zero */
        f->num = 0;
    }
    return rc;
}

int store_fact_event_max(cow_store *st, int64_t run, const char *kind,
                         cow_fact *f, cow_err *e)
{
    return fact_key(st, SQL_FACT_EVENT_MAX, run, kind, f, e);
}

int store_fact_latmon(cow_store *st, int64_t run, const char *what, cow_fact *f,
                      cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_LATMON];
    int rc, col = strcmp(what, "history") == 0 ? 1 : strcmp(what, "latest") == 0 ? 2 : 3;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW && sqlite3_column_int64(q, 0) > 0) {
        const unsigned char *p = sqlite3_column_text(q, 4);
        f->known = 1;
        f->num = (double)sqlite3_column_int64(q, col);
        if (p)
            snprintf(f->src, sizeof(f->src), "%s:%lld", (const char *)p,
                     (long long)sqlite3_column_int64(q, 5));
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading latency monitor");
    return COW_OK;
}

int store_load_mem(cow_store *st, int64_t run, int64_t **t_us, double **bytes,
                   size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_MEM];
    size_t c1 = 0, c2 = 0, k = 0;
    char first[64] = "";
    int rc;

    *t_us = NULL;
    *bytes = NULL;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const unsigned char *w = sqlite3_column_text(q, 2);
        const char *what = w ? (const char *)w : "";
        if (k == 0)
            snprintf(first, sizeof(first), "%s", what);
        else if (strcmp(first, what) != 0)
            break; /* one series: the preferred one */
        *t_us = xgrow(*t_us, sizeof(int64_t), k + 1, &c1);
        *bytes = xgrow(*bytes, sizeof(double), k + 1, &c2);
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*bytes)[k++] = sqlite3_column_double(q, 1);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return sql_fail(st, e, "loading memory series");
    return COW_OK;
}

int store_load_intervals(cow_store *st, int64_t run, int throughput,
                         int64_t **t_us, double **dur_s, double **count,
                         double **max_us, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_INTERVALS];
    size_t c1 = 0, c2 = 0, c3 = 0, c4 = 0, k = 0;
    int rc;

    *t_us = NULL;
    *dur_s = *count = *max_us = NULL;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, throughput != 0);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *t_us = xgrow(*t_us, sizeof(int64_t), k + 1, &c1);
        *dur_s = xgrow(*dur_s, sizeof(double), k + 1, &c2);
        *count = xgrow(*count, sizeof(double), k + 1, &c3);
        *max_us = xgrow(*max_us, sizeof(double), k + 1, &c4);
        (*t_us)[k] = sqlite3_column_int64(q, 0);
        (*dur_s)[k] = col_num(q, 1);
        (*count)[k] = col_num(q, 2);
        (*max_us)[k++] = col_num(q, 3);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE)
        return sql_fail(st, e, "loading intervals");
    return COW_OK;
}

int store_load_results(cow_store *st, int64_t run, cow_result_set *r, cow_err *e)
{
    sqlite3_stmt *q;
    size_t cap = 0;
    int rc;

    memset(r, 0, sizeof(*r));
    q = st->stmt[SQL_RES_ANALYSIS];
    sqlite3_bind_int64(q, 1, run);
    if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        r->analysed = 1;
        r->seed = (uint64_t)sqlite3_column_int64(q, 0);
        r->resamples = sqlite3_column_int(q, 1);
    }
    sqlite3_reset(q);
    q = st->stmt[SQL_RES_PHASES];
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_phase_row *p;
        r->ph = xgrow(r->ph, sizeof(*p), r->nph + 1, &cap);
        p = &r->ph[r->nph++];
        p->idx = sqlite3_column_int(q, 0);
        p->kind = col_dup(q, 1);
        p->label = col_dup(q, 2);
        p->t0_us = sqlite3_column_int64(q, 3);
        p->t1_us = sqlite3_column_int64(q, 4);
        p->fork_us = sqlite3_column_int64(q, 5);
        p->child_pid = (long)sqlite3_column_int64(q, 6);
        p->source = col_dup(q, 7);
        p->overlap = sqlite3_column_int(q, 8);
        p->open = sqlite3_column_int(q, 9);
        p->failed = sqlite3_column_int(q, 10);
        p->n = sqlite3_column_int64(q, 11);
        p->mean_us = col_num(q, 12);
        p->min_us = col_num(q, 13);
        p->max_us = col_num(q, 14);
        p->grid_us = col_num(q, 15);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        goto fail;
    cap = 0;
    q = st->stmt[SQL_RES_QUANTILES];
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_quantile_row *x;
        r->q = xgrow(r->q, sizeof(*x), r->nq + 1, &cap);
        x = &r->q[r->nq++];
        x->phase = sqlite3_column_int(q, 0);
        x->q = sqlite3_column_double(q, 1);
        x->value_us = col_num(q, 2);
        x->lo_us = col_num(q, 3);
        x->hi_us = col_num(q, 4);
        x->n_needed = sqlite3_column_int64(q, 5);
        x->thin = sqlite3_column_int(q, 6);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        goto fail;
    cap = 0;
    q = st->stmt[SQL_RES_DELTAS];
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_delta_row *d;
        r->d = xgrow(r->d, sizeof(*d), r->nd + 1, &cap);
        d = &r->d[r->nd++];
        d->phase = sqlite3_column_int(q, 0);
        d->base = sqlite3_column_int(q, 1);
        d->q = sqlite3_column_double(q, 2);
        d->base_us = col_num(q, 3);
        d->value_us = col_num(q, 4);
        d->delta_us = col_num(q, 5);
        d->lo_us = col_num(q, 6);
        d->hi_us = col_num(q, 7);
        d->ratio = col_num(q, 8);
        d->ratio_lo = col_num(q, 9);
        d->ratio_hi = col_num(q, 10);
        d->verdict = col_dup(q, 11);
        d->thin = sqlite3_column_int(q, 12);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        goto fail;
    cap = 0;
    q = st->stmt[SQL_RES_EXCEED];
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_exceed_row *x;
        r->x = xgrow(r->x, sizeof(*x), r->nx + 1, &cap);
        x = &r->x[r->nx++];
        x->phase = sqlite3_column_int(q, 0);
        x->base_q = sqlite3_column_double(q, 1);
        x->threshold_us = sqlite3_column_double(q, 2);
        x->n = sqlite3_column_int64(q, 3);
        x->count = sqlite3_column_int64(q, 4);
        x->p = col_num(q, 5);
        x->lo = col_num(q, 6);
        x->hi = col_num(q, 7);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        goto fail;
    return COW_OK;
fail:
    store_free_results(r);
    return sql_fail(st, e, "loading results");
}

void store_free_results(cow_result_set *r)
{
    size_t i;
    for (i = 0; i < r->nph; i++) {
        free((char *)r->ph[i].kind);
        free((char *)r->ph[i].label);
        free((char *)r->ph[i].source);
    }
    for (i = 0; i < r->nd; i++)
        free((char *)r->d[i].verdict);
    free(r->ph);
    free(r->q);
    free(r->d);
    free(r->x);
    memset(r, 0, sizeof(*r));
}

int store_load_findings(cow_store *st, int64_t run, cow_finding_row **rows,
                        size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_LOAD_FINDINGS];
    size_t cap = 0, k = 0;
    int rc;

    *rows = NULL;
    sqlite3_bind_int64(q, 1, run);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_finding_row *f;
        *rows = xgrow(*rows, sizeof(**rows), k + 1, &cap);
        f = &(*rows)[k++];
        f->rule = col_dup(q, 0);
        f->severity = col_dup(q, 1);
        f->title = col_dup(q, 2);
        f->evidence = col_dup(q, 3);
        f->recommendation = col_dup(q, 4);
    }
    sqlite3_reset(q);
    *n = k;
    if (rc != SQLITE_DONE) {
        store_free_findings(*rows, k);
        *rows = NULL;
        *n = 0;
        return sql_fail(st, e, "loading findings");
    }
    return COW_OK;
}

void store_free_findings(cow_finding_row *rows, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(rows[i].rule);
        free(rows[i].severity);
        free(rows[i].title);
        free(rows[i].evidence);
        free(rows[i].recommendation);
    }
    free(rows);
}

int store_add_refusal(cow_store *st, int64_t run, const char *label,
                      const char *path, long line, const char *parser,
                      const char *code, const char *reason, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_ADD_REFUSAL];
    if (run)
        sqlite3_bind_int64(q, 1, run);
    bind_text(q, 2, label);
    bind_text(q, 3, path);
    if (line > 0)
        sqlite3_bind_int64(q, 4, line);
    bind_text(q, 5, parser);
    bind_text(q, 6, code);
    bind_text(q, 7, reason);
    sqlite3_bind_int64(q, 8, (sqlite3_int64)time(NULL));
    return step_done(st, q, e, "recording a refused file");
}

int store_fact_refusals(cow_store *st, const char *label, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_FACT_REFUSALS];
    int rc;
    sqlite3_bind_text(q, 1, label, -1, SQLITE_STATIC);
    rc = fact_row(st, q, f, e);
    if (rc == COW_OK && !f->known) {
        f->known = 1;
        f->num = 0;
    }
    return rc;
}

int store_clear_findings(cow_store *st, int64_t run, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_DEL_FINDINGS];
    sqlite3_bind_int64(q, 1, run);
    return step_done(st, q, e, "clearing findings");
}

int store_put_finding(cow_store *st, int64_t run, int seq, const char *rule,
                      const char *severity, const char *title,
                      const char *evidence_json, const char *recommendation,
                      cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_PUT_FINDING];
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_int(q, 2, seq);
    bind_text(q, 3, rule);
    bind_text(q, 4, severity);
    bind_text(q, 5, title);
    bind_text(q, 6, evidence_json);
    bind_text(q, 7, recommendation);
    return step_done(st, q, e, "storing finding");
}

static char *col_dup(sqlite3_stmt *q, int i)
{
    const unsigned char *s = sqlite3_column_text(q, i);
    return s ? xstrdup((const char *)s) : NULL;
}

int store_list_runs(cow_store *st, cow_run_row **rows, size_t *n, cow_err *e)
{
    sqlite3_stmt *q = st->stmt[SQL_RUNS];
    cow_run_row *v = NULL;
    size_t k = 0, cap = 0;
    int rc;

    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        cow_run_row *r;
        v = xgrow(v, sizeof(*v), k + 1, &cap);
        r = &v[k++];
        r->id = sqlite3_column_int64(q, 0);
        r->label = col_dup(q, 1);
        r->scenario = col_dup(q, 2);
        r->mode = col_dup(q, 3);
        r->host = col_dup(q, 4);
        r->trial = sqlite3_column_type(q, 5) == SQLITE_NULL
                       ? -1 : (long)sqlite3_column_int64(q, 5);
        r->files = sqlite3_column_int64(q, 6);
        r->samples = sqlite3_column_int64(q, 7);
        r->rejected = sqlite3_column_int64(q, 8);
        r->events = sqlite3_column_int64(q, 9);
        r->t_first_us = sqlite3_column_int64(q, 10);
        r->t_last_us = sqlite3_column_int64(q, 11);
        r->phases = col_dup(q, 12);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE) {
        store_free_runs(v, k);
        return sql_fail(st, e, "listing runs");
    }
    *rows = v;
    *n = k;
    return COW_OK;
}

void store_free_runs(cow_run_row *rows, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(rows[i].label);
        free(rows[i].scenario);
        free(rows[i].mode);
        free(rows[i].host);
        free(rows[i].phases);
    }
    free(rows);
}
