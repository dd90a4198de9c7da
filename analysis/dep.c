/* dep.c -- clusters of exceedances, effective sample size, tail test
 * (see dep.h).
 *
 * Requirements:
 *  1. Clusters: the exceedance times i_1 < ... < i_k of x > threshold
 *     give k - 1 gaps T_j. The extremal index theta is the intervals
 *     estimator of Ferro & Segers (2003, eq. 4): with m = k - 1,
 *       max T <= 2:  theta = 2 (sum T)^2 / (m sum T^2)
 *       otherwise:   theta = 2 (sum (T-1))^2 / (m sum (T-1)(T-2))
 *     capped at 1 (1 when k < 2 or a denominator is 0). It needs no run
 *     length. C = round(theta k) clusters (at least 1); the C - 1 largest
 *     gaps separate them: gaps > run, run = the C-th largest gap (0 when
 *     C = k: every exceedance is its own cluster).
 *  1a. With independent samples the estimate scatters below 1 (its 1%
 *     point is about 1 - 2.3 / sqrt(m) for m gaps, by simulation of
 *     geometric gaps), and declustering i.i.d. exceedances only loses
 *     power; so theta is taken as 1 unless it is below that point.
 *  1b. Clusters are read off more than the tested level: with 20
 *     exceedances the estimate cannot tell a slow stretch from chance, so
 *     the run length is the largest of those estimated at the level and
 *     at levels with COW_DEP_LEVEL_STEP^j times as many exceedances,
 *     j < COW_DEP_LEVELS, not below the median. A run length is a time
 *     span, so a slow stretch seen at p90 declusters p99.9 too; at each
 *     level independence is kept unless clusters show (1a, 1c), so i.i.d.
 *     samples stay unclustered.
 *  1c. The intervals estimator compares gaps with each other, so one long
 *     slow stretch (every gap short) looks independent to it. Against the
 *     absolute scale: independent exceedances at rate p leave a gap of at
 *     most g0 = log(1 - COW_DEP_SHORT) / log(1 - p) with probability
 *     COW_DEP_SHORT; when far more gaps are that short (binomial tail
 *     below COW_DEP_SHORT_P), gaps up to g0 join clusters.
 *  2. Variance: under a compound Poisson model the exceedance count has
 *     variance (sum of size^2) where i.i.d. samples give (sum of size), so
 *     tau = sum(s^2) / sum(s) and n_eff = n / tau (<= n). Bulk quantiles
 *     (p50, p90) use the same rule; there the (1 - p) factor of the
 *     binomial makes it conservative.
 *  3. Thin tails: n (1 - q) exceedances are too few to see clusters, so
 *     the threshold drops to the level with COW_DEP_MIN_EXCEED above it:
 *     slow stretches that reach p99.9 also reach p99.
 *  4. Tail test: the threshold is the (k+1)-th largest pooled value
 *     (strictly above it exceed; ties reduce k and keep the test exact),
 *     k = max(N (1 - q), COW_TAIL_MIN_K): at small N a p99.9 has no tail
 *     of its own to count, so what is tested is the tail beyond the pooled
 *     level 1 - k/N, which is printed. Under "nothing changed" the
 *     exceedances fall in a and b in proportion to their lengths.
 *  4a. A tail that moved only at its very top (a few long stalls) shows in
 *     the top few pooled values, not in the top 20; so the count is also
 *     taken with k = max(N (1 - q), COW_TAIL_SMALL_K), and the smaller
 *     p-value of the two, doubled (Bonferroni), is the test's.
 *  4b. The lower levels' run lengths come from a (the baseline) alone:
 *     under "nothing changed" b has a's dependence, and a window whose
 *     whole distribution rose is one long slow stretch at p90 without its
 *     stalls at the top being one cluster. At the tested level both
 *     groups' own clusters count.
 *  4c. What is counted is samples, not clusters: a window whose slow
 *     stretches are longer has fewer, larger clusters, and counting those
 *     would call its heavier tail lighter. Clusters (with the common run
 *     length, both groups) give tau = sum(s^2) / sum(s), and b's count
 *     over tau is compared with Binomial(k / tau, n_b / N): the binomial
 *     of k / tau independent exceedances, taken at real arguments
 *     through the incomplete beta (P(X >= x) = I_pi(x, m - x + 1)). With
 *     i.i.d. samples tau = 1 and this is the hypergeometric's slightly
 *     conservative binomial neighbour.
 *  4d. A count test is discrete: at k = 22, pi = 0.315 (1,503 vs 691 at
 *     p99) it can only reject at 2.09% per side, not 2.5%, and the next
 *     k reaches 2.48%: power swings by 10 points from one k to the next
 *     (bench/README.md). So each count's k is moved within
 *     [k / COW_TAIL_MATCH, k COW_TAIL_MATCH] to the k whose attainable
 *     size (false lift + drop with i.i.d. samples, each side <= its level)
 *     is largest, the nearest to the nominal k on ties, for each side on
 *     its own (a lift's count and a drop's may differ). That depends on
 *     the group sizes only, never on the data, so the test stays exact.
 *     Nominal k above COW_TAIL_MATCH_MAX is kept (the steps are small),
 *     and so is the top-few count of 4a (k of 5: moving it moves the
 *     pooled top from stalls to the body's top and back).
 *  4e. Ties: when the (k+1)-th largest pooled value is tied with values
 *     above it, counting strictly above it counts fewer than k (none at
 *     all when the top k + 1 are one value, e.g. stalls all clipped at one
 *     timeout); the count is then taken at the nearer end of the block of
 *     ties, above it or including it (including it when above it is
 *     nothing). The block is the pooled sample's, so the test stays
 *     exact. */
