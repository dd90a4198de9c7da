/* test_pct.c -- analysis/pct.c: quantiles against numpy, the binomial
 * order-statistic interval against brute force, thin flags, exceedance
 * with Clopper-Pearson, the incomplete beta, the grid detector. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "minunit.h"
#include "pct.h"
#include "rng.h"

/* ---------- fixtures ---------- */

static int cmp_d(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Load tests/data/pct/<name>.txt (one value a line), sorted. */
static double *load(const char *name, size_t *pn)
{
    const char *dir = getenv("COW_TESTDATA");
    char path[1024], line[128];
    size_t n = 0, cap = 4096;
    double *x = malloc(cap * sizeof(double));
    FILE *f;

    snprintf(path, sizeof(path), "%s/pct/%s.txt", dir ? dir : "tests/data", name);
    f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s (set COW_TESTDATA)\n", path);
        exit(1);
    }
    while (fgets(line, sizeof(line), f) != NULL && n < cap)
        x[n++] = strtod(line, NULL);
    fclose(f);
    qsort(x, n, sizeof(double), cmp_d);
    *pn = n;
    return x;
}

/* numpy 1.24 np.quantile(x, q, method=...) on the fixture values, from
 * tests/data/pct/gen.py. */
static const struct {
    const char *set;
    int method;
    double q;
    double want;
} numpy_cases[] = {
    {"lognormal705", COW_PCT_LINEAR, 0.0, 2.863909},
    {"lognormal705", COW_PCT_LINEAR, 0.001, 3.040127944},
    {"lognormal705", COW_PCT_LINEAR, 0.01, 4.2208441599999995},
    {"lognormal705", COW_PCT_LINEAR, 0.1, 6.0463854},
    {"lognormal705", COW_PCT_LINEAR, 0.25, 8.117945},
    {"lognormal705", COW_PCT_LINEAR, 0.5, 11.123008},
    {"lognormal705", COW_PCT_LINEAR, 0.9, 20.7460368},
    {"lognormal705", COW_PCT_LINEAR, 0.95, 23.890760599999993},
    {"lognormal705", COW_PCT_LINEAR, 0.99, 30.63116264000001},
    {"lognormal705", COW_PCT_LINEAR, 0.999, 39.46055997600008},
    {"lognormal705", COW_PCT_LINEAR, 0.9999, 40.49456729760008},
    {"lognormal705", COW_PCT_LINEAR, 1.0, 40.609457},
    {"lognormal705", COW_PCT_NEAREST, 0.0, 2.863909},
    {"lognormal705", COW_PCT_NEAREST, 0.001, 2.863909},
    {"lognormal705", COW_PCT_NEAREST, 0.01, 4.21801},
    {"lognormal705", COW_PCT_NEAREST, 0.1, 6.043749},
    {"lognormal705", COW_PCT_NEAREST, 0.25, 8.117945},
    {"lognormal705", COW_PCT_NEAREST, 0.5, 11.123008},
    {"lognormal705", COW_PCT_NEAREST, 0.9, 20.756514},
    {"lognormal705", COW_PCT_NEAREST, 0.95, 23.926846},
    {"lognormal705", COW_PCT_NEAREST, 0.99, 30.640253},
    {"lognormal705", COW_PCT_NEAREST, 0.999, 40.609457},
    {"lognormal705", COW_PCT_NEAREST, 0.9999, 40.609457},
    {"lognormal705", COW_PCT_NEAREST, 1.0, 40.609457},
    {"lognormal1708", COW_PCT_LINEAR, 0.0, 3.158134},
    {"lognormal1708", COW_PCT_LINEAR, 0.001, 3.3212742349999997},
    {"lognormal1708", COW_PCT_LINEAR, 0.01, 4.223668630000001},
    {"lognormal1708", COW_PCT_LINEAR, 0.1, 6.5101858},
    {"lognormal1708", COW_PCT_LINEAR, 0.25, 8.4620025},
    {"lognormal1708", COW_PCT_LINEAR, 0.5, 11.0617655},
    {"lognormal1708", COW_PCT_LINEAR, 0.9, 18.9212285},
    {"lognormal1708", COW_PCT_LINEAR, 0.95, 22.788453599999997},
    {"lognormal1708", COW_PCT_LINEAR, 0.99, 29.402208160000026},
    {"lognormal1708", COW_PCT_LINEAR, 0.999, 37.065685967},
    {"lognormal1708", COW_PCT_LINEAR, 0.9999, 40.995364003600486},
    {"lognormal1708", COW_PCT_LINEAR, 1.0, 41.80135},
    {"lognormal1708", COW_PCT_NEAREST, 0.0, 3.158134},
    {"lognormal1708", COW_PCT_NEAREST, 0.001, 3.304939},
    {"lognormal1708", COW_PCT_NEAREST, 0.01, 4.22322},
    {"lognormal1708", COW_PCT_NEAREST, 0.1, 6.505353},
    {"lognormal1708", COW_PCT_NEAREST, 0.25, 8.453529},
    {"lognormal1708", COW_PCT_NEAREST, 0.5, 11.061719},
    {"lognormal1708", COW_PCT_NEAREST, 0.9, 18.922709},
    {"lognormal1708", COW_PCT_NEAREST, 0.95, 22.793089},
    {"lognormal1708", COW_PCT_NEAREST, 0.99, 29.428508},
    {"lognormal1708", COW_PCT_NEAREST, 0.999, 37.079698},
    {"lognormal1708", COW_PCT_NEAREST, 0.9999, 41.80135},
    {"lognormal1708", COW_PCT_NEAREST, 1.0, 41.80135},
    {"n1", COW_PCT_LINEAR, 0.0, 11.22},
    {"n1", COW_PCT_LINEAR, 0.001, 11.22},
    {"n1", COW_PCT_LINEAR, 0.01, 11.22},
    {"n1", COW_PCT_LINEAR, 0.1, 11.22},
    {"n1", COW_PCT_LINEAR, 0.25, 11.22},
    {"n1", COW_PCT_LINEAR, 0.5, 11.22},
    {"n1", COW_PCT_LINEAR, 0.9, 11.22},
    {"n1", COW_PCT_LINEAR, 0.95, 11.22},
    {"n1", COW_PCT_LINEAR, 0.99, 11.22},
    {"n1", COW_PCT_LINEAR, 0.999, 11.22},
    {"n1", COW_PCT_LINEAR, 0.9999, 11.22},
    {"n1", COW_PCT_LINEAR, 1.0, 11.22},
    {"n1", COW_PCT_NEAREST, 0.0, 11.22},
    {"n1", COW_PCT_NEAREST, 0.001, 11.22},
    {"n1", COW_PCT_NEAREST, 0.01, 11.22},
    {"n1", COW_PCT_NEAREST, 0.1, 11.22},
    {"n1", COW_PCT_NEAREST, 0.25, 11.22},
    {"n1", COW_PCT_NEAREST, 0.5, 11.22},
    {"n1", COW_PCT_NEAREST, 0.9, 11.22},
    {"n1", COW_PCT_NEAREST, 0.95, 11.22},
    {"n1", COW_PCT_NEAREST, 0.99, 11.22},
    {"n1", COW_PCT_NEAREST, 0.999, 11.22},
    {"n1", COW_PCT_NEAREST, 0.9999, 11.22},
    {"n1", COW_PCT_NEAREST, 1.0, 11.22},
    {"n2", COW_PCT_LINEAR, 0.0, 3.0},
    {"n2", COW_PCT_LINEAR, 0.001, 3.0045},
    {"n2", COW_PCT_LINEAR, 0.01, 3.045},
    {"n2", COW_PCT_LINEAR, 0.1, 3.45},
    {"n2", COW_PCT_LINEAR, 0.25, 4.125},
    {"n2", COW_PCT_LINEAR, 0.5, 5.25},
    {"n2", COW_PCT_LINEAR, 0.9, 7.05},
    {"n2", COW_PCT_LINEAR, 0.95, 7.2749999999999995},
    {"n2", COW_PCT_LINEAR, 0.99, 7.455},
    {"n2", COW_PCT_LINEAR, 0.999, 7.4955},
    {"n2", COW_PCT_LINEAR, 0.9999, 7.49955},
    {"n2", COW_PCT_LINEAR, 1.0, 7.5},
    {"n2", COW_PCT_NEAREST, 0.0, 3.0},
    {"n2", COW_PCT_NEAREST, 0.001, 3.0},
    {"n2", COW_PCT_NEAREST, 0.01, 3.0},
    {"n2", COW_PCT_NEAREST, 0.1, 3.0},
    {"n2", COW_PCT_NEAREST, 0.25, 3.0},
    {"n2", COW_PCT_NEAREST, 0.5, 3.0},
    {"n2", COW_PCT_NEAREST, 0.9, 7.5},
    {"n2", COW_PCT_NEAREST, 0.95, 7.5},
    {"n2", COW_PCT_NEAREST, 0.99, 7.5},
    {"n2", COW_PCT_NEAREST, 0.999, 7.5},
    {"n2", COW_PCT_NEAREST, 0.9999, 7.5},
    {"n2", COW_PCT_NEAREST, 1.0, 7.5},
    {"ties", COW_PCT_LINEAR, 0.0, 1.0},
    {"ties", COW_PCT_LINEAR, 0.001, 1.0},
    {"ties", COW_PCT_LINEAR, 0.01, 1.0},
    {"ties", COW_PCT_LINEAR, 0.1, 1.0},
    {"ties", COW_PCT_LINEAR, 0.25, 2.0},
    {"ties", COW_PCT_LINEAR, 0.5, 3.0},
    {"ties", COW_PCT_LINEAR, 0.9, 13.0},
    {"ties", COW_PCT_LINEAR, 0.95, 22.44999999999999},
    {"ties", COW_PCT_LINEAR, 0.99, 36.48999999999998},
    {"ties", COW_PCT_LINEAR, 0.999, 39.649},
    {"ties", COW_PCT_LINEAR, 0.9999, 39.964899999999986},
    {"ties", COW_PCT_LINEAR, 1.0, 40.0},
    {"ties", COW_PCT_NEAREST, 0.0, 1.0},
    {"ties", COW_PCT_NEAREST, 0.001, 1.0},
    {"ties", COW_PCT_NEAREST, 0.01, 1.0},
    {"ties", COW_PCT_NEAREST, 0.1, 1.0},
    {"ties", COW_PCT_NEAREST, 0.25, 2.0},
    {"ties", COW_PCT_NEAREST, 0.5, 3.0},
    {"ties", COW_PCT_NEAREST, 0.9, 13.0},
    {"ties", COW_PCT_NEAREST, 0.95, 40.0},
    {"ties", COW_PCT_NEAREST, 0.99, 40.0},
    {"ties", COW_PCT_NEAREST, 0.999, 40.0},
    {"ties", COW_PCT_NEAREST, 0.9999, 40.0},
    {"ties", COW_PCT_NEAREST, 1.0, 40.0},
    {"lerp2", COW_PCT_LINEAR, 0.0, 9.127},
    {"lerp2", COW_PCT_LINEAR, 0.001, 9.148485},
    {"lerp2", COW_PCT_LINEAR, 0.01, 9.34185},
    {"lerp2", COW_PCT_LINEAR, 0.1, 11.275500000000001},
    {"lerp2", COW_PCT_LINEAR, 0.25, 14.49825},
    {"lerp2", COW_PCT_LINEAR, 0.5, 19.8695},
    {"lerp2", COW_PCT_LINEAR, 0.9, 28.4635},
    {"lerp2", COW_PCT_LINEAR, 0.95, 29.53775},
    {"lerp2", COW_PCT_LINEAR, 0.99, 30.39715},
    {"lerp2", COW_PCT_LINEAR, 0.999, 30.590515},
    {"lerp2", COW_PCT_LINEAR, 0.9999, 30.609851499999998},
    {"lerp2", COW_PCT_LINEAR, 1.0, 30.612},
    {"lerp2", COW_PCT_NEAREST, 0.0, 9.127},
    {"lerp2", COW_PCT_NEAREST, 0.001, 9.127},
    {"lerp2", COW_PCT_NEAREST, 0.01, 9.127},
    {"lerp2", COW_PCT_NEAREST, 0.1, 9.127},
    {"lerp2", COW_PCT_NEAREST, 0.25, 9.127},
    {"lerp2", COW_PCT_NEAREST, 0.5, 9.127},
    {"lerp2", COW_PCT_NEAREST, 0.9, 30.612},
    {"lerp2", COW_PCT_NEAREST, 0.95, 30.612},
    {"lerp2", COW_PCT_NEAREST, 0.99, 30.612},
    {"lerp2", COW_PCT_NEAREST, 0.999, 30.612},
    {"lerp2", COW_PCT_NEAREST, 0.9999, 30.612},
    {"lerp2", COW_PCT_NEAREST, 1.0, 30.612},
};

