/* report_charts.c -- the seven chart kinds of the report (see
 * report_charts.h): timeline and percentile distribution per run,
 * quantile bars across runs, memory during the save by mode, the
 * trade-off panel, forkless progress, the fleet view, and the spectrum
 * of the percentiles percentile-only tools reported. */
#include "report_charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_data.h"
#include "chart_layout.h"
#include "facts.h"
#include "label.h"
#include "mem.h"
#include "outfile.h"
#include "pct.h"
#include "png.h"
#include "reported.h"
#include "runstats.h"
#include "savewin.h"

/* Pixel columns of the timeline reduction at scale 1. */
#define TIMELINE_COLS 1400
/* Samples under each point of the timeline's rolling p99. */
#define TIMELINE_P99_MIN_N 300
/* Runs drawn in one overlay chart before it stops being readable. */
#define MAX_OVERLAY 16

typedef struct out {
    report_chart *v;   /* charts */
    size_t n, cap;
    const report_chart_opts *o;
    char **used;       /* file names given out so far */
    size_t nused, capused;
} out;

/* "PREFIX-STEM.png" for a run's chart: the stem is label_file_stem's, and
 * a name some chart of this report already has gets "-2", "-3"... (labels
 * "a b", "a/b" and "a_b" share the stem a_b, and must not overwrite each
 * other's charts). */
static void chart_file(out *o, const char *prefix, const char *label,
                       char *file, size_t n)
{
    char stem[COW_LABEL_STEM_MAX + 1];
    size_t i;
    unsigned k = 1;
    int taken;

    label_file_stem(label, stem, sizeof(stem));
    do {
        if (k == 1)
            snprintf(file, n, "%s-%s.png", prefix, stem);
        else
            snprintf(file, n, "%s-%s-%u.png", prefix, stem, k);
        k++;
        taken = 0;
        for (i = 0; i < o->nused && !taken; i++)
            taken = strcmp(o->used[i], file) == 0;
    } while (taken);
    o->used = xgrow(o->used, sizeof(char *), o->nused + 1, &o->capused);
    o->used[o->nused++] = xstrdup(file);
}

/* Write c (consumed) as file, or record why not. */
static int emit(out *o, cow_chart *c, const char *file, const char *title, cow_err *e)
{
    report_chart *r;
    char *path, why[200];
    cow_style st;
    int rc = COW_OK;

    o->v = xgrow(o->v, sizeof(report_chart), o->n + 1, &o->cap);
    r = &o->v[o->n++];
    memset(r, 0, sizeof(*r));
    snprintf(r->title, sizeof(r->title), "%s", title);
    if (!chart_is_drawable(c, why, sizeof(why))) {
        snprintf(r->why, sizeof(r->why), "%s", why);
        chart_free(c);
        return COW_OK;
    }
    chart_style_defaults(&st, o->o->scale);
    path = outfile_join(o->o->dir, file);
    rc = chart_write_png(c, &st, path, (int)(1600 * o->o->scale), (int)(900 * o->o->scale), e);
    free(path);
    if (rc == COW_EUSAGE) {
        snprintf(r->why, sizeof(r->why), "%s", e->msg);
        rc = COW_OK;
    } else if (rc == COW_OK) {
        snprintf(r->file, sizeof(r->file), "%s", file);
    }
    chart_free(c);
    return rc;
}

static void skip(out *o, const char *title, const char *why)
{
    report_chart *r;
    o->v = xgrow(o->v, sizeof(report_chart), o->n + 1, &o->cap);
    r = &o->v[o->n++];
    memset(r, 0, sizeof(*r));
    snprintf(r->title, sizeof(r->title), "%s", title);
    snprintf(r->why, sizeof(r->why), "%s", why);
}

static int is_window(const cow_phase_row *p)
{
    return phase_is_window(phase_kind_from_name(p->kind));
}

/* ------------------------------------------------------ 1 timeline */

/* Windows shaded and forks marked on a time axis starting at t0. */
static void add_windows(cow_chart *c, const cow_result_set *rs, int64_t t0)
{
    size_t i;
    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        char label[64];
        if (!is_window(p))
            continue;
        snprintf(label, sizeof(label), "%s", phase_kind_title(phase_kind_from_name(p->kind)));
        chart_add_span(c, (double)(p->t0_us - t0) / 1e6, (double)(p->t1_us - t0) / 1e6,
                       label);
        if (p->fork_us)
            chart_add_mark(c, (double)(p->fork_us - t0) / 1e6, "fork");
    }
}

