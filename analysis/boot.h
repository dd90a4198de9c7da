/* boot.h -- bootstrap intervals for a quantile and for the difference
 * (and ratio) of one quantile between two groups, with a verdict.
 *
 *     cow_boot_result r;
 *     if (boot_quantile_delta(base, nb, phase, np, 0.999, 9999, seed, &r, e))
 *         return e->code;
 *     printf("%+.3f [%.3f, %.3f] %s\n", r.delta, r.delta_lo, r.delta_hi,
 *            boot_verdict_symbol(r.verdict));        lift / ~ / drop
 *
 * Inputs are sorted ascending and finite (see pct.h; only the two ends are
 * checked here, so that a replicate stays O(1)). The quantile is type 7.
 * Intervals are percentile-method at COW_BOOT_CONF. One (seed, resamples)
 * gives bit-identical results (rng.h). Functions allocate only scratch
 * they free themselves; results are plain structs owned by the caller.
 * BCa is not implemented. */
#ifndef COW_ANALYSIS_BOOT_H
#define COW_ANALYSIS_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "rng.h"

#define COW_BOOT_CONF 0.95           /* two-sided confidence of every interval */
#define COW_BOOT_RESAMPLES 9999      /* default R: (R+1) * 0.025 is whole */
#define COW_BOOT_MAX_RESAMPLES 10000000 /* more costs memory, buys nothing */

enum cow_verdict {
    COW_VERDICT_NA = 0, /* no data in a group: nothing to say */
    COW_VERDICT_FLAT,   /* interval of the delta holds 0 ("~") */
    COW_VERDICT_LIFT,   /* interval entirely above 0 */
    COW_VERDICT_DROP,   /* interval entirely below 0 */
    COW_VERDICT_UNSURE  /* "?": cannot tell with this many samples */
};

/* Bootstrap of one group's quantile. */
typedef struct cow_boot_ci {
    double q;          /* quantile level */
    size_t n;          /* number of values */
    int resamples;     /* R */
    double est;        /* type-7 quantile of the data; NaN when n == 0 */
    double lo;         /* percentile-method lower bound; NaN when n == 0 */
    double hi;         /* percentile-method upper bound; NaN when n == 0 */
    double mean;       /* mean of the R replicates */
    double sd;         /* standard deviation of the replicates (R - 1) */
    int thin;          /* n * (1 - q) < COW_PCT_THIN_TAIL (pct.h) */
} cow_boot_ci;

/* Phase (b) against baseline (a) at one quantile. */
typedef struct cow_boot_result {
    double q;          /* quantile level */
    int resamples;     /* R */
    uint64_t seed;     /* seed the replicates came from */
    double conf;       /* COW_BOOT_CONF */
    size_t na;         /* baseline values */
    size_t nb;         /* phase values */
    double est_a;      /* baseline quantile (type 7) */
    double est_b;      /* phase quantile (type 7) */
    double a_lo;       /* baseline quantile interval, lower (these four:
                          boot_quantile_delta only; NaN from _m, whose
                          callers take each group's interval from pct.h) */
    double a_hi;       /* baseline quantile interval, upper */
    double b_lo;       /* phase quantile interval, lower */
    double b_hi;       /* phase quantile interval, upper */
    double delta;      /* est_b - est_a */
    double delta_lo;   /* interval of est_b - est_a, lower */
    double delta_hi;   /* interval of est_b - est_a, upper */
    double ratio;      /* est_b / est_a; NaN unless est_a > 0 */
    double ratio_lo;   /* interval of the ratio; NaN unless every baseline
                          replicate is > 0 */
    double ratio_hi;   /* upper end of the ratio interval (same rule) */
    double neff_a;     /* effective samples the replicates of a used */
    double neff_b;     /* same for b */
    double shift;      /* s of the one-sided p-values */
    double p_up;       /* (1 + #{delta replicate <= s}) / (R + 1) */
    double p_down;     /* (1 + #{delta replicate >= s}) / (R + 1) */
    int verdict;       /* enum cow_verdict, from the delta interval */
    int thin;          /* 1 when either group is thin at q */
} cow_boot_result;