static void pct_should_match_numpy_bit_for_bit(void)
{
    size_t i, n = 0;
    const char *cur = "";
    double *x = NULL;

    for (i = 0; i < sizeof(numpy_cases) / sizeof(numpy_cases[0]); i++) {
        double got;
        if (strcmp(cur, numpy_cases[i].set) != 0) {
            free(x);
            cur = numpy_cases[i].set;
            x = load(cur, &n);
        }
        got = pct_quantile(x, n, numpy_cases[i].q, numpy_cases[i].method);
        if (got != numpy_cases[i].want)
            fprintf(stderr, "case %zu: %s q=%g method %d\n", i, cur,
                    numpy_cases[i].q, numpy_cases[i].method);
        CHECK_NEAR(got, numpy_cases[i].want, 0.0);
    }
    free(x);
}

static void pct_should_mark_seed000_p999_thin(void)
{
    size_t n;
    double *x = load("lognormal705", &n);
    cow_pct_summary s;
    cow_qci ci;

    CHECK_INT(n, 705);
    /* type 7 rank (n-1) q = 703.296: between the 2nd-largest and largest */
    CHECK_NEAR((double)(n - 1) * 0.999, 703.296, 1e-9);
    CHECK_INT(pct_summary(x, n, COW_PCT_LINEAR, &s, NULL), COW_OK);
    CHECK(s.v[COW_P999] > x[703] && s.v[COW_P999] < x[704]);
    CHECK_NEAR(s.v[COW_P999], x[703] + 0.296 * (x[704] - x[703]), 1e-12);
    CHECK_INT(s.thin[COW_P999], 1);
    CHECK_INT(s.thin[COW_P9999], 1);
    CHECK_INT(s.thin[COW_P99], 1); /* 705 * 0.01 = 7.05 < 10 */
    CHECK_INT(s.thin[COW_P90], 0);
    CHECK_INT(s.thin[COW_P50], 0);
    CHECK_NEAR(s.min, x[0], 0);
    CHECK_NEAR(s.max, x[704], 0);
    /* no finite upper bound: the max is above p99.9 with 1 - 0.999^705 */
    CHECK_INT(pct_quantile_ci(x, n, 0.999, 0.95, &ci, NULL), COW_OK);
    CHECK_INT(ci.has_hi, 0);
    CHECK(isinf(ci.hi) && ci.hi > 0);
    CHECK_NEAR(ci.max_conf, 1.0 - pow(0.999, 705), 1e-12);
    CHECK_NEAR(ci.max_conf, 0.50600, 1e-4);
    CHECK_INT(ci.has_lo, 1);
    CHECK_INT(ci.thin, 1);
    CHECK_INT(ci.n_needed, 3688);
    CHECK(ci.lo <= ci.est);
    /* one-sided: P(B >= l) >= 97.5% */
    CHECK(ci.coverage >= 0.975);
    free(x);
}

