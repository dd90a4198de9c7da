/* report_charts.c -- the report's charts (see report_charts.h): per run
 * the timeline, window against baseline, percentile distribution, memory
 * during the save and replica syncs; across runs memory by mode, the
 * trade-off panel, forkless progress, the fleet view, and the spectrum of
 * the percentiles percentile-only tools reported. This file runs the kinds
 * in order: report_charts_run.c (per run) and report_charts_across.c
 * (across runs) load them, report_chartbuild.c builds the per-run ones
 * from plain values, report_chartout.c lists and writes them. */
#include "report_charts.h"

#include <stdlib.h>
#include <string.h>

#include "report_charts_int.h"

int report_charts_write(cow_store *st, const cow_run_row *rows, size_t n,
                        const cow_tradeoff *t, const report_chart_opts *opts,
                        report_chart **charts, size_t *ncharts, cow_err *e)
{
    chart_out o;
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
            rc = charts_timeline(&o, st, &rows[i], t_us, lat, m, &rs, e);
            if (rc == COW_OK && m > 0)
                rc = charts_window(&o, &rows[i], &rs, e);
            if (rc == COW_OK)
                rc = charts_distribution(&o, &rows[i], t_us, lat, m, &rs, e);
            if (rc == COW_OK)
                rc = charts_memory_run(&o, st, &rows[i], &rs, e);
            if (rc == COW_OK)
                rc = charts_replsync(&o, st, &rows[i], &rs, e);
            store_free_results(&rs);
        }
        free(t_us);
        free(lat);
    }
    chartout_for(&o, 0, "memory");
    if (rc == COW_OK)
        rc = charts_memory(&o, st, rows, n, e);
    chartout_for(&o, 0, "tradeoff");
    if (rc == COW_OK)
        rc = charts_tradeoff(&o, t, e);
    chartout_for(&o, 0, "progress");
    if (rc == COW_OK)
        rc = charts_progress(&o, st, rows, n, e);
    chartout_for(&o, 0, "fleet");
    if (rc == COW_OK)
        rc = charts_fleet(&o, st, rows, n, e);
    chartout_for(&o, 0, "spectrum");
    if (rc == COW_OK)
        rc = charts_spectrum(&o, st, rows, n, e);
    for (i = 0; i < o.nused; i++)
        free(o.used[i]);
    free(o.used);
    *charts = o.v;
    *ncharts = o.n;
    return rc;
}

void report_charts_free(report_chart *v, size_t n)
{
    for (size_t i = 0; v != NULL && i < n; i++) {
        free(v[i].file);
        free(v[i].title);
    }
    free(v);
}
