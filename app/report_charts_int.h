/* report_charts_int.h -- private to the report's charts: the list being
 * written (report_chartout.c) and the chart kinds (report_charts_run.c per
 * run, report_charts_across.c across runs) that report_charts.c runs. */
#ifndef COW_APP_REPORT_CHARTS_INT_H
#define COW_APP_REPORT_CHARTS_INT_H

#include "chart_data.h"
#include "phase.h"
#include "report_charts.h"

/* Runs drawn in one overlay chart before it stops being readable. */
#define MAX_OVERLAY 16

typedef struct chart_out {
    report_chart *v;   /* charts */
    size_t n, cap;
    const report_chart_opts *o;
    char **used;       /* file names given out so far */
    size_t nused, capused;
    int64_t run;       /* the run the next chart belongs to, 0 = across runs */
    const char *kind;  /* its kind (report_chart.kind) */
} chart_out;

/* The next chart emitted or skipped belongs to run (0: across runs). */
void chartout_for(chart_out *o, int64_t run, const char *kind);
/* "PREFIX-STEM.png" for a run's chart, unique within the report (the
 * caller frees it). */
char *chartout_file(chart_out *o, const char *prefix, const char *label);
/* Write c (consumed) as file, or record why not. */
int chartout_emit(chart_out *o, cow_chart *c, const char *file, const char *title,
                  cow_err *e);
/* Record a chart that is not drawn, with why. */
void chartout_skip(chart_out *o, const char *title, const char *why);

static inline int chartout_is_window(const cow_phase_row *p)
{
    return phase_is_window(phase_kind_from_name(p->kind));
}

/* Per run (report_charts_run.c). */
int charts_timeline(chart_out *o, cow_store *st, const cow_run_row *r,
                    const int64_t *t, const double *lat, size_t n,
                    const cow_result_set *rs, cow_err *e);
int charts_window(chart_out *o, const cow_run_row *r, const cow_result_set *rs,
                  cow_err *e);
int charts_memory_run(chart_out *o, cow_store *st, const cow_run_row *r,
                      const cow_result_set *rs, cow_err *e);
int charts_replsync(chart_out *o, cow_store *st, const cow_run_row *r,
                    const cow_result_set *rs, cow_err *e);
int charts_distribution(chart_out *o, const cow_run_row *r, const int64_t *t,
                        const double *lat, size_t n, const cow_result_set *rs,
                        cow_err *e);

/* Across runs (report_charts_across.c). */
int charts_memory(chart_out *o, cow_store *st, const cow_run_row *rows,
                  size_t n, cow_err *e);
int charts_tradeoff(chart_out *o, const cow_tradeoff *t, cow_err *e);
int charts_progress(chart_out *o, cow_store *st, const cow_run_row *rows,
                    size_t n, cow_err *e);
int charts_fleet(chart_out *o, cow_store *st, const cow_run_row *rows,
                 size_t n, cow_err *e);
int charts_spectrum(chart_out *o, cow_store *st, const cow_run_row *rows,
                    size_t n, cow_err *e);

#endif
