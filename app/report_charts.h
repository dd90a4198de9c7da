/* report_charts.h -- the report's PNG charts: store data -> chart data
 * (report/chart_data.h) -> PNG (report/png.h). Each chart that cannot be
 * drawn is listed with the reason instead of being drawn empty. */
#ifndef COW_APP_REPORT_CHARTS_H
#define COW_APP_REPORT_CHARTS_H

#include "answer.h"
#include "report_summary.h"
#include "store.h"
#include "tradeoff.h"

typedef struct report_chart_opts {
    const char *dir;        /* output folder */
    double scale;           /* 1 = 1600x900, 2 = high-DPI */
    int log_y;              /* timeline y axis on a log scale */
    double lift_limit_ms;   /* fleet view pass/fail limit, NaN = none */
    const char *group_host; /* the trade-off group (one host and scenario, */
    const char *group_scenario; /* two modes): the memory chart draws it;
                               both NULL = every run with a mode */
    const app_answers *answers; /* one answer per run, rows' order (answer.h):
                                   the fleet view draws their windows and
                                   colours their max_p999_lift_ms gate;
                                   NULL: from the stored results alone */
} report_chart_opts;

/* Write every chart for rows[0..n); append what was written or skipped to
 * *charts (grown with xgrow; caller frees with report_charts_free, also
 * after a failure). */
int report_charts_write(cow_store *st, const cow_run_row *rows, size_t n,
                        const cow_tradeoff *t, const report_chart_opts *o,
                        report_chart **charts, size_t *ncharts, cow_err *e);
/* Free the n entries of v, their strings and v itself; NULL is a no-op. */
void report_charts_free(report_chart *v, size_t n);

#endif
