/* reported.h -- the percentiles that percentile-only tools print
 * (redis-benchmark, memtier, HdrHistogram tables): a run's whole-run
 * figures as the tool reported them, for analyze, diff, check, the report
 * and the doctor when a run has no per-request samples.
 *
 * They are the tool's numbers, not cowtail's: no interval can be put
 * around them and they cannot be bootstrapped; where the tool gives the
 * count behind a percentile it is kept. */
#ifndef COW_APP_REPORTED_H
#define COW_APP_REPORTED_H

#include <stddef.h>

#include "err.h"
#include "store.h"

typedef struct app_reported {
    cow_pctl_row *v;     /* by file, op, q */
    size_t n;
} app_reported;

int app_load_reported(cow_store *st, int64_t run, app_reported *out, cow_err *e);
void app_reported_release(app_reported *r);

/* The file and op that speak for the run, chosen once for every level:
 * the first file, its overall op ("Totals", "ALL", or the op-less rows),
 * else its worst command (the largest value at p99..p99.99, else at any
 * level). 0 when the run reports nothing. *file, *op borrow from r. */
int app_reported_pick(const app_reported *r, const char **file, const char **op);

/* That op's figure at q (percent, within 1e-6); for an HdrHistogram
 * table, whose rows stand at 1 - 2^-k, the first row at or above q
 * (within half the tail left); for redis-benchmark's cumulative lines
 * ("99.07% <= 2 milliseconds"), the first line at or above q when none
 * is at q: then *bound (may be NULL) is 1, the value only bounds the
 * quantile from above (app_reported_step gives the resolution). NULL
 * when the op does not report q. */
const cow_pctl_row *app_reported_op_at(const app_reported *r, const char *file,
                                       const char *op, double q, int *bound);

/* app_reported_op_at for the op app_reported_pick chose: every level of a
 * run from one command's own figures (never p99 of one command next to
 * the max of another). */
const cow_pctl_row *app_reported_at(const app_reported *r, double q);

/* The gap between *at and the op's next lower reported value: the
 * resolution of a cumulative line (NaN when none is lower). */
double app_reported_step(const app_reported *r, const cow_pctl_row *at);

/* Requests behind the rows of at's file and op: the largest count (an
 * HdrHistogram table's rows count at or below; the others repeat the
 * total); 0 if the tool does not say. */
int64_t app_reported_total(const app_reported *r, const cow_pctl_row *at);

/* A 95% distribution-free interval for the percentile *at when its file is
 * an HdrHistogram table, whose rows give the count at or below each value
 * (so the ranks of pct_quantile_ci map to values): the lower bound is the
 * last row below the lower rank, the upper the first row at or past the
 * upper rank (conservative at the table's resolution). 1 when both bounds
 * exist. */
int app_reported_ci(const app_reported *r, const cow_pctl_row *at, double *lo_us,
                    double *hi_us);

#endif
