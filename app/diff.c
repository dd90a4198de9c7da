/* diff.c -- runs against a base run (diff.h). */
#include "diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "mem.h"
#include "pct.h"
#include "phase.h"
#include "runstats.h"

const double app_diff_levels[APP_DIFF_LEVELS] = {0.5, 0.9, 0.99, 0.999};

cow_quant app_honest_quantile(const double *v, size_t m, double q)
{
    return app_quant_sorted(v, m, NAN, q);
}

cow_quant app_quant_sorted(const double *v, size_t m, double n_eff, double q)
{
    cow_qci ci;
    int rc;
    /* as analyze: the interval of the effective samples (dependent samples
     * carry less than their count); none known, or more than m: m */
    if (!(n_eff > 0) || n_eff > (double)m)
        n_eff = NAN;
    rc = isnan(n_eff) ? pct_quantile_ci(v, m, q, 0.95, &ci, NULL)
                      : pct_quantile_ci_m(v, m, n_eff, q, 0.95, &ci, NULL);
    if (m == 0 || rc != COW_OK)
        return quant_make(q, NAN, NAN, NAN, (int64_t)m, NAN);
    return quant_make(q, pct_quantile(v, m, q, COW_PCT_LINEAR), ci.has_lo ? ci.lo : NAN,
                      ci.has_hi ? ci.hi : NAN, (int64_t)m, isnan(n_eff) ? (double)m : n_eff);
}

/* The run's stored results, analysing it first when it never was. */
static int load_analysed(cow_store *st, const cow_run_row *r, size_t nsamples,
                         cow_result_set *rs, cow_err *e)
{
    int rc;
    if ((rc = store_load_results(st, r->id, rs, e)) != COW_OK || rs->analysed ||
        nsamples == 0)
        return rc;
    store_free_results(rs);
    if ((rc = app_analyze_run(st, r, e)) != COW_OK)
        return rc;
    return store_load_results(st, r->id, rs, e);
}

int app_run_values(cow_store *st, const cow_run_row *r, int whole, double **tv,
                   double **v, size_t *m, int *windows, cow_err *e)
{
    int64_t *t = NULL;
    double *lat = NULL, *out;
    unsigned char *in;
    size_t n = 0, i, k = 0;
    cow_result_set rs;
    int rc;

    *v = NULL;
    if (tv)
        *tv = NULL;
    *m = 0;
    *windows = 0;
    memset(&rs, 0, sizeof(rs));
    if ((rc = store_load_samples(st, r->id, &t, &lat, &n, e)) != COW_OK ||
        (!whole && (rc = load_analysed(st, r, n, &rs, e)) != COW_OK)) {
        store_free_results(&rs);
        free(t);
        free(lat);
        return rc;
    }
    /* each sample once, however many (overlapping) windows hold it */
    in = xcalloc(n ? n : 1, 1);
    for (i = 0; i < rs.nph; i++) {
        size_t a, b;
        if (!phase_is_window(phase_kind_from_name(rs.ph[i].kind)))
            continue;
        (*windows)++;
        for (a = 0; a < n && t[a] < rs.ph[i].t0_us; a++)
            ;
        for (b = a; b < n && t[b] < rs.ph[i].t1_us; b++)
            in[b] = 1;
    }
    out = xmalloc((n ? n : 1) * sizeof(double));
    for (i = 0; i < n; i++)
        if (*windows == 0 || in[i])
            out[k++] = lat[i];
    free(in);
    store_free_results(&rs);
    free(t);
    free(lat);
    if (tv) {
        *tv = xmalloc((k ? k : 1) * sizeof(double));
        memcpy(*tv, out, k * sizeof(double));
    }
    runstats_sort(out, k);
    *v = out;
    *m = k;
    return COW_OK;
}

const double app_diff_reported_q[APP_DIFF_REPORTED] = {50, 90, 99, 99.9, 100};

