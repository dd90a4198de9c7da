/* check_ingest.c -- `check` of capture folders: ingest whose runs are
 * analysed and judged as they land (check.h: app_check_ingest).
 *
 * Requirements:
 *  1. The same outcome as ingest followed by app_check_fleet: the same
 *     runs analysed (those with samples and no stored analysis, seed 1,
 *     COW_BOOT_RESAMPLES, type 7, in-flight assignment), the same results
 *     stored through the one writer in run order, the same verdict per run
 *     (app_check_run_rs on the analysis, as app_check_run reads it back
 *     once stored), whatever the number of threads and the interleaving.
 *  2. A run is handed to the workers once ingest says all its files have
 *     landed (cow_ingest_flags.run_landed); its data are committed, so a
 *     worker's own connection sees them. What a run is judged on (its
 *     files, facts, samples and analysis) does not change after that.
 *  3. jobs workers beside the ingest (ingest's writer thread is the
 *     critical path and leaves a core partly idle). Finished runs are
 *     stored at each run boundary, so at most 2 x jobs analyses are held;
 *     the verdicts (small) are kept for app_check_fleet.
 *  4. A run whose log clock does not match its samples (COW_ECLOCK) is left
 *     unanalysed, as app_analyze_all leaves it, and judged later like any
 *     run without an analysis; any other failure stops. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "app.h"
#include "boot.h"
#include "mem.h"
#include "run_pool.h"

typedef struct landed {
    cow_runstats_opts o;
    const app_thresholds *t;
    app_stream *s;
    size_t ring;                /* the stream's slots: 2 x max workers */
    app_analysis **res;         /* res[i % ring]: item i's analysis, or NULL */
    int64_t *run;               /* run[i % ring]: its run */
    int *judged;                /* judged[i % ring]: v[i % ring] is its verdict */
    app_verdict (*v)[TH_COUNT];
    app_prejudged *pre;         /* the verdicts, in landing order */
} landed;

/* Judge run row on its analysis a (not stored yet) or, with a NULL, on
 * what the store holds (an analysis from before, or none). */
static int judge(cow_store *rd, const landed *l, const cow_run_row *row,
                 const app_analysis *a, const app_run_samples *all,
                 app_verdict out[TH_COUNT], cow_err *e)
{
    cow_result_set rs;
    int rc;

    if (a == NULL)
        return app_check_run(rd, row, l->t, out, e);
    app_analysis_phases(a, &l->o, &rs);
    rc = app_check_run_rs(rd, row, &rs, all, l->t, out, e);
    store_free_results(&rs);
    return rc;
}

static int landed_work(cow_store *rd, size_t i, int64_t run, void *ctx, cow_err *e)
{
    landed *l = ctx;
    size_t k = i % l->ring;
    cow_run_row row;
    app_analysis *a = NULL;
    app_run_samples all = {NULL, NULL, 0};
    int64_t t0, t1, *t = NULL;
    double *lat = NULL;
    int rc, done = 0, any = 0;

    l->res[k] = NULL;
    l->run[k] = run;
    l->judged[k] = 0;
    memset(&row, 0, sizeof(row));
    row.id = run;
    if ((rc = store_analysed(rd, run, &done, e)) != COW_OK ||
        (!done && (rc = store_sample_bounds(rd, run, &any, &t0, &t1, e)) != COW_OK) ||
        (rc = store_run_label(rd, run, &row.label, e)) != COW_OK)
        goto out;
    if (!done && any) { /* Requirement 1: what only_new and samples > 0 analyse */
        /* the run is read once, for the analysis and the judgement */
        if ((rc = store_load_samples(rd, run, &t, &lat, &all.n, e)) != COW_OK)
            goto out;
        all.t_us = t;
        all.lat_us = lat;
        a = xmalloc(sizeof(*a));
        if ((rc = app_analyze_compute_from(rd, &row, &l->o, 0, &all, a, e)) != COW_OK) {
            app_analysis_release(a);
            free(a);
            a = NULL;
            goto out; /* COW_ECLOCK: judged later, unanalysed (Requirement 4) */
        }
        l->res[k] = a;
    }
    if ((rc = judge(rd, l, &row, a, a ? &all : NULL, l->v[k], e)) == COW_OK)
        l->judged[k] = 1;
out:
    free(row.label);
    free(t);
    free(lat);
    return rc;
}

