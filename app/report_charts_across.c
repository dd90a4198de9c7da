/* report_charts_across.c -- the report's charts across runs
 * (report_charts_int.h): memory by mode, the trade-off panel, forkless
 * progress, the fleet view, and the spectrum of the percentiles
 * percentile-only tools reported. */
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
int charts_memory(chart_out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
{
    const char *title = "Memory growth during the save, by mode (aligned at the save start)";
    cow_chart *c;
    char modes[8][32], series[64] = "";
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
        char *what = NULL, *src = NULL; /* src: a name, never opened */
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
            (rc = store_mem_source(st, rows[i].id, &what, &src, e)) != COW_OK ||
            (rc = store_load_mem(st, rows[i].id, &t, &b, &m, e)) != COW_OK ||
            isnan(base = savewin_level(t, b, m, t0))) {
            /* no save, no memory series, or none of it before the save:
             * the growth is unknown (as in the trade-off table) */
            free(t);
            free(b);
            free(what);
            free(src);
            continue;
        }
        if (!series[0])
            snprintf(series, sizeof(series), "%s", rc_mem_name(what));
        mixed |= strcmp(series, rc_mem_name(what)) != 0;
        free(what);
        free(src);
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
                chart_text_replace(&c->series[s].name, modes[mi]);
                named[mi] = 1;
            } else {
                c->series[s].name[0] = '\0';   /* out of the legend */
            }
        }
    }
    if (drawn == 0) {
        chart_free(c);
        chartout_skip(o, title, "no run of the group has both a memory series and a save window");
        return COW_OK;
    }
    snprintf(c->subtitle, sizeof(c->subtitle), "%s minus its level at the save start; one "
             "line per run of host %s, scenario %s", mixed ? "each run's memory series "
             "(RSS, PSS or cgroup)" : series,
             o->o->group_host ? o->o->group_host : "-",
             o->o->group_scenario ? o->o->group_scenario : "-");
    chart_axis_set(&c->y, COW_AXIS_LINEAR, mixed ? "memory growth" : series, "MB");
    return chartout_emit(o, c, "memory.png", title, e);
}

/* ------------------------------------------------------ 5 trade-off */

int charts_tradeoff(chart_out *o, const cow_tradeoff *t, cow_err *e)
{
    static const int metrics[4] = {COW_TM_COW_MB, COW_TM_SAVE_S, COW_TM_TPUT_SAVE,
                                   COW_TM_WORST_SAVE_MS};
    const char *title = "Trade-off between modes (mean and 95% interval over trials)";
    cow_chart *c;
    size_t g;
    int k;

    if (t == NULL || t->ngroups < 2) {
        chartout_skip(o, title, "fewer than two modes (run.json \"mode\": fork / forkless)");
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
    return chartout_emit(o, c, "tradeoff.png", title, e);
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

int charts_progress(chart_out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
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
        chartout_skip(o, title, "no forkless run (run.json \"mode\": \"forkless\") with INFO "
             "current_save_keys_processed during its save (Valkey 9.2 reports it)");
        return COW_OK;
    }
    return chartout_emit(o, c, "progress.png", title, e);
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

int charts_fleet(chart_out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
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
        chartout_skip(o, title, "fewer than two hosts (run.json \"host\")");
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
                    window = chartout_is_window(&rs.ph[p]);
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
    return chartout_emit(o, c, "fleet.png", title, e);
}

/* ------------------------------------------------------ 8 reported spectrum */

/* The percentiles percentile-only tools reported, one line per run and
 * command (file by file), on the 1/(1-q) axis; q = 100 (the max) has no
 * place on that axis and is left out. Drawn only when some run has them. */
/* Lines of the spectrum drawn at most (eight charts of eight). */
#define SPECTRUM_MAX_LINES (8 * RC_MAX_SERIES)

int charts_spectrum(chart_out *o, cow_store *st, const cow_run_row *rows, size_t n, cow_err *e)
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
            lines[nl].name = xasprintf("%s %s (%s)", rows[i].label,
                                       rep.v[a].op[0] ? rep.v[a].op : "", rep.v[a].source);
            lines[nl].q = own[2 * nl] = xs;
            lines[nl].ms = own[2 * nl + 1] = ys;
            lines[nl++].n = m;
        }
        app_reported_release(&rep);
    }
    if (rc == COW_OK && any > 0 && nl == 0)
        chartout_skip(o, title, "the reported percentiles have fewer than two levels below "
             "the maximum per command");
    nch = rc == COW_OK && nl > 0 ? rc_spectrum(lines, nl, &charts) : 0;
    for (k = 0; k < nch; k++) {
        char *file = k == 0 ? xstrdup("spectrum.png") : xasprintf("spectrum-%zu.png", k + 1);
        if (more && k == nch - 1)
            snprintf(charts[k]->note, sizeof(charts[k]->note), "%zu more lines not drawn "
                     "(the workbook's sheet Reported has every row)", more);
        if (rc == COW_OK)
            rc = chartout_emit(o, charts[k], file, charts[k]->title, e);
        else
            chart_free(charts[k]);
        free(file);
    }
    free(charts);
    for (i = 0; i < 2 * nl; i++)
        free(own[i]);
    for (i = 0; i < nl; i++)
        free(lines[i].name);
    free(lines);
    return rc;
}
