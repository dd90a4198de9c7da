/* store_runfacts.c -- the run_facts table (store_runfacts.h): the one
 * list of the facts' names and types, and their row per run. The SQL is
 * built from the list, so a fact is added here and in a migration only
 * (test_store checks the two agree, and schemas/clickhouse.sql). */
#include "store_runfacts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "mem.h"
#include "store_int.h"

#define T COW_RF_TEXT, "Nullable(String)"
#define I COW_RF_INT, "Nullable(Int64)"
const cow_rf_col cow_rf_cols[COW_RF_COUNT] = {
    [RF_SERVER_KIND] = {"server_kind", T, "redis / valkey (INFO: which version field)"},
    [RF_SERVER_VERSION] = {"server_version", T, "INFO redis_version / valkey_version"},
    [RF_ROLE] = {"role", T, "INFO role: master / slave"},
    [RF_KERNEL] = {"kernel_release", T, "kernel release, from INFO os"},
    [RF_THP_ENABLED] = {"thp_enabled", T, "transparent_hugepage/enabled: always / madvise / never"},
    [RF_THP_DEFRAG] = {"thp_defrag", T, "transparent_hugepage/defrag"},
    [RF_ANON_HUGE] = {"anon_huge_bytes", I,
                      "the server's AnonHugePages at the first window's start, bytes"},
    [RF_USED_MEMORY] = {"used_memory", I, "INFO used_memory, bytes"},
    [RF_MAXMEMORY] = {"maxmemory", I, "INFO maxmemory, bytes (0: no limit)"},
    [RF_KEYS] = {"keys", I, "keys of the largest db (INFO keyspace)"},
    [RF_OVERCOMMIT] = {"vm_overcommit_memory", I, "sysctl vm.overcommit_memory"},
    [RF_SWAPPINESS] = {"vm_swappiness", I, "sysctl vm.swappiness"},
    [RF_DISKLESS] = {"repl_diskless_sync", T, "CONFIG repl-diskless-sync: yes / no"},
    [RF_SAVE] = {"save_rules", T, "CONFIG save, as written (\"\": no RDB snapshots)"},
    [RF_APPENDONLY] = {"appendonly", T, "CONFIG appendonly: yes / no"},
    [RF_FORK_USEC] = {"latest_fork_usec", I, "INFO latest_fork_usec, microseconds"},
    [RF_COW_BYTES] = {"cow_bytes", I,
                      "copy-on-write of the last save, bytes (INFO rdb/aof_last_cow_size, "
                      "else the log's 'MB of memory used by copy-on-write')"},
    [RF_PERSISTENCE] = {"persistence", T, "fork / forkless (run.json mode, else INFO)"},
};
#undef T
#undef I

void store_run_facts_cols(char *buf, size_t cap, const char *prefix)
{
    size_t n = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < COW_RF_COUNT && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s%s, %s%s_src", i ? ", " : "", prefix,
                              cow_rf_cols[i].name, prefix, cow_rf_cols[i].name);
    if (n < cap)
        snprintf(buf + n, cap - n, ", %sstored_at", prefix);
}

/* "INSERT OR REPLACE INTO run_facts(run, a, a_src, ..., stored_at) VALUES(?1, ...)" */
static void put_sql(char *buf, size_t cap)
{
    size_t n = 0;
    int i;
    n += (size_t)snprintf(buf + n, cap - n, "INSERT OR REPLACE INTO run_facts(run");
    for (i = 0; i < COW_RF_COUNT; i++)
        n += (size_t)snprintf(buf + n, cap - n, ", %s, %s_src", cow_rf_cols[i].name,
                              cow_rf_cols[i].name);
    n += (size_t)snprintf(buf + n, cap - n, ", stored_at) VALUES(?1");
    for (i = 0; i < 2 * COW_RF_COUNT + 1; i++)
        n += (size_t)snprintf(buf + n, cap - n, ", ?%d", i + 2);
    snprintf(buf + n, cap - n, ")");
}

static void get_sql(char *buf, size_t cap)
{
    size_t n = 0;
    int i;
    n += (size_t)snprintf(buf + n, cap - n, "SELECT run");
    for (i = 0; i < COW_RF_COUNT; i++)
        n += (size_t)snprintf(buf + n, cap - n, ", %s, %s_src", cow_rf_cols[i].name,
                              cow_rf_cols[i].name);
    snprintf(buf + n, cap - n, " FROM run_facts WHERE run = ?1");
}

