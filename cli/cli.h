/* cli.h -- what the subcommands share: the command table entry, error
 * printing, usage, run selection and checked JSON output. Exit codes and
 * the use cases themselves are in app/ (app.h); each command parses
 * options, calls one and prints. */
#ifndef COW_CLI_CLI_H
#define COW_CLI_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "app.h"
#include "err.h"
#include "parser.h"
#include "store.h"
#include "verdict.h"

typedef struct cow_command {
    const char *name;                     /* "ingest" */
    int (*run)(int argc, char **argv);    /* returns an exit code */
    const char *summary;                  /* one line for `cowtail help` */
    const char *const *usage;             /* full help, NULL terminated */
} cow_command;

/* Print "cowtail: path:line: msg" to stderr. */
void cli_error(const cow_err *e);
/* Print "cowtail: <fmt>" to stderr. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a usage array to fp. */
void cli_print_usage(FILE *fp, const char *const *usage);
/* Register the sink app/ speaks through (app_set_sink): its account on
 * stdout, its errors on stderr as "cowtail: ...", progress when stderr is
 * a terminal. Called once, in main(). */
void cli_sink_install(void);
/* The one-line ingest summary. */
void cli_print_totals(FILE *fp, const cow_ingest_totals *tot);
/* After an ingest of paths[0..npaths) begun at since_s (epoch s): every
 * file under them it refused, did not recognise, or loaded with rejected
 * lines, one line each with why and what to do (app/inputs.h). EXIT_OK,
 * or EXIT_IO (said) when the store cannot tell. */
int cli_print_inputs(FILE *fp, cow_store *st, char **paths, int npaths, int64_t since_s);
/* The table of formats, one line each (for help ingest). */
void cli_print_parsers(FILE *fp);
/* Map an error code to an exit code. */
int cli_exit_for(int code);

/* Common option parsing help: the default database path. */
#define COW_DEFAULT_DB "cowtail.db"

/* Open (or create) database db, a writer waiting for another as long as
 * COWTAIL_LOCK_TIMEOUT says (a duration; default 10 minutes) and saying
 * who holds the lock. Prints the error and returns EXIT_USAGE for a bad
 * COWTAIL_LOCK_TIMEOUT, EXIT_IO on a database error, EXIT_OK otherwise. */
int cli_store_open(const char *db, cow_store **st);

/* Open an existing database and list its runs, for the commands that read
 * (runs, analyze, doctor, diff, tradeoff, rejects, export): on a full file
 * system they still read (store_open_read). Prints the error and returns
 * EXIT_USAGE when the file does not exist (nothing was ingested there),
 * EXIT_IO on a database error, EXIT_OK otherwise. */
int cli_open_runs(const char *db, cow_store **st, cow_run_row **rows, size_t *n);

/* The runs named by labels[0..nlabels), in that order, copied from
 * rows[0..n) into *found (caller frees the array, not the strings it
 * borrows). Prints "CMD: no run labelled ..." for each label no run has
 * and returns EXIT_USAGE then, EXIT_OK otherwise. */
int cli_find_runs(const char *cmd, const cow_run_row *rows, size_t n, char **labels,
                  int nlabels, cow_run_row **found, size_t *nfound);
/* The runs of rows[0..n) named by labels[0..nlabels) (all of them when
 * nlabels is 0), in rows' order, copied into *sel (caller frees the array,
 * not the strings it borrows). Prints "CMD: no run labelled ..." for each
 * label no run has and returns EXIT_USAGE then, EXIT_OK otherwise. */
int cli_select_runs(const char *cmd, const cow_run_row *rows, size_t n, char **labels,
                    int nlabels, cow_run_row **sel, size_t *nsel);

struct cJSON;
/* A number, null for NaN or infinity (JSON has neither). */
void cli_json_num(struct cJSON *o, const char *k, double v);
/* The test behind a verdict: n_eff_base, n_eff, p_up, p_down, p,
 * test_level (analyze and diff print the same keys). */
void cli_json_qcmp(struct cJSON *o, const cow_qcmp *d);

/* Print j (formatted) and a newline to stdout: EXIT_OK, or EXIT_INTERNAL
 * with a message when it cannot be formatted (out of memory). */
int cli_print_json(const struct cJSON *j);

/* The help texts of no single command (cli/manual.c), NULL terminated. */
extern const char *const cli_exit_usage[];
extern const char *const cli_env_usage[];
extern const char *const cli_files_usage[];
/* The man page in roff, from the command table and the texts above. */
void cli_print_roff(FILE *fp, const cow_command *cmds, const char *const *intro);
/* cowtail's version, git revision and library versions (cli/version.c). */
void cli_print_version(FILE *fp);
/* argv[0] as cowtail was run ("build/cowtail", or "cowtail" from PATH):
 * commands print it in the next command to run when it holds a slash. */
