/* tradeoff.c -- spread over trials and the ratio between modes.
 *
 * Requirements:
 *  1. Per group and metric: n, mean, min, max, sd and the 95% t-interval of
 *     the mean (mean +- t(0.975, n-1) sd / sqrt n). NaN values are skipped.
 *  2. Ratio of means b/a with a 95% Welch t-interval on the log scale
 *     (delta method): log(mb/ma) +- t(0.975, df) se, se^2 = sb^2 / (nb mb^2)
 *     + sa^2 / (na ma^2), df by Welch-Satterthwaite (rounded down). At 7 +
 *     7 trials it covers 95.1-95.8% where the percentile bootstrap of trials
 *     covered 89.9-90.8% (bench/calibration, "Trade-off ratio"). Both means must
 *     be > 0; a b that is 0 in every trial (forkless COW) has the point
 *     interval [0, 0]. Deterministic. */
#include "tradeoff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"


static const char *const names[COW_TM_COUNT] = {
    "cow_mb", "mem_growth_mb", "mem_growth_run_mb", "save_s", "throughput_save_ops_s",
    "throughput_ops_s", "worst_rtt_save_ms", "samples_save", "worst_rtt_ms", "samples",
    "fork_ms"};
static const char *const labels[COW_TM_COUNT] = {
    "COW (MB)", "memory growth, save (MB)", "memory growth, run (MB)", "save (s)",
    "throughput, save (ops/s)", "throughput, run (ops/s)", "worst RTT, save (ms)",
    "samples in the save", "worst RTT, run (ms)", "samples in the run", "fork (ms)"};

const char *tradeoff_metric_name(int m)
{
    return m >= 0 && m < COW_TM_COUNT ? names[m] : "?";
}

const char *tradeoff_metric_label(int m)
{
    return m >= 0 && m < COW_TM_COUNT ? labels[m] : "?";
}

double tradeoff_t975(size_t df)
{
    static const double t[] = {NAN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447,
                               2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
                               2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                               2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
                               2.048, 2.045, 2.042};
    if (df < sizeof(t) / sizeof(t[0]))
        return t[df];
    return 1.96 + 2.4 / (double)df; /* within 0.002 of t for df > 30 */
}

static int group_of(cow_tradeoff *o, const char *mode)
{
    size_t k;
    const char *m = mode ? mode : "unknown";
    for (k = 0; k < o->ngroups; k++)
        if (strcmp(o->g[k].mode, m) == 0)
            return (int)k;
    if (o->ngroups == COW_TRADE_MAX_GROUPS)
        return -1;
    strncpy(o->g[o->ngroups].mode, m, sizeof(o->g[0].mode) - 1);
    return (int)o->ngroups++;
}

/* Requirement 1 */
static void stat_of(const double *v, size_t n, cow_trade_stat *s)
{
    size_t i;
    double sum = 0, ss = 0;
    memset(s, 0, sizeof(*s));
    s->mean = s->min = s->max = s->sd = s->lo = s->hi = NAN;
    for (i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        if (s->n == 0 || v[i] < s->min)
            s->min = v[i];
        if (s->n == 0 || v[i] > s->max)
            s->max = v[i];
        sum += v[i];
        s->n++;
    }
    if (s->n == 0)
        return;
    s->mean = sum / (double)s->n;
    if (s->n < 2)
        return;
    for (i = 0; i < n; i++)
        if (!isnan(v[i]))
            ss += (v[i] - s->mean) * (v[i] - s->mean);
    s->sd = sqrt(ss / (double)(s->n - 1));
    s->lo = s->mean - tradeoff_t975(s->n - 1) * s->sd / sqrt((double)s->n);
    s->hi = s->mean + tradeoff_t975(s->n - 1) * s->sd / sqrt((double)s->n);
}

