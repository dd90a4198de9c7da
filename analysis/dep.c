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
 *  4f. Below COW_TAIL_TAU_MIN_K pooled exceedances the clusters cannot
 *     be told from chance: the intervals estimator's theta is taken as 1
 *     unless below 1 - 2.3 / sqrt(gaps), 0.55 at 27 exceedances (p99 of a
 *     3 s baseline and a 1.4 s window), and real probes' slow episodes
 *     (half a second of samples beyond p99 with gaps of 5-30 between
 *     them) pass as independent. tau is then at least the baseline's own
 *     dependence where it can be read: the largest flat-top long-run
 *     variance (5a, before the small-sample factor) of the indicator at
 *     the lower levels of 1b (4 and 16 times the exceedances), as n_eff
 *     takes max(tau, lrv) at the tail (5). i.i.d. stalls keep tau 1 and
 *     their power. Measured (bench/README.md, 2026-12-07): block-resampled
 *     real probes at 1,500 / 700, p99 false lift + drop 11.4% -> 7.7%
 *     (limit 8.0%); a fixed floor of 1.5 instead cost the stall lift at
 *     p99.9, 5,000 / 5,000, 83% -> 56%. The top-few count of 4a (k 5)
 *     keeps its tau. The plan's attainable size (4d) is an upper bound.
 *  4e. Ties: when the (k+1)-th largest pooled value is tied with values
 *     above it, counting strictly above it counts fewer than k (none at
 *     all when the top k + 1 are one value, e.g. stalls all clipped at one
 *     timeout); the count is then taken at the nearer end of the block of
 *     ties, above it or including it (including it when above it is
 *     nothing). The block is the pooled sample's, so the test stays
 *     exact.
 *  5. Every level, the bulk as the tail: a quantile's spread follows the
 *     empirical distribution function at it (Bahadur: q^ - q is about
 *     (p - F^(q)) / f(q)), so what dependence does to it is the long-run
 *     variance of the indicator I_t = 1{x_t <= v} (v the level's value)
 *     over its lag-0 variance p (1 - p): lrv = 1 + 2 sum_h rho_I(h), and
 *     n_eff = n / lrv below the level COW_DEP_BULK (p50, p90: the
 *     clusters of Requirement 2 there give tau near 30 for AR(1) phi 0.9,
 *     where the indicator's is 13) and n / max(tau, lrv) at the tail,
 *     where 20 exceedances give the indicator little to read and the
 *     clusters are what bench/calibration measured.
 *  5a. lrv is the flat-top (trapezoidal) lag-window estimate of Politis &
 *     Romano (1995) with the automatic bandwidth of Politis & White (2004,
 *     sec. 3.2; corrected in Patton, Politis & White 2009): m is the
 *     smallest lag after which K_n = max(COW_LRV_KN, sqrt(log10 n))
 *     sample autocorrelations in a row lie within COW_LRV_C sqrt(log10 n
 *     / n); M = 2 m; weights 1 up to M / 2, then 2 (1 - h / M) to M. The
 *     autocorrelations are computed one lag at a time until m is found
 *     (O(n (m + K_n)) on bytes), at most COW_LRV_MAX_LAG lags. With
 *     independent samples m is 0 or a few lags: lrv about 1.
 *  5b. Small samples: a lag-window estimate from n samples carries about
 *     nu = 2 n / (M int lambda^2) = 3 n / (2 M) degrees of freedom (its
 *     chi-square approximation, Priestley 1981, sec. 6.2.3; int lambda^2
 *     = 4/3 for the flat-top), so a quantile read with it is t_nu, not
 *     normal, distributed; the ratio is multiplied by (t_{nu,0.975} /
 *     z_{0.975})^2 (the fixed-b view of Kiefer & Vogelsang 2005 that
 *     Lazarus, Lewis, Stock & Watson 2018 recommend). AR(1) phi 0.9 at
 *     700 samples: M about 30, nu 35, factor 1.07.
 *  5c. Slow oscillations: a sinusoid whose period is a good part of the
 *     phase has autocorrelations too small to leave the noise band one
 *     lag at a time, while their sum is large. The equally weighted
 *     cosine estimate at the K = COW_LRV_LOWFREQ lowest frequencies
 *     (Mueller 2007; Lazarus et al. 2018), Omega = (1/K) sum_j L_j^2,
 *     L_j = sqrt(2/n) sum_t (I_t - p) cos(pi j (t + 1/2) / n), is
 *     K Omega / lrv ~ chi^2_K when the kernel caught the dependence;
 *     above its 1 - COW_LRV_SLOW_P point (Wilson-Hilferty) the low
 *     frequencies carry more (slow = 1) and the ratio is the larger of
 *     the two, Omega's with its t_K factor. The cosines come from a
 *     rotation recurrence (K n multiply-adds); above COW_LRV_BLOCKS
 *     samples the indicator is summed over blocks of
 *     ceil(n / COW_LRV_BLOCKS) and each sum read at its block's centre
 *     (the cosines move by at most pi K / (2 COW_LRV_BLOCKS) = 4e-4
 *     rad within a block), so 1,000,000 samples cost 65,536 x K.
 *  5d. The tail's tau rests on the C clusters it was read from (20
 *     exceedances in 4 clusters at p99 of AR(1) phi 0.9 at 1,500
 *     samples): where clusters were seen (tau > 1) it is multiplied by
 *     the t factor of 5b with C degrees of freedom. Without that, the
 *     p99 interval was printed exactly when the clusters under-read the
 *     dependence (n_eff high enough for two bounds) and covered 89.9%.
 *     Independent samples keep tau = 1 (Requirement 1a) and n_eff = n.
 *  5e. A tail level with fewer than COW_DEP_LRV_LOWER exceedances gives
 *     its indicator little to read, and the interval is printed exactly
 *     when the reading came out low (AR(1) phi 0.9, p99 at 700 samples:
 *     the two-sided intervals printed covered 78.7%). As for run lengths
 *     (1b), a slow stretch that reaches the level also reaches the
 *     levels with COW_DEP_LEVEL_STEP^j times the exceedances: lrv is the
 *     largest of those levels' (j < COW_DEP_LEVELS, not below the
 *     median). Independent samples read about 1 at every level.
 *  5f. The lag counts of 5a are integers: when the rarer value of the
 *     indicator is at most 1 / COW_LRV_LISTED of the samples (a tail
 *     level), each lag's count is read from that value's positions
 *     instead of all n samples -- the same integers, so the same lrv, at
 *     a fraction of the work (dep_lrv_direct counts over all n).
 *  5g. The cosines of 5c depend on n alone: the levels of 5e are read in
 *     one pass over the blocks, each level's sums taken in the same order
 *     as on its own (the same lowfreq to the bit).
 *  6. Periods (levels from COW_DEP_BULK: stalls are the tail's): the
 *     clusters of exceedances (run of Requirement 1) start
 *     at s_1 < ... < s_C. With C >= 6 clusters and at least 80% of the
 *     spacings s_{i+1} - s_i within max(1, D / 50) of a whole multiple
 *     of D, D the median spacing over j = 1, 2, 3 or 4 (the first j that
 *     fits, D >= 10: at p99.9 the slowest sample of a random subset of
 *     the periods exceeds), the stalls recur every D samples. When at
 *     least 90% of the spacings are exact multiples of D, the stalls
 *     fall at the same probe every
 *     period (locked): every period's slow samples are the same
 *     distances into a stall, the level's value within a run is set by
 *     where the stall falls against the probe, and no count within the
 *     run says how far that is from another run's (a 10 ms stall every
 *     0.5 s against a 2 ms probe: intervals covered 35% of runs). A stall
 *     that drifts against the probe (0.5013 s) visits every offset in a
 *     few periods; its spacings alternate and it is not locked. */
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
    out->lrv = 1.0;
    out->lrv_lags = 0;
    out->slow = 0;
    out->period = 0;
    out->locked = 0;
}

