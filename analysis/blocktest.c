/* blocktest.c -- the window against the baseline's own blocks
 * (blocktest.h).
 *
 * Requirements:
 *  1. u is the baseline's q-quantile (type 7); k_a counts baseline values
 *     above u, k_b window values above u + shift, both strict, so ties at
 *     u (whole-millisecond clients) fall on the same side in both groups.
 *  2. L = max(COW_BLOCK_MIN_LEN (250: with blocks of 50-100 a baseline of
 *     1,500 held one or two busy spells or GC pauses and 6-7.5% of such
 *     windows were called lifts by this rule; from 250 the rule needs a
 *     baseline of 5,000 and keeps the Markov and GC nulls at 2.5-3.5%), COW_BLOCK_RUNS x run, COW_BLOCK_RUNS x the
 *     mean span of the baseline's clusters at u (first to last value
 *     beyond u, gaps up to run within one), COW_BLOCK_MAX_SPANS x the
 *     longest, COW_BLOCK_MIN_PER / (1 - q), n_a / (2 COW_BLOCK_MIN)): a
 *     block spans many of the baseline's clusters, so the
 *     share within it varies as the share of a longer stretch would,
 *     scaled by 1 / L (short-range dependence; the drift rules of
 *     runstats.h cover the rest). The rule runs only when the baseline
 *     holds COW_BLOCK_MIN disjoint blocks, COW_BLOCK_MIN_K values beyond u
 *     and COW_BLOCK_MIN_CLUSTERS clusters of them (a baseline of 3 s holds
 *     one or two busy spells or GC pauses: no count within it says how
 *     often they come; with 5 clusters allowed, 7-8.5% of such windows
 *     were called lifts at 1,500 / 700), and the window expects COW_BLOCK_MIN_WIN beyond it;
 *     otherwise need_n / need_nb say what it would need, and the caller
 *     says so.
 *  3. The share's long-run variance is the overlapping-batch-means one
 *     over the baseline's blocks, n L / ((n - L + 1)(n - L)) sum (B_i -
 *     p)^2, never below the binomial p (1 - p): the baseline's blocks can
 *     show more clustering than independence, never less.
 *  4. z = (k_b / n_b - k_a / n_a) / sqrt(p (1 - p) lrv (1 / n_b + 1 / n_a));
 *     p-values from Student's t with blocks - 1 degrees of freedom (the
 *     variance is estimated from that many independent stretches). A lift
 *     must hold without the window's busiest stretch of L too (z_out: its
 *     count and length taken out; p_up is the larger of the two): a
 *     sustained shift lifts the rest of the window as well, one busy
 *     spell does not. A server that turns slow for 50 probes once in
 *     5,000, which a baseline of 10,000 may not hold at all, had 13.7% of
 *     its 10,000 / 5,000 windows called lifts at p99 without it. The
 *     window must hold 2 L (need_nb).
 *  5. block_bound: k_b falls as shift rises, so p_up rises; bisection.
 *  6. The guard: a lift also needs the window's share above the share of
 *     every stretch of the baseline as long as the window (a drop below
 *     every one), so the baseline must hold COW_BLOCK_STRETCHES disjoint
 *     stretches as long as the window. With one (a baseline as long as the
 *     window) the guard is a coin toss that the t test's lift already
 *     implies: on a server busy for 50 probes once per 5,000 the rule
 *     called 18.7% of 5,000 / 5,000 windows lifts at p99 (19.0% at
 *     20,000 / 20,000, 9.0% with spells of 10), each from a baseline that
 *     held no spell or one; with two a chance window stands above both a
 *     third of the time, and the t test's own lift with it.
 *     The t reference assumes the share is near normal at the window's
 *     length; a server that turns busy for 50 probes twice per window
 *     (a Markov-modulated null) has a skewed share, and without the guard
 *     the rule called 6.5% of such windows lifts at 10,000 / 2,000. The
 *     guard needs no distribution: a save's window stands above all of the
 *     baseline's stretches, a chance one rarely does. The spans of
 *     Requirement 2 are what L must outgrow: a busy spell of 50 probes
 *     has exceedances a few probes apart (a short run) but a span of 50,
 *     and blocks of 50-100 read its variance at half its size.
 *  7. The stretch route: where the baseline is too short for COW_BLOCK_MIN
 *     blocks of L (a real Redis baseline of 30 s holds busy spells of
 *     600 probes, so L reached 3,000-7,500 and the blocks needed 66,000-
 *     150,000 samples: a 7.5 s BGSAVE that lifted p99 x12 was ?), the
 *     window is read against the baseline's own stretches as long as the
 *     window, COW_STRETCH_MIN of them at least: the share's variance is
 *     the overlapping-batch-means one at L = n_b (the variance of a
 *     stretch of the window's length, which no asymptotics need), never
 *     below one of the baseline's largest clusters per stretch (c_max /
 *     n_b as a standard deviation: a baseline that held one such spell
 *     says a stretch can hold one), with Student's t at 1.5 (K - 1)
 *     degrees of freedom (the OBM estimator's, Meketon and Schmeiser;
 *     K = n_a / n_b). The lift must hold without the window's busiest
 *     stretch as long as the baseline's longest spell and at least a
 *     tenth of the window (COW_STRETCH_OUT): a busy spell of 50-150
 *     probes the baseline never showed (once per 5,000) lands in a null
 *     window of 2,000-3,750 and lifted its share x3 (7.7% and 6.3% of
 *     burst-50 windows called p99.9 lifts at 10,000 / 2,000 and 15,000 /
 *     3,750 without it, 0.7% and 2.3% with it); a save slows the whole
 *     window, or a third of it, and keeps its lift. With two stretches
 *     (df 1.5) the burst nulls at 1,503 / 691 rose from 5% to 9.7%: the
 *     route needs three. */
