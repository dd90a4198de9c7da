/* check_fleet.c -- the fleet gate over every run and every host
 * (check.h), the triage of its failures, the checks table.
 *
 * Requirements:
 *  1. Every run is judged (app_check_run) and corrected over runs x
 *     latency limits, as before hosts existed.
 *  2. A host with two runs or more is judged once on its pooled samples:
 *     baselines with baselines, windows with windows (a sample in two
 *     overlapping windows of one run counts once), whole runs for the
 *     quantile limits. Hosts x latency limits are a family of their own,
 *     corrected the same way: a host's verdict re-reads the runs' data and
 *     must not thin the runs' family.
 *  3. The triage counts the runs judged, failing against passing. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "analyze.h"
#include "boot.h"
#include "facts.h"
#include "fleet.h"
#include "mem.h"
#include "pct.h"
#include "phase.h"
#include "runstats.h"
#include "store_checks.h"
#include "verdict.h"

/* Samples pooled over a host's runs, in time order run after run. */
typedef struct pool {
    double *v;
    size_t n, cap;
} pool;

static void pool_add(pool *p, double x)
{
    p->v = xgrow(p->v, sizeof(double), p->n + 1, &p->cap);
    p->v[p->n++] = x;
}

/* p as a cow_group; *sorted is its sorted copy (caller frees). */
static cow_group pool_group(const pool *p, double **sorted)
{
    cow_group g;
    *sorted = xmalloc((p->n ? p->n : 1) * sizeof(double));
    if (p->n)
        memcpy(*sorted, p->v, p->n * sizeof(double));
    runstats_sort(*sorted, p->n);
    g.time = p->n ? p->v : *sorted;
    g.sorted = *sorted;
    g.n = p->n;
    return g;
}

/* The run's baseline (the first with samples, as lift_check takes it) and
 * the union of its windows into base / win, each phase's samples as
 * analyze assigns them (in flight, phase.h), every sample into all. */
static void pool_run(const cow_result_set *rs, const int64_t *ts, const double *lat,
                     size_t n, pool *base, pool *win, pool *all)
{
    unsigned char *in = xcalloc(n ? n : 1, 1);
    cow_phases ph = {facts_phases(rs), rs->nph, rs->nph};
    double longest = app_longest(lat, n);
    size_t i, j;
    int have_base = 0;

    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        int kind = phase_kind_from_name(p->kind), mark;
        if (p->n == 0)
            continue;
        if (kind == COW_PHASE_BASELINE && !have_base) {
            have_base = 1;
            mark = 1;
        } else if (phase_is_window(kind)) {
            mark = 2;
        } else {
            continue;
        }
        for (j = runstats_lower_bound(ts, n, phase_first_send(&ph.v[i], longest));
             j < n && ts[j] < p->t1_us; j++)
            if (phase_holds(&ph, i, ts[j], lat[j]))
                in[j] |= (unsigned char)mark;
    }
    free(ph.v);
    for (j = 0; j < n; j++) {
        if (in[j] & 1)
            pool_add(base, lat[j]);
        if (in[j] & 2)
            pool_add(win, lat[j]);
        pool_add(all, lat[j]);
    }
    free(in);
}

/* The verdict of the run whose value is largest (unknown values lowest):
 * a host fails a COW, fork or THP limit when one of its runs does. */
static void worst_run(const app_fleet_check *fc, const app_host_check *h,
                      const cow_run_row *rows, int k, app_verdict *x)
{
    size_t i, best = h->runs[0];
    for (i = 1; i < h->nruns; i++) {
        const app_verdict *a = &fc->v[h->runs[i]][k], *b = &fc->v[best][k];
        if (!isnan(a->value) && (isnan(b->value) || a->value > b->value))
            best = h->runs[i];
    }
    *x = fc->v[best][k];
    snprintf(x->note, sizeof(x->note), "worst run %.50s%s%.120s", rows[best].label,
             fc->v[best][k].note[0] ? ": " : "", fc->v[best][k].note);
}

static void lift_pooled(const cow_group *gb, const cow_group *gw, double q,
                        const app_thresholds *t, int k, const cow_qcmp_opts *qo,
                        size_t nruns, app_verdict *x, int *rc, cow_err *e)
{
    cow_qcmp c;
    char ci[48];

    if (gb->n == 0 || gw->n == 0) {
        app_check_missing(x, t, k, gb->n == 0 ? "no baseline samples in any run"
                                              : "no window with samples in any run");
        return;
    }
    if ((*rc = qcmp_compute(gb, gw, q, t->v[k] * 1000, qo, &c, e)) != COW_OK)
        return;
    x->value = c.delta / 1000;
    x->p = c.p_up;
    x->method = qcmp_method_name(c.method);
    x->n = (double)c.nb;
    x->n_eff = c.dep_b.n_eff;
    x->state = APP_PASS; /* the hosts' correction decides */
    if (c.method == COW_QCMP_BOOT)
        snprintf(ci, sizeof(ci), "95%% CI %+.3f to %+.3f ms", c.lo / 1000, c.hi / 1000);
    else
        snprintf(ci, sizeof(ci), "tail test beyond pooled p%.2f", 100 * c.test.level);
    snprintf(x->note, sizeof(x->note), "%zu runs' windows pooled, %s, n %zu/%zu, "
             "n_eff %.0f/%.0f", nruns, ci, c.na, c.nb, c.dep_a.n_eff, c.dep_b.n_eff);
}