/* A run without samples: the per-interval p99 and p99.9 its benchmark tool
 * reported (memtier's per-second series, HdrHistogram interval logs)
 * against the server's windows. */
static int reported_timeline(out *o, cow_store *st, const cow_run_row *r,
                             const cow_result_set *rs, const char *title,
                             const char *file, cow_err *e)
{
    static const struct { double q; const char *name; } lv[] = {{99, "p99"}, {99.9, "p99.9"}};
    cow_chart *c = NULL;
    char op[64], label[96];
    int64_t t0 = 0;
    size_t j, k;
    int rc = COW_OK;

    for (j = 0; j < sizeof(lv) / sizeof(lv[0]) && rc == COW_OK; j++) {
        int64_t *t = NULL;
        double *v = NULL, *xs, *ys;
        size_t m = 0;
        if ((rc = store_load_pctl_series(st, r->id, lv[j].q, op, &t, &v, &m, e)) != COW_OK)
            break;
        if (m > 0) {
            if (c == NULL) {
                t0 = t[0];
                c = chart_new(title);
                snprintf(c->subtitle, sizeof(c->subtitle), "no samples: per-interval "
                         "percentiles as the benchmark tool reported them%s%s",
                         op[0] ? ", op " : "", op);
                chart_axis_set(&c->x, COW_AXIS_TIME, "time", "s");
                c->x.origin_us = t0;
                chart_axis_set(&c->y, o->o->log_y ? COW_AXIS_LOG10 : COW_AXIS_LINEAR,
                               "latency", "ms");
                c->y.include_zero = !o->o->log_y;
            }
            xs = xmalloc(m * sizeof(double));
            ys = xmalloc(m * sizeof(double));
            for (k = 0; k < m; k++) {
                xs[k] = (double)(t[k] - t0) / 1e6;
                ys[k] = v[k] / 1000;
            }
            snprintf(label, sizeof(label), "reported %s per interval", lv[j].name);
            chart_add_line(c, label, xs, ys, m);
            free(xs);
            free(ys);
        }
        free(t);
        free(v);
    }
    if (rc != COW_OK || c == NULL) {
        if (c)
            chart_free(c);
        if (rc == COW_OK)
            skip(o, title, "no latency samples in this run");
        return rc;
    }
    add_windows(c, rs, t0);
    return emit(o, c, file, title, e);
}

static int timeline(out *o, cow_store *st, const cow_run_row *r, const int64_t *t,
                    const double *lat, size_t n, const cow_result_set *rs, cow_err *e)
{
    cow_chart *c;
    cow_colred red;
    cow_reduce_opts ro;
    double *mn, *mx, *q;
    char file[200], title[200];
    size_t i, ncol = (size_t)(TIMELINE_COLS * o->o->scale);
    int rc;

    snprintf(title, sizeof(title), "Latency over time: %s", r->label);
    chart_file(o, "timeline", r->label, file, sizeof(file));
    if (n == 0)
        return reported_timeline(o, st, r, rs, title, file, e);
    memset(&ro, 0, sizeof(ro));
    ro.q = 0.99;
    /* A p99 needs a few hundred samples; more smears a save's rise over
     * the seconds before it (the window is centred). */
    ro.min_n = TIMELINE_P99_MIN_N;
    if ((rc = chart_reduce_columns(t, lat, n, t[0], t[n - 1] + 1, ncol, &ro, &red, e)) != COW_OK) {
        chart_colred_release(&red);
        return rc;
    }
    mn = xmalloc(red.ncol * sizeof(double));
    mx = xmalloc(red.ncol * sizeof(double));
    q = xmalloc(red.ncol * sizeof(double));
    for (i = 0; i < red.ncol; i++) {
        mn[i] = red.min_us[i] / 1000;
        mx[i] = red.max_us[i] / 1000;
        q[i] = red.q_us[i] / 1000;
    }
    c = chart_new(title);
    snprintf(c->subtitle, sizeof(c->subtitle), "%zu samples; band: min-max per pixel "
             "column; line: rolling p99 of the %d nearest samples", n, TIMELINE_P99_MIN_N);
    chart_axis_set(&c->x, COW_AXIS_TIME, "time", "s");
    c->x.origin_us = t[0];
    chart_axis_set(&c->y, o->o->log_y ? COW_AXIS_LOG10 : COW_AXIS_LINEAR, "latency", "ms");
    c->y.include_zero = !o->o->log_y;
    chart_add_band(c, "min-max", red.t_s, mn, mx, red.ncol);
    chart_add_line(c, "rolling p99", red.t_s, q, red.ncol);
    add_windows(c, rs, t[0]);
    free(mn);
    free(mx);
    free(q);
    chart_colred_release(&red);
    return emit(o, c, file, title, e);
}

