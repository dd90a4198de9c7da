/* runstats.h -- everything `cowtail analyze` says about one run: per-phase
 * quantiles with distribution-free intervals, and each window against the
 * baseline (bootstrap delta, ratio, verdict, tail exceedance).
 *
 *     cow_runstats rs;
 *     runstats_compute(&phases, &opts, load, ctx, &rs, e);  load(ctx, t0, t1, ...)
 *                                                           gives one phase's samples
 *     rs.ph[i].sum.v[COW_P999], rs.ph[i].ci[COW_P999].has_hi,
 *     rs.ph[i].delta[COW_P99].verdict, rs.ph[i].ex999.count ...
 *     runstats_release(&rs);
 *
 * Samples come one phase at a time through a loader, so a 10,000,000-sample
 * run never holds more than the phase being computed and the baseline.
 * Pure: the loader is the caller's; the seed comes in with the options, so
 * results are bit-identical. */
#ifndef COW_ANALYSIS_RUNSTATS_H
#define COW_ANALYSIS_RUNSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "boot.h"
#include "dep.h"
#include "err.h"
#include "pct.h"
#include "phase.h"
#include "verdict.h"

/* Quantiles compared against the baseline: p50, p90, p99, p99.9. */
#define COW_DELTA_LEVELS 4

typedef struct cow_runstats_opts {
    int method;          /* enum cow_pct_method */
    int resamples;       /* bootstrap R */
    uint64_t seed;       /* bootstrap seed */
    int phases_only;     /* 1: the run and each phase get n, mean, min and
                            max only (quantiles and n_eff NaN, nothing
                            compared): the phases a judgement reads */
} cow_runstats_opts;

typedef struct cow_phase_stats {
    cow_pct_summary sum;            /* n, mean, min, max, quantiles */
    cow_clusters dep[COW_PCT_NLEVELS]; /* dependence per level: dep[l].n_eff */
    cow_qci ci[COW_PCT_NLEVELS];    /* distribution-free interval per level,
                                       ranks of n_eff samples (pct.h) */
    cow_grid grid;                  /* quantisation of the values */
    int has_delta;                  /* compared against a baseline */
    int base;                       /* index of that baseline phase */
    cow_qcmp delta[COW_DELTA_LEVELS]; /* p50, p90, p99, p99.9 (verdict.h) */
    cow_exceed ex99;                /* beyond the baseline p99 */
    cow_exceed ex999;               /* beyond the baseline p99.9 */
    cow_tailtest ex99_test;         /* more beyond than the baseline has? */
    cow_tailtest ex999_test;        /* same at p99.9 (dep.h) */
} cow_phase_stats;

typedef struct cow_runstats {
    cow_phase_stats *ph;            /* one per phase, same order */
    size_t n;                       /* phases */
    cow_phase_stats all;            /* the whole run (no delta) */
} cow_runstats;

/* Fill *v (caller frees, any order) with the latencies of samples in
 * [t0_us, t1_us); t0_us = INT64_MIN, t1_us = INT64_MAX for the whole run. */
typedef int (*cow_sample_loader)(void *ctx, int64_t t0_us, int64_t t1_us,
                                 double **v, size_t *n, cow_err *e);

int runstats_compute(const cow_phases *phases, const cow_runstats_opts *o,
                     cow_sample_loader load, void *ctx, cow_runstats *out,
                     cow_err *e);

/* A loader over arrays in time order (tests, small callers). */
typedef struct cow_array_samples {
    const int64_t *t_us;  /* time-ordered stamps */
    const double *lat_us; /* latencies */
    size_t n;             /* samples */
} cow_array_samples;
int runstats_array_loader(void *ctx, int64_t t0_us, int64_t t1_us, double **v,
                          size_t *n, cow_err *e);
void runstats_release(cow_runstats *rs);

/* First index of time-ordered t[0..n) with t >= key (n when none). */
size_t runstats_lower_bound(const int64_t *t, size_t n, int64_t key);
/* Samples of [t0, t1) as a sorted copy (caller frees); *m = count. Used
 * by runstats and by cross-run comparisons. */
double *runstats_slice_sorted(const int64_t *t_us, const double *lat_us,
                              size_t n, int64_t t0, int64_t t1, size_t *m);
/* Sort doubles ascending in place. */
void runstats_sort(double *v, size_t n);

#endif
