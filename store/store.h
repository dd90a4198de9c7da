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
#include "cmdhist_row.h"
#include "kstat.h"
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
    int synthetic;        /* run.json "synthetic": 1 true, 0 false or absent,
                             -1 no run.json (the stored value stays) */
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
    char *ingested_on;    /* owned: the machine that ingested it (not its
                             host), NULL if unknown */
    int synthetic;        /* 1: run.json says a generator made it (migration 023) */
} cow_run_row;

/* How long a writer waits for another one to finish (a real ingest of
 * millions of rows takes minutes) before giving up with "database is
 * locked"; a reader never waits for a writer (WAL). */
#define COW_STORE_BUSY_MS (10 * 60 * 1000)

/* Told once per wait, after the first second (or half the timeout), that
 * the database is locked by another process and this one is waiting for
 * it; holder names that process ("pid 1234 (cowtail ingest)") or is ""
 * when it cannot be told. */
typedef void (*cow_store_wait_fn)(void *ctx, const char *path, const char *holder,
                                  int timeout_ms);

int store_open(const char *path, cow_store **out, cow_err *e);
/* store_open, with wait (may be NULL) called when a lock makes it wait,
 * and a writer waiting up to timeout_ms for another (0: COW_STORE_BUSY_MS). */
int store_open_wait(const char *path, cow_store_wait_fn wait, void *ctx,
                    int timeout_ms, cow_store **out, cow_err *e);
/* store_open_wait for a command that only reads: when the database's
 * file system is full (SQLite cannot create the 32 KiB -shm file a WAL
 * reader needs), it opens again holding the database exclusively with
 * the WAL index in memory, creating no file. Analysis results and
 * findings then go to copies of their tables in memory (analyze and
 * doctor work, nothing is kept: store_is_full says so); any other write
 * fails with "the file system of DB is full". */
int store_open_read(const char *path, cow_store_wait_fn wait, void *ctx,
                    int timeout_ms, cow_store **out, cow_err *e);
int store_is_full(const cow_store *st);
/* The process holding a lock on database `path` that blocks a writer:
 * "pid 1234 (cowtail ingest)", "pid 1234 (sqlite3)" (its /proc comm, and
 * a cowtail's command), or "pid 1234" when /proc does not say. Returns 0
 * and "" when no other process holds one (store_lock.c). */
int store_lock_holder(const char *path, char *out, size_t cap);
/* "10 minutes", "1.5 s": a lock timeout as the messages show it. */
void store_timeout_text(int timeout_ms, char *out, size_t cap);
/* NULL is a no-op. */
void store_close(cow_store *st);
/* Another connection to st's database file, for a worker thread that
 * only reads (WAL: it never waits for the writer, and sees what was
 * committed when its read began). COW_EUSAGE for a database that lives in
 * memory (":memory:"), which no other connection can see. */
int store_open_reader(cow_store *st, cow_store **out, cow_err *e);
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

/* Samples, many at once (multi-row inserts). On failure the rows of the
 * failed statement before the bad one stay in the transaction, which the
 * caller must roll back (ingest rolls back the file): the statements are
 * INSERT OR FAIL, so SQLite keeps no statement journal (a copy of every
 * page a statement touches, 8% of the writer's CPU), which only undoing
 * one statement of a transaction that goes on would need. */
int store_add_samples(cow_store *st, int64_t run, int64_t file,
                      const cow_sample *s, size_t n, cow_err *e);
/* n INFO records (what store_add_rec does for each, in order, in fewer
 * statements; a failure leaves the transaction as store_add_samples's
 * does). */
int store_add_infos(cow_store *st, int64_t run, int64_t file, const cow_info *v,
                    size_t n, cow_err *e);
/* Any other record kind; COW_REC_NOTE and COW_REC_SAMPLE are refused
 * (notes go to store_file_end, samples to store_add_samples). */
int store_add_rec(cow_store *st, int64_t run, int64_t file, const cow_rec *r,
                  cow_err *e);

/* ------------------------------------------------------------ analysis */

/* Which reading of a sample with an intended send the loads below give
 * (migration 022): as ingest stored it (the default), from the actual
 * send, or from the intended send. A sample without one reads the same in
 * all three. Set per connection; store_open_reader's copy inherits it. */