int store_run_facts_put(cow_store *st, int64_t run, const cow_fact v[COW_RF_COUNT],
                        cow_err *e)
{
    char sql[2048];
    sqlite3_stmt *q;
    struct timeval tv;
    int i, rc;

    put_sql(sql, sizeof(sql));
    if ((rc = prep(st, sql, &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    for (i = 0; i < COW_RF_COUNT; i++) {
        int at = 2 + 2 * i;
        if (!v[i].known)
            sqlite3_bind_null(q, at);
        else if (cow_rf_cols[i].type == COW_RF_INT && !isnan(v[i].num))
            sqlite3_bind_int64(q, at, (sqlite3_int64)llround(v[i].num));
        else if (cow_rf_cols[i].type == COW_RF_TEXT)
            sqlite3_bind_text(q, at, v[i].text, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(q, at);
        if (v[i].known && v[i].src[0])
            sqlite3_bind_text(q, at + 1, v[i].src, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(q, at + 1);
    }
    gettimeofday(&tv, NULL);
    sqlite3_bind_int64(q, 2 + 2 * COW_RF_COUNT, (int64_t)tv.tv_sec * 1000000 + tv.tv_usec);
    rc = sqlite3_step(q);
    unprep(st, q);
    if (rc != SQLITE_DONE)
        return sql_fail(st, e, "storing the run's facts");
    return COW_OK;
}

int store_run_facts_get(cow_store *st, int64_t run, cow_fact v[COW_RF_COUNT],
                        int *present, cow_err *e)
{
    char sql[2048];
    sqlite3_stmt *q;
    int i, rc;

    memset(v, 0, sizeof(cow_fact) * COW_RF_COUNT);
    for (i = 0; i < COW_RF_COUNT; i++)
        v[i].num = NAN;
    *present = 0;
    get_sql(sql, sizeof(sql));
    if ((rc = prep(st, sql, &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *present = 1;
        for (i = 0; i < COW_RF_COUNT; i++) {
            int at = 1 + 2 * i;
            if (sqlite3_column_type(q, at) == SQLITE_NULL)
                continue;
            v[i].known = 1;
            if (cow_rf_cols[i].type == COW_RF_INT)
                v[i].num = sqlite3_column_double(q, at);
            snprintf(v[i].text, sizeof(v[i].text), "%s", col_text(q, at));
            snprintf(v[i].src, sizeof(v[i].src), "%s", col_text(q, at + 1));
        }
    }
    unprep(st, q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading the run's facts");
    return COW_OK;
}

int store_fact_stat_at(cow_store *st, int64_t run, const char *source, const char *key,
                       int64_t t_us, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q;
    int rc;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    if ((rc = prep(st,
                   "SELECT s.num, s.text, f.path, s.line FROM stats s"
                   " JOIN files f ON f.id = s.file"
                   " WHERE s.run = ?1 AND s.source = ?2 AND s.key = ?3 AND s.num IS NOT NULL"
                   " AND f.path NOT LIKE '%child%'"
                   " ORDER BY coalesce(s.t_us, 0) <= ?4 DESC,"
                   " CASE WHEN coalesce(s.t_us, 0) <= ?4 THEN -coalesce(s.t_us, 0)"
                   " ELSE coalesce(s.t_us, 0) END, s.rowid LIMIT 1",
                   &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 4, t_us);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        f->known = 1;
        f->num = col_num(q, 0);
        snprintf(f->text, sizeof(f->text), "%s", col_text(q, 1));
        snprintf(f->src, sizeof(f->src), "%s:%lld", col_text(q, 2),
                 (long long)sqlite3_column_int64(q, 3));
    }
    unprep(st, q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading a fact");
    return COW_OK;
}

int store_run_facts_row(cow_store *st, int64_t run, cow_run_row **out, cow_err *e)
{
    sqlite3_stmt *q;
    cow_run_row *r;
    int rc;

    *out = NULL;
    if ((rc = prep(st, "SELECT label, mode, host FROM runs WHERE id = ?1", &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    rc = sqlite3_step(q);
    if (rc != SQLITE_ROW) {
        unprep(st, q);
        if (rc == SQLITE_DONE)
            return COW_FAIL(e, COW_EINTERNAL, "no run %lld in the database", (long long)run);
        return sql_fail(st, e, "reading a run");
    }
    r = xcalloc(1, sizeof(*r));
    r->id = run;
    r->trial = -1;
    r->label = xstrdup(col_text(q, 0));
    r->mode = col_dup(q, 1);
    r->host = col_dup(q, 2);
    unprep(st, q);
    *out = r;
    return COW_OK;
}
