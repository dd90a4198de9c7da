/* boot.c -- bootstrap of a quantile and of a quantile's delta between two
 * groups, with a verdict. Exports the boot_* functions of boot.h.
 *
 * Requirements (cited in the code as "Requirement N"):
 *   1. Definition: the statistic is the type-7 quantile (pct.h) of a
 *      bootstrap resample: n draws with replacement from the data. The
 *      interval is the percentile method: with R replicates sorted and
 *      k = floor((R+1)(1-conf)/2) (at least 1), [rep(k), rep(R+1-k)]
 *      (1-based), e.g. the 250th and 9750th of 9999 (Davison & Hinkley
 *      1997, sec. 5.2). The delta is phase minus baseline; the ratio is
 *      phase over baseline.
 *   2. N = 0 (either group): NaN estimates and bounds, verdict NA, return
 *      0. N = 1: every replicate is the value; the interval is a point.
 *   3. Fast path, exact in distribution (not an approximation). Proof:
 *      (a) With U uniform on (0,1), Qn(U) = x(ceil(nU)) (1-based sorted
 *          data) takes each of the n values with probability 1/n, so a
 *          resample is Qn(U1), ..., Qn(Un) for iid uniforms.
 *      (b) Qn is nondecreasing, so the j-th smallest resampled value is
 *          Qn(U(j)), the image of the j-th smallest uniform.
 *      (c) U(k) ~ Beta(k, n-k+1).
 *      (d) Given U(k) = u, the n-k uniforms above it are iid uniform on
 *          (u, 1): the joint order-statistic density n! on 0<u1<..<un<1
 *          divided by the density of U(k) leaves (n-k)!/(1-u)^(n-k) on
 *          u<u(k+1)<..<u(n)<1, the order-statistic density of n-k iid
 *          Uniform(u,1) draws. Their minimum is U(k+1) = u + (1-u) V with
 *          V the minimum of n-k standard uniforms: P(V > v) = (1-v)^(n-k),
 *          i.e. V ~ Beta(1, n-k) = 1 - W^(1/(n-k)), W uniform.
 *      (e) The type-7 quantile at h = (n-1)q, k = floor(h) + 1, needs only
 *          the k-th and (k+1)-th smallest resampled values; so one Beta
 *          draw, one uniform and two array reads give a replicate: O(1).
 *      In 0-based indexing Qn(u) is sorted[ceil(n u) - 1]. DESIGN.md's
 *      floor(n u) is the same index except when n u is whole, an event of
 *      probability ~2^-53 per draw; we use the ceil form because it is Qn.
 *   4. Oracle: boot_draw_quantile_resample() draws n indices uniformly
 *      (rng_below) and selects; tests compare the two distributions.
 *   5. Seed: replicates come from rng streams of the caller's seed only
 *      (baseline stream 1, phase stream 2), so results are bit-identical
 *      for one (data, q, R, seed), and a group's replicates do not depend
 *      on the other group.
 *   6. Verdict: LIFT when the delta interval is above 0, DROP when below,
 *      FLAT ("~") when it holds 0, NA when a group is empty.
 *   8. Dependence: boot_draw_quantile_m() draws the order statistic of m
 *      (an effective sample size, m <= n) uniforms, U ~ Beta(k, m-k+1)
 *      with k from (m-1) q, and reads it through Qn of all n values: the
 *      replicate has the spread of a quantile of m independent samples,
 *      which is what n serially dependent ones carry (dep.h). m = n is
 *      the plain bootstrap, bit for bit. One-sided p-values of the delta
 *      against a shift s are (1 + #{d <= s}) / (R + 1) and the mirror.
 *   9. Shared baseline: one group's replicates may be drawn once
 *      (boot_group_replicates, stream 1 of the seed given there) and used
 *      against several others (boot_quantile_delta_ma); each delta's
 *      replicates are then still independent draws of both groups, so each
 *      interval is the same in distribution; only the intervals of two
 *      comparisons with one baseline are no longer independent of each
 *      other (they never were meant to be: each is read on its own).
 *   7. NaN / infinity: the data must be sorted and finite (pct.h); the two
 *      ends are checked (COW_EUSAGE), which catches infinities; a NaN
 *      inside is the caller's contract (pct_check_sorted). */
