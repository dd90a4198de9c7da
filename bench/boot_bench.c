/* boot_bench.c -- time the O(1) bootstrap draw against plain resampling.
 *
 *     boot_bench [n [R [runs [oracle_R]]]]    defaults 1000000 9999 5 R
 *
 * For sorted lognormal data of n values, times R replicates of the type-7
 * p99.9 by the fast path (boot_draw_quantile: one Beta draw per replicate)
 * and by the oracle (draw n values with replacement, select), `runs` times
 * each, and prints the median of each and the ratio. The oracle costs
 * ~n * R work (about 10^10 steps at the defaults: minutes per run); with
 * oracle_R < R it times oracle_R replicates and scales the time to R,
 * which it says. Not a test: nothing is asserted. Seeds are fixed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "boot.h"
#include "rng.h"

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

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* Seconds for reps replicates; *sink keeps the work observable. */
static double time_reps(const double *x, size_t n, double q, int oracle,
                        size_t reps, uint64_t seed, double *sink)
{
    double *out = malloc(reps * sizeof(double)), t0, t1;
    cow_rng r;
    size_t i;

    rng_seed(&r, seed, 0);
    t0 = now_s();
    boot_replicates(x, n, q, &r, oracle, out, reps, NULL);
    t1 = now_s();
    for (i = 0; i < reps; i++)
        *sink += out[i];
    free(out);
    return t1 - t0;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    size_t reps = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 9999;
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    size_t oreps = argc > 4 ? (size_t)strtoull(argv[4], NULL, 10) : reps;
    double q = 0.999, sink = 0, *x, *tf, *to, mf, mo;
    cow_rng r;
    size_t i;
    int k;

    if (n < 1 || reps < 1 || runs < 1 || oreps < 1 || oreps > reps) {
        fprintf(stderr, "usage: boot_bench [n [R [runs [oracle_R <= R]]]]\n");
        return 2;
    }
    x = malloc(n * sizeof(double));
    tf = malloc((size_t)runs * sizeof(double));
    to = malloc((size_t)runs * sizeof(double));
    rng_seed(&r, 1, 0);
    for (i = 0; i < n; i++)
        x[i] = 11.22 * exp(0.45 * rng_normal(&r));
    qsort(x, n, sizeof(double), cmp_d);
    for (k = 0; k < runs; k++) {
        tf[k] = time_reps(x, n, q, 0, reps, (uint64_t)k, &sink);
        to[k] = time_reps(x, n, q, 1, oreps, (uint64_t)k, &sink) *
                (double)reps / (double)oreps;
        fprintf(stderr, "run %d: fast %.6f s, oracle %.3f s\n", k + 1, tf[k], to[k]);
    }
    mf = median(tf, runs);
    mo = median(to, runs);
    printf("boot_bench: n=%zu R=%zu q=%g runs=%d (median)\n", n, reps, q, runs);
    printf("  fast path (Beta order statistics): %10.6f s  %8.1f ns/replicate\n",
           mf, mf / (double)reps * 1e9);
    printf("  oracle (resample n + select):      %10.3f s  %8.3f ms/replicate%s\n",
           mo, mo / (double)reps * 1e3,
           oreps < reps ? "  (scaled from fewer replicates)" : "");
    printf("  ratio oracle/fast: %.0fx\n", mo / mf);
    printf("  (checksum %.6g)\n", sink);
    free(x);
    free(tf);
    free(to);
    return 0;
}
