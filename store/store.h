/* store.h -- the SQLite store: the only code that speaks SQL.
 *
 *     cow_store *st;
 *     if (store_open("cowtail.db", &st, &e)) ...;     ":memory:" works too
 *     store_begin(st, &e);
 *     store_add_samples(st, run, file, samples, n, &e);
 *     store_commit(st, &e);                           or store_rollback(st)
 *     store_close(st);
 *
 * The schema comes from schemas/NNN_*.sql, applied at open in order and
 * recorded in PRAGMA user_version. Every statement is prepared once at
 * open. Results handed out (store_list_runs) are owned by the caller and
 * freed with the matching store_free_* function. */
#ifndef COW_STORE_STORE_H
#define COW_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fact.h"
#include "rec.h"

typedef struct cow_store cow_store;

/* What a run is called and what run.json says of it. NULL = unknown. */
typedef struct cow_run_meta {
    const char *label;    /* unique name, e.g. "bgsave-t1" or "hostA/run3" */
    const char *path;     /* folder as given */
    const char *scenario; /* run.json "scenario" */
    const char *mode;     /* run.json "mode": fork / forkless */
    const char *host;     /* run.json "host" */
    long trial;           /* run.json "trial", -1 if none */
    const char *meta;     /* run.json verbatim */
} cow_run_meta;

/* One line of `cowtail runs`. */
typedef struct cow_run_row {
    int64_t id;           /* runs.id */
    char *label;          /* owned */
    char *scenario;       /* owned, NULL if unknown */
    char *mode;           /* owned, NULL if unknown */
    char *host;           /* owned, NULL if unknown */
    long trial;           /* -1 if unknown */
    int64_t files;        /* files ingested */
    int64_t samples;      /* latency samples */
    int64_t rejected;     /* rejected lines over all files */
    int64_t events;       /* server events */
    int64_t t_first_us;   /* first sample, 0 if none */
    int64_t t_last_us;    /* last sample, 0 if none */
    char *phases;         /* owned: phase labels of the last analysis,
                             space separated; NULL if never analysed */
} cow_run_row;

int store_open(const char *path, cow_store **out, cow_err *e);
/* NULL is a no-op. */
void store_close(cow_store *st);
int store_schema_version(cow_store *st);

int store_begin(cow_store *st, cow_err *e);
int store_commit(cow_store *st, cow_err *e);
/* Never fails in a way the caller can act on. */
void store_rollback(cow_store *st);

/* Find the run by label or create it; fills in meta fields that are set. */
int store_run_upsert(cow_store *st, const cow_run_meta *m, int64_t *run_id,
                     cow_err *e);
/* *seen = 1 when a file with this SHA-256 and this base name already
 * landed in this run (a copy of the same file, not two files that happen
 * to hold the same bytes). */
int store_file_seen(cow_store *st, int64_t run, const char *sha256,
                    const char *name, int *seen, cow_err *e);
/* *seen = 1 when a file of this size already landed in this run (a cheap
 * test before hashing a file twice). */
int store_file_size_seen(cow_store *st, int64_t run, int64_t size, int *seen,
                         cow_err *e);
/* Start a file row (inside the file's transaction). */
int store_file_begin(cow_store *st, int64_t run, const char *path,
                     int64_t size, const char *parser, int64_t *file_id,
                     cow_err *e);
/* Finish it with its digest and counts. */
int store_file_end(cow_store *st, int64_t file, const char *sha256,
                   int64_t rows, int64_t rejected, const char *notes,
                   cow_err *e);

/* Record a file refused whole (outside any transaction: after its
 * rollback). run may be 0 when the run does not exist. */
int store_add_refusal(cow_store *st, int64_t run, const char *label,
                      const char *path, long line, const char *parser,
                      const char *code, const char *reason, cow_err *e);
/* Refusals recorded for a run label: num = count; text = the first
 * reason; src = its file:line. */
int store_fact_refusals(cow_store *st, const char *label, cow_fact *f, cow_err *e);

/* Samples, many at once (multi-row inserts). */
int store_add_samples(cow_store *st, int64_t run, int64_t file,
                      const cow_sample *s, size_t n, cow_err *e);