extern const char *cli_program;

/* Options (cli/opts.c). cli_getopt is getopt_long(argc, argv, shortopts,
 * opts) for the command argv[0] with the house messages: an unknown,
 * ambiguous or misused option prints "cowtail: CMD: unknown option '--x'
 * (see 'cowtail help CMD')" and returns '?' (the caller returns
 * EXIT_USAGE). The cli_opt_* read one value with common/optval.h into *out
 * and return EXIT_OK, or print "cowtail: --seed: 'abc' is not an integer
 * (see 'cowtail help CMD')" and return EXIT_USAGE. */
struct option;
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *opts);
int cli_opt_int(const char *cmd, const char *opt, const char *arg, int64_t lo, int64_t hi,
                int64_t *out);
/* The options several commands share: a command lists the ones it takes
 * in its table (CLI_OPT_DB ...) and passes every option its own switch does
 * not take to cli_shared_opt, which reads it into *s and returns
 * CLI_OPT_NEXT; after --help (the command's usage printed) EXIT_OK; after
 * a bad value or an unknown option (said) EXIT_USAGE. */
typedef struct cli_shared {
    const char *db;         /* --db FILE */
    const char *thresholds; /* --thresholds FILE */
    int json;               /* --json */
    int jobs;               /* --jobs N (0 when not given: one per core) */
    int latency_from;       /* --latency-from: enum cow_latency_from
                               (COW_FROM_STORED when not given) */
} cli_shared;
#define CLI_OPT_DB {"db", required_argument, NULL, 'd'}
#define CLI_OPT_THRESHOLDS {"thresholds", required_argument, NULL, 't'}
#define CLI_OPT_JSON {"json", no_argument, NULL, 'j'}
#define CLI_OPT_JOBS {"jobs", required_argument, NULL, 'J'}
#define CLI_OPT_HELP {"help", no_argument, NULL, 'h'}
#define CLI_OPT_NEXT (-1)
int cli_shared_opt(int c, const char *cmd, const char *const *usage, cli_shared *s);
/* An instant (optval_instant_us) and a UTC offset (optval_utc_offset). */
int cli_opt_instant(const char *cmd, const char *opt, const char *arg, int64_t *us);
int cli_opt_offset(const char *cmd, const char *opt, const char *arg, int *off_s);
/* A unit name (optval_time_unit, optval_mem_unit) checked; the name itself
 * goes on to the parsers, which say in their notes where a unit came from. */
int cli_opt_time_unit(const char *cmd, const char *opt, const char *arg);
int cli_opt_mem_unit(const char *cmd, const char *opt, const char *arg);
int cli_opt_double(const char *cmd, const char *opt, const char *arg, double lo,
                   double hi, double *out);
/* --seed: 0 to 2^64-1. */
int cli_opt_seed(const char *cmd, const char *arg, uint64_t *seed);
/* --resamples: 99 to COW_BOOT_MAX_RESAMPLES. */
int cli_opt_resamples(const char *cmd, const char *arg, int *resamples);
/* --latency-from intended|sent (send is taken too, as ingest spells it):
 * COW_FROM_INTENDED or COW_FROM_SENT (store.h). */
int cli_opt_latency_from(const char *cmd, const char *arg, int *from);
#define CLI_OPT_LATENCY_FROM {"latency-from", required_argument, NULL, 'I'}
/* Its help lines, shared by report, analyze and check. */
#define CLI_LATENCY_FROM_HELP \
    "  --latency-from W   intended or sent: read each sample with an intended", \
    "                     send from it (reply - intended: what a client felt,", \
    "                     without coordinated omission) or from the actual send", \
    "                     (default: as ingest read it, intended unless", \
    "                     'ingest --latency-from send')"
/* --jobs: 1 to COW_MAX_JOBS. */
#define COW_MAX_JOBS 64
int cli_opt_jobs(const char *cmd, const char *arg, int *jobs);
/* The help line of --jobs, shared by ingest, report and check. */
#define CLI_JOBS_HELP \
    "  --jobs N           parse N files and analyse N runs at once (default:", \
    "                     one per core); one writer stores them in order: the", \
    "                     database and the output are the same for every N"

/* Close stdout and report a write error (ENOSPC, EIO). */
int cli_finish_stdout(int code);

#endif