static void pct_should_summarise_1708(void)
{
    size_t n;
    double *x = load("lognormal1708", &n);
    cow_pct_summary s;

    CHECK_INT(pct_summary(x, n, COW_PCT_LINEAR, &s, NULL), COW_OK);
    CHECK_INT(s.n, 1708);
    CHECK_INT(s.thin[COW_P99], 0); /* 17.08 beyond */
    CHECK_INT(s.thin[COW_P999], 1);
    CHECK_NEAR(s.v[COW_P999], 37.065685967, 1e-9); /* numpy, table above */
    CHECK_STR(pct_level_name(COW_P999), "p99.9");
    CHECK_NEAR(pct_level(COW_P9999), 0.9999, 0);
    free(x);
}

/* ---------- binomial order-statistic interval ---------- */

/* P(B <= k) for B ~ Binomial(n, q) for every k, by summing each pmf
 * term from lgammal in long double: no window, no recurrence. */
static long double *brute_cdf(size_t n, double q)
{
    long double *F = malloc((n + 1) * sizeof(long double)), s = 0;
    long double lq = logl((long double)q), l1q = log1pl(-(long double)q);
    size_t k;

    for (k = 0; k <= n; k++) {
        s += expl(lgammal((long double)n + 1) - lgammal((long double)k + 1) -
                  lgammal((long double)(n - k) + 1) + (long double)k * lq +
                  (long double)(n - k) * l1q);
        F[k] = s;
    }
    return F;
}

