/* pct.h -- quantiles, their distribution-free intervals, tail exceedance.
 *
 *     cow_pct_summary s;
 *     qsort(lat_ms, n, sizeof(double), cmp);        caller sorts once
 *     if (pct_summary(lat_ms, n, COW_PCT_LINEAR, &s, e)) return e->code;
 *     s.v[COW_P999], s.thin[COW_P999]                p99.9 and "too few samples"
 *     pct_quantile_ci(lat_ms, n, 0.999, 0.95, &ci, e);   ci.has_hi == 0: no upper bound
 *     pct_exceed(phase, np, base_p99, 0.95, &x, e);   how many beyond baseline p99
 *
 * Every function reads an array sorted ascending that holds only finite
 * values. pct_summary() and pct_check_sorted() verify that in O(n); the
 * others trust it (they read O(1) or O(log n) elements) and their results
 * are meaningless otherwise. Nothing here allocates, prints or keeps state.
 * Empty input is never an error: results are NaN with n == 0.
 * Errors are COW_EUSAGE (a caller bug: NaN, unsorted, q outside [0,1]). */
#ifndef COW_ANALYSIS_PCT_H
#define COW_ANALYSIS_PCT_H

#include <stddef.h>

#include "err.h"

/* Quantile definitions (Hyndman & Fan 1996 numbering). */
enum cow_pct_method {
    COW_PCT_LINEAR = 0,  /* type 7, numpy's default "linear" */
    COW_PCT_NEAREST = 1  /* type 1, nearest rank, numpy "inverted_cdf" */
};

/* The quantiles of a summary, in order; index into cow_pct_summary.v. */
enum cow_pct_level {
    COW_P50 = 0, /* median */
    COW_P90,     /* 0.9 */
    COW_P99,     /* 0.99 */
    COW_P999,    /* 0.999 */
    COW_P9999,   /* 0.9999 */
    COW_PCT_NLEVELS
};

/* A quantile is "thin" when fewer than this many samples are expected
 * beyond it: n * (1 - q) < COW_PCT_THIN_TAIL. p99.9 of 705 samples is
 * then an interpolation between the two largest values. */
#define COW_PCT_THIN_TAIL 10.0

typedef struct cow_pct_summary {
    size_t n;                     /* number of values */
    int method;                   /* enum cow_pct_method used for v[] */
    double mean;                  /* arithmetic mean; NaN when n == 0 */
    double min;                   /* smallest value; NaN when n == 0 */
    double max;                   /* largest value; NaN when n == 0 */
    double v[COW_PCT_NLEVELS];    /* quantile at pct_level(i); NaN if n == 0 */
    int thin[COW_PCT_NLEVELS];    /* 1 when n * (1 - q) < COW_PCT_THIN_TAIL */
} cow_pct_summary;

/* Two-sided distribution-free interval for one quantile from binomial
 * order statistics (see pct.c, Requirement 6). Ranks are 1-based. */
typedef struct cow_qci {
    double q;          /* quantile level asked for, 0 < q < 1 */
    double conf;       /* confidence asked for, e.g. 0.95 */
    size_t n;          /* number of values */
    double est;        /* type-7 point estimate; NaN when n == 0 */
    int has_lo;        /* 1 when a finite lower bound exists */
    int has_hi;        /* 1 when a finite upper bound exists */
    size_t lo_rank;    /* l: lower bound is the l-th smallest; 0 if none */
    size_t hi_rank;    /* u: upper bound is the u-th smallest; 0 if none */
    double lo;         /* value of rank l; -INFINITY when has_lo == 0 */
    double hi;         /* value of rank u; +INFINITY when has_hi == 0 */
    double coverage;   /* exact P(l <= B < u), B ~ Binomial(n, q); an absent
                          bound counts as rank 0 (lo) or n + 1 (hi) */
    double max_conf;   /* P(B <= n-1) = 1 - q^n: the confidence with which
                          the largest value lies above the true quantile;
                          when has_hi == 0 this says how far from enough */
    size_t n_needed;   /* smallest n giving both finite bounds at this q
                          and conf (not limited by the data) */
    int thin;          /* 1 when n_eff * (1 - q) < COW_PCT_THIN_TAIL */
    double n_eff;      /* effective samples the ranks were computed for
                          (n unless pct_quantile_ci_m was given fewer) */
} cow_qci;

/* Tail exceedance: how many values are above a threshold, with an exact
 * (Clopper-Pearson) interval for the proportion. */