/* ------------------------------------------------------ 2 distribution */

/* Quantile levels from 0 to 1 - 1/n, evenly spaced on the 1/(1-q) axis. */
static size_t levels(size_t n, double *q, size_t cap)
{
    size_t k = 0;
    double top = n > 1 ? log10((double)n) : 0, x;
    for (x = 0; x <= top + 1e-9 && k < cap; x += 0.05)
        q[k++] = 1 - pow(10, -x);
    return k;
}

static int distribution(out *o, const cow_run_row *r, const int64_t *t, const double *lat,
                        size_t n, const cow_result_set *rs, cow_err *e)
{
    cow_chart *c;
    char file[200], title[200];
    size_t i, k, drawn = 0;

    snprintf(title, sizeof(title), "Percentile distribution by phase: %s", r->label);
    chart_file(o, "distribution", r->label, file, sizeof(file));
    c = chart_new(title);
    snprintf(c->subtitle, sizeof(c->subtitle), "each phase's quantiles up to 1 - 1/n "
             "(no extrapolation beyond the data)");
    chart_axis_set(&c->x, COW_AXIS_PCTL, "percentile", NULL);
    chart_axis_set(&c->y, COW_AXIS_LOG10, "latency", "ms");
    for (i = 0; i < rs->nph && drawn < MAX_OVERLAY; i++) {
        const cow_phase_row *p = &rs->ph[i];
        double qs[200], ys[200];
        size_t m, nq;
        double *v;
        if (phase_kind_from_name(p->kind) == COW_PHASE_BETWEEN)
            continue;
        v = runstats_slice_sorted(t, lat, n, p->t0_us, p->t1_us, &m);
        if (m >= 2) {
            nq = levels(m, qs, 200);
            for (k = 0; k < nq; k++)
                ys[k] = pct_quantile(v, m, qs[k], COW_PCT_LINEAR) / 1000;
            {
                char label[96];
                snprintf(label, sizeof(label), "%s (n=%zu)", p->label, m);
                chart_add_line(c, label, qs, ys, nq);
            }
            drawn++;
        }
        free(v);
    }
    return emit(o, c, file, title, e);
}

/* ------------------------------------------------------ 3 quantile bars */

/* Categories that still have room for an "n=" line under their labels. */
#define BARS_N_LINE_MAX 10

static size_t n_with_samples(const cow_run_row *rows, size_t n)
{
    size_t i, k = 0;
    for (i = 0; i < n; i++)
        k += rows[i].samples > 0;
    return k;
}

static const double bar_qs[3] = {0.5, 0.99, 0.999};

/* One run's bars: its samples and the three quantiles with intervals,
 * taken while the per-run charts hold its samples (loading 10 M samples
 * a second time was a tenth of the report). */
typedef struct bar_run {
    size_t m;
    cow_qci ci[3];
} bar_run;

static void bar_fill(bar_run *b, double *lat, size_t m)
{
    size_t l;
    runstats_sort(lat, m);
    b->m = m;
    for (l = 0; l < 3; l++)
        pct_quantile_ci(lat, m, bar_qs[l], 0.95, &b->ci[l], NULL);
}

