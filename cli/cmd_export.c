/* cmd_export.c -- `cowtail export`: results (and samples on request) to
 * ClickHouse over HTTP or to JSON lines files, the same rows either way
 * (store/export.c reads them, export_out.c writes them). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#ifdef COW_WITH_EXPORT
#include "export_out.h"
#endif
#include "store_fleet.h"

const char *const cmd_export_usage[] = {
    "usage: cowtail export [--db FILE] (--clickhouse URL | --jsonl DIR) [--samples] [-q]",
    "",
    "Send every run's results to a distributed engine: tables runs, phases,",
    "quantiles, deltas, exceedance, findings, and samples with --samples",
    "(DDL and column meanings: schemas/clickhouse.sql). Every row carries",
    "its run key (host, run label) and an export version (this machine's",
    "clock in microseconds). Analyse first (cowtail analyze, doctor or",
    "report): export sends what the database holds.",
    "",
    "  --db FILE          database (default cowtail.db)",
    "  --clickhouse URL   ClickHouse HTTP interface, e.g. http://127.0.0.1:8123;",
    "                     creates database 'cowtail' and its tables when",
    "                     missing, inserts in batches (TabSeparated), then",
    "                     deletes the older versions of the runs it sent",
    "                     (ALTER TABLE ... DELETE): re-exporting replaces;",
    "                     table exports marks a version complete, sent",
    "                     after every other table (read the newest version",
    "                     from there)",
    "  --jsonl DIR        write DIR/TABLE.jsonl instead (one JSON object per",
    "                     line, the same columns), each file whole",
    "                     (file DIR/exports.jsonl marks a complete export)",
    "  --samples          also the samples (large: one row per request); the",
    "                     samples of a run are replaced only when sent again",
    "  -q, --quiet        only the summary line",
    "",
    "Exit codes: 0 exported; 2 usage; 3 database, file or server error.",
    NULL
};

#ifdef COW_WITH_EXPORT
static void on_table(void *ctx, const char *table, long long rows)
{
    if (!*(const int *)ctx)
        printf("%-10s %lld rows\n", table, rows);
}

int cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"clickhouse", required_argument, NULL, 'c'},
        {"jsonl", required_argument, NULL, 'j'},
        {"samples", no_argument, NULL, 's'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = COW_DEFAULT_DB;
    cow_export_opts xo = {NULL, NULL, 0, on_table, NULL};
    cow_export_result res;
    cow_err e = COW_ERR_INIT;
    cow_store *st = NULL;
    cow_run_row *rows = NULL;
    size_t nruns = 0;
    int c, quiet = 0, code, rc;

    optind = 1;
    while ((c = cli_getopt(argc, argv, "qh", opts)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'c': xo.clickhouse = optarg; break;
        case 'j': xo.jsonl = optarg; break;
        case 's': xo.samples = 1; break;
        case 'q': quiet = 1; break;
        case 'h': cli_print_usage(stdout, cmd_export_usage); return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (optind < argc || (xo.clickhouse == NULL) == (xo.jsonl == NULL)) {
        cli_errorf("export: give one of --clickhouse URL or --jsonl DIR");
        cli_print_usage(stderr, cmd_export_usage);
        return EXIT_USAGE;
    }
    if ((code = cli_open_runs(db, &st, &rows, &nruns)) != EXIT_OK)
        return code;
    store_free_runs(rows, nruns);
    xo.ctx = &quiet;
    rc = app_export(st, &xo, &res, &e);
    if (rc == COW_OK)
        printf("exported %zu runs, %lld rows, version %lld, to %s%s\n", nruns, res.rows,
               (long long)res.version, xo.clickhouse ? xo.clickhouse : xo.jsonl,
               xo.clickhouse ? " (database " XOUT_DATABASE ")" : "");
    else
        cli_error(&e);
    store_close(st);
    return rc == COW_OK ? EXIT_OK : cli_exit_for(rc);
}
#else
/* Built with COWTAIL_EXPORT=OFF: no libcurl, no export/. */
int cmd_export(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            cli_print_usage(stdout, cmd_export_usage);
            return EXIT_OK;
        }
    cli_errorf("export: this cowtail was built without export (cmake -DCOWTAIL_EXPORT=OFF);"
               " build it with -DCOWTAIL_EXPORT=ON (needs libcurl4-openssl-dev)");
    return EXIT_USAGE;
}
#endif
