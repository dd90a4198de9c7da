/* clock.c -- a server log's UTC offset from pairs (see clock.h). */
#include "clock.h"

#include <math.h>

long clock_decide(const double *d_s, const double *tol_s, size_t n, long *off_s,
                  size_t *agree)
{
    long best = -1;
    size_t i;

    *agree = 0;
    for (i = 0; i < n; i++) {
        double r = round(d_s[i] / COW_ZONE_GRID_S) * COW_ZONE_GRID_S;
        if (!isfinite(d_s[i]) || fabs(d_s[i] - r) > tol_s[i] ||
            r < COW_ZONE_MIN_S || r > COW_ZONE_MAX_S)
            continue;
        if (best < 0) {
            best = (long)i;
            *off_s = (long)r;
        }
        if ((long)r == *off_s)
            (*agree)++;
    }
    return best;
}

static size_t inside(const int64_t *t, size_t n, int64_t shift, int64_t lo, int64_t hi)
{
    size_t i, k = 0;
    for (i = 0; i < n; i++)
        k += t[i] - shift >= lo && t[i] - shift <= hi;
    return k;
}

int clock_hour_guess(const int64_t *t, size_t n, int64_t t_first, int64_t t_last,
                     long *off_s)
{
    size_t best = 0, k;
    long h, a;

    if (n == 0 || t_last <= t_first || inside(t, n, 0, t_first, t_last) > 0)
        return 0;
    /* nearest zero first: -1, +1, -2, +2 ... hours */
    for (a = 1; a <= 14; a++)
        for (h = -a; h <= a; h += 2 * a) {
            int64_t shift = (int64_t)h * 3600 * 1000000;
            if (h * 3600 < COW_ZONE_MIN_S || h * 3600 > COW_ZONE_MAX_S)
                continue;
            k = inside(t, n, shift, t_first, t_last);
            if (k > best) {
                best = k;
                *off_s = h * 3600;
            }
        }
    return best > 0;
}