#include "dep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "pct.h"

static int cmp_desc(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a < b) - (a > b);
}

/* Requirement 1: theta from gaps g[0..m-1] (m = k - 1). */
static double theta_of(const double *g, size_t m)
{
    double s1 = 0, s2 = 0, t1 = 0, t2 = 0, mx = 0, th;
    size_t i;

    if (m == 0)
        return 1.0;
    for (i = 0; i < m; i++) {
        s1 += g[i];
        s2 += g[i] * g[i];
        t1 += g[i] - 1;
        t2 += (g[i] - 1) * (g[i] - 2);
        if (g[i] > mx)
            mx = g[i];
    }
    if (mx <= 2)
        th = s2 > 0 ? 2 * s1 * s1 / ((double)m * s2) : 1.0;
    else
        th = t2 > 0 ? 2 * t1 * t1 / ((double)m * t2) : 1.0;
    if (th > 1.0 || !(th > 0))
        return 1.0;
    /* Requirement 1a: no evidence of clusters, no declustering */
    return th >= 1.0 - COW_DEP_THETA_Z / sqrt((double)m) ? 1.0 : th;
}

/* Requirement 1c: gaps that independent samples would rarely leave. */
static double short_run(const double *g, size_t m, double p)
{
    double g0, p0;
    size_t i, c = 0;

    if (m == 0 || !(p > 0 && p < 1))
        return 0.0;
    g0 = floor(log1p(-COW_DEP_SHORT) / log1p(-p));
    if (g0 < 1)
        return 0.0;
    p0 = -expm1(g0 * log1p(-p));
    for (i = 0; i < m; i++)
        c += g[i] <= g0;
    return c > 0 && dep_binom_sf(c, m, p0) < COW_DEP_SHORT_P ? g0 : 0.0;
}

/* Requirement 1: run length from the gaps (sorted here, descending); p is
 * the exceedance rate k / n. */
static double run_of(double *g, size_t m, size_t k, double theta, double p)
{
    double c = floor(theta * (double)k + 0.5), s = short_run(g, m, p);
    size_t cl = c < 1 ? 1 : (size_t)c;

    if (cl >= k || m == 0)
        return s;
    qsort(g, m, sizeof(double), cmp_desc);
    return g[cl - 1] > s ? g[cl - 1] : s;
}

/* Gaps between exceedances of thr by x - shift; returns k, gaps in g
 * (k - 1 of them, g has room for n). */
static size_t gaps_of(const double *x, size_t n, double thr, double shift,
                      double *g)
{
    size_t i, k = 0, last = 0;

    for (i = 0; i < n; i++)
        if (x[i] - shift > thr) {
            if (k > 0)
                g[k - 1] = (double)(i - last);
            last = i;
            k++;
        }
    return k;
}

