/* report_job.h -- `cowtail report`'s use case: analyse every run, run the
 * doctor and the fork/forkless trade-off, and write a folder a person can
 * open: summary.md, report.xlsx and the PNG charts. */
#ifndef COW_APP_REPORT_JOB_H
#define COW_APP_REPORT_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "answer.h"
#include "inputs.h"
#include "check.h"
#include "diag.h"
#include "err.h"
#include "report_charts.h"
#include "store.h"
#include "tradeoff.h"

/* Everything one report works with: the inputs (set by the caller), then
 * what app_report_write fills. */
typedef struct app_report {
    const char *db;              /* database path */
    const char *dir;             /* output folder */
    const char *thresholds;      /* --thresholds, or NULL */
    report_chart_opts co;        /* chart options */
    uint64_t seed;               /* bootstrap seed */
    int resamples;               /* bootstrap R */
    int jobs;                    /* runs analysed at once (0: one per core) */
    int64_t created;             /* --created, -1 = the newest sample */
    int force;                   /* --force: write into a folder cowtail did not write */
    cow_store *st;               /* the store (the caller's) */
    cow_run_row *rows;           /* its runs */
    size_t n;
    cow_findings fs;             /* the doctor's findings */
    cow_run_facts *facts;        /* and its facts, one per row */
    app_answers answers;         /* one answer per run (answer.h) */
    app_inputs inputs;           /* files that did not land whole (inputs.h) */
    cow_tradeoff trade;          /* the trade-off, when has_trade */
    int has_trade;
    const char *trade_host;      /* the group compared (borrowed from rows) */
    const char *trade_scenario;
    report_chart *charts;        /* charts written or skipped */
    size_t nch;
    app_thresholds th;           /* --thresholds over several runs: */
    app_fleet_check fleet;       /* the fleet check of summary.md */
    int has_fleet;
    char **wrote;                /* the files written into dir, for its marker */
    size_t nwrote, capwrote;
} app_report;

/* The file report writes into its folder: a folder holding it was written
 * by cowtail and may be written again. */
#define APP_REPORT_MARKER ".cowtail-report"

/* Whether dir may be the report's folder, asked before anything is
 * computed: a missing, empty or marked folder may; a non-empty folder
 * without the marker (a source tree, a home folder) is refused with
 * COW_EUSAGE unless force, and so is a file. COW_EIO when it cannot be
 * read. app_report_write creates the folder and marks it. */
int app_report_check_dir(const char *dir, int force, cow_err *e);

int app_report_write(app_report *j, cow_err *e);
/* Free what app_report_write filled (not the store). */
void app_report_release(app_report *j);

#endif
