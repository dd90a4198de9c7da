/* report_charts.c -- the report's charts (see report_charts.h): per run
 * the timeline, window against baseline, percentile distribution, memory
 * during the save and replica syncs; across runs memory by mode, the
 * trade-off panel, forkless progress, the fleet view, and the spectrum of
 * the percentiles percentile-only tools reported. The per-run kinds are
 * built from plain values by report_chartbuild.c; this file loads them. */
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
#include "pct.h"
#include "png.h"
#include "replsync.h"
#include "report_chartbuild.h"
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
    int64_t run;       /* the run the next chart belongs to, 0 = across runs */
    const char *kind;  /* its kind (report_chart.kind) */
} out;

/* The next chart emitted or skipped belongs to run (0: across runs). */
static void chart_is(out *o, int64_t run, const char *kind)
{
    o->run = run;
    o->kind = kind;
}

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
    char path[1024], why[200];
    cow_style st;
    int rc = COW_OK;

    o->v = xgrow(o->v, sizeof(report_chart), o->n + 1, &o->cap);
    r = &o->v[o->n++];
    memset(r, 0, sizeof(*r));
    snprintf(r->title, sizeof(r->title), "%s", title);
    r->run = o->run;
    snprintf(r->kind, sizeof(r->kind), "%s", o->kind ? o->kind : "");
    if (!chart_is_drawable(c, why, sizeof(why))) {
        snprintf(r->why, sizeof(r->why), "%s", why);
        chart_free(c);
        return COW_OK;
    }
    chart_style_defaults(&st, o->o->scale);
    snprintf(path, sizeof(path), "%s/%s", o->o->dir, file);
    rc = chart_write_png(c, &st, path, (int)(1600 * o->o->scale), (int)(900 * o->o->scale), e);
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
    r->run = o->run;
    snprintf(r->kind, sizeof(r->kind), "%s", o->kind ? o->kind : "");
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

/* The run's windows for the per-run charts, seconds from t0: each fork
 * with its duration from the first INFO latest_fork_usec polled after it
 * (caller frees *w). */
static int run_windows(cow_store *st, const cow_run_row *r, const cow_result_set *rs,
                       int64_t t0, rc_window **w, size_t *nw, cow_err *e)
{
    int64_t *ft = NULL;
    double *fv = NULL;
    size_t nf = 0, i, j;
    int rc;

    *w = xcalloc(rs->nph ? rs->nph : 1, sizeof(**w));
    *nw = 0;
    if ((rc = store_load_info_series(st, r->id, "latest_fork_usec", &ft, &fv, &nf, e)) != COW_OK)
        return rc;
    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        rc_window *x = &(*w)[*nw];
        if (!is_window(p))
            continue;
        x->t0_s = (double)(p->t0_us - t0) / 1e6;
        x->t1_s = (double)(p->t1_us - t0) / 1e6;
        x->label = phase_kind_title(phase_kind_from_name(p->kind));
        x->fork_s = p->fork_us ? (double)(p->fork_us - t0) / 1e6 : NAN;
        x->fork_ms = NAN;
        for (j = 0; p->fork_us && j < nf; j++)
            if (ft[j] > p->fork_us) {
                x->fork_ms = fv[j] / 1000;
                break;
            }
        (*nw)++;
    }
    free(ft);
    free(fv);
    return COW_OK;
}

static int timeline(out *o, cow_store *st, const cow_run_row *r, const int64_t *t,
                    const double *lat, size_t n, const cow_result_set *rs, cow_err *e)
{
    cow_chart *c;
    rc_window *w;
    size_t nw;
    char file[200], title[200];
    int rc;

    chart_is(o, r->id, "timeline");
    snprintf(title, sizeof(title), "Latency over time: %s", r->label);
    chart_file(o, "timeline", r->label, file, sizeof(file));
    if (n == 0)
        return reported_timeline(o, st, r, rs, title, file, e);
    if ((rc = run_windows(st, r, rs, t[0], &w, &nw, e)) != COW_OK) {
        free(w);
        return rc;
    }
    c = rc_timeline(r->label, t, lat, n, w, nw, (size_t)(TIMELINE_COLS * o->o->scale),
                    o->o->log_y, e);
    free(w);
    if (c == NULL)
        return e->code;
    return emit(o, c, file, title, e);
}

/* ------------------------------------------- window against baseline */

static const cow_quantile_row *quant_of(const cow_result_set *rs, int phase, double q)
{
    size_t i;
    for (i = 0; i < rs->nq; i++)
        if (rs->q[i].phase == phase && fabs(rs->q[i].q - q) < 1e-9)
            return &rs->q[i];
    return NULL;
}

