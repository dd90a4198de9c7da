/* pct.c -- quantiles of sorted samples and what can honestly be said
 * about them: point values, distribution-free intervals, "too few
 * samples" flags, tail exceedance counts with exact intervals, and the
 * grid that quantised latencies sit on.
 *
 * Requirements (cited in the code as "Requirement N"):
 *   1. Definition. The default quantile is Hyndman-Fan type 7 (numpy's
 *      "linear"): with h = (n-1)q, lo = floor(h), g = h - lo,
 *      Q(q) = x[lo] + g (x[lo+1] - x[lo]) on the 0-based sorted array,
 *      evaluated with numpy's two-sided lerp (b - (b-a)(1-g) when g >= 0.5)
 *      so results equal numpy's bit for bit. The option is type 1 (nearest
 *      rank, numpy "inverted_cdf"): x[ceil(nq) - 1], x[0] for q = 0.
 *   2. N = 0: every quantile, mean, min and max is NaN, n is 0, every
 *      quantile is thin, and no interval bound is finite. Not an error.
 *   3. N = 1: every quantile is the value; the interval follows rule 6
 *      unchanged: for 0.025 <= q <= 0.975 at 95% neither bound is finite
 *      (one value cannot bracket a quantile), for q < 0.025 the value is
 *      an upper bound, for q > 0.975 a lower bound.
 *   4. NaN / infinity: never silently used. pct_summary() and
 *      pct_check_sorted() refuse them (and unsorted input) with COW_EUSAGE
 *      naming the index; pct_quantile() returns NaN for a NaN q.
 *   5. Thin: a quantile is thin when n (1 - q) < COW_PCT_THIN_TAIL, i.e.
 *      fewer than 10 samples are expected above it. With n = 705, type-7
 *      p99.9 sits at h = 703.296, between the two largest values.
 *   6. Quantile interval. B ~ Binomial(n, q) counts samples below the true
 *      quantile xi (continuous distribution), so for 1-based order
 *      statistics P(X(l) <= xi < X(u)) = P(l <= B < u) whatever the
 *      distribution. With tail = (1 - conf) / 2 we take equal tails:
 *      l = the largest rank with P(B < l) <= tail, u = the smallest rank
 *      with P(B >= u) <= tail, so P(l <= B < u) >= conf and l < u. No rank
 *      l >= 1 exists when (1-q)^n > tail (no finite lower bound), no rank
 *      u <= n when q^n > tail (no finite upper bound: even the maximum is
 *      below xi with probability q^n). Hence the smallest n with both
 *      finite is max(ceil(log tail / log q), ceil(log tail / log(1-q))):
 *      368 for p99, 3688 for p99.9, 36887 for p99.99 at 95%.
 *   7. Binomial tails are summed in log space (lgamma for the first term,
 *      then the ratio pmf(k+1)/pmf(k) = (n-k)/(k+1) * q/(1-q)), only over
 *      k within nq +- (12 sd + 60): by Bernstein's inequality the mass
 *      outside is below 2 exp(-72) ~ 1e-31, far under any tail we compare
 *      with. Work is O(sqrt(n q (1-q)) + 60) per bound, O(n) at worst.
 *      Relative accuracy of the tail sums is ~1e-7 at n = 1e7 (lgamma of
 *      1e7 carries an absolute error ~1e-8); a rank can only differ from
 *      the exact one when a tail lies within that of `tail`.
 *   8. Exceedance: count of values strictly above the threshold (binary
 *      search), with the Clopper-Pearson interval: lo = I^-1(tail; x,
 *      n-x+1), hi = I^-1(1-tail; x+1, n-x), 0 and 1 at x = 0 and x = n.
 *      I is the regularized incomplete beta by Lentz's continued fraction
 *      (Numerical Recipes 6.4), inverted by bisection.
 *   9. Grid: the largest step among {1,2,5} x 10^e (e = -9..9) and the
 *      smallest gap between distinct values such that every value is a
 *      whole multiple of it within 1e-6 of a step.
 *  10. Dependence: pct_quantile_ci_m() takes the ranks of Requirement 6
 *      for floor(n_eff) samples and moves them to the same relative
 *      position among the n (outward), the interval a quantile of n_eff
 *      independent samples would have, read off the data (dep.h says
 *      where n_eff comes from). */
#include "pct.h"

#include <math.h>

/* ---------- definitions ---------- */

