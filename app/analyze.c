/* analyze.c -- analyse and persist one run (analyze.h). */
#include "analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "mem.h"
#include "run_pool.h"

const char *app_method_name(int method)
{
    return method == COW_PCT_NEAREST ? "nearest" : "linear";
}

/* Phase i as stored (its strings borrowed from p). */
static cow_phase_row phase_row(size_t i, const cow_phase *p, const cow_phase_stats *ps)
{
    cow_phase_row pr = {(int)i, phase_kind_name(p->kind), p->label, p->t0_us,
                        p->t1_us, p->fork_us, p->child_pid, p->source,
                        p->overlap, p->open, p->failed, (int64_t)ps->sum.n,
                        ps->sum.mean, ps->sum.min, ps->sum.max, ps->grid.step, NULL};
    return pr;
}

/* a's phases as rows of rs, their strings owned by rs (pool). */
static void phase_rows(const app_analysis *a, cow_result_set *rs)
{
    size_t i;

    memset(rs, 0, sizeof(*rs));
    rs->nph = a->ph.n;
    rs->ph = xcalloc(a->ph.n ? a->ph.n : 1, sizeof(*rs->ph));
    rs->pool = xcalloc(2 * a->ph.n + 1, sizeof(char *));
    for (i = 0; i < a->ph.n; i++) {
        rs->ph[i] = phase_row(i, &a->ph.v[i], &a->rs.ph[i]);
        if (rs->ph[i].label)
            rs->ph[i].label = rs->pool[rs->npool++] = xstrdup(rs->ph[i].label);
        if (rs->ph[i].source)
            rs->ph[i].source = rs->pool[rs->npool++] = xstrdup(rs->ph[i].source);
    }
}

int app_judged_phases(cow_store *rd, const cow_run_row *r, const app_run_samples *all,
                      cow_result_set *rs, cow_err *e)
{
    cow_runstats_opts o = {COW_PCT_LINEAR, COW_BOOT_RESAMPLES, 1, 1, NULL};
    app_analysis a;
    int rc;

    memset(rs, 0, sizeof(*rs));
    if (all->n == 0)
        return COW_OK;
    rc = app_analyze_compute_from(rd, r, &o, 0, all, &a, e);
    if (rc == COW_OK)
        phase_rows(&a, rs);
    else if (rc == COW_ECLOCK) /* not analysed: no phases, as before */
        rc = COW_OK;
    app_analysis_release(&a);
    return rc;
}