static double *ramp(size_t n)
{
    double *x = malloc((n ? n : 1) * sizeof(double));
    size_t i;
    for (i = 0; i < n; i++)
        x[i] = (double)i + 1.0; /* value = 1-based rank */
    return x;
}

static void pct_ci_should_need_368_3688_36887(void)
{
    static const struct { double q; size_t nmin; } t[] = {
        {0.99, 368}, {0.999, 3688}, {0.9999, 36887}, {0.5, 6}, {0.01, 368},
    };
    size_t i;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        size_t m = t[i].nmin;
        double *x = ramp(m);
        long double *F = brute_cdf(m, t[i].q), *G = brute_cdf(m - 1, t[i].q);
        double worst = t[i].q > 0.5 ? t[i].q : 1 - t[i].q;
        cow_qci ci;

        CHECK_INT(pct_ci_min_n(t[i].q, 0.95), m);
        /* closed form: ceil(log 0.025 / log q) */
        CHECK_INT((size_t)ceil(log(0.025) / log(worst)), m);
        /* independent: the brute-force CDF crosses 0.975 exactly there */
        if (t[i].q > 0.5) {
            CHECK(F[m - 1] >= 0.975L);     /* P(B <= n-1) with n = m */
            CHECK(G[m - 2] < 0.975L);      /* ... with n = m - 1 */
        } else {
            CHECK(F[0] <= 0.025L);
            CHECK(G[0] > 0.025L);
        }
        CHECK_INT(pct_quantile_ci(x, m, t[i].q, 0.95, &ci, NULL), COW_OK);
        CHECK(ci.has_lo && ci.has_hi);
        CHECK(ci.coverage >= 0.95);
        CHECK_INT(pct_quantile_ci(x, m - 1, t[i].q, 0.95, &ci, NULL), COW_OK);
        CHECK(!(ci.has_lo && ci.has_hi));
        free(x);
        free(F);
        free(G);
    }
}

