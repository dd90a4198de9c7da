/* app.h -- the application layer under the command line: the use cases
 * (ingest capture folders, analyse and store a run, gather facts, run the
 * doctor) that cli/ calls with parsed options and whose results it prints.
 * app/ calls store/, ingest/, analysis/ and report/; nothing below calls
 * app/. */
#ifndef COW_APP_APP_H
#define COW_APP_APP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "err.h"
#include "parser.h"
#include "store.h"

/* Outcome of a use case, also the process exit code. */
enum cow_exit {
    EXIT_OK = 0,       /* everything landed / passed */
    EXIT_REJECTED = 1, /* some input rejected (or, for check: a threshold failed) */
    EXIT_USAGE = 2,    /* usage error or unusable input */
    EXIT_IO = 3,       /* file system or database error */
    EXIT_INTERNAL = 4  /* a bug */
};

/* s (a label, host, path or file name from the input) for one line of
 * terminal text: every control character, newline and tab too, shown as
 * \xNN, so a folder named "x\nall-good ... pass" cannot forge a line.
 * The result lives for APP_TTY_RING more calls (several fit in one
 * printf). The stream filter (app_safe_streams) keeps newlines; a string
 * from the input goes through this before it is printed. */
#define APP_TTY_RING 16
const char *app_tty(const char *s);
/* Print "cowtail: path:line: msg" to stderr. */
void app_error(const cow_err *e);
/* Print "cowtail: <fmt>" to stderr. */
void app_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with a va_list. */
void app_verrorf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* Put the terminal filter in front of stdout and stderr (see msg.c):
 * control characters are shown as \xNN, invalid UTF-8 as U+FFFD. Called
 * once, first thing in main(). */
void app_safe_streams(void);
/* stderr without the filter, for the progress line's own escapes. */
FILE *app_raw_stderr(void);
/* A cow_store_wait_fn for store_open_wait: says on stderr that the
 * database is locked and that we wait. */
void app_store_wait(void *ctx, const char *path, const char *holder, int timeout_ms);
/* stdout without the filter (to check it was written). */
FILE *app_raw_stdout(void);

/* Settings given on the command line that override run.json. */
typedef struct cow_ingest_flags {
    const char *time_unit;    /* --time-unit */
    const char *latency_unit; /* --latency-unit */
    const char *mem_unit;     /* --mem-unit */
    const char *t0;           /* --t0 (epoch or ISO 8601) */
    const char *log_tz;       /* --log-tz */
    int log_year;             /* --log-year */
    const char *label;        /* --label (single run only) */
    const char *parser;       /* --parser NAME: skip detection */
    int quiet;                /* -q: only errors and the summary line */
    int follow_symlinks;      /* --follow-symlinks */
    int replace;              /* --replace: a changed file replaces its rows */
    int jobs;                 /* --jobs: files parsed at once; 0: one per
                                 core (app_default_jobs), 1: parsed on the
                                 calling thread (a latency file's samples
                                 are still written by writer.h's thread).
                                 The database is the same. */
    /* Told on the calling thread, between transactions, of each run whose
     * files have all landed (and whose clocks and servers are settled),
     * run by run in order; may write through st. Not COW_OK: ingest stops
     * (exit code EXIT_IO, e printed). NULL: nobody is told. */
    int (*run_landed)(void *ctx, cow_store *st, int64_t run, cow_err *e);
    void *landed_ctx;
} cow_ingest_flags;

typedef struct cow_ingest_totals {
    long files_ok;       /* files that landed */
    long files_dup;      /* files already in the database */
    long files_refused;  /* files refused whole */
    long files_skipped;  /* files no parser recognised */
    long long rows;      /* records that landed */
    long long rejected;  /* lines rejected */
    long runs;           /* runs touched */
} cow_ingest_totals;

/* Ingest every path into st, printing one line per file. Returns an exit
 * code: EXIT_OK, EXIT_REJECTED (something rejected or refused), EXIT_USAGE
 * (unusable path or flags), EXIT_IO. */
int app_ingest_paths(cow_store *st, char **paths, int npaths,
                     const cow_ingest_flags *fl, cow_ingest_totals *tot);

/* After a run's files landed: settle the clock of each server log whose
 * clock is not settled yet: the zone given in o, else inferred from a
 * pair of a UTC source and a log line naming the same instant (the log's
 * events are moved to UTC), else checked against the samples (a whole-
 * hour mismatch is recorded, and analyze refuses the run), else UTC. */
int app_settle_clocks(cow_store *st, int64_t run, const cow_parse_opts *o,
                      int quiet, int *mismatch, cow_err *e);
/* Then (unless quiet) print a note for each file of the run whose clock
 * does not match the reference (app_clock_skews). */
int app_note_skews(cow_store *st, int64_t run, int quiet, cow_err *e);

/* Files of a run whose clock does not match the run's reference clock:
 * the latency samples' (the clock the requests were timed by, which every
 * window is laid on); a run without samples: its INFO series' (the
 * server's own clock). A file whose span lies COW_CLOCK_GAP_S or more
 * from the reference's is one, by path (caller frees *v). */
int app_clock_skews(cow_store *st, int64_t run, cow_clock_skew **v, size_t *n,
                    cow_err *e);
/* A log whose zone was assumed UTC: *doubt = 1 when a whole-hour offset
 * (*off_s) would place more of its window stamps inside the samples' span
 * (*k) than as read (*k0; clock_hour_better). */
int app_log_zone_doubt(cow_store *st, int64_t run, int64_t file, long *off_s,
                       size_t *k0, size_t *k, int *doubt, cow_err *e);
/* What ingest prints for one: both files, their spans, the offset. */
void app_skew_text(const cow_clock_skew *k, char *out, size_t cap);

/* Print the one-line ingest summary. */
void app_print_totals(FILE *fp, const cow_ingest_totals *tot);
/* Ingest paths quietly (errors and rejects still on stderr) and print the
 * summary line to fp: what `report` and `check` do with capture folders. */
int app_ingest_quiet(cow_store *st, char **paths, int npaths, int jobs, FILE *fp);
/* The number of cores: what --jobs means by default. */
int app_default_jobs(void);

/* Analyse one run with the defaults (seed 1, 9,999 resamples, type 7)
 * and store the results, printing nothing (doctor, report). */
int app_analyze_run(cow_store *st, const cow_run_row *r, cow_err *e);
/* The same with a given seed and number of resamples. */
int app_analyze_run_with(cow_store *st, const cow_run_row *r, uint64_t seed,
                         int resamples, cow_err *e);
/* app_analyze_runs (analyze.h) with those defaults and the given seed and
 * resamples: analyse rows[0..n) on jobs threads (0: one per core), each
 * result stored in run order; only_new: only runs never analysed. */
int app_analyze_all(cow_store *st, const cow_run_row *rows, size_t n, int only_new,
                    uint64_t seed, int resamples, int jobs, cow_err *e);

#endif
