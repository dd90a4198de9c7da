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
#include "verdict.h"

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
/* Where a use case speaks: app/ never writes to stdout or stderr; cli/
 * registers a sink (app_set_sink) and prints what it receives. Any member
 * may be NULL: then that kind of message is not shown (the unit tests run
 * without a sink). The calls may come from several threads at once; each
 * is one whole message.
 *   say       the account of the work, verbatim (lines end in "\n")
 *   error     an error or warning line, without "cowtail: " or "\n"
 *   progress  the record count of the file being read; path NULL: the
 *             file is done (erase the count) */
typedef struct app_sink {
    void (*say)(void *ctx, const char *text);
    void (*error)(void *ctx, const char *line);
    void (*progress)(void *ctx, const char *path, long long rows);
    void *ctx;
} app_sink;

/* Copies s (NULL: no sink). Called once, before any use case. */
void app_set_sink(const app_sink *s);
/* The account: printf-style, to the sink's say. */
void app_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "path:line: msg" to the sink's error. */
void app_error(const cow_err *e);
/* <fmt> to the sink's error. */
void app_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with a va_list. */
void app_verrorf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* Whether the sink shows progress, and a count for it. */
int app_shows_progress(void);
void app_progress(const char *path, long long rows);
/* A cow_store_wait_fn for store_open_wait: says (as an error line) that
 * the database is locked and that we wait. */
void app_store_wait(void *ctx, const char *path, const char *holder, int timeout_ms);

/* Settings given on the command line that override run.json. */
typedef struct cow_ingest_flags {
    const char *time_unit;    /* --time-unit */
    const char *latency_unit; /* --latency-unit */
    const char *latency_from; /* --latency-from send|intended, or NULL */
    const char *mem_unit;     /* --mem-unit */
    int has_t0;               /* --t0 given: */
    int64_t t0_us;            /* its instant (cli/: optval_instant_us) */
    int has_log_tz;           /* --log-tz given: */
    int log_tz_s;             /* its offset, s east of UTC (optval_utc_offset) */
    int log_year;             /* --log-year */
    const char *label;        /* --label (single run only) */
    const char *host;         /* --host: every run's host, over run.json's */
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

/* Ingest every path into st, saying one line per file (app_say). Returns an exit
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

/* Ingest paths quietly (errors and rejects still said) and fill *tot for
 * the summary line cli/ prints: what `report` and `check` do with capture
 * folders. */
int app_ingest_quiet(cow_store *st, char **paths, int npaths, int jobs,
                     cow_ingest_totals *tot);
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
 * result stored in run order; only_new: only runs never analysed; margin:
 * the materiality margin (a thresholds file's; NULL: verdict.h's). */
int app_analyze_all(cow_store *st, const cow_run_row *rows, size_t n, int only_new,
                    uint64_t seed, int resamples, int jobs, const cow_qcmp_margin *margin,
                    cow_err *e);

#endif