#include "blocktest.h"

#include <math.h>
#include <string.h>

#include "pct.h"

/* values of sorted[0..n) strictly above v */
static size_t above(const double *sorted, size_t n, double v)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] > v)
            hi = mid;
        else
            lo = mid + 1;
    }
    return n - lo;
}

/* P(T_df >= z) */
static double t_sf(double z, double df)
{
    double tail;
    if (!isfinite(z))
        return z > 0 ? 0.0 : 1.0;
    tail = 0.5 * pct_betainc(df / (df + z * z), df / 2.0, 0.5);
    return z >= 0 ? tail : 1.0 - tail;
}

/* Requirement 3: the share's variance over the binomial one. */
static double obm_ratio(const double *x, size_t n, double u, size_t len, double p,
                        double *block_hi)
{
    size_t i, c = 0;
    double ss = 0, hi = 0, v;

    for (i = 0; i < len; i++)
        c += x[i] > u;
    for (i = 0;; i++) {
        double d = (double)c / (double)len;
        ss += (d - p) * (d - p);
        if (d > hi)
            hi = d;
        if (i + len >= n)
            break;
        c += (size_t)(x[i + len] > u);
        c -= (size_t)(x[i] > u);
    }
    *block_hi = hi;
    v = (double)n * (double)len / ((double)(n - len + 1) * (double)(n - len)) * ss;
    v /= p * (1.0 - p);
    return v > 1.0 ? v : 1.0;
}

/* Requirement 6: the extremes of the share beyond u over every stretch of
 * len consecutive values of x (len <= n). */
static void span_shares(const double *x, size_t n, double u, size_t len, double *hi,
                        double *lo)
{
    size_t i, c = 0;

    for (i = 0; i < len; i++)
        c += (size_t)(x[i] > u);
    *hi = *lo = (double)c / (double)len;
    for (i = 0; i + len < n; i++) {
        double d;
        c += (size_t)(x[i + len] > u);
        c -= (size_t)(x[i] > u);
        d = (double)c / (double)len;
        *hi = d > *hi ? d : *hi;
        *lo = d < *lo ? d : *lo;
    }
}

/* Requirement 2: the mean and longest span of x's clusters beyond u, the
 * most values beyond u in one of them; the clusters' count. */
