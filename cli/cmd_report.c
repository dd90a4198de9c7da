/* cmd_report.c -- `cowtail report`: from raw captures (or a database) to a
 * folder a person can open: index.html, summary.md, report.xlsx and the PNG charts. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boot.h"
#include "cli.h"
#include "commands.h"
#include "check.h"
#include "report_job.h"
#include "timeconv.h"

const char *const cmd_report_usage[] = {
    "usage: cowtail report [--db FILE] [--out DIR] [options] [CAPTURE...]",
    "",
    "Ingest the capture folders given (if any), analyse every run, run the",
    "doctor and the fork/forkless trade-off, and write DIR (default",
    "./cowtail-report):",
    "  index.html        the report for a browser: answers, then each run's",
    "                    charts, findings with evidence and tables, then the fleet",
    "  summary.md        headline table, findings, trade-off, charts",
    "  report.xlsx       Summary, Scenarios, Runs, Phases, Percentiles, Deltas,",
    "                    Trade-off, Findings, Evidence, Events, Charts",
    "  *.png             timeline-RUN, window-RUN, distribution-RUN, memory-RUN,",
    "                    replsync-RUN, memory, tradeoff, progress, fleet, spectrum",
    "  .cowtail-report   marks the folder as written by cowtail report",
    "A chart whose data is missing is not drawn; summary.md says why. An",
    "existing folder that is not empty and holds no .cowtail-report is",
    "refused (it was not written by cowtail) unless --force.",
    "",
    "  --db FILE          database (default cowtail.db)",
    "  --out DIR          output folder (default ./cowtail-report)",
    "  --force            write into DIR even when cowtail did not write it",
    "  --scale N          chart scale: 1 = 1600x900 (default), 2 = high-DPI",
    "  --log-y            timeline latency on a log scale",
    "  --thresholds FILE  colour the fleet view by the p99.9 lift limit (the",
    "                     thresholds file of cowtail check, read the same way);",
    "                     its verdicts replace the checks table, as check's do",
    "  --seed S           bootstrap seed (default 1)",
    "  --resamples N      bootstrap resamples (default 9999)",
    "  --created EPOCH_S  pin the workbook's document date (default: the",
    "                     newest sample, so output depends only on the data)",
    CLI_JOBS_HELP,
    CLI_LATENCY_FROM_HELP,
    NULL
};

/* The p99.9 lift limit of the thresholds file, read as check reads it
 * (NaN when the file has none); EXIT_USAGE for a bad file. */
static int lift_limit(const char *path, double *limit)
{
    app_thresholds t;
    cow_err e = COW_ERR_INIT;

    *limit = NAN;
    if (path == NULL)
        return EXIT_OK;
    if (app_load_thresholds(path, &t, &e) != COW_OK) {
        cli_error(&e);
        return EXIT_USAGE;
    }
    if (t.set[TH_P999_LIFT])
        *limit = t.v[TH_P999_LIFT];
    else
        cli_errorf("report: %s has no max_p999_lift_ms: the fleet view is not coloured",
                   path);
    return EXIT_OK;
}

/* The first screen of summary.md on the terminal: the answers (the
 * most urgent first, at most ten), the quiet runs counted, the inputs
 * that did not land whole counted. */
static void print_answers(const app_report *j)
{
    const app_answers *a = &j->answers;
    size_t i;
    char *line;
    printf("what happened (summary.md opens with the same):\n");
    for (i = 0; i < a->nsay && i < 10; i++) {
        line = app_answer_line(&a->v[a->order[i]], APP_ANSWER_TERM);
        printf("  %s\n", line);
        free(line);
    }
    if (a->nsay > 10)
        printf("  ... and %zu more runs in summary.md\n", a->nsay - 10);
    if ((line = app_answer_quiet_line(a, APP_ANSWER_TERM)) != NULL) {
        printf("  %s\n", line);
        free(line);
    }
    if (j->inputs.n > 0) {
        line = app_inputs_count_line(&j->inputs);
        printf("  not every file landed whole (%s): see summary.md, Inputs\n", line);
        free(line);
    }
}

