/* reported.c -- a run's percentiles as percentile-only tools printed them
 * (see reported.h). */
#include "reported.h"

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

const cow_pctl_row *app_reported_at(const app_reported *r, double q)
{
    const cow_pctl_row *best = NULL, *overall = NULL;
    const char *file = NULL;
    size_t i;

    for (i = 0; i < r->n; i++) {
        const cow_pctl_row *p = &r->v[i];
        if (fabs(p->q - q) > 1e-6)
            continue;
        if (file == NULL)
            file = p->file;
        if (strcmp(file, p->file) != 0)
            continue;   /* the first file that reports q speaks for the run */
        if (overall_op(p->op) && overall == NULL)
            overall = p;
        if (best == NULL || p->value_us > best->value_us)
            best = p;
    }
    return overall ? overall : best;
}
