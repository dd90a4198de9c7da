/* boot_bench.c -- the product benchmark for the bootstrap of a quantile
 * delta: R replicates of the p99.9 delta between two samples of n values,
 * by the O(1) fast path (boot_quantile_delta) and by the plain
 * resample-and-select loop (boot_draw_quantile_resample), on the same data.
 *
 *     boot_bench [n [R [runs [oracle_R]]]]   defaults 1e6 10000 5 R
 *
 * Targets (bench/README.md, "Bootstrap"): fast path under 50 ms beyond
 * the two sorts, at least 1000x faster than the oracle, endpoints that
 * agree within Monte-Carlo error. Prints the figures and a PASS/FAIL per
 * target; exits 0 when all pass, 1 when one is missed, 2 on bad arguments.
 *
 * The oracle costs about 2 * n * R steps (minutes at the defaults) and is
 * run once. With oracle_R < R it runs oracle_R replicates, scales its time
 * by R / oracle_R and says so; its interval then has the larger
 * Monte-Carlo error of oracle_R replicates, which the agreement test
 * accounts for. Seeds are fixed, so the intervals are reproducible; the
 * times are not. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "rng.h"

#define Q 0.999            /* the quantile of the requirement: p99.9 */
#define SEED 1             /* seed of the timed fast path and the oracle */
#define SPREAD_SEEDS 50    /* fast-path seeds behind the Monte-Carlo error */
#define Z_AGREE 3.0        /* |z| up to this counts as agreement */
#define TARGET_FAST_S 0.050
#define TARGET_RATIO 1000.0

/* ---------- helpers ---------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof(double), cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
    double m = 0.0, ss = 0.0;
    size_t i;

    for (i = 0; i < n; i++)
        m += v[i];
    m /= (double)n;
    for (i = 0; i < n; i++)
        ss += (v[i] - m) * (v[i] - m);
    *mean = m;
    *sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
}

/* The percentile-method rank of boot.c (Requirement 1 there): 1-based k,
 * interval [rep(k), rep(R+1-k)]. Repeated here because the oracle must
 * read its interval by the same rule, and boot.c keeps it static. */
static size_t ci_rank(size_t reps)
{
    double kf = floor((double)(reps + 1) * (1.0 - COW_BOOT_CONF) / 2.0 + 1e-9);
    size_t k = kf < 1.0 ? 1 : (size_t)kf;
    return k > reps ? reps : k;
}

/* The 1-minute load average, so the figures say how busy the box was. */
static double load1(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double l = NAN;

    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = NAN;
        fclose(f);
    }
    return l;
}

/* ---------- data ---------- */

/* Baseline a: lognormal round trips, median 11.22 us, sigma 0.45 (p99.9
 * about 45 us). Phase b: the same body, plus 2% of requests that hit a
 * copy-on-write stall of median 300 us (sigma 0.5), so b's p99.9 lies in
 * the stall component and the delta is large and clearly non-zero. */
static void gen_samples(double *a, double *b, size_t n)
{
    cow_rng r;
    size_t i;

    rng_seed(&r, 20240601, 0);
    for (i = 0; i < n; i++)
        a[i] = 11.22 * exp(0.45 * rng_normal(&r));
    for (i = 0; i < n; i++)
        b[i] = rng_uniform(&r) < 0.02 ? 300.0 * exp(0.5 * rng_normal(&r))
                                      : 11.22 * exp(0.45 * rng_normal(&r));
}

static double time_sort(double *x, size_t n)
{
    double t0 = now_s();
    qsort(x, n, sizeof(double), cmp_d);
    return now_s() - t0;
}

/* ---------- fast path ---------- */

/* Median seconds of `runs` calls of boot_quantile_delta (the sorts are
 * done before and not counted); *res gets the last call's result. */
static double time_fast(const double *a, const double *b, size_t n, int reps,
                        int runs, cow_boot_result *res, double *tmin,
                        double *tmax)
{
    double *t = malloc((size_t)runs * sizeof(double)), m;
    cow_err e = {0};
    int k;

    for (k = 0; k < runs; k++) {
        double t0 = now_s();
        if (boot_quantile_delta(a, n, b, n, Q, reps, SEED, res, &e)) {
            fprintf(stderr, "boot_bench: %s\n", e.msg);
            exit(2);
        }
        t[k] = now_s() - t0;
        fprintf(stderr, "fast run %d: %.3f ms\n", k + 1, t[k] * 1e3);
    }
    m = median(t, (size_t)runs);
    *tmin = t[0];
    *tmax = t[runs - 1];
    free(t);
    return m;
}

/* Monte-Carlo spread: the endpoints of SPREAD_SEEDS fast-path runs
 * (seeds 1000..), and all their delta replicates pooled and sorted into
 * pool (SPREAD_SEEDS * reps doubles), drawn exactly as boot.c draws them
 * (seed's stream 1 for a, stream 2 for b). */