static size_t spans(const double *x, size_t n, double u, double run, double *mean, double *max,
                    double *cmax)
{
    size_t i, first = 0, last = 0, c = 0, in = 0, k = 0;
    double sum = 0;

    *max = *cmax = 0;
    for (i = 0; i <= n; i++) {
        if (i < n && !(x[i] > u))
            continue;
        if (in && (i == n || (double)(i - last) > run)) {
            double sp = (double)(last - first + 1);
            sum += sp;
            *max = sp > *max ? sp : *max;
            *cmax = (double)k > *cmax ? (double)k : *cmax;
            c++;
            in = 0;
        }
        if (i == n)
            break;
        if (!in) {
            first = i;
            in = 1;
            k = 0;
        }
        k++;
        last = i;
    }
    *mean = c ? sum / (double)c : 0;
    return c;
}

/* Requirements 1, 2: u, the counts and L; 1 when the rule can run. */
static int plan(const cow_group *a, const cow_group *b, double q, double run,
                cow_blocktest *out)
{
    double l = COW_BLOCK_MIN_LEN, sp_mean, sp_max;

    memset(out, 0, sizeof(*out));
    out->q = q;
    out->na = a->n;
    out->nb = b->n;
    out->threshold = NAN;
    out->z = out->p_up = out->p_down = out->lrv = out->block_hi = NAN;
    out->span_hi = out->span_lo = NAN;
    if (!(q >= 0.5 && q < 1.0) || a->n == 0 || b->n == 0)
        return 0;
    out->threshold = pct_quantile(a->sorted, a->n, q, COW_PCT_LINEAR);
    out->k_a = above(a->sorted, a->n, out->threshold);
    out->clusters = spans(a->time, a->n, out->threshold, run, &sp_mean, &sp_max, &out->c_max);
    out->out_len = (size_t)ceil(sp_max); /* the stretch route's (Requirement 7) */
    l = fmax(l, COW_BLOCK_RUNS * fmax(run, sp_mean));
    l = fmax(l, COW_BLOCK_MAX_SPANS * sp_max);
    l = fmax(l, COW_BLOCK_MIN_PER / (1.0 - q));
    out->need_n = (size_t)COW_BLOCK_MIN * (size_t)ceil(l);
    if (out->clusters < COW_BLOCK_MIN_CLUSTERS) { /* at the clusters' rate */
        double more = out->clusters ? (double)a->n * COW_BLOCK_MIN_CLUSTERS / (double)out->clusters
                                    : (double)a->n * COW_BLOCK_MIN_CLUSTERS;
        if (more > (double)out->need_n)
            out->need_n = (size_t)ceil(more);
    }
    l = fmax(l, (double)a->n / (2.0 * COW_BLOCK_MIN));
    out->len = (size_t)ceil(l);
    out->blocks = a->n / out->len;
    out->need_nb = (size_t)ceil(COW_BLOCK_MIN_WIN / (1.0 - q));
    if (2 * out->len > out->need_nb) /* Requirement 4: a stretch of L and more */
        out->need_nb = 2 * out->len;
    if (out->k_a < COW_BLOCK_MIN_K && (double)COW_BLOCK_MIN_K / (1.0 - q) > (double)out->need_n)
        out->need_n = (size_t)ceil((double)COW_BLOCK_MIN_K / (1.0 - q));
    if (COW_BLOCK_STRETCHES * b->n > out->need_n) /* Requirement 6 */
        out->need_n = COW_BLOCK_STRETCHES * b->n;
    return out->blocks >= COW_BLOCK_MIN && out->k_a >= COW_BLOCK_MIN_K && out->k_a < a->n &&
           out->clusters >= COW_BLOCK_MIN_CLUSTERS &&
           b->n >= out->need_nb && a->n >= COW_BLOCK_STRETCHES * b->n;
}

