/* report_summary.h -- summary.md: the part of the report a person pastes
 * into a postmortem: headline table, findings, trade-off, charts. */
#ifndef COW_APP_REPORT_SUMMARY_H
#define COW_APP_REPORT_SUMMARY_H

#include <stdio.h>

#include "answer.h"
#include "inputs.h"
#include "check.h"
#include "store.h"
#include "tradeoff.h"

/* One chart the report wrote, or skipped (file NULL) and why. */
typedef struct report_chart {
    char *file;         /* file name inside the report folder, "" if skipped
                           (owned, like title: report_charts_free) */
    char *title;        /* what it shows, whole (owned) */
    char why[520];      /* reason it was skipped */
    int64_t run;        /* the run it belongs to (runs.id), 0 for a chart
                           across runs */
    char kind[24];      /* timeline, distribution, window, memory, replsync,
                           quantiles, tradeoff, progress, fleet, spectrum */
} report_chart;

typedef struct report_summary_in {
    const char *db;             /* database path */
    const cow_run_row *rows;    /* runs */
    size_t nrows;
    const cow_tradeoff *trade;  /* NULL when no modes */
    const char *trade_host;     /* the group compared, or NULL */
    const char *trade_scenario;
    const report_chart *charts; /* charts written and skipped */
    size_t ncharts;
    uint64_t seed;              /* bootstrap seed of the analysis */
    int resamples;              /* its R */
    /* report --thresholds over several runs: the fleet check and its
     * limits (fleet_path the file); NULL otherwise */
    const app_fleet_check *fleet;
    const app_thresholds *th;
    const char *fleet_path;
    /* one answer per run, rows' order (answer.h); NULL: none */
    const app_answers *answers;
    /* the files that did not land whole (inputs.h); NULL: not listed */
    const app_inputs *inputs;
    /* the document decided from these (report_doc.h): the answer table
     * and the answer in words; NULL: the pages open with no answer */
    const struct cow_doc *doc;
} report_summary_in;

/* Write the summary to fp. Returns 0 or an error (write failure). */
int report_summary_write(cow_store *st, const report_summary_in *in, FILE *fp,
                         cow_err *e);

#endif
