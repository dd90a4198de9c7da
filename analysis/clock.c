/* clock.c -- a server log's UTC offset from pairs (see clock.h). */
#include "clock.h"

#include <math.h>
#include <stdio.h>

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

int clock_hour_better(const int64_t *t, size_t n, int64_t t_first, int64_t t_last,
                      long *off_s, size_t *k0, size_t *k)
{
    long h, a;
    size_t c;

    *k0 = *k = 0;
    if (n == 0 || t_last <= t_first)
        return 0;
    *k0 = inside(t, n, 0, t_first, t_last);
    if (*k0 == 0)
        return 0; /* nothing inside: clock_hour_guess's case */
    for (a = 1; a <= 14; a++)
        for (h = -a; h <= a; h += 2 * a) {
            if (h * 3600 < COW_ZONE_MIN_S || h * 3600 > COW_ZONE_MAX_S)
                continue;
            c = inside(t, n, (int64_t)h * 3600 * 1000000, t_first, t_last);
            if (c > *k) {
                *k = c;
                *off_s = h * 3600;
            }
        }
    return *k > *k0;
}

/* How far apart [a0, a1] and [b0, b1] lie, us (0 when they overlap). */
static int64_t span_gap(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
    if (a1 < b0)
        return b0 - a1;
    if (b1 < a0)
        return a0 - b1;
    return 0;
}

static long round_to(double v, long step)
{
    return (long)(round(v / (double)step) * (double)step);
}

int clock_skew(int64_t r0, int64_t r1, int64_t f0, int64_t f1, long *off_s,
               double *gap_s)
{
    int64_t gap = span_gap(r0, r1, f0, f1);
    double d_s = ((double)f0 - (double)r0) / 1e6;
    long hour = round_to(d_s, 3600), grid = round_to(d_s, COW_ZONE_GRID_S);

    *gap_s = (double)gap / 1e6;
    *off_s = 0;
    if (gap < (int64_t)COW_CLOCK_GAP_S * 1000000)
        return COW_SKEW_NONE;
    if (hour != 0 && hour >= COW_ZONE_MIN_S && hour <= COW_ZONE_MAX_S &&
        span_gap(r0, r1, f0 - (int64_t)hour * 1000000, f1 - (int64_t)hour * 1000000) == 0) {
        *off_s = hour;
        return COW_SKEW_HOUR;
    }
    if (grid != 0 && grid >= COW_ZONE_MIN_S && grid <= COW_ZONE_MAX_S &&
        span_gap(r0, r1, f0 - (int64_t)grid * 1000000, f1 - (int64_t)grid * 1000000) == 0) {
        *off_s = grid;
        return COW_SKEW_GRID;
    }
    *off_s = (long)round(d_s);
    return COW_SKEW_OTHER;
}

void clock_skew_offset_text(const cow_clock_skew *k, char *out, size_t cap)
{
    long a = k->off_s < 0 ? -k->off_s : k->off_s;
    char sign = k->off_s < 0 ? '-' : '+';

    if (k->kind == COW_SKEW_HOUR || k->kind == COW_SKEW_GRID)
        snprintf(out, cap, "%c%02ld:%02ld (%s)", sign, a / 3600, a / 60 % 60,
                 k->kind == COW_SKEW_HOUR ? "a whole-hour offset: a clock in local time?"
                                          : "a zone offset: a clock in local time?");
    else
        snprintf(out, cap, "%c%.1f h (no zone offset: another clock, or another day?)",
                 sign, (double)a / 3600.0);
}