/* z_{0.975} */
#define Z975 1.959963984540054

/* (t_{nu,0.975} / z_{0.975})^2 (Requirement 5b); 1 for nu = inf */
static double t_factor(double nu)
{
    double x, t;
    if (!(nu < 1e7))
        return 1.0;
    if (nu < 1.0)
        nu = 1.0;
    /* P(|T| > t) = I_{nu / (nu + t^2)}(nu / 2, 1 / 2) = 0.05 */
    x = pct_betainc_inv(0.05, nu / 2.0, 0.5);
    if (!(x > 0 && x < 1))
        return 1.0;
    t = sqrt(nu * (1.0 - x) / x);
    return t * t / (Z975 * Z975);
}

/* chi^2_K upper 1 - p point, Wilson-Hilferty (Requirement 5c); z of p */
static double chi2_upper(double k, double z)
{
    double a = 2.0 / (9.0 * k), c = 1.0 - a + z * sqrt(a);
    return k * c * c * c;
}

/* Requirement 5f: the lag-h count of pairs of ones in I[0..n) (s1, s2:
 * the ones in I[0..n-h) and in I[h..n)); from pos[0..npos), the
 * positions of the rarer value (rare), when listed, else over all n. */
static size_t ones_pairs(const unsigned char *I, size_t n, size_t h, size_t s1, size_t s2,
                         const size_t *pos, size_t npos, unsigned char rare)
{
    size_t c = 0, i;

    if (pos == NULL) {
        const unsigned char *a = I, *b = I + h;
        for (i = 0; i < n - h; i++)
            c += a[i] & b[i];
        return c;
    }
    for (i = 0; i < npos && pos[i] + h < n; i++)
        c += I[pos[i] + h] == rare;
    /* pairs of zeros: the pairs of ones are the n - h pairs less those
     * with a zero in front ((n - h) - s1) or behind ((n - h) - s2), less
     * the pairs of zeros counted twice */
    return rare ? c : s1 + s2 + c - (n - h);
}