static void pct_ci_should_match_brute_force_ranks(void)
{
    static const size_t ns[] = {1, 2, 5, 20, 50, 100, 367, 368, 705, 1000, 1708, 5000};
    static const double qs[] = {0.01, 0.1, 0.5, 0.9, 0.99, 0.999};
    size_t a, b;

    for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
        for (b = 0; b < sizeof(qs) / sizeof(qs[0]); b++) {
            size_t n = ns[a], l = 0, u = n + 1, k;
            double q = qs[b], below, above;
            double *x = ramp(n);
            long double *F = brute_cdf(n, q);
            cow_qci ci;

            /* Requirement 6 as written: largest l with P(B <= l-1) <= 0.025,
             * smallest u with P(B <= u-1) >= 0.975 */
            for (k = 1; k <= n; k++)
                if (F[k - 1] <= 0.025L)
                    l = k;
            for (k = n; k >= 1; k--)
                if (F[k - 1] >= 0.975L)
                    u = k;
            below = l ? (double)F[l - 1] : 0.0;
            above = u <= n ? (double)(1.0L - F[u - 1]) : 0.0;
            CHECK_INT(pct_quantile_ci(x, n, q, 0.95, &ci, NULL), COW_OK);
            CHECK_INT(ci.lo_rank, l);
            CHECK_INT(ci.hi_rank, u <= n ? u : 0);
            CHECK_INT(ci.has_lo, l > 0);
            CHECK_INT(ci.has_hi, u <= n);
            CHECK_NEAR(ci.coverage, 1.0 - below - above, 1e-9);
            if (l)
                CHECK_NEAR(ci.lo, (double)l, 0);
            if (u <= n)
                CHECK_NEAR(ci.hi, (double)u, 0);
            if (ci.lo_rank != l || ci.hi_rank != (u <= n ? u : 0))
                fprintf(stderr, "  n=%zu q=%g\n", n, q);
            free(x);
            free(F);
        }
    }
}

/* The interval is distribution-free: on uniform data (true quantile = q)
 * it must cover q at its stated exact coverage. 4000 trials: the binomial
 * sd of the hit rate is <= 0.0035; allow 4 sd. */
static void pct_ci_should_cover_at_its_stated_rate(void)
{
    enum { N = 200, TRIALS = 4000 };
    double x[N], cov = 0;
    cow_rng r;
    int t, hits = 0;
    size_t i;

    rng_seed(&r, 2024, 0);
    for (t = 0; t < TRIALS; t++) {
        cow_qci ci;
        for (i = 0; i < N; i++)
            x[i] = rng_uniform(&r);
        qsort(x, N, sizeof(double), cmp_d);
        pct_quantile_ci(x, N, 0.9, 0.95, &ci, NULL);
        hits += ci.lo <= 0.9 && 0.9 < ci.hi;
        cov = ci.coverage;
    }
    CHECK(cov >= 0.95);
    CHECK_NEAR((double)hits / TRIALS, cov, 4 * sqrt(cov * (1 - cov) / TRIALS));
}