/* One replicate of the type-7 quantile q of a bootstrap resample of
 * sorted[0..n-1], drawn in O(1) from order-statistic distributions
 * (boot.c, Requirement 3). n >= 1, 0 <= q <= 1. */
double boot_draw_quantile(const double *sorted, size_t n, double q, cow_rng *r);

/* The same with the spread of m effective samples (1 <= m <= n, real):
 * the order statistic of m uniforms read through all n values. */
double boot_draw_quantile_m(const double *sorted, size_t n, double m, double q,
                            cow_rng *r);

/* The same quantity the plain way: draw n values with replacement, then
 * select. O(n) time and memory per replicate; the test oracle. */
double boot_draw_quantile_resample(const double *sorted, size_t n, double q,
                                   cow_rng *r, double *scratch /* n */);

/* Fill out[0..reps-1] with replicates: fast path when oracle == 0, plain
 * resampling otherwise (allocates n doubles of scratch). */
int boot_replicates(const double *sorted, size_t n, double q, cow_rng *r,
                    int oracle, double *out, size_t reps, cow_err *e);

/* Percentile interval of one group's quantile from `resamples` replicates
 * seeded by seed. n == 0 gives NaN fields and returns 0. */
int boot_quantile(const double *sorted, size_t n, double q, int resamples,
                  uint64_t seed, cow_boot_ci *out, cow_err *e);

/* Delta and ratio of quantile q, phase b against baseline a. The groups
 * draw from separate streams of seed (a: stream 1, b: stream 2), so a's
 * replicates do not depend on b. Either group empty gives verdict NA,
 * NaN fields, and returns 0. */
int boot_quantile_delta(const double *a_sorted, size_t na,
                        const double *b_sorted, size_t nb, double q,
                        int resamples, uint64_t seed, cow_boot_result *out,
                        cow_err *e);

/* boot_quantile_delta with ma, mb effective samples per group and the
 * one-sided p-values against delta = shift. */
int boot_quantile_delta_m(const double *a_sorted, size_t na, double ma,
                          const double *b_sorted, size_t nb, double mb,
                          double q, double shift, int resamples, uint64_t seed,
                          cow_boot_result *out, cow_err *e);

/* R replicates of one group's quantile q with m effective samples, from
 * stream 1 of seed (what boot_quantile_delta_m draws for a), for
 * boot_quantile_delta_ma: a baseline's, drawn once for every phase it is
 * compared with. */
void boot_group_replicates(const double *sorted, size_t n, double m, double q,
                           uint64_t seed, double *out, size_t reps);
/* boot_quantile_delta_m with a's R replicates given (a_reps, read only;
 * drawn with a's ma): only b's are drawn, from stream 2 of seed. */
int boot_quantile_delta_ma(const double *a_sorted, size_t na, double ma,
                           const double *a_reps, const double *b_sorted, size_t nb,
                           double mb, double q, double shift, int resamples,
                           uint64_t seed, cow_boot_result *out, cow_err *e);

/* boot_quantile_delta_m without replicates: the estimates, the ratio and
 * the effective sizes; every interval and p-value NaN. For a comparison
 * another rule decides (verdict.h's tail test), which would not read them. */
int boot_quantile_delta_est(const double *a_sorted, size_t na, double ma,
                            const double *b_sorted, size_t nb, double mb,
                            double q, double shift, int resamples, uint64_t seed,
                            cow_boot_result *out, cow_err *e);

/* Verdict from an interval of a delta: LIFT when lo > 0, DROP when
 * hi < 0, FLAT otherwise, NA when either end is NaN. */
int boot_verdict(double lo, double hi);

/* "lift", "flat", "drop", "n/a", "unsure" */
const char *boot_verdict_name(int v);
/* The verdict boot_verdict_name names (NULL or an unknown name: COW_VERDICT_NA). */
int boot_verdict_of(const char *name);

/* As shown in tables, benchstat style: "lift", "~", "drop", "n/a", "?" */
const char *boot_verdict_symbol(int v);

#endif
