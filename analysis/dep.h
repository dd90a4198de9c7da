/* dep.h -- serial dependence of time-ordered latency samples: clusters of
 * exceedances, the extremal index, effective sample sizes, and an exact
 * distribution-free test of two groups' tails (top k of the pooled
 * sample, the count's variance inflated by the clusters).
 *
 *     cow_clusters c;
 *     dep_n_eff(x_time, sorted, n, 0.99, &c);      c.n_eff, c.tau, c.theta
 *     cow_tailtest t;
 *     dep_tail_test(&a, &b, 0.999, 0.0, &t);       t.p_up, t.p_down
 *
 * Model (dep.c explains the choices): the exceedances of a threshold form
 * clusters (one stall or one slow stretch of a connection gives a run of
 * slow samples). Clusters, not samples, are the independent units. The
 * clusters are found with the intervals estimator of the extremal index
 * (Ferro & Segers 2003); the count of exceedances then has variance
 * tau = sum(size^2) / sum(size) times its independent value. Every
 * level also reads the long-run variance of the indicator 1{x <= the
 * level's value} (flat-top kernel, Politis-White bandwidth, a check of
 * the lowest frequencies for slow oscillations): n_eff = n / lrv below
 * p99, n / max(tau, lrv) from p99 (dep.c Requirement 5). A period in
 * the exceedances, and stalls locked to the probe, are found too
 * (Requirement 6). Pure: no allocation visible to the caller, no I/O. */
#ifndef COW_ANALYSIS_DEP_H
#define COW_ANALYSIS_DEP_H

#include <stddef.h>

/* A tail's dependence is read from at least this many exceedances: for a
 * quantile q with n (1 - q) below it the threshold is lowered to the
 * value with this many samples above it. */
#define COW_DEP_MIN_EXCEED 20

/* The tail test uses at least this many pooled exceedances (top k of the
 * pooled sample, k = max(N (1 - q), COW_TAIL_MIN_K)). */
#define COW_TAIL_MIN_K 20
/* ... and also with k = max(N (1 - q), this), Bonferroni over the two. */
#define COW_TAIL_SMALL_K 5
/* Each one-sided count is tested at this level (two-sided 5%). */
#define COW_TAIL_ALPHA 0.025
/* A count's k is moved within [k / this, k * this] (nominal k from
 * COW_TAIL_MIN_K to COW_TAIL_MATCH_MAX) to the k whose exact test's
 * attainable size comes nearest its level (dep.c Requirement 4d). */
#define COW_TAIL_MATCH 1.25
#define COW_TAIL_MATCH_MAX 200

/* Below this many pooled exceedances the tail test cannot see clusters
 * (dep.c Requirement 4f): the counts' variance inflation tau is taken as
 * at least the baseline's dependence at the lower levels. */
#define COW_TAIL_TAU_MIN_K 60

/* theta is taken as 1 (no clusters) unless below 1 - this / sqrt(gaps):
 * the 1% point of the estimate for independent samples. */
#define COW_DEP_THETA_Z 2.3

/* Run lengths are also estimated at levels with 4, 16, ... times the
 * exceedances (dep.c Requirement 1b). */
#define COW_DEP_LEVEL_STEP 4
#define COW_DEP_LEVELS 3

/* A gap is "short" when independent exceedances leave one that short with
 * this probability; too many short gaps (tail below COW_DEP_SHORT_P) mean
 * clusters (dep.c Requirement 1c). */
#define COW_DEP_SHORT 0.2
#define COW_DEP_SHORT_P 0.01

typedef struct cow_clusters {
    size_t n;          /* samples */
    double threshold;  /* exceedance means x > threshold */
    double level;      /* quantile level of the threshold actually used */
    size_t k;          /* exceedances */
    size_t clusters;   /* clusters of exceedances */
    double theta;      /* extremal index estimate in (0, 1]; 1 when k < 2 */
    double run;        /* gaps longer than this separate clusters */
    double tau;        /* sum(size^2) / sum(size) >= 1; 1 when k == 0 */
    double n_eff;      /* dep_n_eff: n / lrv below COW_DEP_BULK, n /
                          max(tau, lrv) from there; dep_clusters: n / tau */
    /* dep_n_eff only (dep_clusters leaves lrv 1, the rest 0): */
    double lrv;        /* variance inflation of the indicator 1{x <= the
                          level's value} (dep.c Requirement 5): long-run
                          over lag-0 variance, >= 1 */
    size_t lrv_lags;   /* lags the flat-top kernel weighed (0: none) */
    int slow;          /* the lowest frequencies carry more variance than
                          the kernel saw: a slow oscillation or drift */
    double period;     /* exceedances recur every this many samples
                          (Requirement 6); 0 when no period was seen */
    int locked;        /* that period is a whole number of samples every
                          time: stalls locked to the probe, the level's
                          value depends on where they fall (no interval) */
} cow_clusters;

/* Levels below this take n_eff from the indicator's long-run variance
 * alone (dep.c Requirement 5). */
#define COW_DEP_BULK 0.99
/* A tail level with fewer exceedances than this also reads the indicator
 * at the lower levels of COW_DEP_LEVEL_STEP (dep.c Requirement 5e). */
#define COW_DEP_LRV_LOWER 1000

/* Indicator long-run variance (dep.c Requirement 5): lags whose
 * autocorrelation stays below COW_LRV_C sqrt(log10 n / n) for COW_LRV_KN
 * lags in a row end the kernel; at most COW_LRV_MAX_LAG lags. */