static const double levels[COW_PCT_NLEVELS] = {0.5, 0.9, 0.99, 0.999, 0.9999};
static const char *const level_names[COW_PCT_NLEVELS] = {
    "p50", "p90", "p99", "p99.9", "p99.99"};

double pct_level(int i)
{
    return i >= 0 && i < COW_PCT_NLEVELS ? levels[i] : NAN;
}

const char *pct_level_name(int i)
{
    return i >= 0 && i < COW_PCT_NLEVELS ? level_names[i] : "?";
}

/* numpy's _lerp: exact at both ends and monotone in g. */
double pct_lerp(double a, double b, double g)
{
    double d = b - a;
    return g >= 0.5 ? b - d * (1.0 - g) : a + d * g;
}

static double quantile_linear(const double *x, size_t n, double q)
{
    /* Requirement 1: same operations as numpy 1.24 _quantile "linear" */
    double h = (double)(n - 1) * q;
    double lo = floor(h);

    if (h >= (double)(n - 1))
        return x[n - 1];
    return pct_lerp(x[(size_t)lo], x[(size_t)lo + 1], h - lo);
}

static double quantile_nearest(const double *x, size_t n, double q)
{
    /* Requirement 1: numpy _inverted_cdf: index n*q - 1, rounded up
     * unless it is whole, clipped at 0 */
    double v = (double)n * q - 1.0;
    double prev = floor(v);
    double idx = (v - prev == 0.0) ? prev : prev + 1.0;

    if (idx < 0.0)
        idx = 0.0;
    if (idx > (double)(n - 1))
        idx = (double)(n - 1);
    return x[(size_t)idx];
}

double pct_quantile(const double *sorted, size_t n, double q, int method)
{
    if (n == 0 || !(q >= 0.0 && q <= 1.0)) /* Requirements 2, 4 */
        return NAN;
    if (method == COW_PCT_LINEAR)
        return quantile_linear(sorted, n, q);
    if (method == COW_PCT_NEAREST)
        return quantile_nearest(sorted, n, q);
    return NAN;
}

static int is_thin(size_t n, double q)
{
    return (double)n * (1.0 - q) < COW_PCT_THIN_TAIL; /* Requirement 5 */
}

int pct_check_sorted(const double *sorted, size_t n, cow_err *e)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (!isfinite(sorted[i])) /* Requirement 4 */
            return COW_FAIL(e, COW_EUSAGE,
                            "value %zu of %zu is %g: drop non-finite values "
                            "before computing quantiles", i, n, sorted[i]);
        if (i > 0 && sorted[i] < sorted[i - 1])
            return COW_FAIL(e, COW_EUSAGE,
                            "values are not sorted at index %zu (%g after %g)",
                            i, sorted[i], sorted[i - 1]);
    }
    return COW_OK;
}

/* Neumaier's compensated sum: the mean of a million latencies should not
 * depend on their order in the last digits. */
static double mean_of(const double *x, size_t n)
{
    double s = 0.0, c = 0.0;
    size_t i;

    for (i = 0; i < n; i++) {
        double t = s + x[i];
        c += fabs(s) >= fabs(x[i]) ? (s - t) + x[i] : (x[i] - t) + s;
        s = t;
    }
    return (s + c) / (double)n;
}

int pct_summary(const double *sorted, size_t n, int method,
                cow_pct_summary *out, cow_err *e)
{
    int i, rc;

    if (method != COW_PCT_LINEAR && method != COW_PCT_NEAREST)
        return COW_FAIL(e, COW_EUSAGE, "unknown quantile method %d", method);
    if ((rc = pct_check_sorted(sorted, n, e)) != COW_OK)
        return rc;
    out->n = n;
    out->method = method;
    out->mean = n ? mean_of(sorted, n) : NAN; /* Requirement 2 */
    out->min = n ? sorted[0] : NAN;
    out->max = n ? sorted[n - 1] : NAN;
    for (i = 0; i < COW_PCT_NLEVELS; i++) {
        out->v[i] = pct_quantile(sorted, n, levels[i], method);
        out->thin[i] = is_thin(n, levels[i]);
    }
    return COW_OK;
}

/* log|Gamma(x)|. lgamma() keeps the sign in the global signgam, a data
 * race when runs are analysed on several threads; lgamma_r returns the
 * same value and keeps the sign in a local. */
static double lgam(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}

/* ---------- binomial order-statistic interval (Requirements 6, 7) ---------- */