/* Any other record kind; COW_REC_NOTE and COW_REC_SAMPLE are refused
 * (notes go to store_file_end, samples to store_add_samples). */
int store_add_rec(cow_store *st, int64_t run, int64_t file, const cow_rec *r,
                  cow_err *e);

/* ------------------------------------------------------------ analysis */

/* A run's samples in time order: t_us[] and lat_us[] (caller frees both). */
int store_load_samples(cow_store *st, int64_t run, int64_t **t_us,
                       double **lat_us, size_t *n, cow_err *e);

/* Count and time span of a run's samples (0s when none). */
int store_sample_span(cow_store *st, int64_t run, size_t *n, int64_t *t_first_us,
                      int64_t *t_last_us, cow_err *e);
/* Latencies of a run's samples in [t0_us, t1_us), in time order (caller
 * frees *lat); reads only that range of the (run, t_us) key. */
int store_load_latencies(cow_store *st, int64_t run, int64_t t0_us, int64_t t1_us,
                         double **lat, size_t *n, cow_err *e);

/* A run's events in time order. Strings live in the returned set; free it
 * with store_free_events. */
typedef struct cow_event_set {
    cow_event *v;        /* events (kind, unit, text point into pool) */
    size_t n;
    char **pool;         /* owned strings */
    size_t npool;
} cow_event_set;
int store_load_events(cow_store *st, int64_t run, cow_event_set *out, cow_err *e);
void store_free_events(cow_event_set *s);

/* Numeric series of one INFO key (no sub-field) in time order: polls with
 * a time only. Caller frees both arrays. */
int store_load_info_series(cow_store *st, int64_t run, const char *key,
                           int64_t **t_us, double **num, size_t *n, cow_err *e);

/* Results of one analysis of one run; store_analysis_begin deletes the
 * run's previous results (call inside a transaction). */
int store_analysis_begin(cow_store *st, int64_t run, uint64_t seed,
                         int resamples, const char *method, cow_err *e);

typedef struct cow_phase_row {
    int idx;             /* order in the run */
    const char *kind;    /* phase_kind_name() */
    const char *label;   /* "bgsave#1" */
    int64_t t0_us, t1_us;/* window */
    int64_t fork_us;     /* 0 if none */
    long child_pid;      /* 0 if unknown */
    const char *source;  /* log / info / derived */
    int overlap, open, failed; /* flags */
    int64_t n;           /* samples */
    double mean_us, min_us, max_us, grid_us; /* NaN when n == 0 */
} cow_phase_row;
int store_put_phase(cow_store *st, int64_t run, const cow_phase_row *p, cow_err *e);

typedef struct cow_quantile_row {
    int phase;           /* phases.idx */
    double q;            /* level */
    double value_us;     /* NaN when n == 0 */
    double lo_us, hi_us; /* NaN when that bound is not finite */
    int64_t n_needed;    /* n for both bounds */
    int thin;            /* flag */
} cow_quantile_row;
int store_put_quantile(cow_store *st, int64_t run, const cow_quantile_row *q,
                       cow_err *e);

typedef struct cow_delta_row {
    int phase, base;     /* phases.idx of the phase and its baseline */
    double q;            /* level */
    double base_us, value_us, delta_us, lo_us, hi_us; /* bootstrap */
    double ratio, ratio_lo, ratio_hi; /* NaN when undefined */
    const char *verdict; /* lift / flat / drop / n/a */
    int thin;            /* either side thin */
} cow_delta_row;
int store_put_delta(cow_store *st, int64_t run, const cow_delta_row *d,
                    cow_err *e);

typedef struct cow_exceed_row {
    int phase;           /* phases.idx */
    double base_q;       /* 0.99 or 0.999 */
    double threshold_us; /* the baseline quantile */
    int64_t n, count;    /* samples, and those above the threshold */
    double p, lo, hi;    /* proportion and its exact interval */
} cow_exceed_row;
int store_put_exceed(cow_store *st, int64_t run, const cow_exceed_row *x,
                     cow_err *e);

/* ------------------------------------------------------------- facts
 * Each fills *f (known = 0 when nothing matches) with the value and the
 * file:line it came from. */