static int window_chart(out *o, const cow_run_row *r, const cow_result_set *rs, cow_err *e)
{
    rc_phase_q *ph = xcalloc(rs->nph ? rs->nph : 1, sizeof(*ph));
    size_t i, k, n = 0;
    char file[200], title[200];
    cow_chart *c;

    chart_is(o, r->id, "window");
    snprintf(title, sizeof(title), "Window against baseline: %s", r->label);
    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        int kind = phase_kind_from_name(p->kind);
        if (kind != COW_PHASE_BASELINE && !is_window(p))
            continue;
        ph[n].label = p->label;
        ph[n].n = (long)p->n;
        for (k = 0; k < RC_NQ; k++) {
            const cow_quantile_row *q = quant_of(rs, p->idx, rc_qs[k]);
            ph[n].est[k] = q && !isnan(q->value_us) ? q->value_us / 1000 : NAN;
            ph[n].lo[k] = q && !isnan(q->lo_us) ? q->lo_us / 1000 : NAN;
            ph[n].hi[k] = q && !isnan(q->hi_us) ? q->hi_us / 1000 : NAN;
        }
        n++;
    }
    if (n < 2) { /* no window: the run's answer says so, no chart is missing */
        free(ph);
        return COW_OK;
    }
    c = rc_window_chart(r->label, ph, n, e);
    free(ph);
    if (c == NULL)
        return e->code;
    chart_file(o, "window", r->label, file, sizeof(file));
    return emit(o, c, file, title, e);
}

/* ---------------------------------------------- memory of one run */

static int memory_run(out *o, cow_store *st, const cow_run_row *r, const cow_result_set *rs,
                      cow_err *e)
{
    int64_t *t = NULL, t0;
    double *b = NULL;
    size_t m = 0, nw = 0;
    rc_window *w = NULL;
    char file[200], title[200], what[64], path[512];
    cow_chart *c;
    int rc;

    chart_is(o, r->id, "memory");
    snprintf(title, sizeof(title), "Memory during the save: %s", r->label);
    if ((rc = store_mem_source(st, r->id, what, sizeof(what), path, sizeof(path), e)) != COW_OK)
        return rc;
    if (!what[0] && !path[0])
        return COW_OK; /* no memory series: nothing to say per run */
    if ((rc = store_load_mem(st, r->id, &t, &b, &m, e)) != COW_OK)
        goto done;
    t0 = r->t_first_us ? r->t_first_us : (m ? t[0] : 0);
    if ((rc = run_windows(st, r, rs, t0, &w, &nw, e)) != COW_OK)
        goto done;
    if (nw == 0) /* no save: the timeline says all there is */
        goto done;
    if ((c = rc_memory(r->label, what, path, t, b, m, t0, w, nw, e)) == NULL) {
        rc = e->code;
        goto done;
    }
    chart_file(o, "memory", r->label, file, sizeof(file));
    rc = emit(o, c, file, title, e);
done:
    free(t);
    free(b);
    free(w);
    return rc;
}

/* ------------------------------------------------------ replica syncs */

static double since(int64_t t, int64_t t0)
{
    return t == COW_REPL_NONE ? NAN : (double)(t - t0) / 1e6;
}

