/* quant.c -- one quantile's estimate and bounds, one format (quant.h). */
#include "quant.h"

#include <math.h>
#include <stdio.h>

cow_quant quant_make(double q, double est_us, double lo_us, double hi_us, int64_t n,
                     double n_eff)
{
    cow_quant r;
    r.q = q;
    r.est_us = isfinite(est_us) ? est_us : NAN;
    r.lo_us = isfinite(lo_us) ? lo_us : NAN;
    r.hi_us = isfinite(hi_us) ? hi_us : NAN;
    r.n = n;
    r.n_eff = n_eff;
    r.why[0] = '\0';
    return r;
}

int quant_two_sided(const cow_quant *q)
{
    return q != NULL && isfinite(q->lo_us) && isfinite(q->hi_us);
}

/* us as ms with 3 decimals, signed for a difference */
static void ms(char *buf, size_t n, double us, int flags)
{
    if (flags & COW_QF_SIGNED)
        snprintf(buf, n, "%+.3f", us / 1000);
    else
        snprintf(buf, n, "%.3f", us / 1000);
}

const char *quant_format(const cow_quant *q, int flags, char *buf, size_t n)
{
    char est[320], lo[320], hi[320]; /* %.3f of DBL_MAX: 314 bytes */
    int has_lo, has_hi;

    if (n == 0)
        return buf;
    if (q == NULL || !isfinite(q->est_us)) {
        snprintf(buf, n, "-");
        return buf;
    }
    has_lo = isfinite(q->lo_us);
    has_hi = isfinite(q->hi_us);
    ms(est, sizeof(est), q->est_us, flags);
    ms(lo, sizeof(lo), has_lo ? q->lo_us : 0.0, flags);
    ms(hi, sizeof(hi), has_hi ? q->hi_us : 0.0, flags);
    if (has_lo && has_hi) {
        if (flags & COW_QF_INTERVAL)
            snprintf(buf, n, "%s [%s, %s]", est, lo, hi);
        else
            snprintf(buf, n, "%s", est);
    } else if (has_lo && (flags & COW_QF_SIGNED) && q->lo_us >= 0 && q->lo_us < 0.5) {
        /* a change proved beyond zero whose bound rounds to it: "at least
         * +0.000" would read as no change */
        snprintf(buf, n, "%s (> 0)", est);
    } else if (has_lo) {
        snprintf(buf, n, "%s (>= %s)", est, lo);
    } else if (has_hi && (flags & COW_QF_SIGNED) && q->hi_us <= 0 && q->hi_us > -0.5) {
        snprintf(buf, n, "%s (< 0)", est);
    } else if (has_hi) {
        snprintf(buf, n, "%s (<= %s)", est, hi);
    } else if ((flags & COW_QF_SIGNED) && q->why[0] != '\0') {
        snprintf(buf, n, "%s (cannot tell: %s)", est, q->why);
    } else {
        snprintf(buf, n, "%s (%s)", est, (flags & COW_QF_SIGNED) ? "cannot tell" : "not bounded");
    }
    return buf;
}

void quant_floor(cow_quant *q, double floor_us)
{
    if (q != NULL && isfinite(q->lo_us) && !isfinite(q->hi_us) && isfinite(floor_us) &&
        q->lo_us < floor_us)
        q->lo_us = NAN;
}

const char *quant_format_legend(void)
{
    return "A quantile shown as a number alone has a two-sided 95% interval. "
           "\"x (>= b)\": x is the estimate, but too few samples lie beyond it for an "
           "upper bound; with 95% confidence the true value is at least b (both bounds "
           "need about 368 independent samples at p99, 3,688 at p99.9).";
}
