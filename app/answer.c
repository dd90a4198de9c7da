/* answer.c -- one answer per run (answer.h). */
#include "answer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

cow_quant app_quant_row(const cow_quantile_row *q, int64_t n)
{
    if (q == NULL)
        return quant_make(NAN, NAN, NAN, NAN, n, NAN);
    return quant_make(q->q, q->value_us, q->lo_us, q->hi_us, n, q->n_eff);
}

cow_quant app_quant_delta(const cow_delta_row *d)
{
    cow_quant r;
    if (d == NULL)
        return quant_make(NAN, NAN, NAN, NAN, -1, NAN);
    r = quant_make(NAN, d->delta_us, d->lo_us, d->hi_us, -1, d->n_eff_phase);
    if (d->verdict != NULL && strcmp(d->verdict, "n/a") == 0)
        r.est_us = NAN;
    return r;
}