static void quantile_pooled(const cow_group *g, double q, const app_thresholds *t, int k,
                            size_t nruns, app_verdict *x)
{
    x->value = pct_quantile(g->sorted, g->n, q, COW_PCT_LINEAR) / 1000;
    x->p = fleet_quantile_p(g->time, g->sorted, g->n, q, t->v[k] * 1000, &x->n_eff);
    x->method = "binomial";
    x->n = (double)g->n;
    x->state = APP_PASS;
    snprintf(x->note, sizeof(x->note), "%zu runs pooled, n %zu, n_eff %.0f", nruns, g->n,
             x->n_eff);
}

/* Host h on its runs' pooled samples; the runs' verdicts are in fc. */
static int judge_host(cow_store *st, const cow_run_row *rows, const app_thresholds *t,
                      const app_fleet_check *fc, const app_host_check *h,
                      app_verdict out[TH_COUNT], cow_err *e)
{
    pool base = {NULL, 0, 0}, win = {NULL, 0, 0}, all = {NULL, 0, 0};
    cow_qcmp_opts qo = {COW_BOOT_RESAMPLES, 1, COW_PCT_LINEAR};
    double *sb = NULL, *sw = NULL, *sa = NULL, total = 0;
    cow_group gb, gw, ga;
    size_t i;
    int rc = COW_OK, k;

    app_check_clear(out);
    for (i = 0; i < h->nruns && rc == COW_OK; i++) {
        const cow_run_row *r = &rows[h->runs[i]];
        cow_result_set rs;
        app_run_samples whole = {NULL, NULL, 0};
        int64_t *ts = NULL;
        double *lat = NULL;
        size_t n = 0;
        memset(&rs, 0, sizeof(rs));
        if ((rc = store_load_samples(st, r->id, &ts, &lat, &n, e)) == COW_OK) {
            whole.t_us = ts;
            whole.lat_us = lat;
            whole.n = n;
            rc = app_judged_phases(st, r, &whole, &rs, e); /* as app_check_run */
        }
        if (rc == COW_OK) {
            if (i == 0 && rs.analysed) { /* the first run's bootstrap settings */
                qo.seed = rs.seed;
                qo.resamples = rs.resamples;
            }
            pool_run(&rs, ts, lat, n, &base, &win, &all);
        }
        store_free_results(&rs);
        free(ts);
        free(lat);
    }
    gb = pool_group(&base, &sb);
    gw = pool_group(&win, &sw);
    ga = pool_group(&all, &sa);
    if (rc == COW_OK && t->set[TH_P999_LIFT])
        lift_pooled(&gb, &gw, 0.999, t, TH_P999_LIFT, &qo, h->nruns, &out[TH_P999_LIFT],
                    &rc, e);
    if (rc == COW_OK && t->set[TH_P99_LIFT])
        lift_pooled(&gb, &gw, 0.99, t, TH_P99_LIFT, &qo, h->nruns, &out[TH_P99_LIFT], &rc,
                    e);
    for (k = TH_P99; rc == COW_OK && k <= TH_P999; k++) {
        if (!t->set[k])
            continue;
        if (ga.n > 0)
            quantile_pooled(&ga, k == TH_P99 ? 0.99 : 0.999, t, k, h->nruns, &out[k]);
        else /* percentile-only runs: their reported figures, the worst */
            worst_run(fc, h, rows, k, &out[k]);
    }
    for (k = TH_COW; k <= TH_THP; k++)
        worst_run(fc, h, rows, k, &out[k]);
    for (i = 0; i < h->nruns; i++)
        total += fc->v[h->runs[i]][TH_MIN_N].value; /* the run's samples, as judged */
    out[TH_MIN_N].value = total;
    out[TH_MIN_N].state = total < t->v[TH_MIN_N];
    snprintf(out[TH_MIN_N].note, sizeof(out[TH_MIN_N].note), "%zu runs' samples",
             h->nruns);
    free(sb);
    free(sw);
    free(sa);
    free(base.v);
    free(win.v);
    free(all.v);
    return rc;
}

/* Hosts with two runs or more, in the order of their first run. */
static void group_hosts(const cow_run_row *rows, size_t n, app_fleet_check *fc)
{
    size_t i, j, cap = 0;
    for (i = 0; i < n; i++) {
        size_t c = 0, rcap = 0;
        app_host_check *h;
        if (rows[i].host == NULL)
            continue;
        for (j = 0; j < i && !(rows[j].host && strcmp(rows[j].host, rows[i].host) == 0); j++)
            ;
        if (j < i)
            continue; /* counted with its first run */
        for (j = i; j < n; j++)
            c += rows[j].host && strcmp(rows[j].host, rows[i].host) == 0;
        if (c < 2)
            continue;
        fc->h = xgrow(fc->h, sizeof(*fc->h), fc->nh + 1, &cap);
        h = &fc->h[fc->nh++];
        h->host = rows[i].host;
        h->runs = NULL;
        h->nruns = 0;
        for (j = i; j < n; j++)
            if (rows[j].host && strcmp(rows[j].host, rows[i].host) == 0) {
                h->runs = xgrow(h->runs, sizeof(size_t), h->nruns + 1, &rcap);
                h->runs[h->nruns++] = j;
            }
    }
}