/* One level of lrv_levels: the indicator (*I, NULL when it is constant
 * or n < 8: out is then final) and the lag-window part (5a, 5b). */
static unsigned char *lrv_lags(const double *x, size_t n, double thr, int listed,
                               cow_lrv *out)
{
    unsigned char *I;
    size_t i, h, ones = 0, run = 0, kn, maxlag, m = 0, *pos = NULL, npos = 0;
    double p, g0, band, *rho, sum;
    unsigned char rare;

    memset(out, 0, sizeof(*out));
    out->n = n;
    out->kernel = out->lowfreq = out->ratio = 1.0;
    out->df = INFINITY;
    if (n < 8)
        return NULL;
    I = xmalloc(n);
    for (i = 0; i < n; i++) {
        I[i] = x[i] <= thr;
        ones += I[i];
    }
    p = (double)ones / (double)n;
    out->p = p;
    if (ones == 0 || ones == n) {
        free(I);
        return NULL;
    }
    rare = ones <= n - ones;
    if (listed && (rare ? ones : n - ones) <= n / COW_LRV_LISTED) {
        pos = xmalloc((rare ? ones : n - ones) * sizeof(size_t));
        for (i = 0; i < n; i++)
            if (I[i] == rare)
                pos[npos++] = i;
    }
    g0 = p * (1.0 - p);
    /* Requirement 5a: Politis-White m */
    kn = (size_t)ceil(sqrt(log10((double)n)));
    if (kn < COW_LRV_KN)
        kn = COW_LRV_KN;
    band = COW_LRV_C * sqrt(log10((double)n) / (double)n);
    maxlag = n / 4 < COW_LRV_MAX_LAG ? n / 4 : COW_LRV_MAX_LAG;
    rho = xmalloc((maxlag + 2) * sizeof(double));
    {
        size_t s1 = ones, s2 = ones, last = 0; /* sum I[0..n-h), sum I[h..n) */
        for (h = 1; h <= maxlag; h++) {
            size_t c;
            s1 -= I[n - h];
            s2 -= I[h - 1];
            c = ones_pairs(I, n, h, s1, s2, pos, npos, rare);
            /* sum (I_t - p)(I_{t+h} - p) over n - h pairs, over n g0 */
            rho[h] = ((double)c - p * (double)(s1 + s2) + (double)(n - h) * p * p) /
                     ((double)n * g0);
            last = h;
            if (m == 0 && run < kn) {
                if (fabs(rho[h]) < band) {
                    if (++run >= kn)
                        m = h - kn;
                } else {
                    run = 0;
                }
            }
            /* the kernel reads lags up to 2 m: go on until there */
            if (run >= kn && h >= 2 * m)
                break;
        }
        if (run < kn) /* never settled: every lag read */
            m = last / 2;
    }
    out->m = m;
    out->lags = 2 * m;
    sum = 1.0;
    for (h = 1; h <= 2 * m && h <= maxlag; h++) {
        double t = (double)h / (double)(2 * m);
        sum += 2.0 * (t <= 0.5 ? 1.0 : 2.0 * (1.0 - t)) * rho[h];
    }
    free(rho);
    free(pos);
    out->kernel = sum;
    out->df = m > 0 ? 3.0 * (double)n / (2.0 * (double)(2 * m)) : INFINITY;
    return I;
}

/* Requirement 5c for the levels whose indicator I[t] is not NULL, in one
 * pass: the cosines are the same at every level (5g). */