typedef struct cow_exceed {
    double threshold;  /* the threshold (e.g. baseline p99) */
    size_t n;          /* number of values */
    size_t count;      /* values strictly greater than threshold */
    double p;          /* count / n; NaN when n == 0 */
    double conf;       /* confidence of [lo, hi] */
    double lo;         /* lower bound of the proportion (0 when count == 0) */
    double hi;         /* upper bound of the proportion (1 when count == n) */
} cow_exceed;

/* Grid (quantisation) of the values: e.g. redis-cli reports whole
 * milliseconds, so every value is a multiple of 1 ms. */
typedef struct cow_grid {
    double step;       /* largest step every value is a whole multiple of
                          (within 1e-6 of a step): a round 1/2/5 x 10^e, or
                          the smallest gap (0.25); 0 when none fits */
    size_t distinct;   /* number of distinct values */
    int coarse;        /* 1 when step >= 1% of the median magnitude: ties
                          are common and interpolated quantiles fall
                          between values that cannot occur */
} cow_grid;

/* Quantile level of summary slot i (0.5, 0.9, 0.99, 0.999, 0.9999). */
double pct_level(int i);

/* Label of slot i: "p50", "p90", "p99", "p99.9", "p99.99". */
const char *pct_level_name(int i);

/* Quantile q of sorted[0..n-1] by method, computed exactly as numpy 1.24
 * does (same index arithmetic, same two-sided lerp), so results match
 * numpy bit for bit. Returns NaN when n == 0, q is NaN or outside [0,1],
 * or method is unknown. Does not check the array. */
double pct_quantile(const double *sorted, size_t n, double q, int method);

/* numpy's lerp, a + g (b - a) computed from the nearer end so that it is
 * exact at g = 0 and g = 1 and monotone in g. Shared with boot.c so that
 * a replicate interpolates exactly as the point estimate does. */
double pct_lerp(double a, double b, double g);

/* Verify sorted[] is ascending and finite. COW_EUSAGE names the first
 * offending index. */
int pct_check_sorted(const double *sorted, size_t n, cow_err *e);

/* Fill out for sorted[0..n-1] (checked with pct_check_sorted). n == 0
 * gives n = 0, NaN values and all thin flags set, and returns 0. */
int pct_summary(const double *sorted, size_t n, int method,
                cow_pct_summary *out, cow_err *e);

/* Distribution-free two-sided interval for quantile q (0 < q < 1) at
 * confidence conf (0 < conf < 1). Bounds that cannot be finite with n
 * values are reported as has_lo / has_hi == 0 (n == 0: neither). */
int pct_quantile_ci(const double *sorted, size_t n, double q, double conf,
                    cow_qci *out, cow_err *e);

/* The ranks (1-based, among n values) of pct_quantile_ci()'s bounds, for
 * data held as counts rather than values (an HdrHistogram table). 1 when
 * both are finite; a bound that cannot be is 0. */
int pct_ci_ranks(size_t n, double q, double conf, size_t *lo_rank, size_t *hi_rank);

/* The same for serially dependent samples carrying n_eff (<= n)
 * effective ones: the equal-tail ranks of n_eff samples, placed at the
 * same relative positions among the n (rank r of n_eff -> r (n+1) /
 * (n_eff+1), outward). Bounds, max_conf and thin follow n_eff; n_eff >= n
 * is pct_quantile_ci. */
int pct_quantile_ci_m(const double *sorted, size_t n, double n_eff, double q,
                      double conf, cow_qci *out, cow_err *e);

/* Smallest n for which pct_quantile_ci() at (q, conf) has both bounds
 * finite (equal tails: 1 - q^n >= 1 - (1-conf)/2 and
 * 1 - (1-q)^n >= 1 - (1-conf)/2). 0 for bad arguments. */
size_t pct_ci_min_n(double q, double conf);

/* Number of values > threshold in sorted[0..n-1] (binary search). */
size_t pct_count_above(const double *sorted, size_t n, double threshold);

/* Count values above threshold and give the Clopper-Pearson interval at
 * confidence conf for the proportion. threshold must not be NaN. */
int pct_exceed(const double *sorted, size_t n, double threshold, double conf,
               cow_exceed *out, cow_err *e);

/* Regularized incomplete beta I_x(a, b) for a, b > 0, 0 <= x <= 1.
 * NaN for bad arguments or if the continued fraction fails to converge. */
double pct_betainc(double x, double a, double b);

/* x with I_x(a, b) = p, by bisection to full double precision. */
double pct_betainc_inv(double p, double a, double b);

/* Find the grid sorted[0..n-1] sits on (checked with pct_check_sorted).
 * Fewer than two distinct values give step 0. */
int pct_grid(const double *sorted, size_t n, cow_grid *out, cow_err *e);

#endif