enum cow_latency_from { COW_FROM_STORED = 0, COW_FROM_SENT, COW_FROM_INTENDED };
void store_set_latency_from(cow_store *st, int from);
int store_latency_from(const cow_store *st);
/* A run's samples in time order: t_us[] and lat_us[] (caller frees both). */
int store_load_samples(cow_store *st, int64_t run, int64_t **t_us,
                       double **lat_us, size_t *n, cow_err *e);

/* Count and time span of a run's samples (0s when none). */
/* A whole-run percentile of a percentile-only source (redis-benchmark,
 * memtier, HdrHistogram): rows of the pctl table without a time. */
typedef struct cow_pctl_row {
    char source[24];     /* "redis-benchmark", "memtier", "hdr" */
    char *file;          /* the file it came from (path as ingested; owned:
                            store_free_pctl) */
    long line;           /* its line */
    char op[64];         /* command or "Totals", "" when the source has none */
    double q;            /* percent, e.g. 99.9 */
    double value_us;     /* latency at q */
    int64_t count;       /* samples behind it (at or below value_us for an
                            HdrHistogram table), 0 if the tool does not say */
} cow_pctl_row;
/* The run's whole-run percentiles, by file, op and q (caller frees *rows
 * with store_free_pctl). */
int store_load_pctl(cow_store *st, int64_t run, cow_pctl_row **rows, size_t *n,
                    cow_err *e);
/* Free n rows of store_load_pctl and their files; NULL is a no-op. */
void store_free_pctl(cow_pctl_row *rows, size_t n);
/* The run's per-interval percentile at q (memtier's per-second series,
 * HdrHistogram interval logs) for one op: "Totals" when present, else the
 * first op; *op names it (>= 64 bytes). Caller frees *t_us and *value_us. */
int store_load_pctl_series(cow_store *st, int64_t run, double q, char *op,
                           int64_t **t_us, double **value_us, size_t *n, cow_err *e);
/* The first and last send time of run's samples (min and max on the
 * clustered key, no scan): *any = 0 when there are none. */
int store_sample_bounds(cow_store *st, int64_t run, int *any, int64_t *t_first_us,
                        int64_t *t_last_us, cow_err *e);
/* Latencies of a run's samples in [t0_us, t1_us), in time order (caller
 * frees *lat); reads only that range of the (run, t_us) key. */
int store_load_latencies(cow_store *st, int64_t run, int64_t t0_us, int64_t t1_us,
                         double **lat, size_t *n, cow_err *e);
/* The same with each sample's send time in *t (caller frees both). */
int store_load_range(cow_store *st, int64_t run, int64_t t0_us, int64_t t1_us,
                     double **lat, int64_t **t, size_t *n, cow_err *e);

/* A run's events in time order. Strings live in the returned set; free it
 * with store_free_events. */
typedef struct cow_event_set {
    cow_event *v;        /* events (kind, unit, text point into pool) */
    size_t n;
    char **pool;         /* owned strings */
    size_t npool;
} cow_event_set;
int store_load_events(cow_store *st, int64_t run, cow_event_set *out, cow_err *e);
/* The events of the run's primary (its logs' lines of its own pid and its
 * children's, and logs of no server); every event when the run has no
 * primary. *by_table 0 when the run's servers were never settled (a
 * database from before migration 009): then these are every event. */
int store_load_primary_events(cow_store *st, int64_t run, cow_event_set *out,
                              int *by_table, cow_err *e);
/* The events of server `server` (cow_server_row.seq) of the run: its logs'
 * lines of its own pid and its children's (a log of several servers is
 * split per pid), in time order. */
int store_load_server_events(cow_store *st, int64_t run, int server, cow_event_set *out,
                             cow_err *e);
void store_free_events(cow_event_set *s);

/* Numeric series of one INFO key (no sub-field) in time order: polls with
 * a time only, of the primary (as store_load_primary_events). Caller
 * frees both arrays. */
int store_load_info_series(cow_store *st, int64_t run, const char *key,
                           int64_t **t_us, double **num, size_t *n, cow_err *e);