int app_diff_base_load(cow_store *st, const cow_run_row *base, int resamples,
                       uint64_t seed, app_diff_base *b, cow_err *e)
{
    int windows, rc;
    memset(b, 0, sizeof(*b));
    b->label = base->label;
    b->resamples = resamples;
    b->seed = seed;
    b->method = COW_PCT_LINEAR;
    if ((rc = app_load_reported(st, base->id, &b->rep, e)) != COW_OK)
        return rc;
    return app_run_values(st, base, 1, &b->t, &b->v, &b->n, &windows, e);
}

void app_diff_base_release(app_diff_base *b)
{
    free(b->v);
    free(b->t);
    app_reported_release(&b->rep);
    memset(b, 0, sizeof(*b));
}

/* Either run without samples: what their tools reported, level by level. */
static int diff_reported(cow_store *st, const app_diff_base *b, const cow_run_row *r,
                         app_diff_row *out, cow_err *e)
{
    app_reported rep;
    double blo, bhi, rlo, rhi;
    int l, rc;

    if ((rc = app_load_reported(st, r->id, &rep, e)) != COW_OK)
        return rc;
    for (l = 0; l < APP_DIFF_REPORTED; l++) {
        const cow_pctl_row *pb = app_reported_at(&b->rep, app_diff_reported_q[l]);
        const cow_pctl_row *pr = app_reported_at(&rep, app_diff_reported_q[l]);
        if (pb == NULL || pr == NULL)
            continue;
        out->rep_has[l] = 1;
        out->rep_base[l] = *pb;
        out->rep_run[l] = *pr;
        /* the copies keep the numbers and the op; the files stay with
         * the sets they came from (rep is released below) */
        out->rep_base[l].file = out->rep_run[l].file = NULL;
        out->rep_base_n[l] = app_reported_total(&b->rep, pb);
        out->rep_run_n[l] = app_reported_total(&rep, pr);
        out->reported = 1;
        out->rep_verdict[l] = COW_VERDICT_NA;
        if (app_reported_ci(&b->rep, pb, &blo, &bhi) && app_reported_ci(&rep, pr, &rlo, &rhi)) {
            out->rep_ci[l] = 1;
            out->rep_lo_us[l] = rlo - bhi;
            out->rep_hi_us[l] = rhi - blo;
            out->rep_verdict[l] = out->rep_lo_us[l] > 0   ? COW_VERDICT_LIFT
                                : out->rep_hi_us[l] < 0 ? COW_VERDICT_DROP
                                                        : COW_VERDICT_FLAT;
        }
    }
    app_reported_release(&rep);
    return COW_OK;
}

int app_diff_run(cow_store *st, const app_diff_base *b, const cow_run_row *r, int whole,
                 app_diff_row *out, cow_err *e)
{
    double *v = NULL, *tv = NULL;
    int l, rc;

    memset(out, 0, sizeof(*out));
    out->run = r->label;
    if ((rc = app_run_values(st, r, whole, &tv, &v, &out->n, &out->windows, e)) != COW_OK)
        return rc;
    for (l = 0; l < APP_DIFF_LEVELS; l++) {
        cow_group ga = {b->t, b->v, b->n}, gr = {tv, v, out->n};
        cow_qcmp_opts qo = {b->resamples, b->seed + (uint64_t)l, b->method};
        if ((rc = qcmp_compute(&ga, &gr, app_diff_levels[l], 0.0, &qo, &out->d[l], e)) !=
            COW_OK)
            break;
        /* bounds for the effective samples the verdict counted */
        out->base_q[l] = app_quant_sorted(b->v, b->n, out->d[l].dep_a.n_eff, app_diff_levels[l]);
        out->run_q[l] = app_quant_sorted(v, out->n, out->d[l].dep_b.n_eff, app_diff_levels[l]);
    }
    if (rc == COW_OK && out->n > 0 && b->n > 0) {
        /* the maximum: a plain difference; no interval (a bootstrap of the
         * maximum only resamples the few largest values) */
        out->has_max = 1;
        out->base_max_us = b->v[b->n - 1];
        out->run_max_us = v[out->n - 1];
    }
    free(v);
    free(tv);
    if (rc == COW_OK && (out->n == 0 || b->n == 0))
        rc = diff_reported(st, b, r, out, e);
    return rc;
}
