/* impact.c -- a window's cost to its clients (impact.h).
 *
 * Requirements:
 *   1. A request i is outstanding from its send s_i until its reply
 *      r_i = s_i + lat_i. A stall is a span in which no reply arrives while
 *      at least one request is outstanding; the longest stall is the
 *      longest such span, measured from the later of the previous reply and
 *      the earliest send still unanswered, to the next reply.
 *   2. Before the first reply, the span starts at the earliest send: a
 *      single request's stall is its latency.
 *   3. Replies at one instant close one span; NaN latencies are skipped
 *      (they were never answered: nothing is known of their reply).
 *   4. No requests (or none with a latency): NaN. With a closed-loop probe
 *      (one request in flight) the longest stall is the largest latency;
 *      with an open-loop probe it is the server's standstill as its clients
 *      saw it, however many requests queued behind it.
 *   5. The count of slow requests counts lat_i > thr strictly, the same
 *      threshold the caller prints; NaN latencies are not counted. */
#include "impact.h"

#include <math.h>
#include <stdlib.h>

#include "mem.h"

typedef struct sr {
    double s, r; /* send, reply (us) */
} sr;

static int by_reply(const void *x, const void *y)
{
    const sr *a = x, *b = y;
    return a->r < b->r ? -1 : a->r > b->r ? 1 : 0;
}

double impact_longest_stall(const int64_t *send_us, const double *lat_us, size_t n)
{
    return impact_longest_stall_at(send_us, lat_us, n, NULL);
}

double impact_longest_stall_at(const int64_t *send_us, const double *lat_us, size_t n,
                               double *start_us)
{
    sr *v;
    double *minsend, best = NAN, prev, at = NAN;
    size_t i, m = 0;
    if (start_us != NULL)
        *start_us = NAN;
    if (n == 0)
        return NAN; /* Requirement 4 */
    v = xcalloc(n, sizeof(*v));
    for (i = 0; i < n; i++)
        if (!isnan(lat_us[i])) { /* Requirement 3 */
            v[m].s = (double)send_us[i];
            v[m++].r = (double)send_us[i] + lat_us[i];
        }
    if (m == 0) {
        free(v);
        if (start_us != NULL)
            *start_us = NAN;
        return NAN;
    }
    qsort(v, m, sizeof(*v), by_reply);
    /* minsend[k]: the earliest send among the requests answered at or
     * after the k-th reply, the ones still outstanding just before it */
    minsend = xcalloc(m, sizeof(*minsend));
    minsend[m - 1] = v[m - 1].s;
    for (i = m - 1; i-- > 0;)
        minsend[i] = v[i].s < minsend[i + 1] ? v[i].s : minsend[i + 1];
    prev = -INFINITY; /* Requirement 2 */
    for (i = 0; i < m; i++) {
        double start = prev > minsend[i] ? prev : minsend[i], gap = v[i].r - start;
        if (isnan(best) || gap > best) { /* Requirement 1 */
            best = gap;
            at = start;
        }
        prev = v[i].r;
    }
    free(minsend);
    free(v);
    if (start_us != NULL)
        *start_us = at;
    return best < 0 ? 0 : best;
}

size_t impact_count_above(const double *lat_us, size_t n, double thr_us)
{
    size_t i, k = 0;
    if (isnan(thr_us))
        return 0;
    for (i = 0; i < n; i++)
        k += lat_us[i] > thr_us; /* Requirement 5: NaN compares false */
    return k;
}
