/* report_charts_run.c -- the report's charts of one run (report_charts_int.h):
 * the timeline, window against baseline, memory during the save, replica
 * syncs and the percentile distribution, loaded from the store; the charts
 * themselves are built from plain values by report_chartbuild.c. */
#include "report_charts_int.h"

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

/* ------------------------------------------------------ 1 timeline */

/* Windows shaded and forks marked on a time axis starting at t0. */
static void add_windows(cow_chart *c, const cow_result_set *rs, int64_t t0)
{
    size_t i;
    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        if (!chartout_is_window(p))
            continue;
        chart_add_span(c, (double)(p->t0_us - t0) / 1e6, (double)(p->t1_us - t0) / 1e6,
                       phase_kind_title(phase_kind_from_name(p->kind)));
        if (p->fork_us)
            chart_add_mark(c, (double)(p->fork_us - t0) / 1e6, "fork");
    }
}

/* A run without samples: the per-interval p99 and p99.9 its benchmark tool
 * reported (memtier's per-second series, HdrHistogram interval logs)
 * against the server's windows. */
static int reported_timeline(chart_out *o, cow_store *st, const cow_run_row *r,
                             const cow_result_set *rs, const char *title,
                             const char *file, cow_err *e)
{
    static const struct { double q; const char *name; } lv[] = {{99, "p99"}, {99.9, "p99.9"}};
    cow_chart *c = NULL;
    char op[64], *label;
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
            label = xasprintf("reported %s per interval", lv[j].name);
            chart_add_line(c, label, xs, ys, m);
            free(label);
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
            chartout_skip(o, title, "no latency samples in this run");
        return rc;
    }
    add_windows(c, rs, t0);
    return chartout_emit(o, c, file, title, e);
}

