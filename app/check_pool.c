/* check_pool.c -- the gate's per-run work on worker threads (check.h):
 * each run's evaluation, which only reads. */
#include "check.h"

#include <string.h>

#include "app.h"
#include "run_pool.h"

typedef struct check_job {
    const cow_run_row *rows;
    const app_thresholds *t;
    const app_prejudged *pre;  /* runs judged already, or NULL */
    app_verdict (*v)[TH_COUNT];
    size_t ndone;              /* runs judged, in order */
} check_job;

static int check_work(cow_store *rd, size_t i, void *ctx, cow_err *e)
{
    check_job *j = ctx;
    const app_verdict *had = app_prejudged_find(j->pre, j->rows[i].id);
    if (had != NULL) {
        memcpy(j->v[i], had, sizeof(j->v[i]));
        return COW_OK;
    }
    return app_check_run(rd, &j->rows[i], j->t, j->v[i], e);
}

static int check_done(cow_store *st, size_t i, int rc, const cow_err *we, void *ctx,
                      cow_err *e)
{
    check_job *j = ctx;
    (void)st;
    if (rc != COW_OK) {
        *e = *we;
        return rc;
    }
    j->ndone = i + 1;
    return COW_OK;
}

int app_check_runs(cow_store *st, const cow_run_row *rows, size_t n, const app_thresholds *t,
                   int jobs, const app_prejudged *pre, app_verdict (*v)[TH_COUNT],
                   size_t *ndone, cow_err *e)
{
    check_job j = {rows, t, pre, v, 0};
    size_t i;
    int rc;

    *ndone = 0;
    for (i = 0; i < n && app_prejudged_find(pre, rows[i].id) != NULL; i++)
        ;
    if (i == n) { /* every run judged as it landed: no pool, no connection */
        for (i = 0; i < n; i++)
            memcpy(v[i], app_prejudged_find(pre, rows[i].id), sizeof(v[i]));
        *ndone = n;
        return COW_OK;
    }
    rc = app_pool_run(st, n, jobs, check_work, check_done, &j, e);
    *ndone = j.ndone;
    return rc;
}