static double log_pmf(size_t n, size_t k, double lq, double l1q)
{
    return lgam((double)n + 1.0) - lgam((double)k + 1.0) -
           lgam((double)(n - k) + 1.0) + (double)k * lq + (double)(n - k) * l1q;
}

/* [k0, k1]: where all but ~1e-31 of Binomial(n, q) lies (Requirement 7). */
static void bin_window(size_t n, double q, size_t *k0, size_t *k1)
{
    double mu = (double)n * q;
    double t = 12.0 * sqrt(mu * (1.0 - q)) + 60.0;

    *k0 = mu - t <= 0.0 ? 0 : (size_t)floor(mu - t);
    *k1 = mu + t >= (double)n ? n : (size_t)ceil(mu + t);
}

/* Largest l in 1..n with P(B < l) <= tail, or 0 when P(B = 0) > tail.
 * *below = P(B < l). */
static size_t lower_rank(size_t n, double q, double tail, double *below)
{
    double lq = log(q), l1q = log1p(-q), F = 0.0, lp;
    size_t k0, k1, k;

    bin_window(n, q, &k0, &k1);
    lp = log_pmf(n, k0, lq, l1q);
    for (k = k0; k < n; k++) {
        double p = exp(lp);
        if (F + p > tail)
            break;
        F += p;
        lp += log((double)(n - k)) - log((double)(k + 1)) + lq - l1q;
    }
    *below = F;
    return k;
}

/* Smallest u in 1..n with P(B >= u) <= tail, or n + 1 when P(B = n) >
 * tail. *above = P(B >= u). */
static size_t upper_rank(size_t n, double q, double tail, double *above)
{
    double lq = log(q), l1q = log1p(-q), S = 0.0, lp;
    size_t k0, k1, k;

    bin_window(n, q, &k0, &k1);
    lp = log_pmf(n, k1, lq, l1q);
    for (k = k1; k > 0; k--) {
        double p = exp(lp);
        if (S + p > tail)
            break;
        S += p;
        lp += log((double)k) - log((double)(n - k + 1)) + l1q - lq;
    }
    *above = S;
    return k + 1;
}

size_t pct_ci_min_n(double q, double conf)
{
    double tail = (1.0 - conf) / 2.0;
    double worst;
    double n;

    if (!(q > 0.0 && q < 1.0) || !(conf > 0.0 && conf < 1.0))
        return 0;
    /* Requirement 6: need q^n <= tail and (1-q)^n <= tail */
    worst = q > 0.5 ? q : 1.0 - q;
    n = ceil(log(tail) / log(worst));
    if (n < 1.0)
        n = 1.0;
    /* the division can land one off; settle on the exact boundary */
    while (n > 1.0 && pow(worst, n - 1.0) <= tail)
        n -= 1.0;
    while (pow(worst, n) > tail)
        n += 1.0;
    return (size_t)n;
}

static void qci_empty(cow_qci *out, size_t n, double q, double conf)
{
    out->q = q;
    out->conf = conf;
    out->n = n;
    out->est = NAN;
    out->has_lo = out->has_hi = 0;
    out->lo_rank = out->hi_rank = 0;
    out->lo = -INFINITY;
    out->hi = INFINITY;
    out->coverage = n ? 1.0 : 0.0;
    out->max_conf = n ? -expm1((double)n * log(q)) : 0.0;
    out->n_needed = pct_ci_min_n(q, conf);
    out->thin = is_thin(n, q);
    out->n_eff = (double)n;
}

int pct_quantile_ci(const double *sorted, size_t n, double q, double conf,
                    cow_qci *out, cow_err *e)
{
    double tail = (1.0 - conf) / 2.0, below, above;
    size_t l, u;

    if (!(q > 0.0 && q < 1.0))
        return COW_FAIL(e, COW_EUSAGE,
                        "quantile interval needs 0 < q < 1, got %g", q);
    if (!(conf > 0.0 && conf < 1.0))
        return COW_FAIL(e, COW_EUSAGE,
                        "confidence must be between 0 and 1, got %g", conf);
    qci_empty(out, n, q, conf);
    if (n == 0) /* Requirement 2 */
        return COW_OK;
    /* Requirement 3 needs no case of its own: the walks handle n = 1 */
    out->est = quantile_linear(sorted, n, q);
    l = lower_rank(n, q, tail, &below);
    u = upper_rank(n, q, tail, &above);
    if (l >= 1) {
        out->has_lo = 1;
        out->lo_rank = l;
        out->lo = sorted[l - 1];
    }
    if (u <= n) {
        out->has_hi = 1;
        out->hi_rank = u;
        out->hi = sorted[u - 1];
    }
    out->coverage = 1.0 - below - above;
    return COW_OK;
}