static void lrv_lowfreq(size_t n, unsigned char *const *I, size_t nt, cow_lrv *out)
{
    double c[COW_LRV_LOWFREQ], sn[COW_LRV_LOWFREQ], cr[COW_LRV_LOWFREQ],
        sr[COW_LRV_LOWFREQ], acc[COW_DEP_LEVELS][COW_LRV_LOWFREQ], p[COW_DEP_LEVELS];
    const unsigned char *live[COW_DEP_LEVELS];
    /* blocks of B samples read at their centre (B = 1 up to
     * COW_LRV_BLOCKS samples) */
    size_t B = (n + COW_LRV_BLOCKS - 1) / COW_LRV_BLOCKS, nb = (n + B - 1) / B, bk, i, t,
           nl = 0;
    int j;

    for (j = 0; j < COW_LRV_LOWFREQ; j++) {
        double w = M_PI * (j + 1) / (double)n;
        c[j] = cos(w * (double)B / 2);
        sn[j] = sin(w * (double)B / 2);
        cr[j] = cos(w * (double)B);
        sr[j] = sin(w * (double)B);
        for (t = 0; t < nt; t++)
            acc[t][j] = 0;
    }
    for (t = 0; t < nt; t++)
        if (I[t] != NULL) {
            live[nl] = I[t];
            p[nl++] = out[t].p;
        }
    for (bk = 0; bk < nb; bk++) {
        size_t e = (bk + 1) * B < n ? (bk + 1) * B : n;
        for (t = 0; t < nl; t++) {
            size_t ones_b = 0;
            double d;
            if (B == 1) { /* one sample a block: ones_b - p exactly */
                d = (double)live[t][bk] - p[t];
                for (j = 0; j < COW_LRV_LOWFREQ; j++)
                    acc[t][j] += d * c[j];
                continue;
            }
            for (i = bk * B; i < e; i++)
                ones_b += live[t][i];
            d = (double)ones_b - p[t] * (double)(e - bk * B);
            if (e - bk * B != B) { /* the last, shorter block: its own centre */
                for (j = 0; j < COW_LRV_LOWFREQ; j++)
                    acc[t][j] += d * cos(M_PI * (j + 1) / (double)n *
                                         (0.5 * (double)(bk * B + e)));
                continue;
            }
            for (j = 0; j < COW_LRV_LOWFREQ; j++)
                acc[t][j] += d * c[j];
        }
        if (e - bk * B != B)
            break;
        for (j = 0; j < COW_LRV_LOWFREQ; j++) {
            double cc = c[j] * cr[j] - sn[j] * sr[j];
            sn[j] = sn[j] * cr[j] + c[j] * sr[j];
            c[j] = cc;
        }
    }
    for (t = 0, nl = 0; t < nt; t++) {
        double lf = 0, g0 = out[t].p * (1.0 - out[t].p);
        if (I[t] == NULL)
            continue;
        for (j = 0; j < COW_LRV_LOWFREQ; j++)
            lf += 2.0 / (double)n * acc[nl][j] * acc[nl][j];
        nl++;
        lf /= (double)COW_LRV_LOWFREQ * g0;
        out[t].lowfreq = lf;
    }
}

/* dep_lrv at thr[0..nt) (nt <= COW_DEP_LEVELS) over the same x. */
static void lrv_levels(const double *x, size_t n, const double *thr, size_t nt, int listed,
                       cow_lrv *out)
{
    unsigned char *I[COW_DEP_LEVELS];
    size_t t;

    for (t = 0; t < nt; t++)
        I[t] = lrv_lags(x, n, thr[t], listed, &out[t]);
    if (n >= 4 * COW_LRV_LOWFREQ)
        lrv_lowfreq(n, I, nt, out);
    for (t = 0; t < nt; t++) {
        double lf = out[t].lowfreq;
        if (I[t] == NULL)
            continue;
        free(I[t]);
        if (n < 4 * COW_LRV_LOWFREQ) {
            lf = 0;
            out[t].lowfreq = 1.0;
        }
        out[t].ratio = fmax(1.0, out[t].kernel) * t_factor(out[t].df);
        if (lf > 0 && COW_LRV_LOWFREQ * lf / fmax(1.0, out[t].kernel) >
                          chi2_upper(COW_LRV_LOWFREQ, 2.3263478740408408)) {
            double r = lf * t_factor(COW_LRV_LOWFREQ);
            out[t].slow = 1;
            if (r > out[t].ratio)
                out[t].ratio = r;
        }
    }
}

void dep_lrv(const double *x, size_t n, double thr, cow_lrv *out)
{
    lrv_levels(x, n, &thr, 1, 1, out);
}

void dep_lrv_direct(const double *x, size_t n, double thr, cow_lrv *out)
{
    lrv_levels(x, n, &thr, 1, 0, out);
}