#define COW_LRV_C 1.4
#define COW_LRV_KN 5
#define COW_LRV_MAX_LAG 2000
/* dep_lrv lists the rarer value of 1{x <= thr} when it is at most
 * n / COW_LRV_LISTED of the samples (dep.c Requirement 5f). */
#define COW_LRV_LISTED 8
/* The slow-oscillation check reads this many of the lowest cosine
 * frequencies and fires at this level (Requirement 5c). */
#define COW_LRV_LOWFREQ 16
/* ... on at most this many blocks of samples (Requirement 5c) */
#define COW_LRV_BLOCKS 65536
#define COW_LRV_SLOW_P 0.01

typedef struct cow_lrv {
    size_t n;          /* samples */
    double p;          /* share at or below the threshold */
    size_t m;          /* last lag with a correlation (Politis-White m) */
    size_t lags;       /* M = 2 m: the flat-top kernel's width */
    double kernel;     /* flat-top estimate / lag-0 variance */
    double df;         /* its equivalent degrees of freedom */
    double lowfreq;    /* the COW_LRV_LOWFREQ lowest cosine frequencies'
                          estimate / lag-0 variance */
    int slow;          /* lowfreq beyond what kernel allows (1%) */
    double ratio;      /* inflation used: max(1, the estimate) times the
                          small-sample factor (Requirement 5b) */
} cow_lrv;

/* Long-run variance of 1{x[i] <= thr} over x[0..n-1] (time order). */
void dep_lrv(const double *x, size_t n, double thr, cow_lrv *out);

/* dep_lrv with every lag's pairs counted over all n, not from the
 * positions of the rarer value (dep.c Requirement 5f): the same result. */
void dep_lrv_direct(const double *x, size_t n, double thr, cow_lrv *out);

/* A period in the exceedances of thr by x (Requirement 6): *period in
 * samples (0: none), *locked as in cow_clusters. run as dep_clusters. */
void dep_period(const double *x, size_t n, double thr, double run,
                double *period, int *locked);

/* Exceedances of threshold in x[0..n-1] (time order), declustered with
 * gaps > run separating clusters (run < 0: estimate it from these data). */
void dep_clusters(const double *x, size_t n, double threshold, double run,
                  cow_clusters *out);

/* Dependence of quantile q: the threshold is the type-7 quantile of
 * sorted (the same values sorted) at min(q, 1 - COW_DEP_MIN_EXCEED / n). */
void dep_n_eff(const double *x_time, const double *sorted, size_t n, double q,
               cow_clusters *out);

/* One group of samples: time order and sorted copies of the same values. */
typedef struct cow_group {
    const double *time;    /* time order */
    const double *sorted;  /* ascending */
    size_t n;
} cow_group;

typedef struct cow_tailtest {
    double q;          /* level asked for */
    double shift;      /* b's values are taken minus this (0: equality) */
    size_t k;          /* pooled samples above the threshold */
    double threshold;  /* the (k+1)-th largest pooled value */
    double level;      /* 1 - k / N: the pooled quantile tested */
    size_t ka, kb;     /* exceedances in a and in b */
    size_t ca, cb;     /* clusters of them */
    double run;        /* declustering run length, from both groups */
    double tau;        /* variance inflation of the counts: sum(s^2)/sum(s) */
    double lrv_low;    /* the baseline's dependence at the lower levels
                          (the indicator's long-run variance, the largest;
                          1 when not read): Requirement 4f */
    int tau_floor;     /* tau was raised to lrv_low: too few exceedances
                          to see clusters (Requirement 4f) */
    double pi;         /* n_b / N: b's share of clusters when nothing changed */
    double p_up;       /* P(X >= kb / tau), X ~ Binomial(k / tau, pi): small = b's tail heavier */
    double p_down;     /* P(X <= kb / tau): small = b's tail lighter */
    int tests;         /* counts taken (1 or 2; p-values Bonferroni over
                          them); the fields above are of the smaller p */
    double size;       /* attainable false lift + drop rate of the count(s)
                          with i.i.d. samples (<= 2 COW_TAIL_ALPHA) */
} cow_tailtest;

/* The counts a tail test takes for groups of na and nb samples at q: a
 * function of the sizes only (never of the data), so a caller that tests
 * many shifts (verdict.c's bound) plans once. */
typedef struct cow_tailplan {
    double q;
    size_t na, nb;
    size_t k_up[2];    /* pooled top counts for "b heavier", one per test */
    size_t k_down[2];  /* ... for "b lighter" */
    int tests;         /* 1 or 2 (Bonferroni) */
    double size;       /* as cow_tailtest.size */
} cow_tailplan;

void dep_tail_plan(size_t na, size_t nb, double q, cow_tailplan *out);

/* dep_tail_test with a plan made for these groups' sizes. */
void dep_tail_test_plan(const cow_group *a, const cow_group *b,
                        const cow_tailplan *plan, double shift,
                        cow_tailtest *out);

/* Exact conditional test that b's tail beyond the pooled top k is no
 * heavier (p_up) / no lighter (p_down) than a's, counting clusters.
 * Either group empty gives p = 1. */
void dep_tail_test(const cow_group *a, const cow_group *b, double q,
                   double shift, cow_tailtest *out);

/* P(X >= x) for X ~ Binomial(n, p). */
double dep_binom_sf(size_t x, size_t n, double p);

#endif
