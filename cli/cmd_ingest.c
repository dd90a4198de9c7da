/* cmd_ingest.c -- `cowtail ingest`: load captures into the database. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"

const char *const cmd_ingest_usage[] = {
    "usage: cowtail ingest [--db FILE] [options] PATH...",
    "",
    "Load capture files into the database. PATH is a capture folder (one",
    "run), a tree of them or single files (their folder is the run). A run",
    "is a folder holding a latency capture, a primary's server log or a",
    "run.json; folders below it holding none of these (info/, smaps_child/,",
    "replica/...) join it, and ingest says so. A folder with no run below it",
    "is one run. Each file's format is recognised from its content; each",
    "file lands whole or not at all; a file already ingested into the same",
    "run (same SHA-256) adds nothing, and so does a copy of one under",
    "another name.",
    "",
    "Clocks: the latency samples' clock is the reference (without samples,",
    "the INFO series'). A server log's zone is given, inferred from a UTC",
    "pair or assumed UTC (its windows checked against the samples); any",
    "other file whose stamps lie 30 min or more from the samples' is noted",
    "('clock: ...' with both spans and the likely offset) and kept as it is.",
    "",
    "options (each overrides the run.json key in brackets):",
    "  --db FILE            database (default cowtail.db; ':memory:' allowed)",
    "  --label NAME         label of the run (single run only) [label]",
    "  --host NAME          the machine the capture was made on [host]; without",
    "                       it and run.json's the host is unknown, never this",
    "                       machine's name (kept apart as ingested_on)",
    "  --time-unit U        unit of unitless time columns: s, ms, us, ns [time_unit]",
    "  --latency-unit U     unit of unitless latency columns [latency_unit]",
    "  --latency-from W     intended (default) or send (sent): with an",
    "                       intended-send column (cowtail capture's intended_us),",
    "                       place each sample at its intended send and read its",
    "                       latency from there: what a client felt, without",
    "                       coordinated omission; send reads it from the actual",
    "                       send. Both are kept: report, analyze and check read",
    "                       the other with their --latency-from [latency_from]",
    "  --mem-unit U         unit of memory columns without one: bytes, kB, MB,",
    "                       GB [mem_unit]",
    "  --t0 TIME            start of relative time columns: epoch s/ms/us or",
    "                       ISO 8601 [t0]",
    "  --log-tz OFFSET      time zone of server log stamps, e.g. +02:00 (default",
    "                       UTC, stated in the output) [log_tz]",
    "  --log-year YEAR      year for logs whose lines carry none [log_year]",
    "  --parser NAME        skip detection and read every file with NAME",
    "  --replace            a file whose name is in the run but whose bytes",
    "                       changed replaces the rows of the earlier one (one",
    "                       transaction); without it such a file is refused",
    "  --follow-symlinks    follow symbolic links that stay inside PATH (never",
    "                       into /proc, /sys or /dev); default: skip them",
    "  -q, --quiet          print only errors and the summary",
    "  --jobs N             parse N files at once (default: one per core); one",
    "                       writer commits them file by file: the database is",
    "                       the same for every N",
    "",
    "exit: 0 all landed; 1 some lines rejected, files refused, a file named",
    "on the command line that landed nothing, or entries of the tree that",
    "could not be read (said, and skipped); 2 usage or unusable path; 3",
    "database or file system error.",
    NULL
};

/* Options into *db and *fl; returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, const char **db, cow_ingest_flags *fl)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"label", required_argument, NULL, 'l'},
        {"host", required_argument, NULL, 'H'},
        {"time-unit", required_argument, NULL, 'T'},
        {"latency-unit", required_argument, NULL, 'L'},
        {"latency-from", required_argument, NULL, 'I'},
        {"t0", required_argument, NULL, '0'},
        {"mem-unit", required_argument, NULL, 'M'},
        {"log-tz", required_argument, NULL, 'z'},
        {"log-year", required_argument, NULL, 'y'},
        {"parser", required_argument, NULL, 'p'},
        {"quiet", no_argument, NULL, 'q'},
        {"follow-symlinks", no_argument, NULL, 'F'},
        {"replace", no_argument, NULL, 'r'},
        {"jobs", required_argument, NULL, 'J'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int64_t year;
    int c;

    memset(fl, 0, sizeof(*fl));
    optind = 1;
    while ((c = cli_getopt(argc, argv, "qh", opts)) != -1) {
        switch (c) {
        case 'd': *db = optarg; break;
        case 'l': fl->label = optarg; break;
        case 'H':
            if (optarg[0] == '\0') {
                cli_errorf("--host: give the machine's name (an empty name is no host)");
                return EXIT_USAGE;
            }
            fl->host = optarg;
            break;
        case 'T':
            if (cli_opt_time_unit(argv[0], "--time-unit", optarg) != EXIT_OK)
                return EXIT_USAGE;
            fl->time_unit = optarg;
            break;
        case 'L':
            if (cli_opt_time_unit(argv[0], "--latency-unit", optarg) != EXIT_OK)
                return EXIT_USAGE;
            fl->latency_unit = optarg;
            break;
        case 'I':
            if (strcmp(optarg, "send") != 0 && strcmp(optarg, "sent") != 0 &&
                strcmp(optarg, "intended") != 0) {
                cli_errorf("--latency-from: '%s' is neither intended nor send (see "
                           "'cowtail help ingest')", optarg);
                return EXIT_USAGE;
            }
            /* as run.json spells it */
            fl->latency_from = strcmp(optarg, "sent") == 0 ? "send" : optarg;
            break;
        case '0':
            if (cli_opt_instant(argv[0], "--t0", optarg, &fl->t0_us) != EXIT_OK)
                return EXIT_USAGE;
            fl->has_t0 = 1;
            break;
        case 'M':
            if (cli_opt_mem_unit(argv[0], "--mem-unit", optarg) != EXIT_OK)
                return EXIT_USAGE;
            fl->mem_unit = optarg;
            break;
        case 'z':
            if (cli_opt_offset(argv[0], "--log-tz", optarg, &fl->log_tz_s) != EXIT_OK)
                return EXIT_USAGE;
            fl->has_log_tz = 1;
            break;
        case 'y':
            if (cli_opt_int(argv[0], "--log-year", optarg, 1970, 2100, &year) != EXIT_OK)
                return EXIT_USAGE;
            fl->log_year = (int)year;
            break;
        case 'p':
            if (parser_by_name(optarg) == NULL) {
                cli_errorf("--parser: '%s' is no parser of cowtail (see 'cowtail help ingest')",
                           optarg);
                return EXIT_USAGE;
            }
            fl->parser = optarg;
            break;
        case 'q': fl->quiet = 1; break;
        case 'F': fl->follow_symlinks = 1; break;
        case 'r': fl->replace = 1; break;
        case 'J':
            if (cli_opt_jobs(argv[0], optarg, &fl->jobs) != EXIT_OK)
                return EXIT_USAGE;
            break;
        case 'h':
            cli_print_usage(stdout, cmd_ingest_usage);
            cli_print_parsers(stdout);
            return EXIT_OK;
        default: return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        cli_errorf("ingest: no PATH given (see 'cowtail help ingest')");
        fprintf(stderr, "%s\n", cmd_ingest_usage[0]);
        return EXIT_USAGE;
    }
    return -1;
}

int cmd_ingest(int argc, char **argv)
{
    const char *db = COW_DEFAULT_DB;
    cow_ingest_flags fl;
    cow_ingest_totals tot;
    cow_store *st = NULL;
    int64_t since;
    int code, pc;

    if ((code = parse_args(argc, argv, &db, &fl)) >= 0)
        return code;
    if ((code = cli_store_open(db, &st)) != EXIT_OK)
        return code;
    since = (int64_t)time(NULL);
    code = app_ingest_paths(st, argv + optind, argc - optind, &fl, &tot);
    cli_print_totals(stdout, &tot);
    if ((pc = cli_print_inputs(stdout, st, argv + optind, argc - optind, since)) != EXIT_OK &&
        code != EXIT_USAGE)
        code = pc;
    store_close(st);
    return code;
}