static int landed_done(cow_store *st, size_t i, int rc, const cow_err *we, void *ctx,
                       cow_err *e)
{
    landed *l = ctx;
    size_t k = i % l->ring;
    app_analysis *a = l->res[k];
    app_prejudged *p = l->pre;
    cow_run_row row;

    l->res[k] = NULL;
    memset(&row, 0, sizeof(row));
    row.id = l->run[k];
    if (rc == COW_OK && a != NULL)
        rc = app_analysis_store(st, &row, &l->o, a, e);
    else if (rc == COW_ECLOCK) /* Requirement 4 */
        rc = COW_OK;
    else if (rc != COW_OK)
        *e = *we;
    if (rc == COW_OK && l->judged[k]) {
        p->run = xgrow(p->run, sizeof(*p->run), p->n + 1, &p->cap_run);
        p->v = xgrow(p->v, sizeof(*p->v), p->n + 1, &p->cap_v);
        p->run[p->n] = row.id;
        memcpy(p->v[p->n], l->v[k], sizeof(p->v[p->n]));
        p->n++;
    }
    if (a != NULL) {
        app_analysis_release(a);
        free(a);
    }
    return rc;
}

/* Requirements 2 and 3: the run goes to the workers; what they finished
 * is stored now, between ingest's transactions (through st, the
 * stream's own connection). */
static int on_landed(void *ctx, cow_store *st, int64_t run, cow_err *e)
{
    landed *l = ctx;
    (void)st;
    app_stream_add(l->s, run);
    return app_stream_collect(l->s, 0, landed_done, l, e);
}

int app_check_ingest(cow_store *st, char **paths, int npaths, int jobs,
                     const app_thresholds *t, FILE *fp, app_prejudged *pre)
{
    cow_ingest_flags fl;
    cow_ingest_totals tot;
    cow_err e = COW_ERR_INIT;
    landed l;
    size_t i;
    int code, rc;

    memset(pre, 0, sizeof(*pre));
    if (jobs <= 0)
        jobs = app_default_jobs();
    memset(&l, 0, sizeof(l));
    l.o.method = COW_PCT_LINEAR;
    l.o.resamples = COW_BOOT_RESAMPLES;
    l.o.seed = 1;
    l.o.phases_only = 1; /* the whole run's figures are neither stored nor judged */
    l.t = t;
    l.pre = pre;
    l.ring = 2 * (size_t)jobs;
    l.res = xcalloc(l.ring, sizeof(*l.res));
    l.run = xcalloc(l.ring, sizeof(*l.run));
    l.judged = xcalloc(l.ring, sizeof(*l.judged));
    l.v = xcalloc(l.ring, sizeof(*l.v));
    /* no worker at --jobs 1: then every run after the ingest, in order */
    l.s = app_stream_start(st, jobs > 1 ? jobs : 0, jobs, landed_work, &l);
    memset(&fl, 0, sizeof(fl));
    fl.quiet = 1;
    fl.jobs = jobs;
    fl.run_landed = on_landed;
    fl.landed_ctx = &l;
    code = app_ingest_paths(st, paths, npaths, &fl, &tot);
    app_print_totals(fp, &tot);
    rc = app_stream_collect(l.s, 1, landed_done, &l, &e);
    app_stream_stop(l.s);
    for (i = 0; i < l.ring; i++) /* left by a stream that stopped early */
        if (l.res[i] != NULL) {
            app_analysis_release(l.res[i]);
            free(l.res[i]);
        }
    free(l.res);
    free(l.run);
    free(l.judged);
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