#include "boot.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "mem.h"
#include "pct.h"

/* ---------- one replicate ---------- */

/* Qn(u) in 0-based indexing (Requirement 3a). The clamp only matters when
 * n u rounds to a whole number at an end. */
static size_t ecdf_index(size_t n, double u)
{
    double x = (double)n * u;
    size_t c;

    if (!(x > 0.0)) /* also a NaN u */
        return 0;
    if (x >= (double)n)
        return n - 1;
    c = (size_t)x; /* ceil(x) without the libm call: truncate, round up */
    return ((double)c < x ? c + 1 : c) - 1;
}

/* One group's replicate draw with what does not change from draw to draw
 * computed once (draw_init); draw() is boot_draw_quantile_m's draw. */
typedef struct drawer {
    const double *x;
    size_t n;
    enum { D_ONE, D_UNIFORM, D_MAX, D_ORDER } kind;
    double g;         /* interpolation weight of the type-7 quantile */
    double mk;        /* m - k: U(k+1) from U(k) */
    cow_beta beta;    /* U(k) ~ Beta(k, m-k+1), or U(m) ~ Beta(m, 1) */
} drawer;

static void draw_init(drawer *d, const double *sorted, size_t n, double m, double q)
{
    double h = (m - 1.0) * q, lo = floor(h), k;

    d->x = sorted;
    d->n = n;
    d->g = h - lo;
    d->mk = 0.0;
    if (n == 1) {
        d->kind = D_ONE; /* Requirement 2 */
    } else if (m < 2.0) {
        d->kind = D_UNIFORM; /* one effective sample: one draw */
    } else if (h >= m - 1.0) {
        d->kind = D_MAX; /* q = 1: the resample maximum, U(m) ~ Beta(m,1) */
        rng_beta_init(&d->beta, m, 1.0);
    } else {
        d->kind = D_ORDER;
        k = lo + 1.0; /* 1-based rank of the lower order statistic */
        rng_beta_init(&d->beta, k, m - k + 1.0); /* Requirement 3c */
        d->mk = m - k;
    }
}

static double draw(const drawer *d, cow_rng *r)
{
    double u, v, a;

    switch (d->kind) {
    case D_ONE:
        return d->x[0];
    case D_UNIFORM:
        return d->x[ecdf_index(d->n, rng_uniform(r))];
    case D_MAX:
        return d->x[ecdf_index(d->n, rng_beta_draw(r, &d->beta))];
    case D_ORDER:
        break;
    }
    u = rng_beta_draw(r, &d->beta);
    a = d->x[ecdf_index(d->n, u)];
    if (d->g == 0.0)
        return a;
    /* Requirement 3d: U(k+1) = u + (1-u) V, V = 1 - W^(1/(m-k)); with
     * W = exp(-E), E ~ Exp(1): V = -expm1(-E / (m-k)) */
    v = -expm1(-rng_exp(r) / d->mk);
    return pct_lerp(a, d->x[ecdf_index(d->n, u + (1.0 - u) * v)], d->g);
}

double boot_draw_quantile_m(const double *sorted, size_t n, double m, double q,
                            cow_rng *r)
{
    drawer d;
    draw_init(&d, sorted, n, m, q);
    return draw(&d, r);
}

double boot_draw_quantile(const double *sorted, size_t n, double q, cow_rng *r)
{
    return boot_draw_quantile_m(sorted, n, (double)n, q, r);
}

/* Wirth's selection: afterwards a[k] is the k-th smallest (0-based), all
 * before it are <= and all after it >=. Signed indices because j steps
 * below l. Expected O(n) on the randomly ordered resample. */
