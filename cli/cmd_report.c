/* cmd_report.c -- `cowtail report`: from raw captures (or a database) to a
 * folder a person can open: summary.md, report.xlsx and the PNG charts. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "boot.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "doctor.h"
#include "facts.h"
#include "mem.h"
#include "report_book.h"
#include "report_charts.h"
#include "report_summary.h"
#include "tradeoff.h"
#include "xlsx.h"

const char *const cmd_report_usage[] = {
    "usage: cowtail report [--db FILE] [--out DIR] [options] [CAPTURE...]",
    "",
    "Ingest the capture folders given (if any), analyse every run, run the",
    "doctor and the fork/forkless trade-off, and write DIR (default report/):",
    "  summary.md        headline table, findings, trade-off, charts",
    "  report.xlsx       Summary, Scenarios, Runs, Phases, Percentiles, Deltas,",
    "                    Trade-off, Findings, Events, Charts (the PNGs)",
    "  timeline-RUN.png, distribution-RUN.png, quantiles.png, memory.png,",
    "  tradeoff.png, progress.png, fleet.png",
    "A chart whose data is missing is not drawn; summary.md says why.",
    "",
    "  --db FILE          database (default cowtail.db)",
    "  --out DIR          output folder (default report)",
    "  --scale N          chart scale: 1 = 1600x900 (default), 2 = high-DPI",
    "  --log-y            timeline latency on a log scale",
    "  --thresholds FILE  colour the fleet view by the p99.9 lift limit",
    "  --seed S           bootstrap seed (default 1)",
    "  --resamples N      bootstrap resamples (default 9999)",
    "  --created EPOCH_S  pin the workbook's document date (default: the",
    "                     newest sample, so output depends only on the data)",
    NULL
};

static int make_dir(const char *dir)
{
    char tmp[1024];
    size_t i;
    snprintf(tmp, sizeof(tmp), "%s", dir);
    for (i = 1; tmp[i]; i++)
        if (tmp[i] == '/') {
            tmp[i] = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            tmp[i] = '/';
        }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static double lift_limit(const char *path)
{
    FILE *fp;
    char buf[4096];
    size_t n;
    const char *p;
    if (path == NULL || (fp = fopen(path, "rb")) == NULL)
        return NAN;
    n = fread(buf, 1, sizeof(buf) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    p = strstr(buf, "\"max_p999_lift_ms\"");
    if (p == NULL || (p = strchr(p, ':')) == NULL)
        return NAN;
    return strtod(p + 1, NULL);
}

static void headline_findings(const cow_findings *fs)
{
    size_t i, shown = 0;
    int sev;
    for (sev = COW_SEV_CRIT; sev >= COW_SEV_WARN; sev--)
        for (i = 0; i < fs->n && shown < 12; i++)
            if (fs->v[i].severity == sev) {
                printf("  [%s] %s: %s\n", diag_severity_name(sev), fs->v[i].run,
                       fs->v[i].title);
                shown++;
            }
    if (shown == 0)
        printf("  no warnings\n");
}

/* Everything one `cowtail report` works with. */
typedef struct report_job {
    const char *db;              /* database path */
    const char *dir;             /* output folder */
    const char *thresholds;      /* --thresholds, or NULL */
    report_chart_opts co;        /* chart options */
    uint64_t seed;               /* bootstrap seed */
    int resamples;               /* bootstrap R */
    int64_t created;             /* --created, -1 = the newest sample */
    cow_store *st;               /* the store */
    cow_run_row *rows;           /* its runs */
    size_t n;
    cow_findings fs;             /* the doctor's findings */
    cow_tradeoff trade;          /* the trade-off, when has_trade */
    int has_trade;
    const char *trade_host;      /* the group compared (borrowed from rows) */
    const char *trade_scenario;
    report_chart *charts;        /* charts written or skipped */
    size_t nch;
} report_job;

/* Options; returns -1 to go on, else the exit code. */
static int parse_args(report_job *j, int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"out", required_argument, NULL, 'o'},
        {"scale", required_argument, NULL, 'S'},
        {"log-y", no_argument, NULL, 'l'},
        {"thresholds", required_argument, NULL, 't'},
        {"seed", required_argument, NULL, 's'},
        {"resamples", required_argument, NULL, 'R'},
        {"created", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': j->db = optarg; break;
        case 'o': j->dir = optarg; break;
        case 'S':
            j->co.scale = strtod(optarg, NULL);
            if (!(j->co.scale >= 0.5 && j->co.scale <= 4)) {
                cli_errorf("--scale %s: expected 0.5 to 4", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'l': j->co.log_y = 1; break;
        case 't': j->thresholds = optarg; break;
        case 's': j->seed = strtoull(optarg, NULL, 10); break;
        case 'R':
            j->resamples = atoi(optarg);
            if (j->resamples < 99 || j->resamples > COW_BOOT_MAX_RESAMPLES) {
                cli_errorf("--resamples %s: expected 99 to %d", optarg,
                           COW_BOOT_MAX_RESAMPLES);
                return EXIT_USAGE;
            }
            break;
        case 'c': j->created = strtoll(optarg, NULL, 10); break;
        case 'h': cli_print_usage(stdout, cmd_report_usage); return EXIT_OK;
        default: cli_print_usage(stderr, cmd_report_usage); return EXIT_USAGE;
        }
    }
    j->co.dir = j->dir;
    j->co.lift_limit_ms = lift_limit(j->thresholds);
    if (j->thresholds && isnan(j->co.lift_limit_ms))
        cli_errorf("report: %s has no max_p999_lift_ms: the fleet view is not coloured",
                   j->thresholds);
    return -1;
}