/* Clusters with gaps > run separating; *s2 gets sum of size^2. */
static size_t decluster(const double *x, size_t n, double thr, double shift,
                        double run, double *s2)
{
    size_t i, c = 0, size = 0, last = 0, seen = 0;

    *s2 = 0;
    for (i = 0; i < n; i++) {
        if (!(x[i] - shift > thr))
            continue;
        if (seen && (double)(i - last) > run) {
            *s2 += (double)size * (double)size;
            size = 0;
        }
        if (size == 0)
            c++;
        size++;
        last = i;
        seen = 1;
    }
    *s2 += (double)size * (double)size;
    return c;
}

/* Requirement 1b: run length of x (and of y - shift, may be NULL) at thr:
 * each group on its own (a rate that differs between the groups is not
 * clustering), the larger. */
static double run_at(const double *x, size_t nx, const double *y, size_t ny,
                     double shift, double thr, double *g)
{
    size_t kx = gaps_of(x, nx, thr, 0.0, g), m = kx ? kx - 1 : 0, ky;
    double r = run_of(g, m, kx, theta_of(g, m), nx ? (double)kx / (double)nx : 0), ry;

    if (y == NULL)
        return r;
    ky = gaps_of(y, ny, thr, shift, g);
    m = ky ? ky - 1 : 0;
    ry = run_of(g, m, ky, theta_of(g, m), ny ? (double)ky / (double)ny : 0);
    return ry > r ? ry : r;
}

void dep_clusters(const double *x, size_t n, double threshold, double run,
                  cow_clusters *out)
{
    double *g = xmalloc((n ? n : 1) * sizeof(double)), s2;
    size_t k = gaps_of(x, n, threshold, 0.0, g);

    out->n = n;
    out->threshold = threshold;
    out->level = NAN;
    out->k = k;
    out->theta = theta_of(g, k ? k - 1 : 0);
    out->run = run >= 0 ? run
                        : run_of(g, k ? k - 1 : 0, k, out->theta, n ? (double)k / (double)n : 0);
    free(g);
    out->clusters = decluster(x, n, threshold, 0.0, out->run, &s2);
    out->tau = k > 0 ? s2 / (double)k : 1.0; /* Requirement 2 */
    if (out->tau < 1.0)
        out->tau = 1.0;
    out->n_eff = (double)n / out->tau;
}

void dep_n_eff(const double *x_time, const double *sorted, size_t n, double q,
               cow_clusters *out)
{
    double lv = q, thr, run = 0, *g;
    size_t k, kk, j;

    if (n > 0 && (double)n * (1.0 - q) < COW_DEP_MIN_EXCEED) /* Requirement 3 */
        lv = 1.0 - COW_DEP_MIN_EXCEED / (double)n;
    if (lv < 0.5)
        lv = 0.5;
    thr = n > 0 ? pct_quantile(sorted, n, lv, COW_PCT_LINEAR) : 0.0;
    g = xmalloc((n ? n : 1) * sizeof(double));
    k = (size_t)ceil((double)n * (1.0 - lv));
    for (j = 0, kk = k; n > 0 && j < COW_DEP_LEVELS && kk <= n / 2;
         j++, kk *= COW_DEP_LEVEL_STEP) { /* Requirement 1b */
        double r = run_at(x_time, n, NULL, 0, 0.0, sorted[n - 1 - kk], g);
        run = r > run ? r : run;
        if (kk == 0)
            break;
    }
    free(g);
    dep_clusters(x_time, n, thr, run, out);
    out->level = lv;
}

double dep_binom_sf(size_t x, size_t n, double p)
{
    if (x == 0)
        return 1.0;
    if (x > n)
        return 0.0;
    if (p <= 0)
        return 0.0;
    if (p >= 1)
        return 1.0;
    return pct_betainc(p, (double)x, (double)(n - x + 1));
}

/* The (k+1)-th largest of a's values and b's minus shift. */
static double pooled_threshold(const cow_group *a, const cow_group *b,
                               double shift, size_t k)
{
    size_t i = a->n, j = b->n, t;
    double v = 0;

    for (t = 0; t <= k; t++) {
        if (j == 0 || (i > 0 && a->sorted[i - 1] >= b->sorted[j - 1] - shift))
            v = a->sorted[--i];
        else
            v = b->sorted[--j] - shift;
    }
    return v;
}

