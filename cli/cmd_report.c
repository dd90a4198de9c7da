/* cmd_report.c -- `cowtail report`: from raw captures (or a database) to a
 * folder a person can open: summary.md, report.xlsx and the PNG charts. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "cli.h"
#include "commands.h"
#include "report_job.h"

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
    CLI_JOBS_HELP,
    NULL
};

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

/* Options; returns -1 to go on, else the exit code. */
static int parse_args(app_report *j, int *jobs, int argc, char **argv)
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
        {"jobs", required_argument, NULL, 'J'},
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
        case 'J':
            if (!cli_parse_jobs(optarg, jobs))
                return EXIT_USAGE;
            break;
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

int cmd_report(int argc, char **argv)
{
    app_report j;
    cow_err e = COW_ERR_INIT;
    size_t i, drawn = 0;
    int code, jobs = 0;

    memset(&j, 0, sizeof(j));
    j.db = COW_DEFAULT_DB;
    j.dir = "report";
    j.co.scale = 1;
    j.seed = 1;
    j.resamples = COW_BOOT_RESAMPLES;
    j.created = -1;
    if ((code = parse_args(&j, &jobs, argc, argv)) >= 0)
        return code;
    code = EXIT_OK;
    if (store_open(j.db, &j.st, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_IO;
    }
    if (optind < argc &&
        ((code = app_ingest_quiet(j.st, argv + optind, argc - optind, jobs,
                                   stdout)) == EXIT_USAGE ||
         code == EXIT_IO))
        goto done;
    if (app_report_write(&j, &e) != COW_OK)
        goto fail;
    if (j.n == 0) {
        cli_errorf("report: no runs in %s: give capture folders (cowtail report "
                   "--db %s CAPTURE...)", j.db, j.db);
        code = EXIT_USAGE;
        goto done;
    }
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
    app_report_release(&j);
    store_close(j.st);
    return code;
}
