/* check_ingest.c -- `check` of capture folders: ingest whose runs are
 * judged as they land (check.h: app_check_ingest).
 *
 * Requirements:
 *  1. The same verdicts as ingest followed by app_check_fleet: each run is
 *     judged by app_check_run, which only reads (no analysis is made or
 *     stored by check), whatever the number of threads and the
 *     interleaving; the database is the ingest's.
 *  2. A run is handed to the workers once ingest says all its files have
 *     landed (cow_ingest_flags.run_landed); its data are committed, so a
 *     worker's own connection sees them, and what it is judged on (its
 *     files, facts and samples) does not change after that.
 *  3. jobs workers beside the ingest (ingest's writer thread is the
 *     critical path and leaves a core partly idle). Verdicts are taken in
 *     landing order at each run boundary and kept (small) for
 *     app_check_fleet; any failure stops. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "mem.h"
#include "run_pool.h"

typedef struct landed {
    const app_thresholds *t;
    app_stream *s;
    size_t ring;                /* app_stream_slots */
    int64_t *run;               /* run[i % ring]: item i's run */
    app_verdict (*v)[TH_COUNT]; /* v[i % ring]: its verdict */
    app_prejudged *pre;         /* the verdicts, in landing order */
} landed;

static int landed_work(cow_store *rd, size_t i, int64_t run, void *ctx, cow_err *e)
{
    landed *l = ctx;
    size_t k = i % l->ring;
    cow_run_row row;
    int rc;

    l->run[k] = run;
    memset(&row, 0, sizeof(row));
    row.id = run;
    if ((rc = store_run_label(rd, run, &row.label, e)) == COW_OK)
        rc = app_check_run(rd, &row, l->t, l->v[k], e);
    free(row.label);
    return rc;
}

static int landed_done(cow_store *st, size_t i, int rc, const cow_err *we, void *ctx,
                       cow_err *e)
{
    landed *l = ctx;
    size_t k = i % l->ring;
    app_prejudged *p = l->pre;

    (void)st;
    if (rc != COW_OK) {
        *e = *we;
        return rc;
    }
    p->run = xgrow(p->run, sizeof(*p->run), p->n + 1, &p->cap_run);
    p->v = xgrow(p->v, sizeof(*p->v), p->n + 1, &p->cap_v);
    p->run[p->n] = l->run[k];
    memcpy(p->v[p->n], l->v[k], sizeof(p->v[p->n]));
    p->n++;
    return COW_OK;
}

/* Requirements 2 and 3: the run goes to the workers; what they finished
 * is taken now. */
static int on_landed(void *ctx, cow_store *st, int64_t run, cow_err *e)
{
    landed *l = ctx;
    (void)st;
    app_stream_add(l->s, run);
    return app_stream_collect(l->s, 0, landed_done, l, e);
}

int app_check_ingest(cow_store *st, char **paths, int npaths, int jobs,
                     const app_thresholds *t, cow_ingest_totals *tot, app_prejudged *pre)
{
    cow_ingest_flags fl;
    cow_err e = COW_ERR_INIT;
    landed l;
    int code, rc;

    memset(pre, 0, sizeof(*pre));
    if (jobs <= 0)
        jobs = app_default_jobs();
    memset(&l, 0, sizeof(l));
    l.t = t;
    l.pre = pre;
    /* no worker at --jobs 1: then every run after the ingest, in order;
     * the workers touch l only for an item added, after the ring exists */
    l.s = app_stream_start(st, jobs > 1 ? jobs : 0, landed_work, &l);
    l.ring = app_stream_slots(l.s);
    l.run = xcalloc(l.ring, sizeof(*l.run));
    l.v = xcalloc(l.ring, sizeof(*l.v));
    memset(&fl, 0, sizeof(fl));
    fl.quiet = 1;
    fl.jobs = jobs;
    fl.run_landed = on_landed;
    fl.landed_ctx = &l;
    code = app_ingest_paths(st, paths, npaths, &fl, tot);
    rc = app_stream_collect(l.s, 1, landed_done, &l, &e);
    app_stream_stop(l.s);
    free(l.run);
    free(l.v);
    if (rc != COW_OK) {
        app_error(&e);
        return EXIT_IO;
    }
    return code;
}

static int by_run(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

void app_prejudged_index(app_prejudged *p)
{
    size_t i;
    p->order = xmalloc((p->n ? p->n : 1) * 2 * sizeof(int64_t));
    for (i = 0; i < p->n; i++) { /* (run, position) pairs, sorted by run */
        p->order[2 * i] = p->run[i];
        p->order[2 * i + 1] = (int64_t)i;
    }
    qsort(p->order, p->n, 2 * sizeof(int64_t), by_run);
}

const app_verdict *app_prejudged_find(const app_prejudged *p, int64_t run)
{
    const int64_t *hit;
    if (p == NULL || p->order == NULL)
        return NULL;
    hit = bsearch(&run, p->order, p->n, 2 * sizeof(int64_t), by_run);
    return hit ? p->v[hit[1]] : NULL;
}

void app_prejudged_release(app_prejudged *p)
{
    free(p->run);
    free(p->v);
    free(p->order);
    memset(p, 0, sizeof(*p));
}
