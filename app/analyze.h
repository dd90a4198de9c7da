/* analyze.h -- analyse one run: cut it into phases, compute each phase's
 * quantiles with intervals and the deltas against the baseline, and store
 * the results (phases, quantiles, deltas, exceedance) in one transaction. */
#ifndef COW_APP_ANALYZE_H
#define COW_APP_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "phase.h"
#include "replsync.h"
#include "reported.h"
#include "runstats.h"
#include "store.h"

/* One run's analysis, as stored. */
typedef struct app_analysis {
    cow_phases ph;       /* the phases */
    cow_runstats rs;     /* their statistics */
    size_t n;            /* latency samples in the run */
    int64_t t_first_us;  /* first sample (0 without samples) */
    int64_t t_last_us;   /* last sample (0 without samples) */
    app_reported rep;    /* percentiles percentile-only tools reported */
    app_replsyncs repl;  /* the replicas' sync attempts (not stored) */
    cow_quiet_row *quiet; /* the probe's stalls and gaps, as ingested */
    size_t nquiet;
} app_analysis;

/* Analyse run r with options o and store the results; out (released with
 * app_analysis_release, also on error) receives them. */
int app_analyze(cow_store *st, const cow_run_row *r, const cow_runstats_opts *o,
                app_analysis *out, cow_err *e);
/* The same choosing how samples are assigned to windows: in flight (0,
 * the default: phase_keep_in_flight, by completion time) or by send time alone (1). A run
 * whose server log's clock does not match its samples (see
 * app_settle_clocks) is refused with COW_ECLOCK. */
int app_analyze_assign(cow_store *st, const cow_run_row *r, const cow_runstats_opts *o,
                       int by_send, app_analysis *a, cow_err *e);
void app_analysis_release(app_analysis *a);
/* The two halves of app_analyze_assign. app_analyze_compute only reads
 * (any connection: a worker's, see run_pool.h); app_analysis_store
 * replaces r's stored results by a's in one transaction. */
int app_analyze_compute(cow_store *rd, const cow_run_row *r, const cow_runstats_opts *o,
                        int by_send, app_analysis *a, cow_err *e);

/* A run's samples in memory, as store_load_samples gives them (send
 * time order), borrowed. */
typedef struct app_run_samples {
    const int64_t *t_us;
    const double *lat_us;
    size_t n;
} app_run_samples;
/* app_analyze_compute reading the run's samples from all (the whole run,
 * already loaded) instead of the store, phase by phase: the same result,
 * with the run read once. NULL all: from the store. */
int app_analyze_compute_from(cow_store *rd, const cow_run_row *r,
                             const cow_runstats_opts *o, int by_send,
                             const app_run_samples *all, app_analysis *a, cow_err *e);

/* The phases a judgement of run r reads (check.h), in rs (released with
 * store_free_results): when it has samples (all: the whole run), its
 * phases made now as a default analysis makes them (in-flight assignment)
 * with each one's n, mean, min and max (runstats phases_only), whatever
 * analysis is stored (an `analyze --assign send` or another seed must not
 * change a verdict), not stored, rs->analysed 0. A run whose log clock
 * does not match its samples gets no phases (analyze leaves it
 * unanalysed). */
int app_judged_phases(cow_store *rd, const cow_run_row *r, const app_run_samples *all,
                      cow_result_set *rs, cow_err *e);
/* Run r's phases as analyze makes them (the windows a judgement reads),
 * from the events, INFO polls and the samples' span alone (nothing
 * analysed or stored), in *ph (released with phase_release): none when
 * it has no samples, a log clock that does not match its samples, or
 * windows analyze refuses (more than COW_MAX_WINDOWS): analyze leaves
 * such a run unanalysed. */
int app_run_windows(cow_store *rd, const cow_run_row *r, cow_phases *ph, cow_err *e);
int app_analysis_store(cow_store *st, const cow_run_row *r, const cow_runstats_opts *o,
                       const app_analysis *a, cow_err *e);


/* Analyse every run of rows[0..n) that has samples (only_new: and no
 * stored analysis yet; ingest drops a run's analysis when a file lands in
 * it, so a stored one was made from the run's present input) on jobs
 * worker threads (0: one per core), and store each result through st in
 * run order. The database is the same for every jobs. A run whose log
 * clock does not match its samples (COW_ECLOCK) is left unanalysed; any
 * other failure stops at the first run (in run order) that fails. */
int app_analyze_runs(cow_store *st, const cow_run_row *rows, size_t n, int only_new,
                     const cow_runstats_opts *o, int jobs, cow_err *e);

/* Told of run r in run order, on the calling thread: rc COW_OK and a its
 * results (already stored), or the failure (rc, we; a NULL). Returning
 * other than COW_OK (with e set) stops at r. */
typedef int (*app_analysis_fn)(const cow_run_row *r, const app_analysis *a, int rc,
                               const cow_err *we, void *ctx, cow_err *e);
/* app_analyze_runs for every run, with or without samples, assigning by
 * send time when by_send, each result given to each (which decides what
 * a failure does) after it is stored. */
int app_analyze_each(cow_store *st, const cow_run_row *rows, size_t n, int only_new,
                     const cow_runstats_opts *o, int by_send, int jobs,
                     app_analysis_fn each, void *ctx, cow_err *e);

/* "linear" or "nearest". */
const char *app_method_name(int method);

/* What a run holds about each fork's duration and its replicas' link-ups
 * (phase.h's cow_phase_input: fork_polls, fork_hist, replica_up):
 * latest_fork_usec polls, LATENCY HISTORY fork samples, repl_done lines. */
typedef struct app_fork_obs {
    cow_fork_obs *polls, *hist;
    size_t npolls, nhist;
    int64_t *up;
    size_t nup;
} app_fork_obs;
int app_fork_obs_load(cow_store *st, int64_t run, app_fork_obs *o, cow_err *e);
void app_fork_obs_into(const app_fork_obs *o, cow_phase_input *in);
void app_fork_obs_release(app_fork_obs *o);

#endif
