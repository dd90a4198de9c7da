/* tradeoff.h -- fork vs forkless (or any two modes): per-trial metrics,
 * their spread over trials, and the ratio between modes.
 *
 *     cow_trial t[n];                 one per run, filled by the caller
 *     cow_tradeoff out;
 *     tradeoff_compute(t, n, seed, &out, e);
 *     out.g[k].mode, out.g[k].m[COW_TM_COW_MB].mean / .lo / .hi / .min / .max
 *     out.ratio[COW_TM_SAVE_S]        (second mode / first), with interval
 *
 * Pure. Groups are formed by mode (run.json "mode"), in order of first
 * appearance; the ratio compares the group named "forkless" with "fork"
 * when both exist, else the second group with the first. */
#ifndef COW_ANALYSIS_TRADEOFF_H
#define COW_ANALYSIS_TRADEOFF_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum cow_trade_metric {
    COW_TM_COW_MB = 0,   /* rdb_last_cow_size, MB */
    COW_TM_MEM_MB,       /* memory series growth during the save, MB */
    COW_TM_MEM_RUN_MB,   /* ... over the whole run, MB */
    COW_TM_SAVE_S,       /* save wall time from log stamps, s */
    COW_TM_TPUT_SAVE,    /* writer throughput during the save, ops/s */
    COW_TM_TPUT,         /* writer throughput over the capture, ops/s */
    COW_TM_WORST_SAVE_MS,/* worst round trip during the save, ms */
    COW_TM_N_SAVE,       /* round trips sampled during the save */
    COW_TM_WORST_MS,     /* worst round trip over the capture, ms */
    COW_TM_N_RUN,        /* round trips sampled over the capture */
    COW_TM_FORK_MS,      /* latest_fork_usec, ms */
    COW_TM_COUNT
};

#define COW_TRADE_MAX_GROUPS 8

typedef struct cow_trial {
    const char *label;   /* run label */
    const char *mode;    /* "fork" / "forkless" / other, NULL = "unknown" */
    double v[COW_TM_COUNT]; /* metric values, NaN when unknown */
} cow_trial;

typedef struct cow_trade_stat {
    size_t n;            /* trials with a value */
    double mean, min, max; /* NaN when n == 0 */
    double sd;           /* sample standard deviation, NaN when n < 2 */
    double lo, hi;       /* 95% t-interval of the mean, NaN when n < 2 */
} cow_trade_stat;

typedef struct cow_trade_group {
    char mode[32];       /* group name */
    size_t ntrials;      /* runs in the group */
    cow_trade_stat m[COW_TM_COUNT]; /* per metric */
} cow_trade_group;

typedef struct cow_trade_ratio {
    double ratio;        /* mean(b) / mean(a); NaN when undefined */
    double lo, hi;       /* 95% Welch t-interval of the log ratio over
                            trials (tradeoff.c Requirement 2); [0, 0] when
                            every b is 0; NaN when a mean is not > 0
                            otherwise or a group has < 2 trials */
} cow_trade_ratio;

typedef struct cow_tradeoff {
    cow_trade_group g[COW_TRADE_MAX_GROUPS]; /* groups */
    size_t ngroups;
    int a, b;            /* groups compared by ratio (-1 when < 2 groups) */
    cow_trade_ratio ratio[COW_TM_COUNT]; /* b / a per metric */
} cow_tradeoff;

const char *tradeoff_metric_name(int m);  /* "cow_mb", ... */
const char *tradeoff_metric_label(int m); /* "COW (MB)", ... */
int tradeoff_compute(const cow_trial *t, size_t n, uint64_t seed,
                     cow_tradeoff *out, cow_err *e);
/* Ratio of the means of b[0..nb) over a[0..na) with its interval. */
void tradeoff_ratio(const double *a, size_t na, const double *b, size_t nb,
                    cow_trade_ratio *out);
/* Two-sided 97.5% Student t quantile for df degrees of freedom. */
double tradeoff_t975(size_t df);

#endif