/* Pooled values (a's, b's minus shift) above v (strict) or at least v. */
static size_t pooled_count(const cow_group *a, const cow_group *b, double shift,
                           double v, int strict)
{
    size_t i, c = 0;
    for (i = a->n; i-- > 0 && (strict ? a->sorted[i] > v : a->sorted[i] >= v);)
        c++;
    for (i = b->n; i-- > 0 && (strict ? b->sorted[i] - shift > v : b->sorted[i] - shift >= v);)
        c++;
    return c;
}

/* Requirement 4 at one k. */
static void tail_at(const cow_group *a, const cow_group *b, size_t k,
                    double shift, cow_tailtest *out)
{
    size_t nn = a->n + b->n, kk, j;
    double *g = xmalloc(nn * sizeof(double)), s2, sb, x, m;

    if (k >= nn)
        k = nn - 1;
    out->threshold = pooled_threshold(a, b, shift, k);
    { /* Requirement 4e: a threshold inside a block of ties */
        size_t above = pooled_count(a, b, shift, out->threshold, 1), with;
        if (above < k) {
            with = pooled_count(a, b, shift, out->threshold, 0);
            if (with < nn && (above == 0 || with - k < k - above))
                out->threshold = pooled_threshold(a, b, shift, with);
        }
    }
    out->run = run_at(a->time, a->n, b->time, b->n, shift, out->threshold, g);
    for (j = 1, kk = k * COW_DEP_LEVEL_STEP; j < COW_DEP_LEVELS && kk <= nn / 2;
         j++, kk *= COW_DEP_LEVEL_STEP) {
        double r = run_at(a->time, a->n, NULL, 0, 0.0,
                          pooled_threshold(a, b, shift, kk), g);
        out->run = r > out->run ? r : out->run; /* Requirement 1b, 4b */
    }
    out->ka = gaps_of(a->time, a->n, out->threshold, 0.0, g);
    out->kb = gaps_of(b->time, b->n, out->threshold, shift, g);
    out->k = out->ka + out->kb;
    out->level = 1.0 - (double)out->k / (double)nn;
    out->ca = decluster(a->time, a->n, out->threshold, 0.0, out->run, &s2);
    out->cb = decluster(b->time, b->n, out->threshold, shift, out->run, &sb);
    free(g);
    /* Requirement 4c: samples counted, their variance inflated by tau */
    out->tau = out->k > 0 ? (s2 + sb) / (double)out->k : 1.0;
    if (out->tau < 1.0)
        out->tau = 1.0;
    x = (double)out->kb / out->tau;
    m = (double)out->k / out->tau;
    out->p_up = x <= 0 ? 1.0 : pct_betainc(out->pi, x, m - x + 1.0);
    out->p_down = x >= m ? 1.0 : pct_betainc(1.0 - out->pi, m - x, x + 1.0);
}

/* Requirement 4d: the k near k0 whose one-sided count test (up: b's tail
 * heavier; else lighter) at alpha has the largest attainable size with
 * i.i.d. samples; *size gets it. */
static size_t match_k(size_t k0, size_t nn, double pi, double alpha, int up,
                      double *size)
{
    enum { MAXC = COW_TAIL_MATCH_MAX * 2 + 2 };
    double sz[MAXC], best = -1;
    size_t lo, hi, k, d, c, bk = k0;

    lo = (size_t)ceil((double)k0 / COW_TAIL_MATCH - 1e-9);
    hi = (size_t)floor((double)k0 * COW_TAIL_MATCH + 1e-9);
    if (k0 > COW_TAIL_MATCH_MAX || k0 < COW_TAIL_MIN_K)
        lo = hi = k0;
    if (lo < 1)
        lo = 1;
    if (hi >= nn)
        hi = nn - 1;
    if (lo > hi || hi - lo >= MAXC) {
        *size = NAN;
        return k0 < nn ? k0 : nn - 1;
    }
    if (!up)
        pi = 1.0 - pi; /* b lighter = a heavier: the same count of a's */
    /* the critical count c (X >= c rejects, X ~ Binomial(k, pi)) grows
     * with k: one pass */
    c = (size_t)floor((double)lo * pi);
    for (k = lo; k <= hi; k++) {
        while (c <= k && dep_binom_sf(c, k, pi) > alpha)
            c++;
        sz[k - lo] = c <= k ? dep_binom_sf(c, k, pi) : 0.0;
    }
    for (d = 0; d <= hi - lo; d++) { /* nearest k0 first */
        if (k0 >= lo + d && k0 - d <= hi && sz[k0 - d - lo] > best + 1e-12) {
            best = sz[k0 - d - lo];
            bk = k0 - d;
        }
        if (d > 0 && k0 + d <= hi && k0 + d >= lo && sz[k0 + d - lo] > best + 1e-12) {
            best = sz[k0 + d - lo];
            bk = k0 + d;
        }
    }
    *size = best;
    return bk;
}