static void pct_ci_should_handle_tiny_n_and_bad_args(void)
{
    double one = 5.0;
    cow_qci ci;
    cow_err e = COW_ERR_INIT;

    CHECK_INT(pct_quantile_ci(NULL, 0, 0.5, 0.95, &ci, NULL), COW_OK);
    CHECK(isnan(ci.est) && !ci.has_lo && !ci.has_hi && ci.thin);
    CHECK_INT(pct_quantile_ci(&one, 1, 0.5, 0.95, &ci, NULL), COW_OK);
    CHECK_NEAR(ci.est, 5.0, 0);
    CHECK(!ci.has_lo && !ci.has_hi);
    CHECK_NEAR(ci.coverage, 1.0, 0);
    /* q = 0.01: one value is above p1 with probability 0.99 >= 0.975 */
    CHECK_INT(pct_quantile_ci(&one, 1, 0.01, 0.95, &ci, NULL), COW_OK);
    CHECK(!ci.has_lo && ci.has_hi && ci.hi == 5.0 && ci.hi_rank == 1);
    CHECK_NEAR(ci.coverage, 0.99, 1e-12);
    CHECK_INT(pct_quantile_ci(&one, 1, 1.0, 0.95, &ci, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "0 < q < 1") != NULL);
    CHECK_INT(pct_quantile_ci(&one, 1, NAN, 0.95, &ci, NULL), COW_EUSAGE);
    CHECK_INT(pct_quantile_ci(&one, 1, 0.5, 1.0, &ci, NULL), COW_EUSAGE);
    CHECK_INT(pct_ci_min_n(0.0, 0.95), 0);
}

/* ---------- summary edge cases ---------- */

static void pct_should_define_n0_n1_and_refuse_nan(void)
{
    double one = 11.22, bad[3] = {1, NAN, 3}, uns[3] = {1, 3, 2};
    double inf[2] = {1, INFINITY};
    cow_pct_summary s;
    cow_err e = COW_ERR_INIT;
    int i;

    CHECK_INT(pct_summary(NULL, 0, COW_PCT_LINEAR, &s, NULL), COW_OK);
    CHECK_INT(s.n, 0);
    CHECK(isnan(s.mean) && isnan(s.min) && isnan(s.max));
    for (i = 0; i < COW_PCT_NLEVELS; i++)
        CHECK(isnan(s.v[i]) && s.thin[i]);
    CHECK_INT(pct_summary(&one, 1, COW_PCT_NEAREST, &s, NULL), COW_OK);
    for (i = 0; i < COW_PCT_NLEVELS; i++)
        CHECK_NEAR(s.v[i], 11.22, 0);
    CHECK_NEAR(s.mean, 11.22, 0);
    CHECK_INT(pct_summary(bad, 3, COW_PCT_LINEAR, &s, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "value 1 of 3") != NULL);
    CHECK_INT(pct_summary(uns, 3, COW_PCT_LINEAR, &s, &e), COW_EUSAGE);
    CHECK(strstr(e.msg, "not sorted at index 2") != NULL);
    CHECK_INT(pct_summary(inf, 2, COW_PCT_LINEAR, &s, NULL), COW_EUSAGE);
    CHECK_INT(pct_summary(&one, 1, 7, &s, NULL), COW_EUSAGE);
    CHECK(isnan(pct_quantile(&one, 1, NAN, COW_PCT_LINEAR)));
    CHECK(isnan(pct_quantile(&one, 1, 1.5, COW_PCT_LINEAR)));
    CHECK(isnan(pct_quantile(&one, 1, 0.5, 9)));
    CHECK(isnan(pct_quantile(NULL, 0, 0.5, COW_PCT_LINEAR)));
}

static void pct_mean_should_be_compensated(void)
{
    /* 1e16 + 1 + 1 - ... : naive summation loses the ones */
    double x[4] = {1.0, 1.0, 1e16, 1e16};
    cow_pct_summary s;
    CHECK_INT(pct_summary(x, 4, COW_PCT_LINEAR, &s, NULL), COW_OK);
    CHECK_NEAR(s.mean, (2e16 + 2.0) / 4.0, 0);
}

/* ---------- incomplete beta and exceedance ---------- */