static int replsync_chart(out *o, cow_store *st, const cow_run_row *r,
                          const cow_result_set *rs, cow_err *e)
{
    app_replsyncs rsy;
    rc_sync *v;
    size_t i, j, n = 0, tot = 0;
    const char *mode = "-";
    char file[200], title[200];
    cow_chart *c;
    int rc;

    chart_is(o, r->id, "replsync");
    snprintf(title, sizeof(title), "Replica syncs: %s", r->label);
    if ((rc = app_replica_syncs(st, r->id, &rsy, e)) != COW_OK || rsy.n == 0) {
        app_replsyncs_release(&rsy);
        return rc;
    }
    for (i = 0; i < rs->nph; i++) {
        int k = phase_kind_from_name(rs->ph[i].kind);
        if (k == COW_PHASE_SYNC_DISKLESS || k == COW_PHASE_SYNC_DISK)
            mode = k == COW_PHASE_SYNC_DISKLESS ? "diskless" : "disk";
    }
    for (i = 0; i < rsy.n; i++)
        tot += rsy.r[i].n;
    v = xcalloc(tot ? tot : 1, sizeof(*v));
    for (i = 0; i < rsy.n; i++)
        for (j = 0; j < rsy.r[i].n; j++) {
            const cow_repl_sync *s = &rsy.r[i].v[j];
            rc_sync *x = &v[n++];
            int64_t a = s->attach_us;
            snprintf(x->who, sizeof(x->who), "#%d try %zu", rsy.r[i].seq, j + 1);
            snprintf(x->how, sizeof(x->how), "%s %s, %s",
                     s->mode == 'F' ? "full" : s->mode == 'P' ? "partial" : "?", mode,
                     replsteps_outcome_name(s->outcome));
            x->resync_s = since(s->resync_us, a);
            x->recv_s = since(s->recv_us, a);
            x->recv_end_s = since(s->recv_end_us, a);
            x->flush_s = since(s->flush_us, a);
            x->load_s = since(s->load_us, a);
            x->up_s = since(s->up_us, a);
            x->lost_s = since(s->lost_us, a);
        }
    app_replsyncs_release(&rsy);
    c = rc_replsync(r->label, v, n, e);
    free(v);
    if (c == NULL)
        return e->code;
    chart_file(o, "replsync", r->label, file, sizeof(file));
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

    chart_is(o, r->id, "distribution");
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

/* ------------------------------------------------------ 4 memory */

static int same_str(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* Runs the memory chart compares: the trade-off group (modes are
 * comparable on one host and workload). */
static int in_memory_chart(const report_chart_opts *o, const cow_run_row *r)
{
    if (o->group_host == NULL && o->group_scenario == NULL)
        return 1;
    return r->mode != NULL && same_str(r->host, o->group_host) &&
           same_str(r->scenario, o->group_scenario);
}

/* Memory growth of the trade-off group's runs, by mode: only when there is
 * such a group (every run with a memory series and a save window also has
 * its own chart, memory_run). */
static int memory(out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
{
    const char *title = "Memory growth during the save, by mode (aligned at the save start)";
    cow_chart *c;
    char modes[8][32], what[64], path[512], series[64] = "";
    size_t i, nmodes = 0, drawn = 0;
    int rc = COW_OK, mixed = 0;

    if (o->o->group_host == NULL && o->o->group_scenario == NULL)
        return COW_OK;
    c = chart_new(title);

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
        if (w < 0 ||
            (rc = store_mem_source(st, rows[i].id, what, sizeof(what), path, sizeof(path),
                                   e)) != COW_OK ||
            (rc = store_load_mem(st, rows[i].id, &t, &b, &m, e)) != COW_OK ||
            isnan(base = savewin_level(t, b, m, t0))) {
            /* no save, no memory series, or none of it before the save:
             * the growth is unknown (as in the trade-off table) */
            free(t);
            free(b);
            continue;
        }
        if (!series[0])
            snprintf(series, sizeof(series), "%s", rc_mem_name(what));
        mixed |= strcmp(series, rc_mem_name(what)) != 0;
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
        skip(o, title, "no run of the group has both a memory series and a save window");
        return COW_OK;
    }
    snprintf(c->subtitle, sizeof(c->subtitle), "%s minus its level at the save start; one "
             "line per run of host %s, scenario %s", mixed ? "each run's memory series "
             "(RSS, PSS or cgroup)" : series,
             o->o->group_host ? o->o->group_host : "-",
             o->o->group_scenario ? o->o->group_scenario : "-");
    chart_axis_set(&c->y, COW_AXIS_LINEAR, mixed ? "memory growth" : series, "MB");
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
    int gate;            /* enum app_gate of the max_p999_lift_ms limit */
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
        if (o->o->answers != NULL) {
            /* the one decision per run (answer.h): its window, its
             * verdict, and the gate's verdict on the lift limit */
            const app_answer *a = &o->o->answers->v[i];
            if (!a->has_window || isnan(a->delta.est_us))
                continue;
            pts[k].label = rows[i].label;
            pts[k].d = a->delta.est_us / 1000;
            pts[k].lo = a->delta.lo_us / 1000;
            pts[k].hi = a->delta.hi_us / 1000;
            pts[k].lift = a->verdict == COW_VERDICT_LIFT;
            pts[k++].gate = a->gate_lift;
            continue;
        }
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
    snprintf(c->subtitle, sizeof(c->subtitle),
             "95%% intervals (bootstrap) or one-sided bounds (tail test); %s",
             isnan(o->o->lift_limit_ms) ? "no thresholds given"
             : o->o->answers != NULL ? "vermillion: the gate fails max_p999_lift_ms (Holm)"
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
                       : o->o->answers != NULL
                           ? (pts[i].gate == APP_GATE_FAIL ? COW_STATE_FAIL : COW_STATE_PASS)
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
/* Lines of the spectrum drawn at most (eight charts of eight). */
#define SPECTRUM_MAX_LINES (8 * RC_MAX_SERIES)

static int spectrum(out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
{
    static const char title[] = "Reported percentile spectrum";
    rc_line *lines = xcalloc(SPECTRUM_MAX_LINES, sizeof(*lines));
    double *own[2 * SPECTRUM_MAX_LINES]; /* the lines' arrays, freed here */
    cow_chart **charts = NULL;
    size_t i, j, nl = 0, any = 0, more = 0, nch, k;
    int rc = COW_OK;

    for (i = 0; i < n && rc == COW_OK; i++) {
        app_reported rep;
        if ((rc = app_load_reported(st, rows[i].id, &rep, e)) != COW_OK)
            break;
        for (j = 0; j < rep.n;) {
            double *xs = xmalloc(64 * sizeof(double)), *ys = xmalloc(64 * sizeof(double));
            size_t m = 0, a = j;
            for (; j < rep.n && strcmp(rep.v[j].file, rep.v[a].file) == 0 &&
                   strcmp(rep.v[j].op, rep.v[a].op) == 0; j++)
                if (rep.v[j].q < 100 && m < 64) {
                    xs[m] = rep.v[j].q / 100;
                    ys[m++] = rep.v[j].value_us / 1000;
                }
            any++;
            if (m < 2 || nl == SPECTRUM_MAX_LINES) {
                more += m >= 2;
                free(xs);
                free(ys);
                continue;
            }
            snprintf(lines[nl].name, sizeof(lines[nl].name), "%.28s %.14s (%.15s)",
                     rows[i].label, rep.v[a].op[0] ? rep.v[a].op : "", rep.v[a].source);
            lines[nl].q = own[2 * nl] = xs;
            lines[nl].ms = own[2 * nl + 1] = ys;
            lines[nl++].n = m;
        }
        app_reported_release(&rep);
    }
    if (rc == COW_OK && any > 0 && nl == 0)
        skip(o, title, "the reported percentiles have fewer than two levels below "
             "the maximum per command");
    nch = rc == COW_OK && nl > 0 ? rc_spectrum(lines, nl, &charts) : 0;
    for (k = 0; k < nch; k++) {
        char file[64];
        if (more && k == nch - 1)
            snprintf(charts[k]->note, sizeof(charts[k]->note), "%zu more lines not drawn "
                     "(the workbook's sheet Reported has every row)", more);
        if (k == 0)
            snprintf(file, sizeof(file), "spectrum.png");
        else
            snprintf(file, sizeof(file), "spectrum-%zu.png", k + 1);
        if (rc == COW_OK)
            rc = emit(o, charts[k], file, charts[k]->title, e);
        else
            chart_free(charts[k]);
    }
    free(charts);
    for (i = 0; i < 2 * nl; i++)
        free(own[i]);
    free(lines);
    return rc;
}

int report_charts_write(cow_store *st, const cow_run_row *rows, size_t n,
                        const cow_tradeoff *t, const report_chart_opts *opts,
                        report_chart **charts, size_t *ncharts, cow_err *e)
{
    out o;
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
            if (rc == COW_OK && m > 0)
                rc = window_chart(&o, &rows[i], &rs, e);
            if (rc == COW_OK)
                rc = distribution(&o, &rows[i], t_us, lat, m, &rs, e);
            if (rc == COW_OK)
                rc = memory_run(&o, st, &rows[i], &rs, e);
            if (rc == COW_OK)
                rc = replsync_chart(&o, st, &rows[i], &rs, e);
            store_free_results(&rs);
        }
        free(t_us);
        free(lat);
    }
    chart_is(&o, 0, "memory");
    if (rc == COW_OK)
        rc = memory(&o, st, rows, n, e);
    chart_is(&o, 0, "tradeoff");
    if (rc == COW_OK)
        rc = tradeoff_panel(&o, t, e);
    chart_is(&o, 0, "progress");
    if (rc == COW_OK)
        rc = progress(&o, st, rows, n, e);
    chart_is(&o, 0, "fleet");
    if (rc == COW_OK)
        rc = fleet(&o, st, rows, n, e);
    chart_is(&o, 0, "spectrum");
    if (rc == COW_OK)
        rc = spectrum(&o, st, rows, n, e);
    for (i = 0; i < o.nused; i++)
        free(o.used[i]);
    free(o.used);
    *charts = o.v;
    *ncharts = o.n;
    return rc;
}