void dep_tail_plan(size_t na, size_t nb, double q, cow_tailplan *out)
{
    size_t nn = na + nb, k0[2];
    double kf, pi, s;
    int t, up;

    memset(out, 0, sizeof(*out));
    out->q = q;
    out->na = na;
    out->nb = nb;
    out->size = NAN;
    if (na == 0 || nb == 0)
        return;
    pi = (double)nb / (double)nn;
    kf = ceil((double)nn * (1.0 - q) - 1e-9); /* Requirement 4 */
    k0[0] = kf < COW_TAIL_SMALL_K ? COW_TAIL_SMALL_K : (size_t)kf;
    k0[1] = kf < COW_TAIL_MIN_K ? COW_TAIL_MIN_K : (size_t)kf;
    out->tests = k0[0] == k0[1] ? 1 : 2; /* Requirement 4a */
    out->size = 0;
    for (t = 0; t < out->tests; t++)
        for (up = 0; up < 2; up++) { /* Requirement 4d */
            size_t k = match_k(k0[t], nn, pi, COW_TAIL_ALPHA / out->tests, up, &s);
            if (up)
                out->k_up[t] = k;
            else
                out->k_down[t] = k;
            out->size += s;
        }
}

void dep_tail_test(const cow_group *a, const cow_group *b, double q,
                   double shift, cow_tailtest *out)
{
    cow_tailplan plan;

    dep_tail_plan(a->n, b->n, q, &plan);
    dep_tail_test_plan(a, b, &plan, shift, out);
}

void dep_tail_test_plan(const cow_group *a, const cow_group *b,
                        const cow_tailplan *plan, double shift,
                        cow_tailtest *out)
{
    size_t nn = a->n + b->n, nd = 0, shown = 0, kd[4];
    int t;
    double best, pu = 1.0, pd = 1.0;
    cow_tailtest done[4];
    cow_tailplan own;

    if (plan->na != a->n || plan->nb != b->n) { /* made for other sizes */
        dep_tail_plan(a->n, b->n, plan->q, &own);
        plan = &own;
    }
    out->q = plan->q;
    out->shift = shift;
    out->k = out->ka = out->kb = out->ca = out->cb = 0;
    out->threshold = out->level = out->run = NAN;
    out->tau = 1.0;
    out->pi = nn ? (double)b->n / (double)nn : NAN;
    out->p_up = out->p_down = 1.0;
    out->tests = 0;
    out->size = plan->size;
    if (a->n == 0 || b->n == 0 || plan->tests == 0)
        return;
    best = 2.0;
    for (t = 0; t < 2 * plan->tests; t++) { /* Requirements 4a, 4d */
        int up = t % 2 == 0;
        size_t k = up ? plan->k_up[t / 2] : plan->k_down[t / 2], j;
        double pk;
        for (j = 0; j < nd && kd[j] != k; j++) /* the same k once */
            ;
        if (j == nd) {
            done[nd] = *out;
            tail_at(a, b, k, shift, &done[nd]);
            kd[nd++] = k;
        }
        pk = up ? done[j].p_up : done[j].p_down;
        if (up)
            pu = pk < pu ? pk : pu;
        else
            pd = pk < pd ? pk : pd;
        if (pk < best) {
            best = pk;
            shown = j;
        }
    }
    *out = done[shown];
    out->p_up = fmin(1.0, (double)plan->tests * pu);
    out->p_down = fmin(1.0, (double)plan->tests * pd);
    out->tests = plan->tests;
}