/* Analyse every run, run the doctor and the trade-off. */
static int prepare(report_job *j, cow_err *e)
{
    cow_trial *trials;
    size_t i, nt = 0;
    int64_t newest = 0;
    int rc = COW_OK;

    for (i = 0; i < j->n; i++) {
        if (j->rows[i].samples > 0 &&
            (rc = app_analyze_run_with(j->st, &j->rows[i], j->seed, j->resamples, e)))
            return rc;
        if (j->rows[i].t_last_us > newest)
            newest = j->rows[i].t_last_us;
    }
    if (j->created < 0)
        j->created = newest / 1000000;
    store_free_runs(j->rows, j->n);
    j->rows = NULL;
    j->n = 0;
    if ((rc = store_list_runs(j->st, &j->rows, &j->n, e)) != COW_OK ||
        (rc = app_doctor(j->st, j->rows, j->n, &j->fs, NULL, e)) != COW_OK)
        return rc;
    if (facts_tradeoff_group(j->rows, j->n, &j->trade_host, &j->trade_scenario) != 0)
        return COW_OK;
    trials = xcalloc(j->n, sizeof(*trials));
    for (i = 0; i < j->n && rc == COW_OK; i++)
        if (facts_in_group(&j->rows[i], j->trade_host, j->trade_scenario))
            rc = facts_trial(j->st, &j->rows[i], &trials[nt++], e);
    if (rc == COW_OK && nt > 0 &&
        (rc = tradeoff_compute(trials, nt, j->seed, &j->trade, e)) == COW_OK)
        j->has_trade = 1;
    free(trials);
    return rc;
}

static int write_summary(report_job *j, cow_err *e)
{
    report_summary_in in;
    char path[1100];
    FILE *fp;
    int rc;

    snprintf(path, sizeof(path), "%s/summary.md", j->dir);
    if ((fp = fopen(path, "w")) == NULL)
        return COW_FAIL(e, COW_EIO, "%s: cannot write: %s", path, strerror(errno));
    memset(&in, 0, sizeof(in));
    in.db = j->db;
    in.rows = j->rows;
    in.nrows = j->n;
    in.trade = j->has_trade ? &j->trade : NULL;
    in.trade_host = j->trade_host;
    in.trade_scenario = j->trade_scenario;
    in.charts = j->charts;
    in.ncharts = j->nch;
    in.seed = j->seed;
    in.resamples = j->resamples;
    rc = report_summary_write(j->st, &in, fp, e);
    if (fclose(fp) != 0 && rc == COW_OK)
        rc = COW_FAIL(e, COW_EIO, "%s: %s", path, strerror(errno));
    return rc;
}

/* The folder: charts first (the workbook embeds them), then the
 * workbook, then the summary. */
static int write_outputs(report_job *j, cow_err *e)
{
    cow_workbook *wb = NULL;
    char path[1100];
    int rc;

    j->co.group_host = j->trade_host;
    j->co.group_scenario = j->trade_scenario;
    if (make_dir(j->dir) != 0)
        return COW_FAIL(e, COW_EIO, "%s: cannot create the report folder: %s", j->dir,
                        strerror(errno));
    if ((rc = report_charts_write(j->st, j->rows, j->n, j->has_trade ? &j->trade : NULL,
                                  &j->co, &j->charts, &j->nch, e)) != COW_OK ||
        (rc = report_book_build(j->st, j->rows, j->n, j->has_trade ? &j->trade : NULL,
                                j->created, j->charts, j->nch, j->dir, &wb, e)) != COW_OK)
        goto done;
    snprintf(path, sizeof(path), "%s/report.xlsx", j->dir);
    if ((rc = xlsx_write(wb, path, e)) == COW_OK)
        rc = write_summary(j, e);
done:
    table_book_free(wb);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    report_job j;
    cow_err e = COW_ERR_INIT;
    size_t i, drawn = 0;
    int code;

    memset(&j, 0, sizeof(j));
    j.db = COW_DEFAULT_DB;
    j.dir = "report";
    j.co.scale = 1;
    j.seed = 1;
    j.resamples = COW_BOOT_RESAMPLES;
    j.created = -1;
    if ((code = parse_args(&j, argc, argv)) >= 0)
        return code;
    code = EXIT_OK;
    if (store_open(j.db, &j.st, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_IO;
    }
    if (optind < argc &&
        ((code = app_ingest_quiet(j.st, argv + optind, argc - optind, stdout)) == EXIT_USAGE ||
         code == EXIT_IO))
        goto done;
    if (store_list_runs(j.st, &j.rows, &j.n, &e) != COW_OK)
        goto fail;
    if (j.n == 0) {
        cli_errorf("report: no runs in %s: give capture folders (cowtail report "
                   "--db %s CAPTURE...)", j.db, j.db);
        code = EXIT_USAGE;
        goto done;
    }
    if (prepare(&j, &e) != COW_OK || write_outputs(&j, &e) != COW_OK)
        goto fail;
    for (i = 0; i < j.nch; i++)
        drawn += j.charts[i].file[0] != '\0';
    printf("report written to %s/: summary.md, report.xlsx, %zu charts (%zu not drawn, "
           "reasons in summary.md); %zu runs, seed %" PRIu64 "\n", j.dir, drawn,
           j.nch - drawn, j.n, j.seed);
    printf("headline findings:\n");
    headline_findings(&j.fs);
    goto done;
fail:
    cli_error(&e);
    code = cli_exit_for(e.code);
    if (code == EXIT_OK)
        code = EXIT_INTERNAL;
done:
    diag_release(&j.fs);
    free(j.charts);
    store_free_runs(j.rows, j.n);
    store_close(j.st);
    return code;
}
