/* reported.c -- a run's percentiles as percentile-only tools printed them
 * (see reported.h). */
#include "reported.h"

#include "pct.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int app_load_reported(cow_store *st, int64_t run, app_reported *out, cow_err *e)
{
    memset(out, 0, sizeof(*out));
    return store_load_pctl(st, run, &out->v, &out->n, e);
}

void app_reported_release(app_reported *r)
{
    store_free_pctl(r->v, r->n);
    memset(r, 0, sizeof(*r));
}

static int overall_op(const char *op)
{
    return op[0] == '\0' || strcmp(op, "Totals") == 0 || strcmp(op, "ALL") == 0 ||
           strcmp(op, "ALL STATS") == 0;
}

/* An HdrHistogram table prints percentiles at 1 - 2^-k steps: the row
 * standing for q is the first at or above it, within half the tail left.
 * redis-benchmark's cumulative lines ("99.07% <= 2 milliseconds") stand
 * for every q up to theirs: the first at or above q bounds it. */
static int matches(const cow_pctl_row *p, double q)
{
    if (fabs(p->q - q) <= 1e-6)
        return 1;
    if (strcmp(p->source, "hdr") == 0)
        return q < 100 && p->q > q && p->q < 100 && p->q - q <= (100 - q) / 2;
    return 0;
}

static int ladder_source(const cow_pctl_row *p)
{
    return strcmp(p->source, "redis-benchmark") == 0;
}

/* The worst value the op reports at a tail level (q in [99, 100)), else
 * at any level: how the worst command is told apart. */
static double op_tail(const app_reported *r, const char *file, const char *op)
{
    double tail = -INFINITY, any = -INFINITY;
    size_t i;
    for (i = 0; i < r->n; i++) {
        const cow_pctl_row *p = &r->v[i];
        if (strcmp(p->file, file) != 0 || strcmp(p->op, op) != 0)
            continue;
        if (p->q >= 99 && p->q < 100 && p->value_us > tail)
            tail = p->value_us;
        if (p->value_us > any)
            any = p->value_us;
    }
    return tail > -INFINITY ? tail : any;
}

int app_reported_pick(const app_reported *r, const char **file, const char **op)
{
    const cow_pctl_row *best = NULL;
    double bt = -INFINITY;
    size_t i;
    if (r->n == 0)
        return 0;
    *file = r->v[0].file;   /* the first file speaks for the run */
    for (i = 0; i < r->n; i++) {
        const cow_pctl_row *p = &r->v[i];
        double t;
        if (strcmp(p->file, *file) != 0)
            continue;
        if (overall_op(p->op)) {
            *op = p->op;
            return 1;
        }
        if (best == NULL || strcmp(best->op, p->op) != 0) {
            t = op_tail(r, *file, p->op);
            if (best == NULL || t > bt) {
                best = p;
                bt = t;
            }
        }
    }
    *op = best->op;
    return 1;
}

const cow_pctl_row *app_reported_op_at(const app_reported *r, const char *file,
                                       const char *op, double q, int *bound)
{
    const cow_pctl_row *hit = NULL, *above = NULL;
    size_t i;
    if (bound)
        *bound = 0;
    for (i = 0; i < r->n; i++) {
        const cow_pctl_row *p = &r->v[i];
        if (strcmp(p->file, file) != 0 || strcmp(p->op, op) != 0)
            continue;
        if (matches(p, q) && (hit == NULL || p->q < hit->q))
            hit = p;   /* the first row at or above q */
        if (ladder_source(p) && p->q > q && q < 100 && p->q < 100 &&
            (above == NULL || p->q < above->q))
            above = p;
    }
    if (hit == NULL && above != NULL && bound)
        *bound = 1;
    return hit ? hit : above;
}

const cow_pctl_row *app_reported_at(const app_reported *r, double q)
{
    const char *file, *op;
    if (!app_reported_pick(r, &file, &op))
        return NULL;
    return app_reported_op_at(r, file, op, q, NULL);
}

double app_reported_step(const app_reported *r, const cow_pctl_row *at)
{
    double below = NAN;
    size_t i;
    for (i = 0; i < r->n; i++) {
        const cow_pctl_row *p = &r->v[i];
        if (strcmp(p->file, at->file) != 0 || strcmp(p->op, at->op) != 0 || p->q >= at->q)
            continue;
        if (isnan(below) || p->value_us > below)
            below = p->value_us;
    }
    return isnan(below) ? NAN : at->value_us - below;
}

int app_reported_ci(const app_reported *r, const cow_pctl_row *at, double *lo_us,
                    double *hi_us)
{
    const cow_pctl_row *first = NULL, *p;
    size_t i, a = 0, b = 0, lo_rank, hi_rank;
    int64_t total = 0, prev = 0;
    int has_lo = 0, has_hi = 0;

    if (strcmp(at->source, "hdr") != 0 || at->q <= 0 || at->q >= 100)
        return 0;
    for (i = 0; i < r->n; i++)   /* the rows of at's file and op */
        if (strcmp(r->v[i].file, at->file) == 0 && strcmp(r->v[i].op, at->op) == 0) {
            if (first == NULL)
                a = i;
            first = &r->v[a];
            b = i + 1;
        }
    for (i = a; i < b; i++) {
        p = &r->v[i];
        if (p->count < prev)
            return 0;   /* not cumulative counts */
        prev = total = p->count;
    }
    if (first == NULL || total <= 0 ||
        !pct_ci_ranks((size_t)total, at->q / 100, 0.95, &lo_rank, &hi_rank))
        return 0;
    for (i = a; i < b; i++) {
        p = &r->v[i];
        if ((size_t)p->count < lo_rank) {
            *lo_us = p->value_us;
            has_lo = 1;
        }
        if (!has_hi && (size_t)p->count >= hi_rank) {
            *hi_us = p->value_us;
            has_hi = 1;
        }
    }
    return has_lo && has_hi;
}

int64_t app_reported_total(const app_reported *r, const cow_pctl_row *at)
{
    int64_t total = 0;
    size_t i;
    for (i = 0; i < r->n; i++)
        if (strcmp(r->v[i].file, at->file) == 0 && strcmp(r->v[i].op, at->op) == 0 &&
            r->v[i].count > total)
            total = r->v[i].count;
    return total;
}
