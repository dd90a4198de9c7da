/* main.c -- cowtail's entry point: the command table and dispatch. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "termsafe.h"

static const char *const main_usage[] = {
    "usage: cowtail <command> [options] [args]",
    "",
    "cowtail reads raw captures of Redis/Valkey fork and copy-on-write",
    "latency experiments into SQLite and analyses them.",
    "",
    "Every command takes --help, and every one but capture --db FILE (default",
    "cowtail.db; ':memory:' allowed). Options come before or after the",
    "arguments; '--' ends them. Numbers are whole fields ('--seed 12x' is",
    "refused); a bad option or value exits 2 and names the help to read.",
    "'cowtail help formats' lists the files cowtail reads.",
    "",
    "  --version   cowtail's version and those of SQLite, cJSON, cairo and",
    "              libxlsxwriter it runs with",
    NULL
};

static const cow_command commands[] = {
    {"capture", cmd_capture, "record a run against a live Redis or Valkey server",
     cmd_capture_usage},
    {"ingest", cmd_ingest, "load capture folders or files into the database",
     cmd_ingest_usage},
    {"runs", cmd_runs, "list the runs in the database", cmd_runs_usage},
    {"rejects", cmd_rejects, "every rejected line and refused file, with the reason",
     cmd_rejects_usage},
    {"analyze", cmd_analyze, "phases, quantiles with intervals, deltas vs baseline",
     cmd_analyze_usage},
    {"doctor", cmd_doctor, "explain the tail with evidence and advice", cmd_doctor_usage},
    {"report", cmd_report, "captures in, charts, workbook and summary out",
     cmd_report_usage},
    {"diff", cmd_diff, "compare runs with a base run (scenario vs scenario)",
     cmd_diff_usage},
    {"check", cmd_check, "the fleet gate: every run against thresholds",
     cmd_check_usage},
    {"tradeoff", cmd_tradeoff, "fork vs forkless over trials: COW, save time, throughput",
     cmd_tradeoff_usage},
    {"merge", cmd_merge, "combine databases made on separate hosts", cmd_merge_usage},
    {"export", cmd_export, "results (and samples) to ClickHouse or JSON lines",
     cmd_export_usage},
    {NULL, NULL, NULL, NULL}
};

static void list_commands(FILE *fp)
{
    const cow_command *c;
    cli_print_usage(fp, main_usage);
    fprintf(fp, "\ncommands:\n");
    for (c = commands; c->name; c++)
        fprintf(fp, "  %-8s %s\n", c->name, c->summary);
    fprintf(fp, "  %-8s %s\n", "help", "show help for a command: cowtail help CMD");
    fputc('\n', fp);
    cli_print_usage(fp, cli_exit_usage);
    fputc('\n', fp);
    cli_print_usage(fp, cli_env_usage);
}

static const cow_command *find(const char *name)
{
    const cow_command *c;
    for (c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

/* cowtail help [CMD | formats | --roff] */
static int help(int argc, char **argv)
{
    const cow_command *c;

    if (argc < 3) {
        list_commands(stdout);
    } else if (strcmp(argv[2], "--roff") == 0) {
        cli_print_roff(stdout, commands, main_usage);
    } else if (strcmp(argv[2], "formats") == 0) {
        cli_print_parsers(stdout);
        fputc('\n', stdout);
        cli_print_usage(stdout, cli_files_usage);
    } else if ((c = find(argv[2])) != NULL) {
        cli_print_usage(stdout, c->usage);
        if (c->run == cmd_ingest)
            cli_print_parsers(stdout);
    } else {
        cli_errorf("unknown command '%s' (see 'cowtail help')", argv[2]);
        return EXIT_USAGE;
    }
    return cli_finish_stdout(EXIT_OK);
}

int main(int argc, char **argv)
{
    const cow_command *c;

    term_safe_streams();
    cli_sink_install();
    if (argc > 0 && argv[0] && argv[0][0])
        cli_program = argv[0];
    if (argc < 2) {
        list_commands(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        list_commands(stdout);
        return cli_finish_stdout(EXIT_OK);
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        cli_print_version(stdout);
        return cli_finish_stdout(EXIT_OK);
    }
    if (strcmp(argv[1], "help") == 0)
        return help(argc, argv);
    if ((c = find(argv[1])) == NULL) {
        cli_errorf("unknown %s '%s' (see 'cowtail help')",
                   argv[1][0] == '-' ? "option" : "command", argv[1]);
        return EXIT_USAGE;
    }
    return cli_finish_stdout(c->run(argc - 1, argv + 1));
}
