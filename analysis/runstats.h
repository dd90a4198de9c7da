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
    const cow_qcmp_margin *margin; /* materiality (verdict.h; NULL: the
                            defaults): equivalence, and a baseline that
                            moved (Requirement 7) */
} cow_runstats_opts;

/* A baseline that is not stationary (Requirement 7): the stretch before a
 * window against the quiet stretch after it, and the first half of the
 * stretch before against its second half. */
enum cow_drift_what {
    COW_DRIFT_NONE = 0,  /* nothing compared (no samples on a side) */
    COW_DRIFT_HALVES,    /* the baseline's first half against its second */
    COW_DRIFT_AFTER      /* the baseline before the window against after it */
};

/* Levels the baseline's stability is judged at in analyze. */
#define COW_DRIFT_NLEVELS 2
/* Most levels one drift assessment holds. */
#define COW_DRIFT_MAXQ 4

typedef struct cow_drift {
    int assessed;        /* 1 when at least one comparison was made */
    int moved;           /* 1 when one said lift or drop (2.5% each side) */
    int unstable;        /* 1 when one of those moved by more than the
                            materiality margin: the finding */
    double rel;          /* moved: the largest significant move, as a
                            share of the larger of its two values (0
                            when none) */
    size_t nq;           /* levels assessed (at most COW_DRIFT_MAXQ) */
    double at[COW_DRIFT_MAXQ];     /* each level */
    double rel_at[COW_DRIFT_MAXQ]; /* the largest significant move there,
                                      relative (0: none) */
    int what;            /* enum cow_drift_what of the move shown (the
                            largest against its margin) */
    double q;            /* its level */
    double a_us, b_us;   /* the earlier and the later stretch's value */
    double margin_us;    /* the materiality it was held against */
    double p;            /* two-sided p of "no change" (verdict.h) */
    int aftermath;       /* Requirement 7d: the quiet phase after the window
                            read as the event's aftermath and not used as a
                            baseline (runstats_window_drift) */
    double aft_q;        /* aftermath: the level it was read at, and the */
    double aft_b_us, aft_w_us, aft_f_us; /* baseline's, window's and after
                                            phase's values there */
} cow_drift;

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
    cow_drift drift;                /* windows: is the baseline around it
                                       stationary (Requirement 7) */
    double moved[COW_PCT_NLEVELS];  /* per level, the baseline's largest
                                       movement around a window this
                                       phase belongs to (a window, its
                                       baseline, the quiet phase after
                                       it), relative; ci[] is widened by
                                       it (Requirement 7b); 0: none */
    int local_base;                 /* 1: compared with the local baseline
                                       on both sides (runstats_local_base),
                                       the baseline having moved */
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
/* The group of the time-ordered time[0..n) with a sorted copy in *sorted
 * (the caller's to free; never NULL). */
cow_group runstats_group(const double *time, size_t n, double **sorted);

/* Requirement 7: is the baseline stationary around a window? before:
 * the baseline before it (time order and sorted), after: the quiet phase
 * after it (NULL: none). At each of the nq levels qs, the first half of
 * before against its second half, and before against after, by
 * verdict.h (dependence-aware, 2.5% each side): lift or drop is a move
 * (moved, rel); a move beyond max(m->rel x the earlier value, m->abs_us)
 * (NULL: verdict.h's defaults) makes the baseline unstable. */
int runstats_drift(const cow_group *before, const cow_group *after, const double *qs,
                   size_t nq, const cow_qcmp_margin *m, const cow_qcmp_opts *o,
                   cow_drift *out, cow_err *e);
/* Requirement 7d: runstats_drift for the window between before and
 * after, the after phase left out (out->aftermath 1) when it is the
 * event's aftermath: at the level where the window moved most (p50 or
 * p99, on the log scale), the window stands beyond both sides and the
 * after phase lies nearer the baseline than the window (a step that
 * decays, not a ramp that goes on). */
int runstats_window_drift(const cow_group *before, const cow_group *window,
                          const cow_group *after, const double *qs, size_t nq,
                          const cow_qcmp_margin *m, const cow_qcmp_opts *o, cow_drift *out,
                          cow_err *e);
/* The local baseline on both sides of a window: the last k samples of
 * before and the first k of after, k the smaller count, in time order
 * (*t) and sorted (*s), both the caller's to free. With no after, before. */
cow_group runstats_local_base(const cow_group *before, const cow_group *after, double **t,
                              double **s);
/* The baseline's own movement D at q (Requirement 7c): the largest
 * significant move at the assessed level nearest q on the log (1 - q)
 * scale (a median that moved says nothing of the tail); 0 when none. */
double runstats_drift_rel(const cow_drift *d, double q);
/* "p50 0.200 ms before the window, 0.260 ms after it (+30%)" */
void runstats_drift_text(const cow_drift *d, char *buf, size_t n);
/* The comparison analyze and check make of a window at q against the
 * shift: with the baseline before it (when d's halves moved and there is
 * no after side, or it is the aftermath, a lift beyond shift + D and a
 * drop below shift - D only, D from the halves); when d says the baseline is
 * unstable and there is an after side, with the local baseline on both
 * sides (each side's dependence read on its own series), a lift only
 * beyond shift + D and a drop only below shift - D, D =
 * runstats_drift_rel(d, q) x the local baseline's value at q, else ? with why
 * COW_QCMP_WHY_DRIFT (*local set to 1). When it only moved (Requirement
 * 7a), the verdict against the baseline before must be confirmed by the
 * local baseline beyond D; p_up and p_down are the larger of the two. */
int runstats_compare_window(const cow_group *before, const cow_group *window,
                            const cow_group *after, const cow_drift *d, double q,
                            double shift, const cow_qcmp_opts *o,
                            const cow_qcmp_margin *m, cow_qcmp *out, int *local,
                            cow_err *e);

#endif