static void fast_spread(const double *a, const double *b, size_t n, int reps,
                        double *lo, double *hi, double *pool)
{
    size_t R = (size_t)reps, i;
    double *ra = malloc(R * sizeof(double)), *rb = malloc(R * sizeof(double));
    cow_boot_result res;
    cow_err e = {0};
    int s;

    for (s = 0; s < SPREAD_SEEDS; s++) {
        uint64_t seed = 1000 + (uint64_t)s;
        cow_rng r;
        boot_quantile_delta(a, n, b, n, Q, reps, seed, &res, &e);
        lo[s] = res.delta_lo;
        hi[s] = res.delta_hi;
        rng_seed(&r, seed, 1);
        boot_replicates(a, n, Q, &r, 0, ra, R, &e);
        rng_seed(&r, seed, 2);
        boot_replicates(b, n, Q, &r, 0, rb, R, &e);
        for (i = 0; i < R; i++)
            pool[(size_t)s * R + i] = rb[i] - ra[i];
    }
    qsort(pool, (size_t)SPREAD_SEEDS * R, sizeof(double), cmp_d);
    free(ra);
    free(rb);
}

/* ---------- oracle ---------- */

/* The plain bootstrap of the delta: per replicate, resample n values with
 * replacement from each group and select the type-7 p99.9 of each. Same
 * streams of SEED as the fast path, so the two are the same experiment
 * done two ways. Returns seconds; d gets the sorted replicates. */
static double run_oracle(const double *a, const double *b, size_t n,
                         size_t reps, double *d)
{
    double *scratch = malloc(n * sizeof(double)), t0 = now_s(), t;
    cow_rng ra, rb;
    size_t i;

    rng_seed(&ra, SEED, 1);
    rng_seed(&rb, SEED, 2);
    for (i = 0; i < reps; i++) {
        double qa = boot_draw_quantile_resample(a, n, Q, &ra, scratch);
        d[i] = boot_draw_quantile_resample(b, n, Q, &rb, scratch) - qa;
        if (reps >= 10 && (i + 1) % (reps / 10) == 0)
            fprintf(stderr, "oracle: %zu/%zu replicates, %.1f s\n", i + 1,
                    reps, now_s() - t0);
    }
    t = now_s() - t0;
    qsort(d, reps, sizeof(double), cmp_d);
    free(scratch);
    return t;
}

/* ---------- agreement ---------- */

/* Share of the pooled fast-path replicates below x, ties counted half (mid
 * rank): where the oracle's endpoint sits in the well estimated bootstrap
 * distribution. */
static size_t count_below(const double *pool, size_t m, double x, int or_eq)
{
    size_t lo = 0, hi = m;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pool[mid] < x || (or_eq && pool[mid] == x))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static double pool_cdf(const double *pool, size_t m, double x)
{
    return ((double)count_below(pool, m, x, 0) +
            (double)count_below(pool, m, x, 1)) / (2.0 * (double)m);
}

/* Test one endpoint two ways; returns 1 when both |z| <= Z_AGREE.
 * (1) Spread: the oracle endpoint minus the mean of the fast endpoints
 *     over the seeds; the oracle's own MC sd is sd_fast * sqrt(R / oR)
 *     (a sample quantile's sd goes as 1/sqrt(replicates)).
 * (2) Rank: the oracle endpoint is the k-th of oR draws from the bootstrap
 *     distribution F*, so F*(endpoint) ~ Beta(k, oR - k + 1) exactly;
 *     F* is read from the pooled fast replicates, whose own binomial
 *     error is added. */
static int agree_one(const char *name, double oracle_v, const double *fast_v,
                     const double *pool, size_t R, size_t oR, size_t k)
{
    size_t m = (size_t)SPREAD_SEEDS * R;
    double mean, sd, se, z1, p, pe, psd, z2;

    mean_sd(fast_v, SPREAD_SEEDS, &mean, &sd);
    se = sd * sqrt(1.0 / SPREAD_SEEDS + (double)R / (double)oR);
    z1 = se > 0 ? (oracle_v - mean) / se : 0.0;
    p = pool_cdf(pool, m, oracle_v);
    pe = (double)k / (double)(oR + 1);
    psd = sqrt(pe * (1.0 - pe) * (1.0 / (double)(oR + 2) + 1.0 / (double)m));
    z2 = (p - pe) / psd;
    printf("  %s: oracle %.3f, fast mean %.3f (MC sd %.3f per run of R=%zu), "
           "diff %+.3f, se %.3f, z %+.2f\n",
           name, oracle_v, mean, sd, R, oracle_v - mean, se, z1);
    printf("  %s: oracle endpoint at %.3f%% of %zu pooled fast replicates, "
           "expected %.3f%% +- %.3f%%, z %+.2f\n",
           name, 100.0 * p, m, 100.0 * pe, 100.0 * psd, z2);
    return fabs(z1) <= Z_AGREE && fabs(z2) <= Z_AGREE;
}

/* ---------- main ---------- */