static void pct_betainc_should_match_closed_forms(void)
{
    /* tol: lgamma(a+b) - lgamma(a) - lgamma(b) cancels; its absolute error
     * ~1e-16 * lgamma(a+b) bounds the relative error (2e-11 at 2e4) */
    static const struct { double x, a, b, want, tol; } t[] = {
        /* I_x(a,1) = x^a, I_x(1,b) = 1-(1-x)^b, I_.5(a,a) = .5,
         * I_x(2,2) = 3x^2 - 2x^3 */
        {0.3, 2.5, 1, 0.049295030175464965, 1e-14}, {0.3, 1, 4, 0.7599, 1e-14},
        {0.5, 7, 7, 0.5, 1e-14}, {0.5, 1e4, 1e4, 0.5, 3e-11},
        {0.2, 2, 2, 0.104, 1e-14}, {0.0, 3, 3, 0.0, 0}, {1.0, 3, 3, 1.0, 0},
        /* I_x(.5,.5) = (2/pi) asin(sqrt x) */
        {0.9, 0.5, 0.5, 0.79516723530086653, 1e-14},
    };
    size_t i;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        CHECK_NEAR(pct_betainc(t[i].x, t[i].a, t[i].b), t[i].want, t[i].tol);
    CHECK_NEAR(2 / M_PI * asin(sqrt(0.9)), 0.79516723530086653, 1e-15);
    CHECK(isnan(pct_betainc(0.5, 0, 1)));
    CHECK(isnan(pct_betainc(1.5, 1, 1)));
    /* binomial identity: P(B >= k) = I_q(k, n-k+1), brute force */
    {
        long double *F = brute_cdf(1708, 0.99);
        CHECK_NEAR(pct_betainc(0.99, 1690, 1708 - 1690 + 1),
                   (double)(1.0L - F[1689]), 1e-12);
        free(F);
    }
    CHECK_NEAR(pct_betainc(pct_betainc_inv(0.025, 3, 48), 3, 48), 0.025, 1e-14);
}

static void pct_exceed_should_give_clopper_pearson(void)
{
    static const struct { size_t n, x; double lo, hi; } t[] = {
        /* closed forms at x = 0 and x = n; R binom.test(5, 10) */
        {10, 0, 0.0, 0.30849710781876083}, {10, 10, 0.69150289218123917, 1.0},
        {10, 5, 0.18708602844739, 0.81291397155261},
        /* x = 1: lo = 1 - 0.975^(1/n); hi checked by brute force below */
        {100, 1, 0.00025314603297743599, NAN},
    };
    size_t i, j;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        double *x = malloc(t[i].n * sizeof(double));
        cow_exceed ex;
        for (j = 0; j < t[i].n; j++)
            x[j] = j < t[i].n - t[i].x ? 1.0 : 2.0;
        CHECK_INT(pct_exceed(x, t[i].n, 1.0, 0.95, &ex, NULL), COW_OK);
        CHECK_INT(ex.count, t[i].x);
        CHECK_NEAR(ex.lo, t[i].lo, 1e-10);
        if (!isnan(t[i].hi))
            CHECK_NEAR(ex.hi, t[i].hi, 1e-10);
        free(x);
    }
    CHECK_NEAR(1.0 - pow(0.975, 1.0 / 100), 0.00025314603297743599, 1e-15);
    /* defining property, brute force: P(B >= x | lo) = P(B <= x | hi) = .025 */
    {
        double *x = ramp(50);
        cow_exceed ex;
        long double *Flo, *Fhi;
        CHECK_INT(pct_exceed(x, 50, 47.0, 0.95, &ex, NULL), COW_OK);
        CHECK_INT(ex.count, 3);
        CHECK_NEAR(ex.p, 0.06, 1e-15);
        Flo = brute_cdf(50, ex.lo);
        Fhi = brute_cdf(50, ex.hi);
        CHECK_NEAR((double)(1.0L - Flo[2]), 0.025, 1e-12);
        CHECK_NEAR((double)Fhi[3], 0.025, 1e-12);
        free(Flo);
        free(Fhi);
        free(x);
    }
}