static int persist_phase(cow_store *st, int64_t run, size_t i, const cow_phase *p,
                         const cow_phase_stats *ps, cow_err *e)
{
    int l, rc;
    char moved[200];
    cow_phase_row pr = phase_row(i, p, ps);
    if (ps->drift.unstable) { /* runstats.h Requirement 7 */
        runstats_drift_text(&ps->drift, moved, sizeof(moved));
        pr.unstable = moved;
    }
    if ((rc = store_put_phase(st, run, &pr, e)) != COW_OK)
        return rc;
    for (l = 0; l < COW_PCT_NLEVELS; l++) {
        const cow_qci *ci = &ps->ci[l];
        cow_quantile_row qr = {(int)i, pct_level(l), ps->sum.v[l],
                               ci->has_lo ? ci->lo : NAN, ci->has_hi ? ci->hi : NAN,
                               (int64_t)ci->n_needed, ps->sum.thin[l], ci->n_eff};
        if ((rc = store_put_quantile(st, run, &qr, e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static int persist_delta(cow_store *st, int64_t run, size_t i, const cow_phase *p,
                         const cow_phase_stats *ps, cow_err *e)
{
    int l, rc;
    for (l = 0; l < COW_DELTA_LEVELS; l++) {
        const cow_qcmp *d = &ps->delta[l];
        char *why;
        cow_delta_row dr = {(int)i, ps->base, d->q, d->est_a, d->est_b, d->delta,
                            d->lo, d->hi, d->boot.ratio, d->boot.ratio_lo,
                            d->boot.ratio_hi, boot_verdict_name(d->verdict), d->thin,
                            d->dep_a.n_eff, d->dep_b.n_eff, qcmp_method_name(d->method),
                            d->p_up, d->p_down,
                            d->method == COW_QCMP_TAIL ? d->test.level : NAN, NULL,
                            ps->local_base};
        /* the phase's probe interval: its span over its samples */
        why = qcmp_why(d, d->nb > 0 ? (double)(p->t1_us - p->t0_us) / 1e6 / (double)d->nb
                                    : 0.0);
        if (why != NULL && why[0] != '\0')
            dr.why = why;
        rc = store_put_delta(st, run, &dr, e);
        free(why);
        if (rc != COW_OK)
            return rc;
    }
    {
        cow_exceed_row x99 = {(int)i, 0.99, ps->ex99.threshold, (int64_t)ps->ex99.n,
                              (int64_t)ps->ex99.count, ps->ex99.p, ps->ex99.lo,
                              ps->ex99.hi, (int64_t)ps->ex99_test.cb, ps->ex99_test.p_up};
        cow_exceed_row x999 = {(int)i, 0.999, ps->ex999.threshold,
                               (int64_t)ps->ex999.n, (int64_t)ps->ex999.count,
                               ps->ex999.p, ps->ex999.lo, ps->ex999.hi,
                               (int64_t)ps->ex999_test.cb, ps->ex999_test.p_up};
        if ((rc = store_put_exceed(st, run, &x99, e)) != COW_OK ||
            (rc = store_put_exceed(st, run, &x999, e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

static int persist(cow_store *st, int64_t run, const cow_phases *ph,
                   const cow_runstats *rs, const cow_runstats_opts *o, cow_err *e)
{
    size_t i;
    int rc;

    if ((rc = store_analysis_begin(st, run, o->seed, o->resamples,
                                   app_method_name(o->method), e)) != COW_OK)
        return rc;
    for (i = 0; i < ph->n; i++) {
        if ((rc = persist_phase(st, run, i, &ph->v[i], &rs->ph[i], e)) != COW_OK)
            return rc;
        if (rs->ph[i].has_delta && (rc = persist_delta(st, run, i, &ph->v[i], &rs->ph[i], e)) != COW_OK)
            return rc;
    }
    return COW_OK;
}

/* The INFO flag key's polls as on/off samples: *p (caller frees, NULL
 * when there are none) and *n of them. */
static int polls(cow_store *st, int64_t run, const char *key, cow_flag_poll **p,
                 size_t *n, cow_err *e)
{
    int64_t *t = NULL;
    double *v = NULL;
    size_t i;
    int rc;

    *p = NULL;
    *n = 0;
    if ((rc = store_load_info_series(st, run, key, &t, &v, n, e)) == COW_OK && *n > 0) {
        *p = xmalloc(*n * sizeof(**p));
        for (i = 0; i < *n; i++) {
            (*p)[i].t_us = t[i];
            (*p)[i].on = v[i] != 0;
        }
    }
    free(t);
    free(v);
    return rc;
}

/* Loader of one phase's samples from the store (runstats.h), assigning
 * samples in flight (phase_keep_in_flight) unless by_send. */
typedef struct store_loader {
    cow_store *st;          /* the store */
    int64_t run;            /* the run */
    const cow_phases *ph;   /* the phases being loaded */
    int by_send;            /* --assign send */
    double max_lat;         /* the run's longest latency, -1 until known */
    const app_run_samples *all; /* the whole run in memory, or NULL */
} store_loader;

/* What store_load_range(from, t1) gives, cut from the run in memory (the
 * same rows in the same order: both follow the samples' key): *v a copy,
 * *t borrowed (NULL: not wanted). */
static void cut(const app_run_samples *all, int64_t from, int64_t t1, double **v,
                const int64_t **t, size_t *n)
{
    size_t a = runstats_lower_bound(all->t_us, all->n, from);
    size_t b = runstats_lower_bound(all->t_us, all->n, t1);

    if (b < a)
        b = a;
    *n = b - a;
    *v = xmalloc((*n ? *n : 1) * sizeof(double));
    if (*n > 0)
        memcpy(*v, all->lat_us + a, *n * sizeof(double));
    if (t)
        *t = all->t_us + a;
}

/* The rows sent in [from, t1): latencies in *v (the caller's) and, when t
 * is not NULL, send times in *t (borrowed from the run in memory, or owned
 * by *t_own). */
static int rows_sent(store_loader *l, int64_t from, int64_t t1, double **v,
                     const int64_t **t, int64_t **t_own, size_t *n, cow_err *e)
{
    int rc;

    *t_own = NULL;
    if (l->all != NULL) {
        cut(l->all, from, t1, v, t, n);
        return COW_OK;
    }
    rc = store_load_range(l->st, l->run, from, t1, v, t ? t_own : NULL, n, e);
    if (t)
        *t = *t_own;
    return rc;
}

static int load_from_store(void *ctx, int64_t t0, int64_t t1, double **v, size_t *n,
                           cow_err *e)
{
    store_loader *l = ctx;
    const int64_t *t = NULL;
    int64_t *t_own = NULL;
    size_t i;
    int rc;

    if (l->by_send || t0 == INT64_MIN || l->ph == NULL) {
        rc = rows_sent(l, t0, t1, v, NULL, &t_own, n, e);
        for (i = 0; rc == COW_OK && t0 == INT64_MIN && i < *n; i++)
            if ((*v)[i] > l->max_lat)
                l->max_lat = (*v)[i];
        return rc;
    }
    for (i = 0; i < l->ph->n; i++)
        if (l->ph->v[i].t0_us == t0 && l->ph->v[i].t1_us == t1)
            break;
    if (i == l->ph->n) /* not a phase: by send time */
        return rows_sent(l, t0, t1, v, NULL, &t_own, n, e);
    if ((rc = rows_sent(l, phase_first_send(&l->ph->v[i], l->max_lat), t1, v, &t, &t_own,
                        n, e)) != COW_OK)
        return rc;
    *n = phase_keep_in_flight(l->ph, i, t, *v, *n);
    free(t_own);
    return COW_OK;
}

/* A series as fork observations (caller frees), each value times scale */
static cow_fork_obs *fork_series(const int64_t *t, const double *v, size_t n, double scale)
{
    cow_fork_obs *o = xmalloc((n ? n : 1) * sizeof(*o));
    size_t i;
    for (i = 0; i < n; i++) {
        o[i].t_us = t[i];
        o[i].dur_us = v[i] * scale;
    }
    return o;
}

int app_fork_obs_load(cow_store *st, int64_t run, app_fork_obs *o, cow_err *e)
{
    int64_t *t = NULL;
    double *v = NULL;
    cow_event_set ev;
    size_t i;
    int rc;

    memset(o, 0, sizeof(*o));
    memset(&ev, 0, sizeof(ev));
    if ((rc = store_load_info_series(st, run, "latest_fork_usec", &t, &v, &o->npolls, e)) ==
        COW_OK)
        o->polls = fork_series(t, v, o->npolls, 1);
    free(t);
    free(v);
    t = NULL;
    v = NULL;
    if (rc == COW_OK &&
        (rc = store_load_latmon_fork(st, run, &t, &v, &o->nhist, e)) == COW_OK)
        o->hist = fork_series(t, v, o->nhist, 1000);
    free(t);
    free(v);
    if (rc == COW_OK && (rc = store_load_events(st, run, &ev, e)) == COW_OK) {
        o->up = xmalloc((ev.n ? ev.n : 1) * sizeof(*o->up));
        for (i = 0; i < ev.n; i++)
            if (ev.v[i].kind != NULL && strcmp(ev.v[i].kind, "repl_done") == 0)
                o->up[o->nup++] = ev.v[i].t_us;
    }
    store_free_events(&ev);
    if (rc != COW_OK)
        app_fork_obs_release(o);
    return rc;
}

void app_fork_obs_into(const app_fork_obs *o, cow_phase_input *in)
{
    in->fork_polls = o->polls;
    in->nfork_polls = o->npolls;
    in->fork_hist = o->hist;
    in->nfork_hist = o->nhist;
    in->replica_up = o->up;
    in->nreplica_up = o->nup;
}

void app_fork_obs_release(app_fork_obs *o)
{
    free(o->polls);
    free(o->hist);
    free(o->up);
    memset(o, 0, sizeof(*o));
}

/* The phases of run r from its events, INFO polls and fork time. */
static int build_phases(cow_store *st, const cow_run_row *r, app_analysis *a, cow_err *e)
{
    cow_event_set ev;
    cow_phase_input in;
    cow_fact fork;
    cow_flag_poll *bg = NULL, *aof = NULL;
    cow_event *prim = NULL;
    app_fork_obs fo;
    size_t nb = 0, na = 0, nrep = 0;
    int rc, any = 0, by_table = 0;

    memset(&ev, 0, sizeof(ev));
    memset(&in, 0, sizeof(in));
    memset(&fo, 0, sizeof(fo));
    if ((rc = store_sample_bounds(st, r->id, &any, &a->t_first_us, &a->t_last_us, e)) != COW_OK ||
        (rc = app_fork_obs_load(st, r->id, &fo, e)) != COW_OK ||
        (rc = store_load_primary_events(st, r->id, &ev, &by_table, e)) != COW_OK ||
        (rc = polls(st, r->id, "rdb_bgsave_in_progress", &bg, &nb, e)) != COW_OK ||
        (rc = polls(st, r->id, "aof_rewrite_in_progress", &aof, &na, e)) != COW_OK ||
        (rc = store_fact_info_max(st, r->id, "latest_fork_usec", &fork, e)) != COW_OK)
        goto done;
    /* windows from the primary's events only: the servers table says which
     * (app/servers.c); a database from before it, phase_primary_events */
    if (by_table) {
        in.ev = ev.v;
        in.nev = ev.n;
    } else {
        prim = xmalloc((ev.n ? ev.n : 1) * sizeof(*prim));
        in.ev = prim;
        in.nev = phase_primary_events(ev.v, ev.n, prim, &nrep);
    }
    in.bgsave = bg;
    in.nbgsave = nb;
    in.aof = aof;
    in.naof = na;
    in.fork_preroll_us = fork.known && fork.num > 0 ? (int64_t)fork.num + 1000 : 0;
    app_fork_obs_into(&fo, &in);
    in.t_first_us = a->t_first_us;
    in.t_last_us = a->t_last_us;
    rc = phase_build(&in, &a->ph, e);
done:
    app_fork_obs_release(&fo);
    free(prim);
    free(bg);
    free(aof);
    store_free_events(&ev);
    return rc;
}

/* A run whose server log does not match its samples' clock is not
 * analysed (its windows would land in the wrong place): COW_ECLOCK with
 * what ingest found. */
static int clock_refusal(cow_store *st, const cow_run_row *r, cow_err *e)
{
    cow_clock_row *c = NULL;
    size_t n = 0, i;
    int rc = store_clock_list(st, r->id, &c, &n, e);
    for (i = 0; rc == COW_OK && i < n; i++)
        if (strcmp(c[i].decided, "mismatch") == 0)
            rc = COW_FAIL(e, COW_ECLOCK, "run %s not analysed: %s: %s", r->label,
                          c[i].path, c[i].evidence);
    store_free_clocks(c, n);
    return rc;
}

int app_analyze(cow_store *st, const cow_run_row *r, const cow_runstats_opts *o,
                app_analysis *a, cow_err *e)
{
    return app_analyze_assign(st, r, o, 0, a, e);
}

int app_analyze_compute(cow_store *rd, const cow_run_row *r, const cow_runstats_opts *o,
                        int by_send, app_analysis *a, cow_err *e)
{
    return app_analyze_compute_from(rd, r, o, by_send, NULL, a, e);
}

int app_run_windows(cow_store *rd, const cow_run_row *r, cow_phases *ph, cow_err *e)
{
    app_analysis a;
    cow_err refused = COW_ERR_INIT;
    int64_t t_first, t_last;
    int rc, any = 0;

    memset(ph, 0, sizeof(*ph));
    memset(&a, 0, sizeof(a));
    if ((rc = store_sample_bounds(rd, r->id, &any, &t_first, &t_last, e)) != COW_OK || !any)
        return rc;
    if ((rc = clock_refusal(rd, r, &refused)) == COW_ECLOCK)
        return COW_OK;
    if (rc != COW_OK) {
        *e = refused;
        return rc;
    }
    rc = build_phases(rd, r, &a, &refused);
    if (rc == COW_OK) {
        *ph = a.ph;
        return COW_OK;
    }
    phase_release(&a.ph);
    /* windows analyze refuses (too many, impossible stamps): none */
    if (rc == COW_ELIMIT || rc == COW_EPARSE || rc == COW_ECLOCK)
        return COW_OK;
    *e = refused;
    return rc;
}

int app_analyze_compute_from(cow_store *rd, const cow_run_row *r,
                             const cow_runstats_opts *o, int by_send,
                             const app_run_samples *all, app_analysis *a, cow_err *e)
{
    store_loader loader = {rd, r->id, NULL, by_send, -1, all};
    int rc;

    memset(a, 0, sizeof(*a));
    loader.ph = &a->ph;
    if ((rc = app_load_reported(rd, r->id, &a->rep, e)) != COW_OK ||
        (rc = clock_refusal(rd, r, e)) != COW_OK ||
        (rc = build_phases(rd, r, a, e)) != COW_OK ||
        (rc = runstats_compute(&a->ph, o, load_from_store, &loader, &a->rs, e)) != COW_OK ||
        (rc = app_replica_syncs(rd, r->id, &a->repl, e)) != COW_OK ||
        (rc = store_load_quiet(rd, r->id, &a->quiet, &a->nquiet, e)) != COW_OK)
        return rc;
    a->n = a->rs.all.sum.n; /* the whole run, loaded once by runstats */
    return COW_OK;
}

int app_analysis_store(cow_store *st, const cow_run_row *r, const cow_runstats_opts *o,
                       const app_analysis *a, cow_err *e)
{
    int rc;

    if ((rc = store_begin(st, e)) != COW_OK)
        return rc;
    if ((rc = persist(st, r->id, &a->ph, &a->rs, o, e)) != COW_OK) {
        store_rollback(st);
        return rc;
    }
    return store_commit(st, e);
}

int app_analyze_assign(cow_store *st, const cow_run_row *r, const cow_runstats_opts *o,
                       int by_send, app_analysis *a, cow_err *e)
{
    int rc;

    if ((rc = app_analyze_compute(st, r, o, by_send, a, e)) != COW_OK)
        return rc;
    return app_analysis_store(st, r, o, a, e);
}

void app_analysis_release(app_analysis *a)
{
    phase_release(&a->ph);
    runstats_release(&a->rs);
    app_reported_release(&a->rep);
    app_replsyncs_release(&a->repl);
    free(a->quiet);
    memset(a, 0, sizeof(*a));
}

int app_analyze_run_with(cow_store *st, const cow_run_row *r, uint64_t seed,
                         int resamples, cow_err *e)
{
    cow_runstats_opts o;
    app_analysis a;
    int rc;

    memset(&o, 0, sizeof(o));
    o.method = COW_PCT_LINEAR;
    o.resamples = resamples;
    o.seed = seed;
    rc = app_analyze(st, r, &o, &a, e);
    app_analysis_release(&a);
    /* a run whose log clock does not match is left unanalysed here (ingest
     * and analyze say why); the other runs go on */
    return rc == COW_ECLOCK ? COW_OK : rc;
}

int app_analyze_run(cow_store *st, const cow_run_row *r, cow_err *e)
{
    return app_analyze_run_with(st, r, 1, COW_BOOT_RESAMPLES, e);
}

/* app_analyze_each: the pool's items are the runs. */
typedef struct runs_job {
    const cow_run_row *rows;
    const cow_runstats_opts *o;
    int only_new;          /* skip runs with a stored analysis */
    int by_send;           /* --assign send */
    app_analysis_fn each;  /* told of each run in order, or NULL */
    void *ctx;
    app_analysis **res;    /* per run: computed, not stored yet (NULL: none) */
} runs_job;

static int runs_work(cow_store *rd, size_t i, void *ctx, cow_err *e)
{
    runs_job *j = ctx;
    app_analysis *a;
    int rc, done = 0;

    if (j->each == NULL && j->rows[i].samples <= 0)
        return COW_OK;
    if (j->only_new && (rc = store_analysed(rd, j->rows[i].id, &done, e)) != COW_OK)
        return rc;
    if (done)
        return COW_OK;
    a = xmalloc(sizeof(*a));
    if ((rc = app_analyze_compute(rd, &j->rows[i], j->o, j->by_send, a, e)) != COW_OK) {
        app_analysis_release(a);
        free(a);
        return rc;
    }
    j->res[i] = a;
    return COW_OK;
}

static int runs_done(cow_store *st, size_t i, int rc, const cow_err *we, void *ctx,
                     cow_err *e)
{
    runs_job *j = ctx;
    app_analysis *a = j->res[i];
    cow_err se = COW_ERR_INIT;

    j->res[i] = NULL;
    if (rc == COW_OK && a != NULL)
        rc = app_analysis_store(st, &j->rows[i], j->o, a, &se);
    else
        se = *we;
    if (j->each != NULL)
        rc = j->each(&j->rows[i], a, rc, &se, j->ctx, e);
    else if (rc == COW_ECLOCK) /* left unanalysed: analyze says why */
        rc = COW_OK;
    else if (rc != COW_OK)
        *e = se;
    if (a != NULL) {
        app_analysis_release(a);
        free(a);
    }
    return rc;
}

int app_analyze_each(cow_store *st, const cow_run_row *rows, size_t n, int only_new,
                     const cow_runstats_opts *o, int by_send, int jobs,
                     app_analysis_fn each, void *ctx, cow_err *e)
{
    runs_job j = {rows, o, only_new, by_send, each, ctx, NULL};
    size_t i;
    int rc;

    j.res = xcalloc(n ? n : 1, sizeof(*j.res));
    rc = app_pool_run(st, n, jobs, runs_work, runs_done, &j, e);
    for (i = 0; i < n; i++) /* left by a pool that stopped early */
        if (j.res[i] != NULL) {
            app_analysis_release(j.res[i]);
            free(j.res[i]);
        }
    free(j.res);
    return rc;
}

int app_analyze_runs(cow_store *st, const cow_run_row *rows, size_t n, int only_new,
                     const cow_runstats_opts *o, int jobs, cow_err *e)
{
    return app_analyze_each(st, rows, n, only_new, o, 0, jobs, NULL, NULL, e);
}

int app_analyze_all(cow_store *st, const cow_run_row *rows, size_t n, int only_new,
                    uint64_t seed, int resamples, int jobs, const cow_qcmp_margin *margin,
                    cow_err *e)
{
    cow_runstats_opts o;

    memset(&o, 0, sizeof(o));
    o.method = COW_PCT_LINEAR;
    o.resamples = resamples;
    o.seed = seed;
    o.margin = margin;
    return app_analyze_runs(st, rows, n, only_new, &o, jobs, e);
}