/* Options; returns -1 to go on, else the exit code. */
static int parse_args(app_report *j, int *jobs, int *from, int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_OPT_DB,
        {"out", required_argument, NULL, 'o'},
        {"scale", required_argument, NULL, 'S'},
        {"log-y", no_argument, NULL, 'l'},
        CLI_OPT_THRESHOLDS,
        {"seed", required_argument, NULL, 's'},
        {"resamples", required_argument, NULL, 'R'},
        {"created", required_argument, NULL, 'c'},
        {"force", no_argument, NULL, 'f'},
        CLI_OPT_JOBS, CLI_OPT_LATENCY_FROM, CLI_OPT_HELP,
        {NULL, 0, NULL, 0}};
    cli_shared sh = {j->db, j->thresholds, 0, *jobs, COW_FROM_STORED};
    int c, code;

    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
        switch (c) {
        case 'o': j->dir = optarg; break;
        case 'S':
            if (cli_opt_double(argv[0], "--scale", optarg, 0.5, 4, &j->co.scale) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'l': j->co.log_y = 1; break;
        case 'f': j->force = 1; break;
        case 's':
            if (cli_opt_seed(argv[0], optarg, &j->seed) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'R':
            if (cli_opt_resamples(argv[0], optarg, &j->resamples) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'c':
            if (cli_opt_int(argv[0], "--created", optarg, 0, COW_EPOCH_MAX_S,
                            &j->created) != EXIT_OK)
                return EXIT_USAGE;
            break;
        default:
            if ((code = cli_shared_opt(c, argv[0], cmd_report_usage, &sh)) != CLI_OPT_NEXT)
                return code;
        }
    }
    j->db = sh.db;
    j->thresholds = sh.thresholds;
    *jobs = sh.jobs;
    *from = sh.latency_from;
    j->co.dir = j->dir;
    if (lift_limit(j->thresholds, &j->co.lift_limit_ms) != EXIT_OK)
        return EXIT_USAGE;
    return -1;
}

int cmd_report(int argc, char **argv)
{
    app_report j;
    cow_err e = COW_ERR_INIT;
    size_t i, drawn = 0;
    int code, jobs = 0, from = COW_FROM_STORED;

    memset(&j, 0, sizeof(j));
    j.db = COW_DEFAULT_DB;
    j.dir = "cowtail-report";
    j.co.scale = 1;
    j.seed = 1;
    j.resamples = COW_BOOT_RESAMPLES;
    j.created = -1;
    if ((code = parse_args(&j, &jobs, &from, argc, argv)) >= 0)
        return code;
    code = EXIT_OK;
    if (app_report_check_dir(j.dir, j.force, &e) != COW_OK) {
        cli_error(&e);
        return cli_exit_for(e.code);
    }
    if ((code = cli_store_open(j.db, &j.st)) != EXIT_OK)
        return code;
    store_set_latency_from(j.st, from);
    j.jobs = jobs;
    if (optind < argc) {
        cow_ingest_totals tot;
        int64_t since = (int64_t)time(NULL);
        int pc;
        code = app_ingest_quiet(j.st, argv + optind, argc - optind, jobs, &tot);
        cli_print_totals(stdout, &tot);
        if ((pc = cli_print_inputs(stdout, j.st, argv + optind, argc - optind, since)) !=
                EXIT_OK && code != EXIT_USAGE)
            code = pc;
        if (code == EXIT_USAGE || code == EXIT_IO)
            goto done;
    }
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
    printf("report written to %s/: index.html, summary.md, report.xlsx, %zu charts (%zu not drawn, "
           "reasons in summary.md); %zu runs, seed %" PRIu64 "\n", j.dir, drawn,
           j.nch - drawn, j.n, j.seed);
    print_answers(&j);
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
