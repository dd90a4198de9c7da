/* runfacts.c -- a run's facts as columns (runfacts.h). Each value is read
 * from the store as the doctor reads it (the primary's side, facts.c),
 * with its file:line; a value the captures do not give stays unknown
 * (NULL), never a default. */
#include "runfacts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "replsync.h"
#include "store_answers.h"

/* "Linux 6.1.0-18-amd64 x86_64" -> "6.1.0-18-amd64" */
void app_kernel_release(const char *os, char *buf, size_t n)
{
    const char *p = strchr(os, ' '), *end;
    if (p == NULL) {
        snprintf(buf, n, "%s", os);
        return;
    }
    p++;
    end = strchr(p, ' ');
    snprintf(buf, n, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
}

static void set_text(cow_fact *v, const cow_fact *from, const char *text)
{
    if (!from->known)
        return;
    *v = *from;
    if (text)
        snprintf(v->text, sizeof(v->text), "%s", text);
}

static void set_num(cow_fact *v, const cow_fact *from)
{
    if (from->known && !isnan(from->num))
        *v = *from;
}

/* The largest copy-on-write of what INFO and the log say (INFO's
 * rdb_last_cow_size is 0 when it was read before the save ended); the
 * log's MB are MiB. */
static void cow_bytes(cow_fact *v, const cow_fact *rdb, const cow_fact *aof,
                      const cow_fact *log_mb)
{
    const cow_fact *c[2] = {rdb, aof};
    int i;
    for (i = 0; i < 2; i++)
        if (c[i]->known && !isnan(c[i]->num) && (!v->known || c[i]->num > v->num))
            *v = *c[i];
    if (log_mb->known && !isnan(log_mb->num) &&
        (!v->known || log_mb->num * 1048576.0 > v->num)) {
        *v = *log_mb;
        v->num = log_mb->num * 1048576.0;
    }
}

/* The facts a server's own files give: server seq `server` of the run,
 * or 0 for the run's (the primary's side). */
static int server_side(cow_store *st, int64_t run, int server, int64_t t0,
                       cow_fact v[COW_RF_COUNT], cow_err *e)
{
    static const struct {
        int id;
        const char *key;
    } info[] = {
        {RF_ROLE, "role"}, {RF_USED_MEMORY, "used_memory"}, {RF_MAXMEMORY, "maxmemory"},
        {RF_DISKLESS, "repl-diskless-sync"}, {RF_SAVE, "save"},
        {RF_APPENDONLY, "appendonly"}, {RF_FORK_USEC, "latest_fork_usec"},
    };
    cow_fact x, rdb, aof, mb;
    size_t k;
    int rc;

#define READ(how, a, b, t) \
    do { if ((rc = store_server_fact(st, run, server, how, a, b, t, &x, e)) != COW_OK) \
             return rc; } while (0)
    /* server: Valkey's version field first, as the doctor reads it */
    READ(COW_SF_INFO_LAST, "valkey_version", NULL, 0);
    if (x.known) {
        set_text(&v[RF_SERVER_KIND], &x, "valkey");
    } else {
        READ(COW_SF_INFO_LAST, "redis_version", NULL, 0);
        set_text(&v[RF_SERVER_KIND], &x, "redis");
    }
    /* a server known by its log alone (a replica): its startup banner */
    if (!x.known && server > 0) {
        READ(COW_SF_EVENT_FIRST, "server_start", NULL, 0);
        set_text(&v[RF_SERVER_KIND], &x,
                 strncmp(x.text, "Valkey", 6) == 0 ? "valkey" : "redis");
        READ(COW_SF_EVENT_FIRST, "version", NULL, 0);
    }
    set_text(&v[RF_SERVER_VERSION], &x, NULL);
    for (k = 0; k < sizeof(info) / sizeof(info[0]); k++) {
        READ(COW_SF_INFO_LAST, info[k].key, NULL, 0);
        if (cow_rf_cols[info[k].id].type == COW_RF_INT)
            set_num(&v[info[k].id], &x);
        else
            set_text(&v[info[k].id], &x, NULL);
    }
    READ(COW_SF_INFO_SUB_MAX, "db", "keys", 0);
    set_num(&v[RF_KEYS], &x);
    /* at the first window's start (the run's first snapshot without one) */
    READ(COW_SF_STAT_AT, "smaps_rollup", "AnonHugePages", t0);
    if (!x.known)
        READ(COW_SF_STAT_AT, "smaps", "AnonHugePages", t0);
    set_num(&v[RF_ANON_HUGE], &x);
#undef READ
    if ((rc = store_server_fact(st, run, server, COW_SF_INFO_LAST, "rdb_last_cow_size", NULL,
                                0, &rdb, e)) != COW_OK ||
        (rc = store_server_fact(st, run, server, COW_SF_INFO_LAST, "aof_last_cow_size", NULL,
                                0, &aof, e)) != COW_OK ||
        (rc = store_server_fact(st, run, server, COW_SF_EVENT_MAX, "cow_rdb", NULL, 0, &mb,
                                e)) != COW_OK)
        return rc;
    cow_bytes(&v[RF_COW_BYTES], &rdb, &aof, &mb);
    return COW_OK;
}

static void unknown(cow_fact v[COW_RF_COUNT])
{
    int i;
    memset(v, 0, sizeof(cow_fact) * COW_RF_COUNT);
    for (i = 0; i < COW_RF_COUNT; i++)
        v[i].num = NAN;
}

/* Run r's facts, its first window starting at t0. */
static int run_facts_at(cow_store *st, const cow_run_row *r, int64_t t0,
                        cow_fact v[COW_RF_COUNT], cow_err *e)
{
    cow_fact x;
    char buf[96];
    int rc;

    unknown(v);
    if ((rc = server_side(st, r->id, 0, t0, v, e)) != COW_OK)
        return rc;
    /* the host's */
    if ((rc = store_fact_info_last(st, r->id, "os", &x, e)) != COW_OK)
        return rc;
    if (x.known) {
        app_kernel_release(x.text, buf, sizeof(buf));
        set_text(&v[RF_KERNEL], &x, buf);
    }
    if ((rc = store_fact_stat_last(st, r->id, "thp", "enabled", &x, e)) != COW_OK)
        return rc;
    set_text(&v[RF_THP_ENABLED], &x, NULL);
    if ((rc = store_fact_stat_last(st, r->id, "thp", "defrag", &x, e)) != COW_OK)
        return rc;
    set_text(&v[RF_THP_DEFRAG], &x, NULL);
    if ((rc = store_fact_stat_last(st, r->id, "sysctl", "vm.overcommit_memory", &x, e)) !=
        COW_OK)
        return rc;
    set_num(&v[RF_OVERCOMMIT], &x);
    if ((rc = store_fact_stat_last(st, r->id, "sysctl", "vm.swappiness", &x, e)) != COW_OK)
        return rc;
    set_num(&v[RF_SWAPPINESS], &x);
    if (r->mode && (strcmp(r->mode, "fork") == 0 || strcmp(r->mode, "forkless") == 0)) {
        v[RF_PERSISTENCE].known = 1;
        snprintf(v[RF_PERSISTENCE].text, sizeof(v[RF_PERSISTENCE].text), "%s", r->mode);
        snprintf(v[RF_PERSISTENCE].src, sizeof(v[RF_PERSISTENCE].src), "run.json mode");
    }
    return COW_OK;
}

/* The start of the first window of ph, INT64_MIN when it has none. */
static int64_t first_window(const cow_phases *ph)
{
    size_t i;
    for (i = 0; i < ph->n; i++)
        if (phase_is_window(ph->v[i].kind))
            return ph->v[i].t0_us;
    return INT64_MIN;
}

int app_run_facts(cow_store *st, const cow_run_row *r, cow_fact v[COW_RF_COUNT], cow_err *e)
{
    cow_phases ph;
    int64_t t0;
    int rc;

    unknown(v);
    if ((rc = app_run_windows(st, r, &ph, e)) != COW_OK)
        return rc;
    t0 = first_window(&ph);
    phase_release(&ph);
    return run_facts_at(st, r, t0, v, e);
}

/* The windows of ph as rows of table windows, replacing run's. */
static int windows_store(cow_store *st, int64_t run, const cow_phases *ph, cow_err *e)
{
    size_t i;
    int rc = store_clear_run_rows(st, "windows", run, e);
    for (i = 0; rc == COW_OK && i < ph->n; i++) {
        const cow_phase *p = &ph->v[i];
        cow_window_row w = {run, (int)i, phase_kind_name(p->kind), p->label, p->source,
                            p->t0_us, p->t1_us, p->fork_us, p->child_pid,
                            p->overlap, p->open, p->failed};
        if (phase_is_window(p->kind))
            rc = store_put_window(st, &w, e);
    }
    return rc;
}

/* The run's replicas' sync attempts, step by step (replsync.h), replacing
 * the run's rows of repl_syncs. */
static int repl_syncs_store(cow_store *st, int64_t run, cow_err *e)
{
    app_replsyncs rs;
    size_t i, j;
    int rc;

    if ((rc = store_clear_run_rows(st, "repl_syncs", run, e)) != COW_OK ||
        (rc = app_replica_syncs(st, run, &rs, e)) != COW_OK)
        return rc;
    for (i = 0; rc == COW_OK && i < rs.n; i++)
        for (j = 0; rc == COW_OK && j < rs.r[i].n; j++) {
            const cow_repl_sync *s = &rs.r[i].v[j];
            cow_repl_sync_row w = {
                run, rs.r[i].seq, (int)j + 1, rs.r[i].pid, rs.r[i].port, s->attach_line,
                s->mode == 'F' ? "full" : s->mode == 'P' ? "partial" : NULL,
                replsteps_outcome_name(s->outcome), s->attach_us, s->resync_us, s->recv_us,
                s->recv_end_us, s->flush_us, s->load_us, s->up_us, s->lost_us, s->bytes,
                s->attach_to_up_s, s->wait_s, s->transfer_s, s->flush_s, s->load_s};
            rc = store_put_repl_sync(st, &w, e);
        }
    app_replsyncs_release(&rs);
    return rc;
}

int app_run_facts_store(cow_store *st, const cow_run_row *r, cow_err *e)
{
    cow_fact v[COW_RF_COUNT];
    cow_server_row *sv = NULL;
    size_t ns = 0, i;
    cow_phases ph;
    int64_t t0;
    int rc;

    if ((rc = app_run_windows(st, r, &ph, e)) != COW_OK)
        return rc;
    t0 = first_window(&ph);
    rc = windows_store(st, r->id, &ph, e);
    phase_release(&ph);
    if (rc != COW_OK ||
        (rc = run_facts_at(st, r, t0, v, e)) != COW_OK ||
        (rc = store_run_facts_put(st, r->id, v, e)) != COW_OK ||
        (rc = store_clear_run_rows(st, "server_facts", r->id, e)) != COW_OK ||
        (rc = store_run_servers(st, r->id, &sv, &ns, e)) != COW_OK)
        return rc;
    for (i = 0; i < ns && rc == COW_OK; i++) {
        unknown(v);
        if ((rc = server_side(st, r->id, sv[i].seq, t0, v, e)) == COW_OK)
            rc = store_server_facts_put(st, r->id, sv[i].seq, v, e);
    }
    free(sv);
    return rc == COW_OK ? repl_syncs_store(st, r->id, e) : rc;
}

int app_run_facts_landed(cow_store *st, int64_t run, cow_err *e)
{
    cow_run_row *r = NULL;
    int rc;

    if ((rc = store_run_facts_row(st, run, &r, e)) != COW_OK)
        return rc;
    if ((rc = store_begin(st, e)) == COW_OK) {
        if ((rc = app_run_facts_store(st, r, e)) == COW_OK)
            rc = store_commit(st, e);
        else
            store_rollback(st);
    }
    store_free_runs(r, 1);
    return rc;
}
