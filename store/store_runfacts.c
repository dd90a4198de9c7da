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
#define SRV 1 /* a server's own: per server too (server_facts) */
#define RUN 0 /* the host's or the run's: per run only */
const cow_rf_col cow_rf_cols[COW_RF_COUNT] = {
    [RF_SERVER_KIND] = {"server_kind", T, "redis / valkey (INFO: which version field)", SRV},
    [RF_SERVER_VERSION] = {"server_version", T, "INFO redis_version / valkey_version", SRV},
    [RF_ROLE] = {"role", T, "INFO role: master / slave", SRV},
    [RF_KERNEL] = {"kernel_release", T, "kernel release, from INFO os", RUN},
    [RF_THP_ENABLED] = {"thp_enabled", T,
                        "transparent_hugepage/enabled: always / madvise / never", RUN},
    [RF_THP_DEFRAG] = {"thp_defrag", T, "transparent_hugepage/defrag", RUN},
    [RF_ANON_HUGE] = {"anon_huge_bytes", I,
                      "the server's AnonHugePages at the first window's start, bytes", SRV},
    [RF_USED_MEMORY] = {"used_memory", I, "INFO used_memory, bytes", SRV},
    [RF_MAXMEMORY] = {"maxmemory", I, "INFO maxmemory, bytes (0: no limit)", SRV},
    [RF_KEYS] = {"keys", I, "keys of the largest db (INFO keyspace)", SRV},
    [RF_OVERCOMMIT] = {"vm_overcommit_memory", I, "sysctl vm.overcommit_memory", RUN},
    [RF_SWAPPINESS] = {"vm_swappiness", I, "sysctl vm.swappiness", RUN},
    [RF_DISKLESS] = {"repl_diskless_sync", T, "CONFIG repl-diskless-sync: yes / no", SRV},
    [RF_SAVE] = {"save_rules", T, "CONFIG save, as written (\"\": no RDB snapshots)", SRV},
    [RF_APPENDONLY] = {"appendonly", T, "CONFIG appendonly: yes / no", SRV},
    [RF_FORK_USEC] = {"latest_fork_usec", I, "INFO latest_fork_usec, microseconds", SRV},
    [RF_COW_BYTES] = {"cow_bytes", I,
                      "copy-on-write of the last save, bytes (INFO rdb/aof_last_cow_size, "
                      "else the log's 'MB of memory used by copy-on-write')", SRV},
    [RF_PERSISTENCE] = {"persistence", T, "fork / forkless (run.json mode)", RUN},
};
#undef T
#undef I
#undef SRV
#undef RUN

/* Column i is in the table: run_facts has every fact, server_facts a
 * server's own. */
static int in_table(int i, int per_server)
{
    return !per_server || cow_rf_cols[i].server;
}

static void facts_cols(char *buf, size_t cap, const char *prefix, int per_server)
{
    size_t n = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < COW_RF_COUNT && n < cap; i++)
        if (in_table(i, per_server))
            n += (size_t)snprintf(buf + n, cap - n, "%s%s%s, %s%s_src", n ? ", " : "",
                                  prefix, cow_rf_cols[i].name, prefix, cow_rf_cols[i].name);
    if (n < cap)
        snprintf(buf + n, cap - n, ", %sstored_at", prefix);
}

void store_run_facts_cols(char *buf, size_t cap, const char *prefix)
{
    facts_cols(buf, cap, prefix, 0);
}

void store_server_facts_cols(char *buf, size_t cap, const char *prefix)
{
    facts_cols(buf, cap, prefix, 1);
}

/* "INSERT OR REPLACE INTO run_facts(run, a, a_src, ..., stored_at)
 * VALUES(?1, ?2, ...)"; server_facts: (run, server, ...) VALUES(?1, ?2, ...). */
static void put_sql(char *buf, size_t cap, int per_server)
{
    char cols[2400];
    size_t n = 0;
    int i, nv = 1 + per_server;

    facts_cols(cols, sizeof(cols), "", per_server);
    for (i = 0; i < COW_RF_COUNT; i++)
        nv += in_table(i, per_server) ? 2 : 0;
    n += (size_t)snprintf(buf + n, cap - n, "INSERT OR REPLACE INTO %s(run%s, %s) VALUES(?1",
                          per_server ? "server_facts" : "run_facts",
                          per_server ? ", server" : "", cols);
    for (i = 2; i <= nv + 1; i++)
        n += (size_t)snprintf(buf + n, cap - n, ", ?%d", i);
    snprintf(buf + n, cap - n, ")");
}