/* app_check_run for every run on jobs worker threads (app_check_runs,
 * check_pool.c); *ndone the runs judged before the first that failed. */
static int judge_runs(cow_store *st, const cow_run_row *rows, size_t n,
                      const app_thresholds *t, int jobs, const app_prejudged *pre,
                      app_verdict (*v)[TH_COUNT], size_t *ndone, cow_err *e)
{
    return app_check_runs(st, rows, n, t, jobs, pre, v, ndone, e);
}

int app_check_fleet(cow_store *st, const cow_run_row *rows, size_t n,
                    const app_thresholds *t, int method, int jobs,
                    const app_prejudged *pre, app_fleet_check *fc, cow_err *e)
{
    app_triage_facts *tf;
    struct timeval tv;
    size_t i;
    int rc = COW_OK;

    memset(fc, 0, sizeof(*fc));
    gettimeofday(&tv, NULL);
    fc->evaluated_us = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
    fc->method = method;
    fc->v = xcalloc(n ? n : 1, sizeof(*fc->v));
    fc->failed = xcalloc(n ? n : 1, sizeof(int));
    rc = judge_runs(st, rows, n, t, jobs, pre, fc->v, &fc->n, e);
    fc->m = app_check_correct(fc->v, fc->n, t, method);
    for (i = 0; i < fc->n; i++)
        fc->nfailed += fc->failed[i] = app_check_failed(fc->v[i], t);
    if (rc != COW_OK)
        return rc;
    group_hosts(rows, n, fc);
    fc->hv = xcalloc(fc->nh ? fc->nh : 1, sizeof(*fc->hv));
    fc->hfailed = xcalloc(fc->nh ? fc->nh : 1, sizeof(int));
    for (i = 0; i < fc->nh && rc == COW_OK; i++)
        rc = judge_host(st, rows, t, fc, &fc->h[i], fc->hv[i], e);
    if (rc != COW_OK)
        return rc;
    fc->mh = app_check_correct(fc->hv, fc->nh, t, method);
    for (i = 0; i < fc->nh; i++)
        fc->nhfailed += fc->hfailed[i] = app_check_failed(fc->hv[i], t);
    tf = xcalloc(n ? n : 1, sizeof(*tf));
    for (i = 0; i < n && rc == COW_OK; i++)
        rc = app_triage_load(st, &rows[i], &tf[i], e);
    if (rc == COW_OK)
        app_triage_rank(tf, fc->failed, n, &fc->tri);
    free(tf);
    return rc;
}

void app_check_fleet_release(app_fleet_check *fc)
{
    size_t i;
    for (i = 0; i < fc->nh; i++)
        free(fc->h[i].runs);
    free(fc->h);
    free(fc->v);
    free(fc->failed);
    free(fc->hv);
    free(fc->hfailed);
    app_triage_release(&fc->tri);
    memset(fc, 0, sizeof(*fc));
}

static const char *verdict_name(int s)
{
    return s == APP_PASS ? "pass" : s == APP_FAIL ? "fail" : "n/a";
}

int app_check_save(cow_store *st, const cow_run_row *rows, const app_thresholds *t,
                   const app_fleet_check *fc, cow_err *e)
{
    size_t cap = (fc->n + fc->nh) * TH_COUNT + 1, k = 0, i;
    cow_check_row *c = xcalloc(cap, sizeof(*c));
    int lim, rc;

    for (i = 0; i < fc->n + fc->nh; i++) {
        int host = i >= fc->n;
        const app_verdict *v = host ? fc->hv[i - fc->n] : fc->v[i];
        for (lim = 0; lim < TH_COUNT; lim++) {
            cow_check_row *x = &c[k];
            if (!t->set[lim])
                continue;
            x->run = host ? 0 : rows[i].id;
            x->host = host ? fc->h[i - fc->n].host : rows[i].host;
            x->scope = host ? "host" : "run";
            x->limit_name = app_th_keys[lim];
            x->limit_value = t->v[lim];
            x->value = v[lim].value;
            x->p = v[lim].p;
            x->p_adj = v[lim].p_adj;
            x->verdict = verdict_name(v[lim].state);
            x->method = v[lim].method;
            x->correction = fleet_method_name(fc->method);
            x->comparisons = (int64_t)(host ? fc->mh : fc->m);
            x->detail = v[lim].note;
            x->runs = host ? (int64_t)fc->h[i - fc->n].nruns : 1;
            x->evaluated_us = fc->evaluated_us;
            k++;
        }
    }
    rc = store_checks_replace(st, c, k, e);
    free(c);
    return rc;
}