int pct_ci_ranks(size_t n, double q, double conf, size_t *lo_rank, size_t *hi_rank)
{
    double tail = (1.0 - conf) / 2.0, below, above;
    size_t l, u;

    *lo_rank = *hi_rank = 0;
    if (!(q > 0.0 && q < 1.0) || !(conf > 0.0 && conf < 1.0) || n == 0)
        return 0;
    l = lower_rank(n, q, tail, &below);
    u = upper_rank(n, q, tail, &above);
    *lo_rank = l >= 1 ? l : 0;
    *hi_rank = u <= n ? u : 0;
    return *lo_rank > 0 && *hi_rank > 0;
}

/* ---------- exceedance (Requirement 8) ---------- */

int pct_quantile_ci_m(const double *sorted, size_t n, double n_eff, double q,
                      double conf, cow_qci *out, cow_err *e)
{
    double tail = (1.0 - conf) / 2.0, below, above, sc;
    size_t m, l, u;
    int rc;

    if ((rc = pct_quantile_ci(sorted, n, q, conf, out, e)) != COW_OK)
        return rc;
    out->n_eff = (double)n;
    if (n == 0 || !(n_eff < (double)n)) /* Requirement 10 */
        return COW_OK;
    m = n_eff < 1.0 ? 1 : (size_t)floor(n_eff);
    out->n_eff = n_eff;
    out->thin = n_eff * (1.0 - q) < COW_PCT_THIN_TAIL;
    l = lower_rank(m, q, tail, &below);
    u = upper_rank(m, q, tail, &above);
    sc = (double)(n + 1) / (double)(m + 1);
    out->has_lo = out->has_hi = 0;
    out->lo_rank = out->hi_rank = 0;
    out->lo = -INFINITY;
    out->hi = INFINITY;
    if (l >= 1) {
        double r = floor((double)l * sc);
        out->has_lo = 1;
        out->lo_rank = r < 1 ? 1 : (size_t)r;
        out->lo = sorted[out->lo_rank - 1];
    }
    if (u <= m) {
        double r = ceil((double)u * sc);
        out->has_hi = 1;
        out->hi_rank = r > (double)n ? n : (size_t)r;
        out->hi = sorted[out->hi_rank - 1];
    }
    out->coverage = 1.0 - below - above;
    out->max_conf = 1.0 - pow(q, (double)m);
    return COW_OK;
}

size_t pct_count_above(const double *sorted, size_t n, double threshold)
{
    size_t lo = 0, hi = n; /* first index with value > threshold */

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] > threshold)
            hi = mid;
        else
            lo = mid + 1;
    }
    return n - lo;
}

#define CF_EPS 1e-15
#define CF_TINY 1e-300

static double cf_guard(double v)
{
    return fabs(v) < CF_TINY ? CF_TINY : v;
}

/* Continued fraction for I_x(a,b) (Numerical Recipes 6.4, modified Lentz).
 * It converges in O(sqrt(max(a,b))) terms for x < (a+1)/(a+b+2); the
 * limit allows ten times that. Returns NaN when it does not converge. */
static double betacf(double a, double b, double x)
{
    double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 / cf_guard(1.0 - qab * x / qap), h = d;
    double limit = 100.0 + 10.0 * sqrt(fmax(a, b));
    double m;

    for (m = 1.0; m <= limit; m += 1.0) {
        double m2 = 2.0 * m, aa, del;
        aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / cf_guard(1.0 + aa * d);
        c = cf_guard(1.0 + aa / c);
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / cf_guard(1.0 + aa * d);
        c = cf_guard(1.0 + aa / c);
        del = d * c;
        h *= del;
        if (fabs(del - 1.0) < CF_EPS)
            return h;
    }
    return NAN;
}

double pct_betainc(double x, double a, double b)
{
    double lbt;

    if (!(a > 0.0 && b > 0.0 && x >= 0.0 && x <= 1.0) || isinf(a) || isinf(b))
        return NAN;
    if (x == 0.0 || x == 1.0)
        return x;
    lbt = lgam(a + b) - lgam(a) - lgam(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1.0) / (a + b + 2.0))
        return exp(lbt) * betacf(a, b, x) / a;
    return 1.0 - exp(lbt) * betacf(b, a, 1.0 - x) / b;
}