static int quantile_bars(out *o, const cow_run_row *rows, size_t n, const bar_run *bars,
                         cow_err *e)
{
    static const char *const names[3] = {"p50", "p99", "p99.9"};
    const char *title = "p50, p99 and p99.9 per run, with 95% intervals";
    cow_chart *c = chart_new(title);
    double *y[3], *lo[3], *hi[3];
    unsigned char *thin[3];
    size_t i, l, k = 0, cap = n < MAX_OVERLAY * 2 ? n : MAX_OVERLAY * 2;

    snprintf(c->subtitle, sizeof(c->subtitle), "whole runs; whiskers: distribution-free "
             "95%% intervals; pale bars: too few samples beyond the quantile");
    chart_axis_set(&c->x, COW_AXIS_CATEGORY, "run", NULL);
    chart_axis_set(&c->y, COW_AXIS_LINEAR, "latency", "ms");
    c->y.include_zero = true;
    for (l = 0; l < 3; l++) {
        y[l] = xcalloc(cap ? cap : 1, sizeof(double));
        lo[l] = xcalloc(cap ? cap : 1, sizeof(double));
        hi[l] = xcalloc(cap ? cap : 1, sizeof(double));
        thin[l] = xcalloc(cap ? cap : 1, 1);
    }
    for (i = 0; i < n && k < cap; i++) {
        size_t m = bars[i].m;
        if (rows[i].samples == 0)
            continue;
        if (n_with_samples(rows, n) > BARS_N_LINE_MAX) {
            /* crowded: the "n=" line under the labels would collide, so n
             * goes into the (rotated) label */
            char lab[COW_CHART_NAME];
            snprintf(lab, sizeof(lab), "%s (n=%zu)", rows[i].label, m);
            chart_add_category(c, lab, -1);
        } else {
            chart_add_category(c, rows[i].label, (long)m);
        }
        for (l = 0; l < 3; l++) {
            const cow_qci *ci = &bars[i].ci[l];
            y[l][k] = ci->est / 1000;
            lo[l][k] = ci->has_lo ? ci->lo / 1000 : NAN;
            hi[l][k] = ci->has_hi ? ci->hi / 1000 : NAN;
            thin[l][k] = (unsigned char)ci->thin;
        }
        k++;
    }
    for (l = 0; l < 3; l++) {
        cow_series *s = chart_add_bars(c, names[l], y[l], lo[l], hi[l], k);
        chart_series_set_thin(s, thin[l]);
    }
    for (l = 0; l < 3; l++) {
        free(y[l]);
        free(lo[l]);
        free(hi[l]);
        free(thin[l]);
    }
    if (n > cap)
        snprintf(c->note, sizeof(c->note), "first %zu of %zu runs", cap, n);
    return emit(o, c, "quantiles.png", title, e);
}

/* ------------------------------------------------------ 4 memory */

