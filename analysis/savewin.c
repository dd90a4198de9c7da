/* savewin.c -- the save window's memory growth, wall time and
 * throughput (savewin.h).
 *
 * Requirements (cited in the code as "Requirement N"):
 *   1. The save window is the first BGSAVE or forkless window; when a run
 *      has none, its first window of any kind (full sync, AOF rewrite:
 *      they fork and copy on write too). No window: none.
 *   2. The memory level at a window's start is the last memory sample at
 *      or before the start. When no sample is that early the level is
 *      unknown: a later sample would already hold part of the growth.
 *   3. Growth over a window is the largest sample strictly after its
 *      start and before its end, minus the level at its start; unknown
 *      (NaN) when either is unknown. Bytes, as sampled.
 *   4. Save time is taken from the first BGSAVE or forkless window whose
 *      both ends come from server log lines and which was seen to end:
 *      from the child's start line (the fork instant when known, else the
 *      window start) to the end line. A window's end is exclusive, one
 *      microsecond after the end line's stamp, which is taken back.
 *      Seconds; NaN when there is no such window.
 *   5. Throughput over intervals is the sum of operations over the sum
 *      of durations of the intervals where both are known, NaN when those
 *      durations sum to zero (not the mean of per-interval rates, which
 *      would weigh a short interval like a long one).
 *   6. Throughput from a cumulative counter is (last - first) / (time
 *      span), NaN when the span is not positive or the counter went down
 *      (a restart).
 *   7. Growth over the whole run is the series' largest sample minus its
 *      first: the figure beside the save's, labelled as the run's.
 *   8. Throughput during a window: each interval [t, t + dur) that
 *      overlaps the window [t0, t1) counts with the overlapping share of
 *      its operations (operations spread evenly inside an interval) and
 *      of its seconds; the rate is the sum of the one over the sum of the
 *      other. A 1 s series over a 2 s save is coarse, but it is the save's
 *      rate, not the run's, which dilutes it with the time before and
 *      after.
 *   9. From a cumulative counter: from its last sample at or before t0 to
 *      its first at or after t1 (the shortest span of samples holding the
 *      window), NaN when either is missing, the span is not positive or
 *      the counter went down. */
#include "savewin.h"

#include <math.h>
#include <string.h>

int savewin_pick(const cow_phase *ph, size_t n)
{
    size_t i;
    int first = -1;
    for (i = 0; i < n; i++) {
        if (phase_is_save(ph[i].kind))
            return (int)i;
        if (first < 0 && phase_is_window(ph[i].kind))
            first = (int)i;
    }
    return first;
}

double savewin_level(const int64_t *t, const double *bytes, size_t n, int64_t t0)
{
    double level = NAN;
    size_t i;
    for (i = 0; i < n && t[i] <= t0; i++)
        level = bytes[i];
    return level;
}

double savewin_growth(const int64_t *t, const double *bytes, size_t n, const cow_phase *w,
                      double *level)
{
    double base = savewin_level(t, bytes, n, w->t0_us), peak = NAN;
    size_t i;
    for (i = 0; i < n; i++)
        if (t[i] > w->t0_us && t[i] < w->t1_us && (isnan(peak) || bytes[i] > peak))
            peak = bytes[i];
    if (level)
        *level = base;
    return isnan(base) || isnan(peak) ? NAN : peak - base;
}

double savewin_seconds(const cow_phase *ph, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        const cow_phase *p = &ph[i];
        if (!phase_is_save(p->kind) || p->open || p->source == NULL ||
            strcmp(p->source, "log") != 0)
            continue;
        return (double)(p->t1_us - 1 - (p->fork_us ? p->fork_us : p->t0_us)) / 1e6;
    }
    return NAN;
}

double savewin_rate(const double *dur_s, const double *ops, size_t n)
{
    double sum_ops = 0, sum_s = 0;
    size_t i;
    for (i = 0; i < n; i++)
        if (!isnan(dur_s[i]) && !isnan(ops[i])) {
            sum_ops += ops[i];
            sum_s += dur_s[i];
        }
    return sum_s > 0 ? sum_ops / sum_s : NAN;
}

double savewin_counter_rate(const int64_t *t_us, const double *c, size_t n)
{
    if (n < 2 || t_us[n - 1] <= t_us[0] || !(c[n - 1] >= c[0]))
        return NAN;
    return (c[n - 1] - c[0]) / ((double)(t_us[n - 1] - t_us[0]) / 1e6);
}

double savewin_growth_all(const double *bytes, size_t n)
{
    double peak = NAN;
    size_t i;
    for (i = 0; i < n; i++)
        if (!isnan(bytes[i]) && (isnan(peak) || bytes[i] > peak))
            peak = bytes[i];
    return n == 0 || isnan(bytes[0]) ? NAN : peak - bytes[0];
}

double savewin_rate_in(const int64_t *t_us, const double *dur_s, const double *ops,
                       size_t n, const cow_phase *w)
{
    double sum_ops = 0, sum_s = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        double a, b, len;
        if (isnan(dur_s[i]) || isnan(ops[i]) || !(dur_s[i] > 0))
            continue;
        len = dur_s[i] * 1e6;
        a = fmax((double)t_us[i], (double)w->t0_us);
        b = fmin((double)t_us[i] + len, (double)w->t1_us);
        if (b <= a)
            continue;
        sum_ops += ops[i] * (b - a) / len;
        sum_s += (b - a) / 1e6;
    }
    return sum_s > 0 ? sum_ops / sum_s : NAN;
}

int savewin_rate_steady(const int64_t *t_us, const double *dur_s, const double *ops, size_t n,
                        const cow_phase *w, double rel)
{
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    size_t i, k = 0;
    for (i = 0; i < n; i++) {
        double r;
        if (isnan(dur_s[i]) || isnan(ops[i]) || !(dur_s[i] > 0) ||
            ((double)t_us[i] < (double)w->t1_us &&
             (double)t_us[i] + dur_s[i] * 1e6 > (double)w->t0_us))
            continue;
        r = ops[i] / dur_s[i];
        sum += r;
        lo = fmin(lo, r);
        hi = fmax(hi, r);
        k++;
    }
    return k >= 3 && sum > 0 && hi - lo <= rel * sum / (double)k;
}

double savewin_counter_rate_in(const int64_t *t_us, const double *c, size_t n,
                               const cow_phase *w)
{
    size_t i, i0 = n, i1 = n;
    for (i = 0; i < n; i++) {
        if (t_us[i] <= w->t0_us)
            i0 = i;
        if (t_us[i] >= w->t1_us && i1 == n)
            i1 = i;
    }
    if (i0 == n || i1 == n)
        return NAN;
    return savewin_counter_rate(t_us + i0, c + i0, i1 - i0 + 1);
}
