/* report_chartbuild.h -- the report's per-run chart kinds built from plain
 * values, without the store: what each chart shows (a trailing rolling
 * quantile, the worst sample labelled, window against baseline with its
 * bounds, at most eight series a chart) is decided here, and
 * tests/unit/test_report_charts.c checks those decisions through the
 * layout. report_charts_run.c loads the values, report_chartout.c
 * writes the PNGs.
 *
 * Every builder returns a new chart (chart_free) or NULL with e set when
 * its input is not usable; times are seconds from t0 (the run's first
 * sample), latencies ms, memory MB. */
#ifndef COW_APP_REPORT_CHARTBUILD_H
#define COW_APP_REPORT_CHARTBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "chart_data.h"
#include "err.h"

/* Series a chart carries at most: the palette has eight colours that stay
 * apart for the common colour-vision deficiencies (Okabe-Ito), so a ninth
 * line would repeat one. */
#define RC_MAX_SERIES 8

/* A fork, save or sync window of a run. */
typedef struct rc_window {
    double t0_s, t1_s;   /* the window */
    const char *label;   /* e.g. "BGSAVE" */
    double fork_s;       /* the fork's instant, NaN when none */
    double fork_ms;      /* how long the fork call took (INFO latest_fork_usec),
                            NaN when unknown */
} rc_window;

/* The trailing span of the timeline's rolling quantile: the shortest of
 * 0.25, 0.5, 1, 2, 5, 10, 30, 60 s that holds RC_TRAIL_SAMPLES samples at
 * the run's mean rate, at most a fifth of the run (then the longest that
 * fits). n samples over dur_us. */
#define RC_TRAIL_SAMPLES 200
int64_t rc_trail_us(size_t n, int64_t dur_us);

/* Latency over time: min-max per pixel column (opaque, over the window
 * shading), the p99 of the trailing span (never ahead of the data), the
 * windows shaded, each fork marked with its duration as a band, and the
 * worst sample ringed and labelled with its value and send time.
 * t_us ascending, lat_us finite >= 0; ncol pixel columns. */
cow_chart *rc_timeline(const char *run, const int64_t *t_us, const double *lat_us, size_t n,
                       const rc_window *w, size_t nw, size_t ncol, int log_y, cow_err *e);

/* One phase's quantiles for the window-against-baseline chart. */
#define RC_NQ 4          /* p50, p90, p99, p99.9 */
extern const double rc_qs[RC_NQ];
typedef struct rc_phase_q {
    const char *label;   /* "baseline", "bgsave#1" */
    long n;              /* samples */
    double est[RC_NQ];   /* estimate, ms (NaN: none) */
    double lo[RC_NQ];    /* 95% bounds, ms; NaN where not finite: a lower */
    double hi[RC_NQ];    /* bound alone is drawn as a one-sided whisker */
} rc_phase_q;

/* Window against baseline at p50/p90/p99/p99.9 on a log scale: one point
 * series per phase (the baseline first), whiskers from the bounds. At most
 * RC_MAX_SERIES phases (the rest are said in the note). */
cow_chart *rc_window_chart(const char *run, const rc_phase_q *ph, size_t nph, const char *note,
                           cow_err *e);

/* The fork child's copy-on-write over the run, bytes at t_us: INFO
 * current_cow_size polls, or the child's smaps_rollup Private_Dirty. */
typedef struct rc_cow_series {
    const char *what;    /* "INFO current_cow_size", "child Private_Dirty" */
    const int64_t *t_us;
    const double *bytes;
    size_t n;
} rc_cow_series;

/* Memory over the run: the series (what, from file) in MB, the child's
 * copy-on-write beside it (cow: NULL or n 0 for none; its peak in the
 * legend), the save windows shaded and forks marked. */
cow_chart *rc_memory(const char *run, const char *what, const char *file,
                     const int64_t *t_us, const double *bytes, size_t n,
                     const rc_cow_series *cow, int64_t t0_us, const rc_window *w,
                     size_t nw, cow_err *e);
/* "RSS", "PSS", "cgroup memory.current"... for a mem series' what. */
const char *rc_mem_name(const char *what);

/* One replica sync attempt, seconds from its attach (NaN: step not seen). */
typedef struct rc_sync {
    char who[96];        /* "replica #2 (port 6381) attempt 1" */
    char how[96];        /* "full, diskless: up" */
    double resync_s, recv_s, recv_end_s, flush_s, load_s, up_s, lost_s;
} rc_sync;

/* Replica syncs: per attempt a bar of attach -> wait -> transfer -> flush
 * -> load, ending at link up (or lost). */
cow_chart *rc_replsync(const char *run, const rc_sync *v, size_t n, cow_err *e);

/* One reported percentile line of the spectrum. */
typedef struct rc_line {
    char *name;          /* run, op and source (freed by who fills the array) */
    const double *q;     /* levels in [0, 1) */
    const double *ms;    /* values */
    size_t n;
} rc_line;

/* The spectrum of reported percentiles, RC_MAX_SERIES lines a chart:
 * *out gets ceil(n / 8) charts (caller frees each and the array). */
size_t rc_spectrum(const rc_line *v, size_t n, cow_chart ***out);

#endif