/* INFO (or CONFIG, section "config") field of the last dump that has it. */
int store_fact_info_last(cow_store *st, int64_t run, const char *key, cow_fact *f,
                         cow_err *e);
/* Largest numeric value of an INFO field over the series. */
int store_fact_info_max(cow_store *st, int64_t run, const char *key, cow_fact *f,
                        cow_err *e);
/* Largest numeric sub-field sub of INFO keys starting with key_prefix
 * (e.g. "slave", "lag": the worst replica lag). */
int store_fact_info_sub_max(cow_store *st, int64_t run, const char *key_prefix,
                            const char *sub, cow_fact *f, cow_err *e);
/* Kernel-side value: the largest over snapshots of the server process
 * (snapshots whose file name says "child" are the fork child's and are
 * skipped unless child is 1, then only they count). */
int store_fact_stat_max(cow_store *st, int64_t run, const char *source,
                        const char *key, int child, cow_fact *f, cow_err *e);
/* Kernel-side value as text (THP choice, sysctl), last snapshot. */
int store_fact_stat_last(cow_store *st, int64_t run, const char *source,
                         const char *key, cow_fact *f, cow_err *e);
/* Number of events of a kind (num), and the first one's line (src). */
int store_fact_event_count(cow_store *st, int64_t run, const char *kind,
                           cow_fact *f, cow_err *e);
/* Largest value of events of a kind (e.g. cow_rdb MB). */
int store_fact_event_max(cow_store *st, int64_t run, const char *kind,
                         cow_fact *f, cow_err *e);
/* LATENCY monitor: rows of a kind ("history", "latest", "doctor") with a
 * latency (num = count), or, for "doctor_none", DOCTOR texts that said no
 * spike was observed; known = 0 when no LATENCY file was captured. */
int store_fact_latmon(cow_store *st, int64_t run, const char *what, cow_fact *f,
                      cow_err *e);
/* Memory series of a run, in time order (caller frees both). */
int store_load_mem(cow_store *st, int64_t run, int64_t **t_us, double **bytes,
                   size_t *n, cow_err *e);
/* Intervals of a run whose op is (or is not, when op is NULL) "throughput":
 * t_us, dur_s, count, max_us arrays (caller frees all four). */
int store_load_intervals(cow_store *st, int64_t run, int throughput,
                         int64_t **t_us, double **dur_s, double **count,
                         double **max_us, size_t *n, cow_err *e);

/* Stored analysis results of a run, for doctor and reports. */
typedef struct cow_result_set {
    cow_phase_row *ph;     /* phases (kind/label/source point into pool) */
    size_t nph;
    cow_quantile_row *q;   /* quantiles */
    size_t nq;
    cow_delta_row *d;      /* deltas (verdict points into pool) */
    size_t nd;
    cow_exceed_row *x;     /* exceedance */
    size_t nx;
    int analysed;          /* an analysis exists */
    uint64_t seed;         /* its seed */
    int resamples;         /* its R */
    char **pool;           /* owned strings */
    size_t npool;
} cow_result_set;
int store_load_results(cow_store *st, int64_t run, cow_result_set *r, cow_err *e);
void store_free_results(cow_result_set *r);

/* Findings of `cowtail doctor`: clear a run's, then add them in order. */
int store_clear_findings(cow_store *st, int64_t run, cow_err *e);
int store_put_finding(cow_store *st, int64_t run, int seq, const char *rule,
                      const char *severity, const char *title,
                      const char *evidence_json, const char *recommendation,
                      cow_err *e);

/* Stored findings of a run, in order. */
typedef struct cow_finding_row {
    char *rule, *severity, *title, *evidence, *recommendation; /* owned */
} cow_finding_row;
int store_load_findings(cow_store *st, int64_t run, cow_finding_row **rows,
                        size_t *n, cow_err *e);
void store_free_findings(cow_finding_row *rows, size_t n);

/* All runs with their counts, ordered by label. */
int store_list_runs(cow_store *st, cow_run_row **rows, size_t *n, cow_err *e);
void store_free_runs(cow_run_row *rows, size_t n);

/* The version of the SQLite library in use ("3.40.1"; static storage). */
const char *store_sqlite_version(void);

#endif
