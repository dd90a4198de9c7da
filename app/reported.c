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
    free(r->v);
    memset(r, 0, sizeof(*r));
}

static int overall_op(const char *op)
{
    return op[0] == '\0' || strcmp(op, "Totals") == 0 || strcmp(op, "ALL") == 0 ||
           strcmp(op, "ALL STATS") == 0;
}

/* An HdrHistogram table prints percentiles at 1 - 2^-k steps: the row
 * standing for q is the first at or above it, within half the tail left. */
static int matches(const cow_pctl_row *p, double q)
{
    if (fabs(p->q - q) <= 1e-6)
        return 1;
    return strcmp(p->source, "hdr") == 0 && q < 100 && p->q > q && p->q < 100 &&
           p->q - q <= (100 - q) / 2;
}

const cow_pctl_row *app_reported_at(const app_reported *r, double q)
{
    const cow_pctl_row *best = NULL, *overall = NULL;
    const char *file = NULL;
    size_t i;

    for (i = 0; i < r->n; i++) {
        const cow_pctl_row *p = &r->v[i];
        if (!matches(p, q))
            continue;
        if (file == NULL)
            file = p->file;
        if (strcmp(file, p->file) != 0)
            continue;   /* the first file that reports q speaks for the run */
        if (overall_op(p->op) && (overall == NULL || (strcmp(p->op, overall->op) == 0 &&
                                                      p->q < overall->q)))
            overall = p;   /* the first row at or above q */
        if (best == NULL || (strcmp(p->op, best->op) == 0 ? p->q < best->q
                                                          : p->value_us > best->value_us))
            best = p;
    }
    return overall ? overall : best;
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