/* Requirement 4 at one shift, the plan made. */
static void decide(const cow_group *a, const cow_group *b, double shift, cow_blocktest *t)
{
    double p = (double)t->k_a / (double)a->n, v = p * (1.0 - p) * t->lrv, hi, lo, kb_out;
    double df = t->df;
    size_t nb_out = b->n - t->out_len;

    t->k_b = above(b->sorted, b->n, t->threshold + shift);
    t->z = ((double)t->k_b / (double)b->n - p) / sqrt(v * (1.0 / (double)b->n + 1.0 / (double)a->n));
    /* the lift without the window's busiest stretch of L */
    span_shares(b->time, b->n, t->threshold + shift, t->out_len, &hi, &lo);
    t->worst_k = hi * (double)t->out_len;
    kb_out = (double)t->k_b - t->worst_k;
    t->z_out = (kb_out / (double)nb_out - p) / sqrt(v * (1.0 / (double)nb_out + 1.0 / (double)a->n));
    t->p_up = t_sf(fmin(t->z, t->z_out), df);
    t->p_down = t_sf(-t->z, df);
    t->above_all = (double)t->k_b / (double)b->n > t->span_hi; /* Requirement 6 */
    t->below_all = (double)t->k_b / (double)b->n < t->span_lo;
}

/* Requirement 7: the baseline too short for the blocks, its own
 * stretches as long as the window; 1 when the route can run (plan() has
 * set u, k_a, the clusters, c_max and the longest spell in out_len). */
static int stretch_plan(const cow_group *a, const cow_group *b, double q, cow_blocktest *out)
{
    double p = (double)out->k_a / (double)a->n, floor_lrv;

    if (a->n < COW_STRETCH_MIN * b->n || out->k_a == 0 || out->k_a >= a->n ||
        (double)b->n * (1.0 - q) < COW_STRETCH_MIN_WIN)
        return 0;
    out->route = COW_BLOCK_ROUTE_STRETCH;
    out->len = b->n;
    out->blocks = a->n / b->n;
    out->df = fmax(1.0, 1.5 * ((double)a->n / (double)b->n - 1.0));
    if ((double)out->out_len < (double)b->n / COW_STRETCH_OUT)
        out->out_len = (size_t)ceil((double)b->n / COW_STRETCH_OUT);
    if (out->out_len > b->n / 2)
        out->out_len = b->n / 2;
    out->lrv = obm_ratio(a->time, a->n, out->threshold, b->n, p, &out->block_hi);
    /* one of the baseline's largest clusters in a stretch is one standard
     * deviation of its share at least */
    floor_lrv = out->c_max * out->c_max / ((double)b->n * p * (1.0 - p));
    if (out->lrv < floor_lrv)
        out->lrv = floor_lrv;
    return out->out_len >= 1 && b->n > out->out_len;
}

void block_test(const cow_group *a, const cow_group *b, double q, double shift,
                double run, cow_blocktest *out)
{
    double p;

    if (!plan(a, b, q, run, out)) {
        if (isnan(out->threshold) || !stretch_plan(a, b, q, out))
            return;
    } else {
        p = (double)out->k_a / (double)a->n;
        out->route = COW_BLOCK_ROUTE_BLOCKS;
        out->df = (double)(out->blocks - 1);
        out->out_len = out->len;
        out->lrv = obm_ratio(a->time, a->n, out->threshold, out->len, p, &out->block_hi);
    }
    span_shares(a->time, a->n, out->threshold, b->n, &out->span_hi, &out->span_lo);
    out->ran = 1;
    decide(a, b, shift, out);
}

double block_bound(const cow_group *a, const cow_group *b, double q, double run,
                   double lo, double hi, double alpha)
{
    cow_blocktest t;
    int i;

    block_test(a, b, q, lo, run, &t);
    if (!t.ran || !(t.p_up <= alpha && t.above_all))
        return NAN;
    for (i = 0; i < 50 && hi - lo > 1e-9 * (fabs(hi) + fabs(lo) + 1); i++) {
        double mid = 0.5 * (lo + hi);
        decide(a, b, mid, &t);
        if (t.p_up <= alpha && t.above_all)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
