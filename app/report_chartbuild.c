/* report_chartbuild.c -- the per-run chart kinds from plain values
 * (report_chartbuild.h). */
#include "report_chartbuild.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* The slowest samples drawn one by one at most. */
#define RC_SLOW_POINTS 500

const double rc_qs[RC_NQ] = {0.5, 0.9, 0.99, 0.999};
static const char *const rc_qnames[RC_NQ] = {"p50", "p90", "p99", "p99.9"};

/* Span colours (style span_palette): windows by order, the fork band grey. */
#define SPAN_FORK 3

/* Shade the windows, mark the forks and band each fork's duration. */
static void add_windows(cow_chart *c, const rc_window *w, size_t nw)
{
    size_t i;
    for (i = 0; i < nw; i++) {
        char *label;
        chart_add_span(c, w[i].t0_s, w[i].t1_s, w[i].label)->color = (int)(i % 3);
        if (isnan(w[i].fork_s))
            continue;
        if (!isnan(w[i].fork_ms) && w[i].fork_ms > 0) {
            chart_add_span(c, w[i].fork_s, w[i].fork_s + w[i].fork_ms / 1000, "")->color =
                SPAN_FORK;
            label = xasprintf("fork %.1f ms", w[i].fork_ms);
        } else {
            label = xstrdup("fork");
        }
        chart_add_mark(c, w[i].fork_s, label);
        free(label);
    }
}

/* ------------------------------------------------------------ timeline */

int64_t rc_trail_us(size_t n, int64_t dur_us)
{
    static const double spans_s[] = {0.25, 0.5, 1, 2, 5, 10, 30, 60};
    double rate = dur_us > 0 ? (double)n / ((double)dur_us / 1e6) : 0, best = spans_s[0];
    size_t i;
    for (i = 0; i < sizeof(spans_s) / sizeof(spans_s[0]); i++) {
        if (spans_s[i] * 1e6 > (double)dur_us / 5 && i > 0)
            break;
        best = spans_s[i];
        if (rate * spans_s[i] >= RC_TRAIL_SAMPLES)
            break;
    }
    return (int64_t)(best * 1e6);
}

static void span_text(int64_t us, char *buf, size_t n)
{
    if (us % 1000000 == 0)
        snprintf(buf, n, "%lld s", (long long)(us / 1000000));
    else
        snprintf(buf, n, "%g s", (double)us / 1e6);
}

/* The k-th largest of v[0..n) (1 <= k <= n), by a min-heap of the k
 * largest seen: O(n log k), no copy of v. */
static double kth_largest(const double *v, size_t n, size_t k)
{
    double *h = xmalloc(k * sizeof(double));
    size_t i, m = 0;
    for (i = 0; i < n; i++) {
        size_t j;
        if (m == k && !(v[i] > h[0]))
            continue;
        if (m < k) {      /* sift up */
            j = m++;
            h[j] = v[i];
            while (j > 0 && h[(j - 1) / 2] > h[j]) {
                double t = h[j];
                h[j] = h[(j - 1) / 2];
                h[(j - 1) / 2] = t;
                j = (j - 1) / 2;
            }
            continue;
        }
        h[0] = v[i];      /* replace the smallest, sift down */
        for (j = 0;;) {
            size_t a = 2 * j + 1, b = a + 1, s = j;
            if (a < m && h[a] < h[s])
                s = a;
            if (b < m && h[b] < h[s])
                s = b;
            if (s == j)
                break;
            double t = h[j];
            h[j] = h[s];
            h[s] = t;
            j = s;
        }
    }
    {
        double r = h[0];
        free(h);
        return r;
    }
}

