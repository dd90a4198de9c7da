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
    "  report.xlsx       Summary, Runs, Phases, Percentiles, Deltas,",
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

int cmd_report(int argc, char **argv)
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
    const char *db = COW_DEFAULT_DB, *dir = "report", *thresholds = NULL;
    report_chart_opts co;
    cow_store *st = NULL;
    cow_err e = COW_ERR_INIT;
    cow_run_row *rows = NULL;
    cow_findings fs;
    cow_tradeoff trade;
    cow_trial *trials = NULL;
    cow_workbook *wb = NULL;
    report_chart *charts = NULL;
    size_t n = 0, nt = 0, nch = 0, i;
    uint64_t seed = 1;
    int c, resamples = COW_BOOT_RESAMPLES, code = EXIT_OK, has_trade = 0;
    int64_t created = -1, newest = 0;
    const char *trade_host = NULL, *trade_scenario = NULL;
    char path[1100];
    FILE *fp;

    memset(&co, 0, sizeof(co));
    co.scale = 1;
    memset(&fs, 0, sizeof(fs));
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'o': dir = optarg; break;
        case 'S':
            co.scale = strtod(optarg, NULL);
            if (!(co.scale >= 0.5 && co.scale <= 4)) {
                cli_errorf("--scale %s: expected 0.5 to 4", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'l': co.log_y = 1; break;
        case 't': thresholds = optarg; break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 'R':
            resamples = atoi(optarg);
            if (resamples < 99 || resamples > COW_BOOT_MAX_RESAMPLES) {
                cli_errorf("--resamples %s: expected 99 to %d", optarg, COW_BOOT_MAX_RESAMPLES);
                return EXIT_USAGE;
            }
            break;
        case 'c': created = strtoll(optarg, NULL, 10); break;
        case 'h': cli_print_usage(stdout, cmd_report_usage); return EXIT_OK;
        default: cli_print_usage(stderr, cmd_report_usage); return EXIT_USAGE;
        }
    }
    co.dir = dir;
    co.lift_limit_ms = lift_limit(thresholds);
    if (thresholds && isnan(co.lift_limit_ms))
        cli_errorf("report: %s has no max_p999_lift_ms: the fleet view is not coloured",
                   thresholds);
    if (store_open(db, &st, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_IO;
    }
    if (optind < argc) {
        code = cli_ingest_quiet(st, argv + optind, argc - optind, stdout);
        if (code == EXIT_USAGE || code == EXIT_IO)
            goto done;
    }
    if (store_list_runs(st, &rows, &n, &e) != COW_OK)
        goto fail;
    if (n == 0) {
        cli_errorf("report: no runs in %s: give capture folders (cowtail report "
                   "--db %s CAPTURE...)", db, db);
        code = EXIT_USAGE;
        goto done;
    }
    for (i = 0; i < n; i++) {
        if (rows[i].samples > 0 && cli_analyze_run_with(st, &rows[i], seed, resamples, &e))
            goto fail;
        if (rows[i].t_last_us > newest)
            newest = rows[i].t_last_us;
    }
    store_free_runs(rows, n);
    if (store_list_runs(st, &rows, &n, &e) != COW_OK)
        goto fail;
    if (cli_doctor(st, rows, n, &fs, NULL, &e) != COW_OK)
        goto fail;
    trials = xcalloc(n, sizeof(*trials));
    if (facts_tradeoff_group(rows, n, &trade_host, &trade_scenario) != 0)
        trade_scenario = trade_host = NULL;
    for (i = 0; i < n && (trade_host || trade_scenario); i++)
        if (facts_in_group(&rows[i], trade_host, trade_scenario)) {
            if (facts_trial(st, &rows[i], &trials[nt], &e) != COW_OK)
                goto fail;
            nt++;
        }
    if (nt > 0 && tradeoff_compute(trials, nt, seed, &trade, &e) == COW_OK)
        has_trade = 1;
    if (make_dir(dir) != 0) {
        cli_errorf("%s: cannot create the report folder: %s", dir, strerror(errno));
        code = EXIT_IO;
        goto done;
    }
    if (report_charts_write(st, rows, n, has_trade ? &trade : NULL, &co, &charts, &nch,
                            &e) != COW_OK)
        goto fail;
    if (report_book_build(st, rows, n, has_trade ? &trade : NULL,
                          created >= 0 ? created : newest / 1000000, charts, nch, dir,
                          &wb, &e) != COW_OK)
        goto fail;
    snprintf(path, sizeof(path), "%s/report.xlsx", dir);
    if (xlsx_write(wb, path, &e) != COW_OK)
        goto fail;
    snprintf(path, sizeof(path), "%s/summary.md", dir);
    if ((fp = fopen(path, "w")) == NULL) {
        cli_errorf("%s: cannot write: %s", path, strerror(errno));
        code = EXIT_IO;
        goto done;
    } else {
        report_summary_in in;
        int rc;
        memset(&in, 0, sizeof(in));
        in.db = db;
        in.rows = rows;
        in.nrows = n;
        in.trade = has_trade ? &trade : NULL;
        in.trade_host = trade_host;
        in.trade_scenario = trade_scenario;
        in.charts = charts;
        in.ncharts = nch;
        in.seed = seed;
        in.resamples = resamples;
        rc = report_summary_write(st, &in, fp, &e);
        if (fclose(fp) != 0 && rc == COW_OK)
            rc = COW_FAIL(&e, COW_EIO, "%s: %s", path, strerror(errno));
        if (rc != COW_OK)
            goto fail;
    }
    {
        size_t drawn = 0;
        for (i = 0; i < nch; i++)
            drawn += charts[i].file[0] != '\0';
        printf("report written to %s/: summary.md, report.xlsx, %zu charts (%zu not "
               "drawn, reasons in summary.md); %zu runs, seed %" PRIu64 "\n", dir,
               drawn, nch - drawn, n, seed);
    }
    printf("headline findings:\n");
    headline_findings(&fs);
    goto done;
fail:
    cli_error(&e);
    code = cli_exit_for(e.code);
    if (code == EXIT_OK)
        code = EXIT_INTERNAL;
done:
    diag_release(&fs);
    free(trials);
    free(charts);
    table_book_free(wb);
    store_free_runs(rows, n);
    store_close(st);
    return code;
}