/* A kernel value of the fork child's own snapshots (smaps_rollup
 * Private_Dirty: the copy-on-write), in time order: files of the child by
 * name or folder, as store_fact_stat_max with child 1. Caller frees both. */
int store_load_child_stat_series(cow_store *st, int64_t run, const char *source,
                                 const char *key, int64_t **t_us, double **num,
                                 size_t *n, cow_err *e);

/* Results of one analysis of one run; store_analysis_begin deletes the
 * run's previous results (call inside a transaction). */
int store_analysis_begin(cow_store *st, int64_t run, uint64_t seed,
                         int resamples, const char *method, cow_err *e);
/* Remove run's stored analysis (analyses, phases, quantiles, deltas,
 * exceedance): what ingest does when a file lands in the run, so that a
 * result computed from other input is never reused. */
int store_analysis_drop(cow_store *st, int64_t run, cow_err *e);

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
    const char *unstable; /* a window: how the baseline around it moved
                            (analysis/runstats.h cow_drift), NULL: it
                            did not, or not known */
} cow_phase_row;
int store_put_phase(cow_store *st, int64_t run, const cow_phase_row *p, cow_err *e);

typedef struct cow_quantile_row {
    int phase;           /* phases.idx */
    double q;            /* level */
    double value_us;     /* NaN when n == 0 */
    double lo_us, hi_us; /* NaN when that bound is not finite */
    int64_t n_needed;    /* n for both bounds */
    int thin;            /* flag (n_eff (1 - q) < 10) */
    double n_eff;        /* effective samples at q (analysis/dep.h) */
} cow_quantile_row;
int store_put_quantile(cow_store *st, int64_t run, const cow_quantile_row *q,
                       cow_err *e);

typedef struct cow_delta_row {
    int phase, base;     /* phases.idx of the phase and its baseline */
    double q;            /* level */
    double base_us, value_us, delta_us, lo_us, hi_us; /* bootstrap */
    double ratio, ratio_lo, ratio_hi; /* NaN when undefined */
    const char *verdict; /* lift / flat / drop / unsure / n/a */
    int thin;            /* either side thin: decided by the tail test */
    double n_eff_base, n_eff_phase; /* effective samples at q */
    const char *method;  /* bootstrap / tail-test (NULL: older analysis) */
    double p_up, p_down; /* one-sided p-values of delta > 0 / < 0 */
    double test_level;   /* tail test: pooled level counted beyond; NaN */
    const char *why;     /* ?: the reason when one is known, or NULL */
    int local_base;      /* 1: against the baseline on both sides of the
                            window (it moved: runstats.h Requirement 7) */
} cow_delta_row;
int store_put_delta(cow_store *st, int64_t run, const cow_delta_row *d,
                    cow_err *e);