static void pct_count_above_should_be_strict(void)
{
    double x[6] = {1, 2, 2, 2, 3, 4};
    cow_exceed ex;
    cow_err e = COW_ERR_INIT;

    CHECK_INT(pct_count_above(x, 6, 2.0), 2);
    CHECK_INT(pct_count_above(x, 6, 0.5), 6);
    CHECK_INT(pct_count_above(x, 6, 4.0), 0);
    CHECK_INT(pct_count_above(x, 6, -INFINITY), 6);
    CHECK_INT(pct_count_above(NULL, 0, 1.0), 0);
    CHECK_INT(pct_exceed(NULL, 0, 1.0, 0.95, &ex, NULL), COW_OK);
    CHECK(isnan(ex.p) && ex.lo == 0.0 && ex.hi == 1.0);
    CHECK_INT(pct_exceed(x, 6, NAN, 0.95, &ex, &e), COW_EUSAGE);
    /* a large window: 1e6 values, 37 above */
    {
        size_t n = 1000000, i;
        double *big = malloc(n * sizeof(double));
        for (i = 0; i < n; i++)
            big[i] = i < n - 37 ? 1.0 : 9.0;
        CHECK_INT(pct_exceed(big, n, 1.0, 0.95, &ex, NULL), COW_OK);
        CHECK_INT(ex.count, 37);
        CHECK(ex.lo < 37e-6 && ex.hi > 37e-6);
        CHECK(ex.lo > 2.5e-5 && ex.hi < 5.2e-5);
        free(big);
    }
}

/* ---------- grid ---------- */

static void pct_grid_should_find_the_step(void)
{
    double ms[8] = {0, 1, 1, 1, 2, 3, 7, 40};
    double quarter[5] = {0.25, 0.5, 1.25, 2.0, 9.75};
    double us_in_ms[4] = {0.101, 0.254, 0.999, 1.003};
    double same[3] = {4, 4, 4};
    cow_grid g;
    size_t n;
    double *x;

    CHECK_INT(pct_grid(ms, 8, &g, NULL), COW_OK);
    CHECK_NEAR(g.step, 1.0, 0);
    CHECK_INT(g.distinct, 6);
    CHECK_INT(g.coarse, 1);
    CHECK_INT(pct_grid(quarter, 5, &g, NULL), COW_OK);
    CHECK_NEAR(g.step, 0.25, 0);
    CHECK_INT(pct_grid(us_in_ms, 4, &g, NULL), COW_OK);
    CHECK_NEAR(g.step, 0.001, 1e-18);
    CHECK_INT(g.coarse, 0);
    CHECK_INT(pct_grid(same, 3, &g, NULL), COW_OK);
    CHECK_NEAR(g.step, 0, 0);
    CHECK_INT(g.distinct, 1);
    CHECK_INT(pct_grid(NULL, 0, &g, NULL), COW_OK);
    CHECK_INT(g.distinct, 0);
    x = load("ties", &n);
    CHECK_INT(pct_grid(x, n, &g, NULL), COW_OK);
    CHECK_NEAR(g.step, 1.0, 0);
    CHECK_INT(g.distinct, 7);
    CHECK_INT(g.coarse, 1);
    free(x);
    x = load("lognormal705", &n); /* written with %.6f */
    CHECK_INT(pct_grid(x, n, &g, NULL), COW_OK);
    CHECK_NEAR(g.step, 1e-6, 1e-20);
    CHECK_INT(g.coarse, 0);
    free(x);
    /* continuous values: no grid */
    {
        double c[64];
        cow_rng r;
        size_t i;
        rng_seed(&r, 5, 0);
        for (i = 0; i < 64; i++)
            c[i] = rng_uniform(&r) * 10;
        qsort(c, 64, sizeof(double), cmp_d);
        CHECK_INT(pct_grid(c, 64, &g, NULL), COW_OK);
        CHECK_NEAR(g.step, 0, 0);
    }
}

int main(void)
{
    RUN(pct_should_match_numpy_bit_for_bit);
    RUN(pct_should_mark_seed000_p999_thin);
    RUN(pct_should_summarise_1708);
    RUN(pct_ci_should_need_368_3688_36887);
    RUN(pct_ci_should_match_brute_force_ranks);
    RUN(pct_ci_should_cover_at_its_stated_rate);
    RUN(pct_ci_should_handle_tiny_n_and_bad_args);
    RUN(pct_should_define_n0_n1_and_refuse_nan);
    RUN(pct_mean_should_be_compensated);
    RUN(pct_betainc_should_match_closed_forms);
    RUN(pct_exceed_should_give_clopper_pearson);
    RUN(pct_count_above_should_be_strict);
    RUN(pct_grid_should_find_the_step);
    return REPORT();
}