static int parse_args(int argc, char **argv, size_t *n, int *reps, int *runs,
                      size_t *oreps)
{
    double nd = argc > 1 ? strtod(argv[1], NULL) : 1e6;
    double rd = argc > 2 ? strtod(argv[2], NULL) : 10000;
    double od = argc > 4 ? strtod(argv[4], NULL) : rd;

    *runs = argc > 3 ? atoi(argv[3]) : 5;
    if (!(nd >= 2 && nd <= 1e9 && rd >= 40 && rd <= COW_BOOT_MAX_RESAMPLES &&
          od >= 40 && od <= rd && *runs >= 1 && *runs <= 1000)) {
        fprintf(stderr, "usage: boot_bench [n >= 2 [R >= 40 [runs >= 1 "
                        "[oracle_R, 40..R]]]]   (defaults 1e6 10000 5 R)\n");
        return 2;
    }
    *n = (size_t)nd;
    *reps = (int)rd;
    *oreps = (size_t)od;
    return 0;
}

int main(int argc, char **argv)
{
    size_t n, oR, R, k, ko;
    int reps, runs, ok_fast, ok_ratio, ok_ci;
    double *a, *b, *d, *lo, *hi, *pool, ts_a, ts_b, tf, tmin, tmax, to, tscaled;
    double load_start = load1(), lo_o, hi_o;
    cow_boot_result res;

    if (parse_args(argc, argv, &n, &reps, &runs, &oR))
        return 2;
    R = (size_t)reps;
    a = malloc(n * sizeof(double));
    b = malloc(n * sizeof(double));
    d = malloc(oR * sizeof(double));
    lo = malloc(SPREAD_SEEDS * sizeof(double));
    hi = malloc(SPREAD_SEEDS * sizeof(double));
    pool = malloc((size_t)SPREAD_SEEDS * R * sizeof(double));
    if (!a || !b || !d || !lo || !hi || !pool) {
        fprintf(stderr, "boot_bench: out of memory\n");
        return 2;
    }
    gen_samples(a, b, n);
    ts_a = time_sort(a, n);
    ts_b = time_sort(b, n);

    printf("boot_bench: p%.1f delta, 2 x n=%zu values, R=%zu replicates, "
           "conf %.2f, seed %d\n", Q * 100, n, R, COW_BOOT_CONF, SEED);
    printf("machine: nproc %ld, load (1 min) %.2f at start\n",
           sysconf(_SC_NPROCESSORS_ONLN), load_start);
    printf("sorts (qsort, not counted below): a %.1f ms, b %.1f ms\n",
           ts_a * 1e3, ts_b * 1e3);

    tf = time_fast(a, b, n, reps, runs, &res, &tmin, &tmax);
    ok_fast = tf < TARGET_FAST_S;
    printf("fast path (boot_quantile_delta): median %.2f ms over %d runs "
           "(min %.2f, max %.2f)   target < %.0f ms: %s\n", tf * 1e3, runs,
           tmin * 1e3, tmax * 1e3, TARGET_FAST_S * 1e3,
           ok_fast ? "PASS" : "FAIL");
    printf("  sorts + fast path: %.1f ms\n", (ts_a + ts_b + tf) * 1e3);
    printf("  p99.9 a %.3f, b %.3f; delta %+.3f, 95%% [%.3f, %.3f] (%s)\n",
           res.est_a, res.est_b, res.delta, res.delta_lo, res.delta_hi,
           boot_verdict_name(res.verdict));
    fflush(stdout);

    fast_spread(a, b, n, reps, lo, hi, pool);
    to = run_oracle(a, b, n, oR, d);
    tscaled = to * (double)R / (double)oR;
    ko = ci_rank(oR);
    lo_o = d[ko - 1];
    hi_o = d[oR - ko];
    printf("oracle (resample n + select, 1 run): %.1f s for %zu replicates",
           to, oR);
    if (oR < R)
        printf(", scaled to R=%zu: %.1f s (SCALED, not measured at R)",
               R, tscaled);
    printf("\n  delta 95%% [%.3f, %.3f]%s\n", lo_o, hi_o,
           oR < R ? " (from the fewer replicates)" : "");
    ok_ratio = tscaled / tf >= TARGET_RATIO;
    printf("ratio oracle/fast: %.0fx%s   target >= %.0fx: %s\n", tscaled / tf,
           oR < R ? " (oracle time scaled)" : "", TARGET_RATIO,
           ok_ratio ? "PASS" : "FAIL");

    printf("Monte-Carlo agreement (fast path over %d seeds):\n", SPREAD_SEEDS);
    k = ko;
    ok_ci = agree_one("lo", lo_o, lo, pool, R, oR, k);
    ok_ci &= agree_one("hi", hi_o, hi, pool, R, oR, oR + 1 - k);
    printf("endpoints: %s (all |z| <= %.0f required)\n",
           ok_ci ? "AGREE" : "DISAGREE", Z_AGREE);
    printf("machine: load (1 min) %.2f at end\n", load1());

    free(a);
    free(b);
    free(d);
    free(lo);
    free(hi);
    free(pool);
    return ok_fast && ok_ratio && ok_ci ? 0 : 1;
}