typedef struct cow_exceed_row {
    int phase;           /* phases.idx */
    double base_q;       /* 0.99 or 0.999 */
    double threshold_us; /* the baseline quantile */
    int64_t n, count;    /* samples, and those above the threshold */
    double p, lo, hi;    /* proportion and its exact interval */
    int64_t clusters;    /* clusters of those samples (analysis/dep.h) */
    double p_more;       /* tail test p-value: more beyond than the baseline */
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
/* The first poll of an INFO field at or after from_us and before
 * until_us (the value an event's own poll read). */
int store_fact_info_at(cow_store *st, int64_t run, const char *key, int64_t from_us,
                       int64_t until_us, cow_fact *f, cow_err *e);
/* Largest numeric sub-field sub of INFO keys starting with key_prefix
 * (e.g. "slave", "lag": the worst replica lag). */
int store_fact_info_sub_max(cow_store *st, int64_t run, const char *key_prefix,
                            const char *sub, cow_fact *f, cow_err *e);
/* Kernel-side value: the largest over snapshots of the server process
 * (snapshots whose own file name says "child", or that sit in the child's
 * own folder -- child/, child-N/ -- are the fork child's and are skipped
 * unless child is 1, then only they count; a word further up the path is
 * not the child's). */
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
/* LATENCY DOCTOR's own advice on huge pages ("I detected a non zero
 * amount of anonymous huge pages"): known 1, text the line that says it,
 * src its file:line; known 0 when no DOCTOR text of the run says it. */
int store_fact_latmon_thp(cow_store *st, int64_t run, cow_fact *f, cow_err *e);
/* The LATENCY HISTORY `fork` row nearest to t_us (within 2 s: the monitor
 * stamps whole seconds): num in us, src its file:line; known 0 when none. */
int store_fact_latmon_fork_near(cow_store *st, int64_t run, int64_t t_us, cow_fact *f,
                                cow_err *e);
/* How much a counter of stats source/key rose over the run's snapshots
 * (largest minus smallest: /proc/vmstat thp_split_pmd during a save): num,
 * src the largest's file:line; known 0 with fewer than two snapshots. */
int store_fact_stat_rise(cow_store *st, int64_t run, const char *source, const char *key,
                         cow_fact *f, cow_err *e);
/* Every LATENCY HISTORY `fork` sample of run with a time, in time order
 * (t_us, lat_ms); caller frees both arrays. */
int store_load_latmon_fork(cow_store *st, int64_t run, int64_t **t_us, double **ms,
                           size_t *n, cow_err *e);
/* The largest latency LATENCY LATEST or HISTORY recorded for any event:
 * num in ms, text "command (LATENCY LATEST)", src file:line; known 0 when
 * none. */
int store_fact_latmon_spike(cow_store *st, int64_t run, cow_fact *f, cow_err *e);
/* The longest command (event "command" or "fast-command") the latency
 * monitor recorded in [t0_us, t1_us] (a stamp up to a second before t0_us
 * counts: its stamps are whole seconds): num its ms, text the event, src
 * file:line, *t_us its stamp; known 0 when none. */
int store_fact_latmon_cmd(cow_store *st, int64_t run, int64_t t0_us, int64_t t1_us,
                          cow_fact *f, int64_t *t_us, cow_err *e);
int store_fact_latmon(cow_store *st, int64_t run, const char *what, cow_fact *f,
                      cow_err *e);
/* Memory series of a run, in time order (caller frees both): the
 * preferred one when there are several (cgroup memory.current, then a
 * usage, then RSS, then the rest, e.g. PSS). */
int store_load_mem(cow_store *st, int64_t run, int64_t **t_us, double **bytes,
                   size_t *n, cow_err *e);
/* The kernel's account of run's main thread and fork children (capture's
 * kstat.csv), in time order, main before child at one time; *path the
 * file of the first (caller frees both, also after a failure: NULL). */
int store_load_kstat(cow_store *st, int64_t run, cow_kstat_row **rows, size_t *n,
                     char **path, cow_err *e);
/* The run's LATENCY HISTOGRAM rows (stats source "latency-histogram"), by
 * file, each file's in its order; freed with store_free_cmdhist (also
 * after a failure). */
int store_load_cmdhist(cow_store *st, int64_t run, cow_cmdhist_row **rows, size_t *n,
                       cow_err *e);
void store_free_cmdhist(cow_cmdhist_row *rows, size_t n);
/* What that series is ("rss_bytes", "memory_current"...) and the file it
 * came from, whole: both "" when the run has none. The caller frees *what
 * and *path, also after a failure (then both are NULL). */
int store_mem_source(cow_store *st, int64_t run, char **what, char **path, cow_err *e);
/* Intervals of a run whose op is (or is not, when op is NULL) "throughput":
 * t_us, dur_s, count, max_us arrays (caller frees all four). */
/* One period a probe reported of itself (migration 021, rec.h cow_quiet). */
typedef struct cow_quiet_row {
    int gap;             /* 0: a stall (the server answered nothing while
                            requests waited), 1: a gap (slots not sent) */
    int64_t t_us;        /* start, epoch us */
    int64_t dur_us;      /* length */
    int64_t n;           /* stall: requests waiting; gap: slots */
    char how[8];         /* stall: reply / end; gap: late / buffer / cap */
} cow_quiet_row;
/* Run's stalls and gaps in time order into *v (caller frees; NULL and 0
 * when none). */
int store_load_quiet(cow_store *st, int64_t run, cow_quiet_row **v, size_t *n, cow_err *e);
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
/* The phase of rs whose idx is idx, or NULL. */
const cow_phase_row *store_result_phase(const cow_result_set *rs, int idx);
/* The quantile q of phase (an idx) in rs, or NULL. */
const cow_quantile_row *store_result_quantile(const cow_result_set *rs, int phase, double q);
/* *analysed = 1 when run has a stored analysis (store_load_results would
 * say analysed), without loading it. */
int store_analysed(cow_store *st, int64_t run, int *analysed, cow_err *e);
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
/* The same rows in the same order without the counts (files, samples,
 * rejected, events, sample span: 0) and phases (NULL): store_list_runs
 * counts every run's samples, a pass over all of them. */
int store_list_runs_brief(cow_store *st, cow_run_row **rows, size_t *n, cow_err *e);
void store_free_runs(cow_run_row *rows, size_t n);

/* ------------------------------------------------------------- clocks */

/* A pair of a log stamp and a UTC source naming the same instant. */
typedef struct cow_clock_pair {
    double d_s;          /* the log's stamp read as UTC minus the UTC instant, s */
    double tol_s;        /* how far from the zone grid it may fall */
    char what[300];      /* which pair, with file:line */
} cow_clock_pair;

/* How a log's clock was settled (table clocks). */
typedef struct cow_clock_row {
    int64_t file;
    char *path;          /* the log's path (owned: store_free_clocks) */
    char decided[16];    /* given, inferred, assumed, mismatch, zoned (the
                            log's own zoned stamps settled it) */
    int has_off;
    long off_s;          /* local time minus UTC */
    char evidence[400];
} cow_clock_row;

/* Pairs for log `file` of `run`, best first: INFO rdb_last_save_time vs
 * the save's end line, server start (server_time_usec - uptime) vs the
 * startup line, signal-handler stamps (caller frees *v). */
int store_clock_pairs(cow_store *st, int64_t run, int64_t file, cow_clock_pair **v,
                      size_t *n, cow_err *e);
/* Stamps of the log's window start and end events, in time order. */
int store_window_starts(cow_store *st, int64_t file, int64_t **t, size_t *n,
                        cow_err *e);
/* Move a log's local-time events to UTC: t_us -= off_us (signal-handler
 * lines, already UTC, stay). */
int store_clock_shift(cow_store *st, int64_t file, int64_t off_us, cow_err *e);
int store_clock_set(cow_store *st, int64_t run, int64_t file, const char *decided,
                    int has_off, long off_s, const char *evidence, cow_err *e);
/* The run's settled clocks, by path (caller frees with store_free_clocks). */
int store_clock_list(cow_store *st, int64_t run, cow_clock_row **v, size_t *n,
                     cow_err *e);
void store_free_clocks(cow_clock_row *v, size_t n);
/* The run's server logs whose clock is not settled yet, or (all_but_given)
 * not settled by a zone given (caller frees). */
int store_clock_pending(cow_store *st, int64_t run, int all_but_given,
                        int64_t **files, size_t *n, cow_err *e);

/* One file's time span outside the samples table. */
typedef struct cow_file_span {
    int64_t file;
    char *path;           /* as stored (owned: store_free_spans) */
    char parser[32];
    int64_t t0_us, t1_us; /* first and last stamp */
    int64_t n;            /* timed rows */
} cow_file_span;

/* The run's files with timed rows in events, info, stats, mem, latmon or
 * intervals, by path, with their spans (pctl, unindexed and large for
 * per-second percentile series, is not read); a server log whose clock
 * was found not to match its samples (clocks 'mismatch') is left out: it
 * is reported as such (caller frees *v). */
int store_file_spans(cow_store *st, int64_t run, cow_file_span **v, size_t *n,
                     cow_err *e);
void store_free_spans(cow_file_span *v, size_t n);
/* The files holding the run's first and last sample ("" when none). */
int store_sample_files(cow_store *st, int64_t run, char *first, char *last,
                       size_t cap, cow_err *e);

/* ------------------------------------------------------ what runs hold */

typedef struct cow_kind_count {
    char kind[48];       /* event kind */
    int64_t count;
} cow_kind_count;

typedef struct cow_run_extras {
    cow_kind_count *kinds;  /* events per kind, by kind */
    size_t nkinds;
    int64_t info_dumps;     /* INFO dumps */
    int64_t smaps_snapshots; /* smaps / smaps_rollup snapshots */
} cow_run_extras;

int store_run_extras(cow_store *st, int64_t run, cow_run_extras *x, cow_err *e);
void store_free_extras(cow_run_extras *x);

/* ------------------------------------------------------------ rejects */

typedef struct cow_reject_row {
    const char *label;   /* run */
    const char *path;    /* file */
    int64_t line;        /* 0 when unknown */
    const char *reason;
    const char *excerpt; /* the line's start, NULL for a refused file */
    int refused;         /* 1: the file was refused whole */
    const char *code;    /* a whole file's: its refusal code ("unrecognised":
                            no parser recognised it, refused 0); NULL for a
                            rejected line */
} cow_reject_row;

/* Called per row (strings valid during the call); non-zero stops. */
typedef int (*cow_reject_cb)(void *ctx, const cow_reject_row *r);

/* Every rejected line and refused file, of run `label` and file `file`
 * (a path or a base name) when not NULL, by run, file and line. */
int store_list_rejects(cow_store *st, const char *label, const char *file,
                       cow_reject_cb cb, void *ctx, cow_err *e);
/* A file that did not land whole: refused, not recognised (code
 * "unrecognised"), landed with rejected lines (code NULL), or a log that
 * landed on a guessed year (code "year": its lines carry none, and the
 * file's modification time gave it; reason the note, from its year on). */
typedef struct cow_input_row {
    const char *label;   /* run */
    const char *path;    /* file */
    const char *code;    /* refusal code (parse, unit, clock, limit, empty,
                            unreadable, changed, unrecognised, ...), NULL
                            for a file with rejected lines */
    const char *reason;  /* the refusal's, or the first rejected line's */
    int64_t line;        /* where (0: unknown) */
    int64_t rejected;    /* rejected lines (code NULL) */
    int64_t rows;        /* records that landed (code NULL) */
} cow_input_row;
typedef int (*cow_input_cb)(void *ctx, const cow_input_row *r);
/* Every such file recorded (refusals) or ingested (rejected lines) at or
 * after since_s (epoch seconds; 0: all), by run and path. */
int store_list_inputs(cow_store *st, int64_t since_s, cow_input_cb cb, void *ctx,
                      cow_err *e);

/* The file landed: an earlier refusal of it no longer holds. */
int store_clear_refusal(cow_store *st, const char *label, const char *path, cow_err *e);

/* --------------------------------------------------- files of a run */

/* The file of run `run` named `name` (its path below the run's folder, or
 * its path): its id and SHA-256; *found 0 when there is none. */
int store_file_named(cow_store *st, int64_t run, const char *name, int64_t *id,
                     char sha[65], int *found, cow_err *e);
/* Path of another file (not `self`) of the run with the same SHA-256 and
 * at least min_size bytes, into path; "" when there is none. *replaced 1
 * when those are the bytes another file held before --replace replaced
 * them (a copy of superseded data). */
int store_file_copy(cow_store *st, int64_t run, int64_t self, const char *sha,
                    int64_t min_size, char *path, size_t cap, int *replaced, cow_err *e);
/* *has = 1 when run holds samples (any file's). Asked before a file's
 * samples land, it tells whether store_sample_copy can find anything. */
int store_run_has_samples(cow_store *st, int64_t run, int *has, cow_err *e);
/* The other file of the run whose samples match most of file self's,
 * row for row (same time, latency and op): its path in *path (caller
 * frees; NULL when none), how many of self's samples it matches in
 * *same. A CRLF or re-encoded copy matches them all. */
int store_sample_copy(cow_store *st, int64_t run, int64_t self, char **path,
                      int64_t *same, cow_err *e);
/* Keep the digest of a file --replace is about to remove (see
 * store_file_copy). */
int store_file_replaced(cow_store *st, int64_t file, cow_err *e);
/* *zoned = 1 when the server log `file` carried its own zone (its parser
 * noted "settled by the zoned stamps": RFC 3339 line prefixes), so its
 * times are UTC already and no zone is to be given, inferred or assumed. */
int store_file_zoned(cow_store *st, int64_t file, int *zoned, cow_err *e);
/* The notes of the run's first file (by path) whose notes hold `key`
 * (e.g. "intended send"): *notes owned by the caller, NULL when none. */
int store_file_note(cow_store *st, int64_t run, const char *key, char **notes,
                    cow_err *e);
/* Remove a file and every row that came from it (--replace). */
int store_file_delete(cow_store *st, int64_t file, cow_err *e);

/* The host of the run labelled `label` (*host owned by the caller, ""
 * when unknown, whole however long); *found 0 when there is no such run. */
int store_run_owner(cow_store *st, const char *label, char **host, int *found, cow_err *e);
/* The label of run `run` (*label owned by the caller; NULL when there is
 * no such run). */
int store_run_label(cow_store *st, int64_t run, char **label, cow_err *e);
/* The version of the SQLite library in use ("3.40.1"; static storage). */
const char *store_sqlite_version(void);

/* ------------------------------------------------------------ servers
 * (migration 009): which server each server-side file came from, settled
 * at ingest (app/servers.c) from what the files say. */

/* A file of a run, for attribution. */
typedef struct cow_srv_file {
    int64_t file;        /* files(id) */
    char *path;          /* as stored (owned: store_free_srv_files) */
    char parser[40];
    int proc_stats;      /* holds per-process kernel values (smaps, status) */
} cow_srv_file;

enum cow_srv_obs_kind { COW_OBS_INFO, COW_OBS_CONFIG, COW_OBS_LOG };

/* What one file says about a server: an INFO identity (one per distinct
 * run_id / process_id / tcp_port / role in the file), a CONFIG port, or a
 * process that wrote lines into a log (procs). */
typedef struct cow_srv_obs {
    int64_t file;
    int kind;            /* enum cow_srv_obs_kind */
    char run_id[48];     /* INFO run_id, "" */
    char role[16];       /* INFO role as written (master, slave), "" */
    char roles[8];       /* log: role letters of its lines (M, S, C, X) */
    int64_t pid;         /* INFO process_id or the log pid, 0 */
    int64_t parent;      /* log: the pid that forked it, 0 */
    int64_t port;        /* tcp_port, CONFIG port, log banner port, 0 */
    int replica;         /* log: replica-side lines */
    int server;          /* log: a startup line */
    char version[32];    /* redis_version / valkey_version / the log's */
    int64_t dumps;       /* INFO: dumps with this identity */
} cow_srv_obs;

/* The run's files and what they say (caller frees *f with
 * store_free_srv_files and *o with free). */
int store_server_inputs(cow_store *st, int64_t run, cow_srv_file **f, size_t *nf,
                        cow_srv_obs **o, size_t *no, cow_err *e);
void store_free_srv_files(cow_srv_file *f, size_t n);

/* A server of a run. */
typedef struct cow_server_row {
    int seq;             /* 1, 2, ... (primary first) */
    char role[16];       /* primary, replica */
    int64_t pid;         /* process id, 0 when unknown */
    int64_t port;        /* tcp_port, 0 when unknown */
    char version[32];    /* redis_version / valkey_version, or the log's */
    char run_id[48];     /* INFO run_id, "" when no INFO of it */
    char how[200];       /* what told it apart */
    int64_t files;       /* files of it (read back only) */
} cow_server_row;

/* A file (or, for a log, one pid's lines of it) of server `server`. */
typedef struct cow_server_link {
    int64_t file;
    int server;          /* cow_server_row.seq */
    int64_t pid;         /* a log's process, 0: the whole file */
    const char *how;     /* content, name, run.json, only server (static) */
} cow_server_link;

/* Replace the run's servers and links (inside the caller's transaction or
 * its own). */
int store_put_servers(cow_store *st, int64_t run, const cow_server_row *v, size_t n,
                      const cow_server_link *l, size_t nl, cow_err *e);
/* The run's servers, primary first (caller frees *v). */
int store_run_servers(cow_store *st, int64_t run, cow_server_row **v, size_t *n,
                      cow_err *e);
/* Files of the run's servers: *paths (below the run's folder; caller
 * frees each and the array) parallel to *server (seq), *n entries, in
 * file order. */
int store_server_files(cow_store *st, int64_t run, char ***paths, int **server,
                       size_t *n, cow_err *e);

#endif