cow_chart *rc_timeline(const char *run, const int64_t *t_us, const double *lat_us, size_t n,
                       const rc_window *w, size_t nw, size_t ncol, int log_y, cow_err *e)
{
    cow_reduce_opts ro;
    cow_colred red;
    cow_chart *c;
    double *mn, *mx, *q;
    char *text, span[24], worst[COW_CHART_NAME];
    size_t i, iw = 0;
    cow_series *s;

    if (n == 0) {
        COW_FAIL(e, COW_EUSAGE, "no latency samples in this run");
        return NULL;
    }
    memset(&ro, 0, sizeof(ro));
    ro.q = 0.99;
    ro.trail_us = rc_trail_us(n, t_us[n - 1] - t_us[0]);
    ro.min_n = 20; /* fewer: a gap, not a max in disguise */
    if (chart_reduce_columns(t_us, lat_us, n, t_us[0], t_us[n - 1] + 1, ncol, &ro, &red, e) !=
        COW_OK) {
        chart_colred_release(&red);
        return NULL;
    }
    mn = xmalloc(red.ncol * sizeof(double));
    mx = xmalloc(red.ncol * sizeof(double));
    q = xmalloc(red.ncol * sizeof(double));
    for (i = 0; i < red.ncol; i++) {
        mn[i] = red.min_us[i] / 1000;
        mx[i] = red.max_us[i] / 1000;
        q[i] = red.q_us[i] / 1000;
    }
    for (i = 1; i < n; i++)
        if (lat_us[i] > lat_us[iw])
            iw = i;
    c = chart_new(text = xasprintf("Latency over time: %s", run));
    free(text);
    span_text(red.trail_us, span, sizeof(span));
    snprintf(c->subtitle, sizeof(c->subtitle), "%zu samples; band: min-max per column; "
             "diamonds: slowest 0.1%%; line: p99 of the trailing %.8s, never ahead of the data",
             n, span);
    chart_axis_set(&c->x, COW_AXIS_TIME, "time", "s");
    c->x.origin_us = t_us[0];
    chart_axis_set(&c->y, log_y ? COW_AXIS_LOG10 : COW_AXIS_LINEAR, "latency", "ms");
    c->y.include_zero = !log_y;
    s = chart_add_band(c, "min-max per column", red.t_s, mn, mx, red.ncol);
    s->color = 0;
    s->alpha = 0.8; /* a spike must show over the window shading */
    chart_add_line(c, text = xasprintf("p99, trailing %s", span), red.t_s, q, red.ncol)->color = 1;
    free(text);
    {   /* the slowest 0.1% as points: a lone stall sample is a column of
         * min = max, which a band cannot show */
        size_t k = n / 1000 > RC_SLOW_POINTS ? RC_SLOW_POINTS : n / 1000 ? n / 1000 : 1, m = 0;
        double thr = kth_largest(lat_us, n, k), *px = xmalloc(k * sizeof(double)),
               *py = xmalloc(k * sizeof(double));
        for (i = 0; i < n && m < k; i++)
            if (lat_us[i] >= thr && lat_us[i] > 0) {
                px[m] = (double)(t_us[i] - t_us[0]) / 1e6;
                py[m++] = lat_us[i] / 1000;
            }
        s = chart_add_points(c, text = xasprintf("slowest 0.1%% (%zu)", m), px, py, m);
        free(text);
        s->color = 6;
        s->marker = COW_MARKER_DIAMOND;
        free(px);
        free(py);
    }
    add_windows(c, w, nw);
    snprintf(worst, sizeof(worst), "worst of the run %.3f ms, sent at %.3f s",
             lat_us[iw] / 1000,
             (double)(t_us[iw] - t_us[0]) / 1e6);
    chart_add_callout(c, (double)(t_us[iw] - t_us[0]) / 1e6, lat_us[iw] / 1000, worst);
    free(mn);
    free(mx);
    free(q);
    chart_colred_release(&red);
    return c;
}

/* ------------------------------------------------- window vs baseline */