double pct_betainc_inv(double p, double a, double b)
{
    double lo = 0.0, hi = 1.0;
    int i;

    if (!(p >= 0.0 && p <= 1.0) || !(a > 0.0 && b > 0.0))
        return NAN;
    /* I_x is increasing in x: halve until neighbours or 1e-15 relative.
     * 1100 halvings reach the smallest normal double from [0,1]. */
    for (i = 0; i < 1100; i++) {
        double mid = lo + (hi - lo) / 2.0;
        double v;
        if (mid <= lo || mid >= hi || hi - lo <= 1e-15 * hi)
            break;
        v = pct_betainc(mid, a, b);
        if (isnan(v))
            return NAN;
        if (v < p)
            lo = mid;
        else
            hi = mid;
    }
    return lo + (hi - lo) / 2.0;
}

int pct_exceed(const double *sorted, size_t n, double threshold, double conf,
               cow_exceed *out, cow_err *e)
{
    double tail = (1.0 - conf) / 2.0, x, nn = (double)n;

    if (isnan(threshold))
        return COW_FAIL(e, COW_EUSAGE, "exceedance threshold is NaN");
    if (!(conf > 0.0 && conf < 1.0))
        return COW_FAIL(e, COW_EUSAGE,
                        "confidence must be between 0 and 1, got %g", conf);
    out->threshold = threshold;
    out->n = n;
    out->conf = conf;
    out->count = pct_count_above(sorted, n, threshold);
    x = (double)out->count;
    if (n == 0) { /* Requirement 2: nothing is known about the proportion */
        out->p = NAN;
        out->lo = 0.0;
        out->hi = 1.0;
        return COW_OK;
    }
    out->p = x / nn;
    out->lo = out->count == 0 ? 0.0 : pct_betainc_inv(tail, x, nn - x + 1.0);
    out->hi = out->count == n ? 1.0 : pct_betainc_inv(1.0 - tail, x + 1.0, nn - x);
    if (isnan(out->lo) || isnan(out->hi))
        return COW_FAIL(e, COW_EINTERNAL,
                        "incomplete beta did not converge for %zu of %zu",
                        out->count, n);
    return COW_OK;
}

/* ---------- grid (Requirement 9) ---------- */

static int on_grid(const double *x, size_t n, double step)
{
    size_t i;

    for (i = 0; i < n; i++) {
        double r = x[i] / step;
        if (fabs(r) > 1e12 || fabs(r - nearbyint(r)) > 1e-6)
            return 0;
    }
    return 1;
}

static double min_gap(const double *x, size_t n)
{
    double g = INFINITY;
    size_t i;

    for (i = 1; i < n; i++)
        if (x[i] > x[i - 1] && x[i] - x[i - 1] < g)
            g = x[i] - x[i - 1];
    return g;
}

static double find_step(const double *x, size_t n, double maxabs)
{
    static const double mant[3] = {5.0, 2.0, 1.0};
    double gap = min_gap(x, n), best = 0.0;
    int ex, j;

    for (ex = 9; ex >= -9 && best == 0.0; ex--)
        for (j = 0; j < 3 && best == 0.0; j++) {
            double step = mant[j] * pow(10.0, ex);
            if (step <= maxabs && on_grid(x, n, step))
                best = step;
        }
    /* Any step that fits divides the smallest gap, so the gap is the
     * largest possible step. Prefer the round decade step unless the gap
     * is really larger (0.25 ms ticks): a difference of two decimals
     * carries rounding noise (11.23 - 11.22 = 0.0099999999999998). */
    if (isfinite(gap) && gap > best * (1.0 + 1e-6) && on_grid(x, n, gap))
        return gap;
    return best;
}

int pct_grid(const double *sorted, size_t n, cow_grid *out, cow_err *e)
{
    double maxabs, med;
    size_t i;
    int rc;

    if ((rc = pct_check_sorted(sorted, n, e)) != COW_OK)
        return rc;
    out->step = 0.0;
    out->coarse = 0;
    out->distinct = n ? 1 : 0;
    for (i = 1; i < n; i++)
        out->distinct += sorted[i] != sorted[i - 1];
    if (out->distinct < 2) /* one value: no step can be seen */
        return COW_OK;
    maxabs = fmax(fabs(sorted[0]), fabs(sorted[n - 1]));
    out->step = find_step(sorted, n, maxabs);
    med = fabs(quantile_linear(sorted, n, 0.5));
    out->coarse = out->step > 0.0 && out->step >= 0.01 * med;
    return COW_OK;
}