static double select_kth(double *a, size_t n, size_t k)
{
    ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

    while (l < m) {
        double x = a[kk];
        ptrdiff_t i = l, j = m;
        do {
            while (a[i] < x)
                i++;
            while (x < a[j])
                j--;
            if (i <= j) {
                double t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < kk)
            l = i;
        if (kk < i)
            m = j;
    }
    return a[kk];
}

double boot_draw_quantile_resample(const double *sorted, size_t n, double q,
                                   cow_rng *r, double *scratch)
{
    double h = (double)(n - 1) * q, lo = floor(h), g = h - lo, a, b;
    size_t i, k;

    for (i = 0; i < n; i++) /* Requirement 4: the plain bootstrap */
        scratch[i] = sorted[rng_below(r, n)];
    if (h >= (double)(n - 1))
        return select_kth(scratch, n, n - 1);
    k = (size_t)lo;
    a = select_kth(scratch, n, k);
    if (g == 0.0)
        return a;
    b = scratch[k + 1];
    for (i = k + 2; i < n; i++)
        if (scratch[i] < b)
            b = scratch[i];
    return pct_lerp(a, b, g);
}

/* ---------- intervals ---------- */

static int check_args(const double *x, size_t n, double q, int resamples,
                      cow_err *e)
{
    if (!(q >= 0.0 && q <= 1.0))
        return COW_FAIL(e, COW_EUSAGE, "quantile must be in [0,1], got %g", q);
    if (resamples < 1 || resamples > COW_BOOT_MAX_RESAMPLES)
        return COW_FAIL(e, COW_EUSAGE,
                        "resamples must be between 1 and %d, got %d",
                        COW_BOOT_MAX_RESAMPLES, resamples);
    if (n > 0 && (!isfinite(x[0]) || !isfinite(x[n - 1]) || x[0] > x[n - 1]))
        return COW_FAIL(e, COW_EUSAGE, /* Requirement 7 */
                        "bootstrap input must be sorted and finite "
                        "(first %g, last %g)", x[0], x[n - 1]);
    return COW_OK;
}

int boot_replicates(const double *sorted, size_t n, double q, cow_rng *r,
                    int oracle, double *out, size_t reps, cow_err *e)
{
    double *scratch = NULL;
    size_t i;
    int rc;

    if (n == 0)
        return COW_FAIL(e, COW_EUSAGE, "cannot resample an empty group");
    if ((rc = check_args(sorted, n, q, 1, e)) != COW_OK)
        return rc;
    if (oracle)
        scratch = xmalloc(n * sizeof(double));
    for (i = 0; i < reps; i++)
        out[i] = oracle ? boot_draw_quantile_resample(sorted, n, q, r, scratch)
                        : boot_draw_quantile(sorted, n, q, r);
    free(scratch);
    return COW_OK;
}

/* Requirement 1: the percentile-method bounds, the k-th smallest and
 * k-th largest of the R replicates (selected in place: v is reordered,
 * not sorted; the two order statistics are what a sort would give, and
 * the replicates are in random order, select_kth's good case). */
static void percentile_ci(double *v, size_t reps, double *lo, double *hi)
{
    double kf = floor((double)(reps + 1) * (1.0 - COW_BOOT_CONF) / 2.0 + 1e-9);
    size_t k = kf < 1.0 ? 1 : (size_t)kf;

    if (k > reps)
        k = reps;
    select_kth(v, reps, k - 1);
    *lo = v[k - 1];
    /* everything at or above v[k - 1] is in v[k - 1..reps) */
    select_kth(v + (k - 1), reps - (k - 1), reps - k - (k - 1));
    *hi = v[reps - k];
}

static void mean_sd(const double *v, size_t reps, double *mean, double *sd)
{
    double m = 0.0, ss = 0.0;
    size_t i;

    for (i = 0; i < reps; i++)
        m += v[i];
    m /= (double)reps;
    for (i = 0; i < reps; i++)
        ss += (v[i] - m) * (v[i] - m);
    *mean = m;
    *sd = reps > 1 ? sqrt(ss / (double)(reps - 1)) : 0.0;
}

static void draw_group(const double *x, size_t n, double m, double q,
                       uint64_t seed, uint64_t stream, double *out, size_t reps)
{
    cow_rng r;
    drawer d;
    size_t i;

    rng_seed(&r, seed, stream); /* Requirement 5 */
    draw_init(&d, x, n, m, q);
    for (i = 0; i < reps; i++)
        out[i] = draw(&d, &r);
}

static void ci_fill(cow_boot_ci *out, double *reps_v, size_t reps)
{
    mean_sd(reps_v, reps, &out->mean, &out->sd);
    percentile_ci(reps_v, reps, &out->lo, &out->hi);
}

int boot_quantile(const double *sorted, size_t n, double q, int resamples,
                  uint64_t seed, cow_boot_ci *out, cow_err *e)
{
    double *v;
    int rc;

    if ((rc = check_args(sorted, n, q, resamples, e)) != COW_OK)
        return rc;
    out->q = q;
    out->n = n;
    out->resamples = resamples;
    out->thin = (double)n * (1.0 - q) < COW_PCT_THIN_TAIL;
    out->est = out->lo = out->hi = out->mean = out->sd = NAN;
    if (n == 0) /* Requirement 2 */
        return COW_OK;
    out->est = pct_quantile(sorted, n, q, COW_PCT_LINEAR);
    v = xmalloc((size_t)resamples * sizeof(double));
    draw_group(sorted, n, (double)n, q, seed, 1, v, (size_t)resamples);
    ci_fill(out, v, (size_t)resamples);
    free(v);
    return COW_OK;
}

/* ---------- delta between groups ---------- */

int boot_verdict(double lo, double hi)
{
    if (isnan(lo) || isnan(hi))
        return COW_VERDICT_NA;
    if (lo > 0.0)
        return COW_VERDICT_LIFT;
    if (hi < 0.0)
        return COW_VERDICT_DROP;
    return COW_VERDICT_FLAT; /* Requirement 6 */
}

const char *boot_verdict_name(int v)
{
    switch ((enum cow_verdict)v) {
    case COW_VERDICT_NA: return "n/a";
    case COW_VERDICT_FLAT: return "flat";
    case COW_VERDICT_LIFT: return "lift";
    case COW_VERDICT_DROP: return "drop";
    case COW_VERDICT_UNSURE: return "unsure";
    }
    return "?";
}

int boot_verdict_of(const char *name)
{
    int v;
    if (name == NULL)
        return COW_VERDICT_NA;
    for (v = COW_VERDICT_FLAT; v <= COW_VERDICT_UNSURE; v++)
        if (strcmp(name, boot_verdict_name(v)) == 0)
            return v;
    return COW_VERDICT_NA;
}

const char *boot_verdict_symbol(int v)
{
    if (v == COW_VERDICT_UNSURE)
        return "?";
    return v == COW_VERDICT_FLAT ? "~" : boot_verdict_name(v);
}

static void delta_empty(cow_boot_result *out, size_t na, size_t nb, double q,
                        int resamples, uint64_t seed)
{
    out->q = q;
    out->resamples = resamples;
    out->seed = seed;
    out->conf = COW_BOOT_CONF;
    out->na = na;
    out->nb = nb;
    out->est_a = out->est_b = out->delta = out->ratio = NAN;
    out->a_lo = out->a_hi = out->b_lo = out->b_hi = NAN;
    out->delta_lo = out->delta_hi = out->ratio_lo = out->ratio_hi = NAN;
    out->verdict = COW_VERDICT_NA;
    out->neff_a = (double)na;
    out->neff_b = (double)nb;
    out->shift = 0.0;
    out->p_up = out->p_down = NAN;
    out->thin = (double)(na < nb ? na : nb) * (1.0 - q) < COW_PCT_THIN_TAIL;
}

/* From the per-group replicates ra, rb (R each, untouched), the delta and
 * ratio intervals and one-sided p-values. d is R doubles of scratch. */
static void delta_fill(cow_boot_result *out, const double *ra, const double *rb,
                       double *d, size_t reps)
{
    size_t i, le = 0, ge = 0;
    int ratio_ok = 1;

    for (i = 0; i < reps; i++) {
        d[i] = rb[i] - ra[i];
        le += d[i] <= out->shift; /* Requirement 8 */
        ge += d[i] >= out->shift;
    }
    out->p_up = (double)(1 + le) / (double)(reps + 1);
    out->p_down = (double)(1 + ge) / (double)(reps + 1);
    percentile_ci(d, reps, &out->delta_lo, &out->delta_hi);
    for (i = 0; i < reps; i++) {
        ratio_ok &= ra[i] > 0.0;
        d[i] = rb[i] / ra[i];
    }
    if (ratio_ok)
        percentile_ci(d, reps, &out->ratio_lo, &out->ratio_hi);
    out->verdict = boot_verdict(out->delta_lo, out->delta_hi);
}


/* The point estimates of a delta (Requirement 2 for empty groups); 0 on
 * success, with *go set when both groups have values to resample. */
static int delta_point(const double *a_sorted, size_t na, double ma,
                       const double *b_sorted, size_t nb, double mb, double q,
                       double shift, int resamples, uint64_t seed,
                       cow_boot_result *out, int *go, cow_err *e)
{
    int rc;

    *go = 0;
    if ((rc = check_args(a_sorted, na, q, resamples, e)) != COW_OK ||
        (rc = check_args(b_sorted, nb, q, resamples, e)) != COW_OK)
        return rc;
    delta_empty(out, na, nb, q, resamples, seed);
    out->neff_a = ma > (double)na ? (double)na : ma;
    out->neff_b = mb > (double)nb ? (double)nb : mb;
    out->shift = shift;
    if (na == 0 || nb == 0) /* Requirement 2 */
        return COW_OK;
    out->est_a = pct_quantile(a_sorted, na, q, COW_PCT_LINEAR);
    out->est_b = pct_quantile(b_sorted, nb, q, COW_PCT_LINEAR);
    out->delta = out->est_b - out->est_a;
    if (out->est_a > 0.0)
        out->ratio = out->est_b / out->est_a;
    *go = 1;
    return COW_OK;
}

int boot_quantile_delta_est(const double *a_sorted, size_t na, double ma,
                            const double *b_sorted, size_t nb, double mb,
                            double q, double shift, int resamples, uint64_t seed,
                            cow_boot_result *out, cow_err *e)
{
    int go;
    return delta_point(a_sorted, na, ma, b_sorted, nb, mb, q, shift, resamples, seed,
                       out, &go, e);
}

/* ra: a's replicates (Requirement 9), or NULL to draw them here */
static int delta_boot(const double *a_sorted, size_t na, double ma,
                      const double *b_sorted, size_t nb, double mb, double q,
                      double shift, int resamples, uint64_t seed, int groups,
                      const double *ra, cow_boot_result *out, cow_err *e)
{
    size_t reps = (size_t)resamples;
    double *buf;
    int rc, go;

    if ((rc = delta_point(a_sorted, na, ma, b_sorted, nb, mb, q, shift, resamples,
                          seed, out, &go, e)) != COW_OK || !go)
        return rc;
    buf = xmalloc((ra ? 2 : 3) * reps * sizeof(double));
    if (ra == NULL) {
        draw_group(a_sorted, na, out->neff_a, q, seed, 1, buf + 2 * reps, reps);
        ra = buf + 2 * reps;
    }
    draw_group(b_sorted, nb, out->neff_b, q, seed, 2, buf, reps);
    delta_fill(out, ra, buf, buf + reps, reps);
    if (groups) { /* a's own here: ra points into buf */
        percentile_ci(buf + 2 * reps, reps, &out->a_lo, &out->a_hi);
        percentile_ci(buf, reps, &out->b_lo, &out->b_hi);
    }
    free(buf);
    return COW_OK;
}

void boot_group_replicates(const double *sorted, size_t n, double m, double q,
                           uint64_t seed, double *out, size_t reps)
{
    draw_group(sorted, n, m > (double)n ? (double)n : m, q, seed, 1, out, reps);
}

int boot_quantile_delta_ma(const double *a_sorted, size_t na, double ma,
                           const double *a_reps, const double *b_sorted, size_t nb,
                           double mb, double q, double shift, int resamples,
                           uint64_t seed, cow_boot_result *out, cow_err *e)
{
    return delta_boot(a_sorted, na, ma, b_sorted, nb, mb, q, shift, resamples, seed, 0,
                      a_reps, out, e);
}

int boot_quantile_delta(const double *a_sorted, size_t na,
                        const double *b_sorted, size_t nb, double q,
                        int resamples, uint64_t seed, cow_boot_result *out,
                        cow_err *e)
{
    return delta_boot(a_sorted, na, (double)na, b_sorted, nb, (double)nb, q, 0.0,
                      resamples, seed, 1, NULL, out, e);
}

int boot_quantile_delta_m(const double *a_sorted, size_t na, double ma,
                          const double *b_sorted, size_t nb, double mb,
                          double q, double shift, int resamples, uint64_t seed,
                          cow_boot_result *out, cow_err *e)
{
    return delta_boot(a_sorted, na, ma, b_sorted, nb, mb, q, shift, resamples, seed, 0,
                      NULL, out, e);
}