cow_chart *rc_window_chart(const char *run, const rc_phase_q *ph, size_t nph, const char *note,
                           cow_err *e)
{
    char *text;
    size_t i, k, shown = nph < RC_MAX_SERIES ? nph : RC_MAX_SERIES;
    cow_chart *c;

    if (nph == 0) {
        COW_FAIL(e, COW_EUSAGE, "no phase has quantiles");
        return NULL;
    }
    c = chart_new(text = xasprintf("Window against baseline: %s", run));
    free(text);
    snprintf(c->subtitle, sizeof(c->subtitle), "estimates with distribution-free 95%% "
             "intervals; an arrow: only a lower bound (too few samples beyond the quantile)");
    chart_axis_set(&c->x, COW_AXIS_CATEGORY, "quantile", NULL);
    chart_axis_set(&c->y, COW_AXIS_LOG10, "latency", "ms");
    for (k = 0; k < RC_NQ; k++)
        chart_add_category(c, rc_qnames[k], -1);
    for (i = 0; i < shown; i++) {
        double x[RC_NQ], off = shown > 1 ? -0.25 + 0.5 * (double)i / (double)(shown - 1) : 0;
        cow_series *s;
        for (k = 0; k < RC_NQ; k++)
            x[k] = (double)k + off;
        s = chart_add_points(c, text = xasprintf("%s (n=%ld)", ph[i].label, ph[i].n), x,
                             ph[i].est, RC_NQ);
        free(text);
        s->color = (int)i;
        chart_series_set_yerr(s, ph[i].lo, ph[i].hi);
    }
    if (nph > shown)
        snprintf(c->note, sizeof(c->note), "first %zu of %zu phases%s%s", shown, nph,
                 note ? "; " : "", note ? note : "");
    else if (note != NULL)
        snprintf(c->note, sizeof(c->note), "%s", note);
    return c;
}

/* ------------------------------------------------------------- memory */

const char *rc_mem_name(const char *what)
{
    if (what == NULL || !what[0])
        return "memory";
    if (strstr(what, "current"))
        return "cgroup memory.current";
    if (strstr(what, "usage"))
        return "cgroup memory usage";
    if (strstr(what, "child") && strstr(what, "rss"))
        return "child RSS";
    if (strstr(what, "rss"))
        return "RSS";
    if (strstr(what, "pss"))
        return "PSS";
    return what;
}

cow_chart *rc_memory(const char *run, const char *what, const char *file,
                     const int64_t *t_us, const double *bytes, size_t n,
                     const rc_cow_series *cow, int64_t t0_us, const rc_window *w,
                     size_t nw, cow_err *e)
{
    char *text;
    size_t ncow = cow ? cow->n : 0, m = n > ncow ? n : ncow;
    double *x, *y, peak = 0;
    cow_chart *c;
    size_t i;

    if (n == 0 && ncow == 0) {
        COW_FAIL(e, COW_EUSAGE, "no memory series");
        return NULL;
    }
    c = chart_new(text = xasprintf("Memory during the save: %s", run));
    free(text);
    if (n > 0)
        snprintf(c->subtitle, sizeof(c->subtitle), "%s of the server (%s), from %s%s%s",
                 rc_mem_name(what), what && what[0] ? what : "-",
                 file && file[0] ? file : "-", ncow ? "; copy-on-write of the fork child: "
                 : "", ncow ? cow->what : "");
    else
        snprintf(c->subtitle, sizeof(c->subtitle), "copy-on-write of the fork child: %s",
                 cow->what);
    chart_axis_set(&c->x, COW_AXIS_TIME, "time", "s");
    c->x.origin_us = t0_us;
    chart_axis_set(&c->y, COW_AXIS_LINEAR, n > 0 ? rc_mem_name(what) : "copy-on-write",
                   "MB");
    x = xmalloc((m ? m : 1) * sizeof(double));
    y = xmalloc((m ? m : 1) * sizeof(double));
    if (n > 0) {
        for (i = 0; i < n; i++) {
            x[i] = (double)(t_us[i] - t0_us) / 1e6;
            y[i] = bytes[i] / 1048576;
        }
        chart_add_line(c, rc_mem_name(what), x, y, n)->color = 0;
    }
    if (ncow > 0) {
        for (i = 0; i < ncow; i++) {
            x[i] = (double)(cow->t_us[i] - t0_us) / 1e6;
            y[i] = cow->bytes[i] / 1048576;
            if (y[i] > peak)
                peak = y[i];
        }
        chart_add_line(c, text = xasprintf("copy-on-write, peak %.0f MB", peak), x, y,
                       ncow)->color = 1;
        free(text);
    }
    add_windows(c, w, nw);
    free(x);
    free(y);
    return c;
}