/* Requirement 2 */
void tradeoff_ratio(const double *a, size_t na, const double *b, size_t nb,
                    cow_trade_ratio *out)
{
    double ma = 0, mb = 0, sa = 0, sb = 0, va, vb, se, df, t;
    size_t i;

    out->ratio = out->lo = out->hi = NAN;
    if (na == 0 || nb == 0)
        return;
    for (i = 0; i < na; i++)
        ma += a[i];
    for (i = 0; i < nb; i++)
        mb += b[i];
    ma /= (double)na;
    mb /= (double)nb;
    if (ma != 0)
        out->ratio = mb / ma;
    for (i = 0; i < na; i++)
        sa += (a[i] - ma) * (a[i] - ma);
    for (i = 0; i < nb; i++)
        sb += (b[i] - mb) * (b[i] - mb);
    if (na >= 2 && nb >= 2 && ma > 0 && mb == 0 && sb == 0) { /* every b is 0 */
        out->lo = out->hi = 0.0;
        return;
    }
    if (na < 2 || nb < 2 || !(ma > 0) || !(mb > 0)) /* Requirement 2: logs need > 0 */
        return;
    va = sa / (double)(na - 1) / ((double)na * ma * ma); /* var of log mean a */
    vb = sb / (double)(nb - 1) / ((double)nb * mb * mb);
    se = sqrt(va + vb);
    if (se == 0) {
        out->lo = out->hi = out->ratio;
        return;
    }
    df = (va + vb) * (va + vb) /
         (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
    t = tradeoff_t975(df < 1 ? 1 : (size_t)floor(df));
    out->lo = out->ratio * exp(-t * se);
    out->hi = out->ratio * exp(t * se);
}

/* Values of metric m for group g, NaN skipped. */
static size_t values(const cow_trial *t, size_t n, const char *mode, int m,
                     double *out)
{
    size_t i, k = 0;
    for (i = 0; i < n; i++) {
        const char *tm = t[i].mode ? t[i].mode : "unknown";
        if (strcmp(tm, mode) == 0 && !isnan(t[i].v[m]))
            out[k++] = t[i].v[m];
    }
    return k;
}

int tradeoff_compute(const cow_trial *t, size_t n, uint64_t seed,
                     cow_tradeoff *out, cow_err *e)
{
    (void)seed; /* the intervals are deterministic (Requirement 2) */
    double *va = xmalloc((n ? n : 1) * sizeof(double));
    double *vb = xmalloc((n ? n : 1) * sizeof(double));
    size_t i, k;
    int m;

    (void)e;
    memset(out, 0, sizeof(*out));
    out->a = out->b = -1;
    for (i = 0; i < n; i++) {
        int g = group_of(out, t[i].mode);
        if (g >= 0)
            out->g[g].ntrials++;
    }
    for (k = 0; k < out->ngroups; k++)
        for (m = 0; m < COW_TM_COUNT; m++) {
            size_t nv = values(t, n, out->g[k].mode, m, va);
            stat_of(va, nv, &out->g[k].m[m]);
        }
    for (k = 0; k < out->ngroups; k++) {
        if (strcmp(out->g[k].mode, "fork") == 0)
            out->a = (int)k;
        if (strcmp(out->g[k].mode, "forkless") == 0)
            out->b = (int)k;
    }
    if ((out->a < 0 || out->b < 0) && out->ngroups >= 2) {
        out->a = 0;
        out->b = 1;
    }
    if (out->a < 0 || out->b < 0) /* one mode only: nothing to compare */
        out->a = out->b = -1;
    for (m = 0; m < COW_TM_COUNT; m++) {
        out->ratio[m].ratio = out->ratio[m].lo = out->ratio[m].hi = NAN;
        if (out->a < 0)
            continue;
        {
            size_t na = values(t, n, out->g[out->a].mode, m, va);
            size_t nb = values(t, n, out->g[out->b].mode, m, vb);
            tradeoff_ratio(va, na, vb, nb, &out->ratio[m]);
        }
    }
    free(va);
    free(vb);
    return COW_OK;
}