static int same_str(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* Runs the memory chart compares: the trade-off group when there is one
 * (modes are comparable on one host and workload), else any run. */
static int in_memory_chart(const report_chart_opts *o, const cow_run_row *r)
{
    if (o->group_host == NULL && o->group_scenario == NULL)
        return 1;
    return r->mode != NULL && same_str(r->host, o->group_host) &&
           same_str(r->scenario, o->group_scenario);
}

static int memory(out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
{
    const char *title = "Memory during the save, by mode (aligned at the save start)";
    cow_chart *c = chart_new(title);
    char modes[8][32];
    size_t i, nmodes = 0, drawn = 0;
    int rc = COW_OK;

    if (o->o->group_host || o->o->group_scenario)
        snprintf(c->subtitle, sizeof(c->subtitle), "memory series minus its level at "
                 "the save start; one line per run of host %s, scenario %s",
                 o->o->group_host ? o->o->group_host : "-",
                 o->o->group_scenario ? o->o->group_scenario : "-");
    else
        snprintf(c->subtitle, sizeof(c->subtitle), "memory series minus its level at "
                 "the save start; one line per run");
    chart_axis_set(&c->x, COW_AXIS_LINEAR, "time from save start", "s");
    chart_axis_set(&c->y, COW_AXIS_LINEAR, "memory growth", "MB");
    for (i = 0; i < n && rc == COW_OK && drawn < 4 * MAX_OVERLAY; i++) {
        cow_result_set rs;
        cow_phase *ph;
        int64_t *t = NULL, t0 = 0;
        double *b = NULL, *x, *y, base = NAN;
        size_t m = 0, j, k = 0, mi;
        int w;
        const char *mode = rows[i].mode ? rows[i].mode : "run";
        if (!in_memory_chart(o->o, &rows[i]))
            continue;
        if ((rc = store_load_results(st, rows[i].id, &rs, e)) != COW_OK)
            break;
        ph = facts_phases(&rs);
        if ((w = savewin_pick(ph, rs.nph)) >= 0)
            t0 = ph[w].t0_us;
        free(ph);
        store_free_results(&rs);
        if (w < 0 || (rc = store_load_mem(st, rows[i].id, &t, &b, &m, e)) != COW_OK ||
            isnan(base = savewin_level(t, b, m, t0))) {
            /* no save, no memory series, or none of it before the save:
             * the growth is unknown (as in the trade-off table) */
            free(t);
            free(b);
            continue;
        }
        x = xmalloc(m * sizeof(double));
        y = xmalloc(m * sizeof(double));
        for (j = 0; j < m; j++) {
            x[k] = (double)(t[j] - t0) / 1e6;
            y[k++] = (b[j] - base) / 1048576;
        }
        for (mi = 0; mi < nmodes && strcmp(modes[mi], mode) != 0; mi++)
            ;
        if (mi == nmodes && nmodes < 8)
            snprintf(modes[nmodes++], sizeof(modes[0]), "%s", mode);
        {
            cow_series *s = chart_add_line(c, "", x, y, k);
            s->color = (int)mi; /* named per mode below */
        }
        drawn++;
        free(x);
        free(y);
        free(t);
        free(b);
    }
    if (rc != COW_OK) {
        chart_free(c);
        return rc;
    }
    /* legend: name the first series of each mode */
    {
        size_t s, mi;
        int named[8] = {0};
        for (s = 0; s < c->nseries; s++) {
            mi = (size_t)c->series[s].color;
            if (mi < 8 && !named[mi]) {
                snprintf(c->series[s].name, sizeof(c->series[s].name), "%s", modes[mi]);
                named[mi] = 1;
            } else {
                c->series[s].name[0] = '\0';
            }
        }
    }
    if (drawn == 0) {
        chart_free(c);
        skip(o, title, "no run has both a memory series and a save window");
        return COW_OK;
    }
    return emit(o, c, "memory.png", title, e);
}

/* ------------------------------------------------------ 5 trade-off */

static int tradeoff_panel(out *o, const cow_tradeoff *t, cow_err *e)
{
    static const int metrics[4] = {COW_TM_COW_MB, COW_TM_SAVE_S, COW_TM_TPUT_SAVE,
                                   COW_TM_WORST_SAVE_MS};
    const char *title = "Trade-off between modes (mean and 95% interval over trials)";
    cow_chart *c;
    size_t g;
    int k;

    if (t == NULL || t->ngroups < 2) {
        skip(o, title, "fewer than two modes (run.json \"mode\": fork / forkless)");
        return COW_OK;
    }
    c = chart_new(title);
    snprintf(c->subtitle, sizeof(c->subtitle), "dots: mean over trials; bars: 95%% "
             "t-interval; crosses: min and max");
    for (k = 0; k < 4; k++) {
        cow_chart *p = chart_add_panel(c, tradeoff_metric_label(metrics[k]));
        double x[COW_TRADE_MAX_GROUPS], y[COW_TRADE_MAX_GROUPS], lo[COW_TRADE_MAX_GROUPS],
            hi[COW_TRADE_MAX_GROUPS], mn[COW_TRADE_MAX_GROUPS], mx[COW_TRADE_MAX_GROUPS];
        cow_series *s;
        chart_axis_set(&p->x, COW_AXIS_CATEGORY, "mode", NULL);
        chart_axis_set(&p->y, COW_AXIS_LINEAR, tradeoff_metric_label(metrics[k]), NULL);
        p->y.include_zero = true;
        p->legend = false;
        for (g = 0; g < t->ngroups; g++) {
            const cow_trade_stat *st = &t->g[g].m[metrics[k]];
            chart_add_category(p, t->g[g].mode, (long)st->n);
            x[g] = (double)g;
            y[g] = st->mean;
            lo[g] = isnan(st->lo) ? st->mean : st->lo;
            hi[g] = isnan(st->hi) ? st->mean : st->hi;
            mn[g] = st->min;
            mx[g] = st->max;
        }
        s = chart_add_points(p, "mean", x, y, t->ngroups);
        chart_series_set_yerr(s, lo, hi);
        s = chart_add_points(p, "min", x, mn, t->ngroups);
        s->marker = COW_MARKER_CROSS;
        s = chart_add_points(p, "max", x, mx, t->ngroups);
        s->marker = COW_MARKER_CROSS;
    }
    return emit(o, c, "tradeoff.png", title, e);
}

/* ------------------------------------------------------ 6 progress */

/* Points of a series inside [t0, t1] with a value >= 0, as seconds from
 * t0; returns how many (x and y hold up to n). */
static size_t save_points(const int64_t *t, const double *v, size_t n, int64_t t0,
                          int64_t t1, double *x, double *y)
{
    size_t i, k = 0;
    for (i = 0; i < n; i++)
        if (t[i] >= t0 && t[i] <= t1 && v[i] >= 0) {
            x[k] = (double)(t[i] - t0) / 1e6;
            y[k++] = v[i];
        }
    return k;
}

/* One forkless run's two progress lines: the save is where keys are being
 * processed (Redis reports the field too, but only forkless runs are
 * drawn, and -1 "no save" values are left out). */
static int progress_run(cow_store *st, const cow_run_row *r, cow_chart *pk,
                        cow_chart *pe, int *drawn, cow_err *e)
{
    int64_t *t1 = NULL, *t2 = NULL, s0 = 0, s1 = 0;
    double *v1 = NULL, *v2 = NULL, *x, *y;
    size_t n1 = 0, n2 = 0, i, k;
    int rc;

    if ((rc = store_load_info_series(st, r->id, "current_save_keys_processed", &t1, &v1,
                                     &n1, e)) != COW_OK ||
        (rc = store_load_info_series(st, r->id, "forkless_estimated_seconds_remaining",
                                     &t2, &v2, &n2, e)) != COW_OK)
        goto done;
    for (i = 0; i < n1; i++)
        if (v1[i] > 0) {
            if (s0 == 0)
                s0 = t1[i];
            s1 = t1[i];
        }
    if (s0 == 0)
        goto done;
    x = xmalloc((n1 + n2 + 1) * sizeof(double));
    y = xmalloc((n1 + n2 + 1) * sizeof(double));
    if ((k = save_points(t1, v1, n1, s0, s1, x, y)) > 0)
        chart_add_line(pk, r->label, x, y, k);
    if ((k = save_points(t2, v2, n2, s0, s1, x, y)) > 0)
        chart_add_line(pe, r->label, x, y, k);
    free(x);
    free(y);
    (*drawn)++;
done:
    free(t1);
    free(v1);
    free(t2);
    free(v2);
    return rc;
}

static int progress(out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
{
    const char *title = "Forkless save progress";
    cow_chart *c = chart_new(title), *pk, *pe;
    size_t i;
    int rc = COW_OK, drawn = 0;

    snprintf(c->subtitle, sizeof(c->subtitle), "INFO current_save_keys_processed and "
             "forkless_estimated_seconds_remaining during each forkless save");
    pk = chart_add_panel(c, "keys processed");
    pe = chart_add_panel(c, "estimated seconds remaining");
    chart_axis_set(&pk->x, COW_AXIS_LINEAR, "time from the save's first poll", "s");
    chart_axis_set(&pk->y, COW_AXIS_LINEAR, "keys", NULL);
    chart_axis_set(&pe->x, COW_AXIS_LINEAR, "time from the save's first poll", "s");
    chart_axis_set(&pe->y, COW_AXIS_LINEAR, "remaining", "s");
    pk->y.include_zero = pe->y.include_zero = true;
    for (i = 0; i < n && rc == COW_OK && drawn < MAX_OVERLAY; i++)
        if (rows[i].mode && strcmp(rows[i].mode, "forkless") == 0)
            rc = progress_run(st, &rows[i], pk, pe, &drawn, e);
    if (rc != COW_OK) {
        chart_free(c);
        return rc;
    }
    if (drawn == 0) {
        chart_free(c);
        skip(o, title, "no forkless run (run.json \"mode\": \"forkless\") with INFO "
             "current_save_keys_processed during its save (Valkey 9.2 reports it)");
        return COW_OK;
    }
    return emit(o, c, "progress.png", title, e);
}

/* ------------------------------------------------------ 7 fleet */

typedef struct fleet_pt {
    const char *label;   /* run */
    double d, lo, hi;    /* p99.9 lift and interval, ms */
    int lift;            /* significant */
} fleet_pt;

static int cmp_pt(const void *a, const void *b)
{
    double x = ((const fleet_pt *)a)->d, y = ((const fleet_pt *)b)->d;
    return (x < y) - (x > y); /* largest lift first (top) */
}

static int fleet(out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
{
    const char *title = "Fleet: p99.9 lift of each run's worst window";
    fleet_pt *pts = xcalloc(n ? n : 1, sizeof(*pts));
    size_t i, j, k = 0, hosts = 0;
    cow_chart *c;
    int rc = COW_OK;

    for (i = 0; i < n; i++) {
        int seen = 0;
        for (j = 0; j < i; j++)
            seen |= rows[j].host && rows[i].host && strcmp(rows[j].host, rows[i].host) == 0;
        hosts += rows[i].host && !seen;
    }
    if (hosts < 2) {
        free(pts);
        skip(o, title, "fewer than two hosts (run.json \"host\")");
        return COW_OK;
    }
    for (i = 0; i < n && rc == COW_OK; i++) {
        cow_result_set rs;
        double best = -INFINITY;
        if (rows[i].host == NULL)
            continue;
        if ((rc = store_load_results(st, rows[i].id, &rs, e)) != COW_OK)
            break;
        for (j = 0; j < rs.nd; j++) {
            const cow_delta_row *d = &rs.d[j];
            size_t p;
            int window = 0;
            for (p = 0; p < rs.nph; p++)
                if (rs.ph[p].idx == d->phase)
                    window = is_window(&rs.ph[p]);
            if (!window || fabs(d->q - 0.999) > 1e-9 || !(d->delta_us > best))
                continue;
            best = d->delta_us;
            pts[k].label = rows[i].label;
            pts[k].d = d->delta_us / 1000;
            pts[k].lo = d->lo_us / 1000;
            pts[k].hi = d->hi_us / 1000;
            pts[k].lift = strcmp(d->verdict, "lift") == 0;
        }
        if (best > -INFINITY)
            k++;
        store_free_results(&rs);
    }
    if (rc != COW_OK) {
        free(pts);
        return rc;
    }
    qsort(pts, k, sizeof(*pts), cmp_pt);
    c = chart_new(title);
    snprintf(c->subtitle, sizeof(c->subtitle), "bootstrap 95%% intervals; %s",
             isnan(o->o->lift_limit_ms) ? "no thresholds given"
                                        : "vermillion triangles: significant and above the limit");
    chart_axis_set(&c->x, COW_AXIS_LINEAR, "p99.9 lift over the run's baseline", "ms");
    chart_axis_set(&c->y, COW_AXIS_CATEGORY, "run", NULL);
    c->x.include_zero = true;
    c->legend = false;
    {
        double *x = xmalloc((k ? k : 1) * sizeof(double)), *y = xmalloc((k ? k : 1) * sizeof(double));
        double *lo = xmalloc((k ? k : 1) * sizeof(double)), *hi = xmalloc((k ? k : 1) * sizeof(double));
        unsigned char *state = xmalloc(k ? k : 1);
        cow_series *s;
        for (i = 0; i < k; i++) {
            chart_add_category(c, pts[i].label, -1);
            x[i] = pts[i].d;
            y[i] = (double)i;
            lo[i] = pts[i].lo;
            hi[i] = pts[i].hi;
            state[i] = isnan(o->o->lift_limit_ms) ? COW_STATE_NONE
                       : pts[i].lift && pts[i].d > o->o->lift_limit_ms ? COW_STATE_FAIL
                       : COW_STATE_PASS;
        }
        s = chart_add_points(c, "p99.9 lift", x, y, k);
        chart_series_set_xerr(s, lo, hi);
        chart_series_set_state(s, state);
        if (!isnan(o->o->lift_limit_ms))
            chart_add_mark(c, o->o->lift_limit_ms, "limit");
        chart_add_mark(c, 0, "");
        free(x); free(y); free(lo); free(hi); free(state);
    }
    free(pts);
    return emit(o, c, "fleet.png", title, e);
}

/* ------------------------------------------------------ 8 reported spectrum */

/* The percentiles percentile-only tools reported, one line per run and
 * command (file by file), on the 1/(1-q) axis; q = 100 (the max) has no
 * place on that axis and is left out. Drawn only when some run has them. */
static int spectrum(out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
{
    static const char title[] = "Reported percentile spectrum across runs";
    cow_chart *c = NULL;
    size_t i, j, drawn = 0, any = 0;
    int rc = COW_OK;

    for (i = 0; i < n && rc == COW_OK; i++) {
        app_reported rep;
        if ((rc = app_load_reported(st, rows[i].id, &rep, e)) != COW_OK)
            break;
        for (j = 0; j < rep.n && drawn < MAX_OVERLAY;) {
            double xs[64], ys[64];
            size_t k = 0, a = j;
            char label[160];
            for (; j < rep.n && strcmp(rep.v[j].file, rep.v[a].file) == 0 &&
                   strcmp(rep.v[j].op, rep.v[a].op) == 0; j++)
                if (rep.v[j].q < 100 && k < 64) {
                    xs[k] = rep.v[j].q / 100;
                    ys[k++] = rep.v[j].value_us / 1000;
                }
            any++;
            if (k < 2)
                continue;
            if (c == NULL) {
                c = chart_new(title);
                snprintf(c->subtitle, sizeof(c->subtitle), "as the benchmark tools "
                         "printed them (no samples behind them here: no intervals)");
                chart_axis_set(&c->x, COW_AXIS_PCTL, "percentile", NULL);
                chart_axis_set(&c->y, COW_AXIS_LOG10, "latency", "ms");
            }
            snprintf(label, sizeof(label), "%.60s %.40s (%s)", rows[i].label,
                     rep.v[a].op[0] ? rep.v[a].op : "", rep.v[a].source);
            chart_add_line(c, label, xs, ys, k);
            drawn++;
        }
        app_reported_release(&rep);
    }
    if (rc != COW_OK || any == 0) {
        if (c)
            chart_free(c);
        return rc;
    }
    if (c == NULL) {
        skip(o, title, "the reported percentiles have fewer than two levels below "
             "the maximum per command");
        return COW_OK;
    }
    return emit(o, c, "spectrum.png", title, e);
}

int report_charts_write(cow_store *st, const cow_run_row *rows, size_t n,
                        const cow_tradeoff *t, const report_chart_opts *opts,
                        report_chart **charts, size_t *ncharts, cow_err *e)
{
    out o;
    bar_run *bars = xcalloc(n ? n : 1, sizeof(*bars));
    size_t i;
    int rc = COW_OK;

    memset(&o, 0, sizeof(o));
    o.o = opts;
    for (i = 0; i < n && rc == COW_OK; i++) {
        int64_t *t_us = NULL;
        double *lat = NULL;
        size_t m = 0;
        cow_result_set rs;
        if ((rc = store_load_samples(st, rows[i].id, &t_us, &lat, &m, e)) != COW_OK)
            break;
        if ((rc = store_load_results(st, rows[i].id, &rs, e)) == COW_OK) {
            rc = timeline(&o, st, &rows[i], t_us, lat, m, &rs, e);
            if (rc == COW_OK)
                rc = distribution(&o, &rows[i], t_us, lat, m, &rs, e);
            store_free_results(&rs);
        }
        if (rc == COW_OK && rows[i].samples > 0)
            bar_fill(&bars[i], lat, m); /* the charts above are done with lat */
        free(t_us);
        free(lat);
    }
    if (rc == COW_OK)
        rc = quantile_bars(&o, rows, n, bars, e);
    free(bars);
    if (rc == COW_OK)
        rc = memory(&o, st, rows, n, e);
    if (rc == COW_OK)
        rc = tradeoff_panel(&o, t, e);
    if (rc == COW_OK)
        rc = progress(&o, st, rows, n, e);
    if (rc == COW_OK)
        rc = fleet(&o, st, rows, n, e);
    if (rc == COW_OK)
        rc = spectrum(&o, st, rows, n, e);
    for (i = 0; i < o.nused; i++)
        free(o.used[i]);
    free(o.used);
    *charts = o.v;
    *ncharts = o.n;
    return rc;
}