static int cmp_size(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return (a > b) - (a < b);
}

void dep_period(const double *x, size_t n, double thr, double run,
                double *period, int *locked)
{
    size_t i, c = 0, last = 0, *s, *d, med, tol, near, same;
    int seen = 0, j;

    *period = 0;
    *locked = 0;
    s = xmalloc((n ? n : 1) * sizeof(size_t));
    for (i = 0; i < n; i++) { /* Requirement 6: cluster starts */
        if (!(x[i] > thr))
            continue;
        if (!seen || (double)(i - last) > run)
            s[c++] = i;
        last = i;
        seen = 1;
    }
    if (c < 6) {
        free(s);
        return;
    }
    d = xmalloc((c - 1) * sizeof(size_t));
    for (i = 0; i + 1 < c; i++)
        d[i] = s[i + 1] - s[i];
    qsort(d, c - 1, sizeof(size_t), cmp_size);
    med = d[(c - 1) / 2];
    for (j = 1; j <= 4 && *period == 0; j++) {
        size_t per = (size_t)floor((double)med / j + 0.5);
        if (per < 10)
            break;
        tol = per / 50 > 1 ? per / 50 : 1;
        near = same = 0;
        for (i = 0; i + 1 < c; i++) {
            size_t w = (d[i] + per / 2) / per, r = d[i] % per; /* nearest multiple */
            near += w >= 1 && d[i] + tol >= w * per && d[i] <= w * per + tol;
            same += r == 0;
        }
        if ((double)near >= 0.8 * (double)(c - 1)) {
            *period = (double)per;
            *locked = (double)same >= 0.9 * (double)(c - 1);
        }
    }
    free(d);
    free(s);
}

void dep_n_eff(const double *x_time, const double *sorted, size_t n, double q,
               cow_clusters *out)
{
    cow_lrv lv5, lo[COW_DEP_LEVELS];
    double lv = q, thr, run = 0, *g, lt[COW_DEP_LEVELS];
    size_t k, kk, j, nt = 1;

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
    if (out->tau > 1.0 && out->clusters > 0) { /* Requirement 5d */
        out->tau *= t_factor((double)out->clusters);
        out->n_eff = (double)n / out->tau;
    }
    lt[0] = thr; /* Requirement 5 */
    if (q >= COW_DEP_BULK && k > 0 && k < COW_DEP_LRV_LOWER) /* Requirement 5e */
        for (j = 1, kk = k * COW_DEP_LEVEL_STEP; j < COW_DEP_LEVELS && kk <= n / 2;
             j++, kk *= COW_DEP_LEVEL_STEP)
            lt[nt++] = sorted[n - 1 - kk];
    lrv_levels(x_time, n, lt, nt, 1, lo);
    lv5 = lo[0];
    out->lrv = lv5.ratio;
    out->lrv_lags = lv5.lags;
    out->slow = lv5.slow;
    for (j = 1; j < nt; j++)
        if (lo[j].ratio > out->lrv) {
            out->lrv = lo[j].ratio;
            out->slow |= lo[j].slow;
        }
    lv5.ratio = out->lrv;
    if (n > 0 && (q < COW_DEP_BULK || lv5.ratio > out->tau))
        out->n_eff = (double)n / lv5.ratio;
    if (n > 0 && q >= COW_DEP_BULK) /* Requirement 6: stalls are a tail's */
        dep_period(x_time, n, thr, out->run, &out->period, &out->locked);
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
    out->lrv_low = 1.0;
    for (j = 1, kk = k * COW_DEP_LEVEL_STEP; j < COW_DEP_LEVELS && kk <= nn / 2;
         j++, kk *= COW_DEP_LEVEL_STEP) {
        double thr = pooled_threshold(a, b, shift, kk);
        double r = run_at(a->time, a->n, NULL, 0, 0.0, thr, g);
        out->run = r > out->run ? r : out->run; /* Requirement 1b, 4b */
        if (k >= COW_TAIL_MIN_K && k < COW_TAIL_TAU_MIN_K) { /* Requirement 4f */
            cow_lrv lv;
            dep_lrv(a->time, a->n, thr, &lv);
            if (lv.kernel > out->lrv_low)
                out->lrv_low = lv.kernel;
        }
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
    out->tau_floor = out->k >= COW_TAIL_MIN_K && out->k < COW_TAIL_TAU_MIN_K &&
                     out->tau < out->lrv_low;
    if (out->tau_floor) /* Requirement 4f */
        out->tau = out->lrv_low;
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
    out->tau_floor = 0;
    out->lrv_low = 1.0;
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