/* Emit c (consumed) as PREFIX-STEM.png of run r, titled "WHAT: label". */
static int emit_run_chart(chart_out *o, cow_chart *c, const char *prefix, const char *what,
                          const cow_run_row *r, cow_err *e)
{
    char *file = chartout_file(o, prefix, r->label), *title = xasprintf("%s: %s", what, r->label);
    int rc = chartout_emit(o, c, file, title, e);

    free(file);
    free(title);
    return rc;
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
        if (!chartout_is_window(p))
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

int charts_timeline(chart_out *o, cow_store *st, const cow_run_row *r, const int64_t *t,
                    const double *lat, size_t n, const cow_result_set *rs, cow_err *e)
{
    cow_chart *c;
    rc_window *w;
    size_t nw;
    char *file, *title;
    int rc;

    chartout_for(o, r->id, "timeline");
    title = xasprintf("Latency over time: %s", r->label);
    file = chartout_file(o, "timeline", r->label);
    if (n == 0)
        rc = reported_timeline(o, st, r, rs, title, file, e);
    else if ((rc = run_windows(st, r, rs, t[0], &w, &nw, e)) != COW_OK)
        free(w);
    else {
        c = rc_timeline(r->label, t, lat, n, w, nw, (size_t)(TIMELINE_COLS * o->o->scale),
                        o->o->log_y, e);
        free(w);
        rc = c == NULL ? e->code : chartout_emit(o, c, file, title, e);
    }
    free(file);
    free(title);
    return rc;
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

int charts_window(chart_out *o, const cow_run_row *r, const cow_result_set *rs, cow_err *e)
{
    rc_phase_q *ph = xcalloc(rs->nph ? rs->nph : 1, sizeof(*ph));
    size_t i, k, n = 0;
    cow_chart *c;

    int both = 0; /* a window judged against the baseline on both sides
                     (runstats.h Requirement 7): the quiet phases after
                     are drawn too, as the verdict read them */

    for (i = 0; i < rs->nd; i++)
        both |= rs->d[i].local_base;
    chartout_for(o, r->id, "window");
    for (i = 0; i < rs->nph; i++) {
        const cow_phase_row *p = &rs->ph[i];
        int kind = phase_kind_from_name(p->kind);
        if (kind != COW_PHASE_BASELINE && !chartout_is_window(p) &&
            !(both && (kind == COW_PHASE_AFTER || kind == COW_PHASE_BETWEEN)))
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
    c = rc_window_chart(r->label, ph, n,
                        both ? "the baseline moved around the window: the verdict read it on "
                               "both sides (after drawn too), intervals widened by its movement"
                             : NULL,
                        e);
    free(ph);
    if (c == NULL)
        return e->code;
    return emit_run_chart(o, c, "window", "Window against baseline", r, e);
}

/* ---------------------------------------------- memory of one run */

/* The fork child's copy-on-write: INFO current_cow_size while a child
 * lived (Redis 6.2+), else the child's own smaps_rollup Private_Dirty;
 * n 0 when the run has neither (or only zeros). */
static int load_cow(cow_store *st, int64_t run, rc_cow_series *cow, int64_t **t,
                    double **b, cow_err *e)
{
    size_t i;
    int rc;

    cow->what = "INFO current_cow_size";
    if ((rc = store_load_info_series(st, run, "current_cow_size", t, b, &cow->n, e)) !=
        COW_OK)
        return rc;
    for (i = 0; i < cow->n && (*b)[i] <= 0; i++)
        ;
    if (i == cow->n) {
        free(*t);
        free(*b);
        cow->what = "the child's smaps_rollup Private_Dirty";
        if ((rc = store_load_child_stat_series(st, run, "smaps_rollup", "Private_Dirty", t, b,
                                               &cow->n, e)) != COW_OK)
            return rc;
    }
    cow->t_us = *t;
    cow->bytes = *b;
    return COW_OK;
}

int charts_memory_run(chart_out *o, cow_store *st, const cow_run_row *r, const cow_result_set *rs,
                      cow_err *e)
{
    int64_t *t = NULL, *ct = NULL, t0;
    double *b = NULL, *cb = NULL;
    size_t m = 0, nw = 0;
    rc_window *w = NULL;
    rc_cow_series cow = {NULL, NULL, NULL, 0};
    /* src: the memory file's stored name, shown in the chart, never opened */
    char *what, *src;
    cow_chart *c;
    int rc;

    chartout_for(o, r->id, "memory");
    if ((rc = store_mem_source(st, r->id, &what, &src, e)) != COW_OK)
        return rc;
    if ((rc = load_cow(st, r->id, &cow, &ct, &cb, e)) != COW_OK)
        goto done;
    if (!what[0] && !src[0] && cow.n == 0)
        goto done; /* no memory series: nothing to say per run */
    if ((what[0] || src[0]) && (rc = store_load_mem(st, r->id, &t, &b, &m, e)) != COW_OK)
        goto done;
    t0 = r->t_first_us ? r->t_first_us : (m ? t[0] : cow.n ? cow.t_us[0] : 0);
    if ((rc = run_windows(st, r, rs, t0, &w, &nw, e)) != COW_OK)
        goto done;
    if (nw == 0) /* no save: the timeline says all there is */
        goto done;
    if ((c = rc_memory(r->label, what, src, t, b, m, &cow, t0, w, nw, e)) == NULL) {
        rc = e->code;
        goto done;
    }
    rc = emit_run_chart(o, c, "memory", "Memory during the save", r, e);
done:
    free(what);
    free(src);
    free(t);
    free(b);
    free(ct);
    free(cb);
    free(w);
    return rc;
}

/* ------------------------------------------------------ replica syncs */

static double since(int64_t t, int64_t t0)
{
    return t == COW_REPL_NONE ? NAN : (double)(t - t0) / 1e6;
}

int charts_replsync(chart_out *o, cow_store *st, const cow_run_row *r,
                    const cow_result_set *rs, cow_err *e)
{
    app_replsyncs rsy;
    rc_sync *v;
    size_t i, j, n = 0, tot = 0;
    const char *mode = "-";
    cow_chart *c;
    int rc;

    chartout_for(o, r->id, "replsync");
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
    return emit_run_chart(o, c, "replsync", "Replica syncs", r, e);
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

int charts_distribution(chart_out *o, const cow_run_row *r, const int64_t *t, const double *lat,
                        size_t n, const cow_result_set *rs, cow_err *e)
{
    cow_chart *c;
    char *file, *title;
    size_t i, k, drawn = 0;
    int rc;

    chartout_for(o, r->id, "distribution");
    title = xasprintf("Percentile distribution by phase: %s", r->label);
    file = chartout_file(o, "distribution", r->label);
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
                char *label = xasprintf("%s (n=%zu)", p->label, m);
                chart_add_line(c, label, qs, ys, nq);
                free(label);
            }
            drawn++;
        }
        free(v);
    }
    rc = chartout_emit(o, c, file, title, e);
    free(file);
    free(title);
    return rc;
}