/* --------------------------------------------------------- replsync */

cow_chart *rc_replsync(const char *run, const rc_sync *v, size_t n, cow_err *e)
{
    static const char *const steps[] = {"attach", "wait (primary prepares the RDB)",
                                        "transfer", "flush old data", "load"};
    char *text;
    double *y, *x0, *x1;
    cow_chart *c;
    size_t i, k;

    if (n == 0) {
        COW_FAIL(e, COW_EUSAGE, "no replica sync attempt in the replicas' logs");
        return NULL;
    }
    c = chart_new(text = xasprintf("Replica syncs: %s", run));
    free(text);
    snprintf(c->subtitle, sizeof(c->subtitle), "per replica (#server) and attempt, from "
             "its own log: resync, sync mode, outcome; the bar ends at link up or link lost");
    chart_axis_set(&c->x, COW_AXIS_LINEAR, "time from the attach", "s");
    chart_axis_set(&c->y, COW_AXIS_CATEGORY, "replica", NULL);
    c->x.include_zero = true;
    for (i = 0; i < n; i++) {
        chart_add_category(c, text = xasprintf("%s: %s", v[i].who, v[i].how), -1);
        free(text);
    }
    y = xmalloc(n * sizeof(double));
    x0 = xmalloc(n * sizeof(double));
    x1 = xmalloc(n * sizeof(double));
    for (k = 0; k < 5; k++) {
        cow_series *s;
        for (i = 0; i < n; i++) {
            const rc_sync *a = &v[i];
            double end = !isnan(a->up_s) ? a->up_s : a->lost_s;
            /* step k runs from[k] -> to[k]; a step not seen is NaN */
            double from[5] = {0, a->resync_s, a->recv_s, a->flush_s, a->load_s};
            double to[5] = {a->resync_s, a->recv_s, a->recv_end_s, a->load_s, end};
            y[i] = (double)i;
            x0[i] = from[k];
            x1[i] = to[k];
        }
        s = chart_add_points(c, steps[k], x0, y, n);
        chart_series_set_xerr(s, x0, x1);
        s->segment = true;
        s->color = (int)k;
    }
    free(y);
    free(x0);
    free(x1);
    return c;
}

/* ---------------------------------------------------------- spectrum */

size_t rc_spectrum(const rc_line *v, size_t n, cow_chart ***out)
{
    size_t nch = (n + RC_MAX_SERIES - 1) / RC_MAX_SERIES, i;
    char *title;

    *out = xcalloc(nch ? nch : 1, sizeof(cow_chart *));
    for (i = 0; i < n; i++) {
        size_t k = i / RC_MAX_SERIES;
        cow_chart *c = (*out)[k];
        if (c == NULL) {
            if (nch > 1)
                title = xasprintf("Reported percentile spectrum (%zu of %zu)", k + 1, nch);
            else
                title = xstrdup("Reported percentile spectrum");
            c = (*out)[k] = chart_new(title);
            free(title);
            snprintf(c->subtitle, sizeof(c->subtitle), "as the benchmark tools printed "
                     "them (no samples behind them here: no intervals)");
            chart_axis_set(&c->x, COW_AXIS_PCTL, "percentile", NULL);
            chart_axis_set(&c->y, COW_AXIS_LOG10, "latency", "ms");
        }
        chart_add_line(c, v[i].name, v[i].q, v[i].ms, v[i].n)->color =
            (int)(i % RC_MAX_SERIES);
    }
    return nch;
}
