/* runfacts.c -- a run's facts as columns (runfacts.h). Each value is the
 * one the doctor read, with its file:line; a value the captures do not
 * give stays unknown (NULL), never a default. */
#include "runfacts.h"
#include "triage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

int app_run_facts(cow_store *st, const cow_run_row *r, const cow_run_facts *f,
                  cow_fact v[COW_RF_COUNT], cow_err *e)
{
    cow_fact x;
    char buf[96];
    int i, rc;

    memset(v, 0, sizeof(cow_fact) * COW_RF_COUNT);
    for (i = 0; i < COW_RF_COUNT; i++)
        v[i].num = NAN;
    /* server: Valkey's version field first, as the doctor reads it */
    if ((rc = store_fact_info_last(st, r->id, "valkey_version", &x, e)) != COW_OK)
        return rc;
    if (x.known) {
        set_text(&v[RF_SERVER_KIND], &x, "valkey");
    } else {
        if ((rc = store_fact_info_last(st, r->id, "redis_version", &x, e)) != COW_OK)
            return rc;
        set_text(&v[RF_SERVER_KIND], &x, "redis");
    }
    set_text(&v[RF_SERVER_VERSION], &f->version, NULL);
    if ((rc = store_fact_info_last(st, r->id, "role", &x, e)) != COW_OK)
        return rc;
    set_text(&v[RF_ROLE], &x, NULL);
    if (f->os.known) {
        app_kernel_release(f->os.text, buf, sizeof(buf));
        set_text(&v[RF_KERNEL], &f->os, buf);
    }
    set_text(&v[RF_THP_ENABLED], &f->thp_enabled, NULL);
    if ((rc = store_fact_stat_last(st, r->id, "thp", "defrag", &x, e)) != COW_OK)
        return rc;
    set_text(&v[RF_THP_DEFRAG], &x, NULL);
    /* at the first window's start (the run's first snapshot without one) */
    if ((rc = store_fact_stat_at(st, r->id, "smaps_rollup", "AnonHugePages",
                                 f->nwin > 0 ? f->win_t0[0] : INT64_MIN, &x, e)) != COW_OK)
        return rc;
    if (!x.known && (rc = store_fact_stat_at(st, r->id, "smaps", "AnonHugePages",
                                             f->nwin > 0 ? f->win_t0[0] : INT64_MIN, &x,
                                             e)) != COW_OK)
        return rc;
    set_num(&v[RF_ANON_HUGE], &x);
    set_num(&v[RF_USED_MEMORY], &f->used_memory);
    set_num(&v[RF_MAXMEMORY], &f->maxmemory);
    if ((rc = store_fact_info_sub_max(st, r->id, "db", "keys", &x, e)) != COW_OK)
        return rc;
    set_num(&v[RF_KEYS], &x);
    set_num(&v[RF_OVERCOMMIT], &f->overcommit);
    set_num(&v[RF_SWAPPINESS], &f->swappiness);
    set_text(&v[RF_DISKLESS], &f->diskless_sync, NULL);
    if ((rc = store_fact_info_last(st, r->id, "save", &x, e)) != COW_OK)
        return rc;
    set_text(&v[RF_SAVE], &x, NULL);
    set_text(&v[RF_APPENDONLY], &f->appendonly, NULL);
    set_num(&v[RF_FORK_USEC], &f->latest_fork_usec);
    /* copy-on-write: the largest of what INFO and the log say (INFO's
     * rdb_last_cow_size is 0 when it was read before the save ended) */
    {
        const cow_fact *c[2] = {&f->rdb_last_cow_size, &f->aof_last_cow_size};
        for (i = 0; i < 2; i++)
            if (c[i]->known && !isnan(c[i]->num) &&
                (!v[RF_COW_BYTES].known || c[i]->num > v[RF_COW_BYTES].num))
                v[RF_COW_BYTES] = *c[i];
        if (f->cow_mb.known && !isnan(f->cow_mb.num) &&
            (!v[RF_COW_BYTES].known || f->cow_mb.num * 1048576.0 > v[RF_COW_BYTES].num)) {
            v[RF_COW_BYTES] = f->cow_mb;
            v[RF_COW_BYTES].num = f->cow_mb.num * 1048576.0; /* the log's MB are MiB */
        }
    }
    if (r->mode && (strcmp(r->mode, "fork") == 0 || strcmp(r->mode, "forkless") == 0)) {
        v[RF_PERSISTENCE].known = 1;
        snprintf(v[RF_PERSISTENCE].text, sizeof(v[RF_PERSISTENCE].text), "%s", r->mode);
        snprintf(v[RF_PERSISTENCE].src, sizeof(v[RF_PERSISTENCE].src), "run.json mode");
    }
    return COW_OK;
}

int app_run_facts_store(cow_store *st, const cow_run_row *r, const cow_run_facts *f,
                        cow_err *e)
{
    cow_fact v[COW_RF_COUNT];
    int rc = app_run_facts(st, r, f, v, e);
    return rc != COW_OK ? rc : store_run_facts_put(st, r->id, v, e);
}