static void get_sql(char *buf, size_t cap, int per_server)
{
    char cols[2400];
    facts_cols(cols, sizeof(cols), "", per_server);
    snprintf(buf, cap, "SELECT %s FROM %s WHERE run = ?1%s", cols,
             per_server ? "server_facts" : "run_facts", per_server ? " AND server = ?2" : "");
}

static int facts_put(cow_store *st, int64_t run, int server, const cow_fact v[COW_RF_COUNT],
                     cow_err *e)
{
    char sql[2600];
    sqlite3_stmt *q;
    struct timeval tv;
    int i, rc, at = 2;

    put_sql(sql, sizeof(sql), server > 0);
    if ((rc = prep(st, sql, &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    if (server > 0)
        sqlite3_bind_int(q, at++, server);
    for (i = 0; i < COW_RF_COUNT; i++) {
        if (!in_table(i, server > 0))
            continue;
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
        at += 2;
    }
    gettimeofday(&tv, NULL);
    sqlite3_bind_int64(q, at, (int64_t)tv.tv_sec * 1000000 + tv.tv_usec);
    rc = sqlite3_step(q);
    unprep(st, q);
    if (rc != SQLITE_DONE)
        return sql_fail(st, e, "storing facts");
    return COW_OK;
}

static int facts_get(cow_store *st, int64_t run, int server, cow_fact v[COW_RF_COUNT],
                     int *present, cow_err *e)
{
    char sql[2600];
    sqlite3_stmt *q;
    int i, rc, at = 0;

    memset(v, 0, sizeof(cow_fact) * COW_RF_COUNT);
    for (i = 0; i < COW_RF_COUNT; i++)
        v[i].num = NAN;
    *present = 0;
    get_sql(sql, sizeof(sql), server > 0);
    if ((rc = prep(st, sql, &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    if (server > 0)
        sqlite3_bind_int(q, 2, server);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *present = 1;
        for (i = 0; i < COW_RF_COUNT; i++) {
            if (!in_table(i, server > 0))
                continue;
            at += 2;
            if (sqlite3_column_type(q, at - 2) == SQLITE_NULL)
                continue;
            v[i].known = 1;
            if (cow_rf_cols[i].type == COW_RF_INT)
                v[i].num = sqlite3_column_double(q, at - 2);
            snprintf(v[i].text, sizeof(v[i].text), "%s", col_text(q, at - 2));
            snprintf(v[i].src, sizeof(v[i].src), "%s", col_text(q, at - 1));
        }
    }
    unprep(st, q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(st, e, "reading facts");
    return COW_OK;
}

int store_run_facts_put(cow_store *st, int64_t run, const cow_fact v[COW_RF_COUNT],
                        cow_err *e)
{
    return facts_put(st, run, 0, v, e);
}

int store_run_facts_get(cow_store *st, int64_t run, cow_fact v[COW_RF_COUNT],
                        int *present, cow_err *e)
{
    return facts_get(st, run, 0, v, present, e);
}

int store_server_facts_put(cow_store *st, int64_t run, int server,
                           const cow_fact v[COW_RF_COUNT], cow_err *e)
{
    if (server <= 0)
        return COW_FAIL(e, COW_EINTERNAL, "server facts need a server (seq %d)", server);
    return facts_put(st, run, server, v, e);
}

int store_server_facts_get(cow_store *st, int64_t run, int server, cow_fact v[COW_RF_COUNT],
                           int *present, cow_err *e)
{
    if (server <= 0)
        return COW_FAIL(e, COW_EINTERNAL, "server facts need a server (seq %d)", server);
    return facts_get(st, run, server, v, present, e);
}


/* A file of server ?9 of run ?1 (for a log, the lines of its pids: P the
 * row's pid, or NULL for a file read whole); ?9 = 0: no filter. */
#define OF_SERVER(F, P)                                                              \
    " AND (?9 = 0 OR EXISTS (SELECT 1 FROM server_files sf_ WHERE sf_.run = ?1"     \
    " AND sf_.file = " F " AND sf_.server = ?9 AND sf_.pid IN (0, coalesce(" P ", 0))))"

/* The statements of one server's facts, by enum cow_sfact_how (?1 run,
 * ?2 ?3 the key, ?4 a time, ?9 the server). */
static const char *const sfact_sql[] = {
    [COW_SF_INFO_LAST] =
        "SELECT i.num, i.text, f.path, i.line FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND i.key = ?2 AND i.sub IS NULL" OF_SERVER("i.file", "NULL")
        " ORDER BY coalesce(i.t_us, 0) DESC, i.file DESC, i.dump DESC LIMIT 1",
    [COW_SF_INFO_SUB_MAX] =
        "SELECT i.num, i.text, f.path, i.line FROM info i JOIN files f ON f.id = i.file"
        " WHERE i.run = ?1 AND i.key >= ?2 AND i.key < ?2 || '~'" /* the index's range */
        " AND substr(i.key, 1, length(?2)) = ?2 AND i.sub = ?3"
        " AND i.num IS NOT NULL" OF_SERVER("i.file", "NULL") " ORDER BY i.num DESC LIMIT 1",
    /* the last value stamped at or before ?4, else the first after it; not
     * a fork child's */
    [COW_SF_STAT_AT] =
        "SELECT s.num, s.text, f.path, s.line FROM stats s JOIN files f ON f.id = s.file"
        " WHERE s.run = ?1 AND s.source = ?2 AND s.key = ?3 AND s.num IS NOT NULL"
        " AND f.path NOT LIKE '%child%'" OF_SERVER("s.file", "NULL")
        " ORDER BY coalesce(s.t_us, 0) <= ?4 DESC,"
        " CASE WHEN coalesce(s.t_us, 0) <= ?4 THEN -coalesce(s.t_us, 0)"
        " ELSE coalesce(s.t_us, 0) END, s.rowid LIMIT 1",
    [COW_SF_EVENT_MAX] =
        "SELECT v.value, v.text, f.path, v.line FROM events v JOIN files f ON f.id = v.file"
        " WHERE v.run = ?1 AND v.kind = ?2 AND v.value IS NOT NULL" OF_SERVER("v.file", "v.pid")
        " ORDER BY v.value DESC LIMIT 1",
    [COW_SF_EVENT_FIRST] =
        "SELECT v.value, v.text, f.path, v.line FROM events v JOIN files f ON f.id = v.file"
        " WHERE v.run = ?1 AND v.kind = ?2" OF_SERVER("v.file", "v.pid")
        " ORDER BY v.t_us, v.rowid LIMIT 1",
};

static int sfact(cow_store *st, int how, int64_t run, int server, const char *a,
                 const char *b, int64_t t_us, cow_fact *f, cow_err *e)
{
    sqlite3_stmt *q;
    int rc;

    memset(f, 0, sizeof(*f));
    f->num = NAN;
    if ((rc = prep(st, sfact_sql[how], &q, e)) != COW_OK)
        return rc;
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, a, -1, SQLITE_STATIC);
    if (b)
        sqlite3_bind_text(q, 3, b, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 4, t_us);
    sqlite3_bind_int(q, 9, server);
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

int store_fact_stat_at(cow_store *st, int64_t run, const char *source, const char *key,
                       int64_t t_us, cow_fact *f, cow_err *e)
{
    return sfact(st, COW_SF_STAT_AT, run, 0, source, key, t_us, f, e);
}

int store_server_fact(cow_store *st, int64_t run, int server, int how, const char *a,
                      const char *b, int64_t t_us, cow_fact *f, cow_err *e)
{
    if (server > 0 || how == COW_SF_STAT_AT || how == COW_SF_EVENT_FIRST)
        return sfact(st, how, run, server, a, b, t_us, f, e);
    /* the run's: the primary's side, as the doctor reads it (store_facts.c) */
    switch (how) {
    case COW_SF_INFO_LAST:
        return store_fact_info_last(st, run, a, f, e);
    case COW_SF_INFO_SUB_MAX:
        return store_fact_info_sub_max(st, run, a, b, f, e);
    case COW_SF_EVENT_MAX:
        return store_fact_event_max(st, run, a, f, e);
    default:
        return COW_FAIL(e, COW_EINTERNAL, "no way %d to read a fact", how);
    }
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
