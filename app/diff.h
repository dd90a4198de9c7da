/* diff.h -- compare runs with a base run: each run's samples inside its
 * fork/save/sync windows (the whole run when it has none, or on request)
 * against all samples of the base, at p50, p90, p99 and p99.9 with
 * bootstrap intervals, and the difference of the maxima. */
#ifndef COW_APP_DIFF_H
#define COW_APP_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "boot.h"
#include "verdict.h"
#include "err.h"
#include "quant.h"
#include "reported.h"
#include "store.h"

#define APP_DIFF_LEVELS 4

/* The levels compared: 0.5, 0.9, 0.99, 0.999. */
extern const double app_diff_levels[APP_DIFF_LEVELS];

/* The q-quantile of sorted v[0..m): its type-7 estimate, its 95%
 * distribution-free bounds (those the m samples allow), n = m. */
cow_quant app_honest_quantile(const double *v, size_t m, double q);
/* The same with the bounds for n_eff effective samples (dep.h; NaN, <= 0
 * or > m: m), as analyze judges a quantile thin. */
cow_quant app_quant_sorted(const double *v, size_t m, double n_eff, double q);

/* Latencies of run r: inside its windows (analysing it first when it
 * never was; a sample inside two overlapping windows counts once), or all
 * of them when whole is set or it has no window. *t in time order and *v
 * sorted (caller frees both; t may be NULL when not wanted), *m values,
 * *windows windows pooled (0: whole run). */
int app_run_values(cow_store *st, const cow_run_row *r, int whole, double **t,
                   double **v, size_t *m, int *windows, cow_err *e);

/* What every compared run is measured against. */
typedef struct app_diff_base {
    const char *label;   /* base run */
    double *v;           /* its sorted latencies (owned) */
    double *t;           /* the same in time order (owned) */
    size_t n;
    int resamples;       /* bootstrap R */
    uint64_t seed;       /* bootstrap seed (level l uses seed + l) */
    int method;          /* enum cow_pct_method of the deltas (set after load) */
    app_reported rep;    /* its tools' reported percentiles (owned) */
} app_diff_base;

/* Levels compared from reported percentiles: p50, p90, p99, p99.9, max. */
#define APP_DIFF_REPORTED 5
extern const double app_diff_reported_q[APP_DIFF_REPORTED];

/* One run against the base. */
typedef struct app_diff_row {
    const char *run;                        /* label (borrowed) */
    size_t n;                               /* its values */
    int windows;                            /* windows pooled, 0 = whole run */
    cow_qcmp d[APP_DIFF_LEVELS];            /* per level (verdict.h) */
    cow_quant base_q[APP_DIFF_LEVELS];      /* the base's quantiles (n_eff
                                               from d[].dep_a) */
    cow_quant run_q[APP_DIFF_LEVELS];       /* the run's (n_eff: d[].dep_b) */
    int has_max;                            /* both have samples */
    double base_max_us, run_max_us;         /* the maxima (no interval) */
    /* When either run has no samples: the percentiles their tools reported,
     * compared as plain differences (no bootstrap from percentiles). */
    int reported;                           /* any level compared */
    int rep_has[APP_DIFF_REPORTED];         /* both report that level */
    cow_pctl_row rep_base[APP_DIFF_REPORTED], rep_run[APP_DIFF_REPORTED];
    int64_t rep_base_n[APP_DIFF_REPORTED], rep_run_n[APP_DIFF_REPORTED]; /* requests */
    /* Where both are HdrHistogram tables (counts at every row): an interval
     * of the difference from the two 95% rank intervals (run's lower minus
     * base's upper, run's upper minus base's lower: conservative), and a
     * verdict from it (enum cow_verdict). */
    int rep_ci[APP_DIFF_REPORTED];
    double rep_lo_us[APP_DIFF_REPORTED], rep_hi_us[APP_DIFF_REPORTED];
    int rep_verdict[APP_DIFF_REPORTED];
} app_diff_row;

/* Load the base run's values (whole run); method: the quantile
 * definition of the point estimates (enum cow_pct_method). */
int app_diff_base_load(cow_store *st, const cow_run_row *base, int resamples,
                       uint64_t seed, app_diff_base *b, cow_err *e);
void app_diff_base_release(app_diff_base *b);

/* Compare run r (its windows, or whole) with the base. */
int app_diff_run(cow_store *st, const app_diff_base *b, const cow_run_row *r, int whole,
                 app_diff_row *out, cow_err *e);

#endif
