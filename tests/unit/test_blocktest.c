/* test_blocktest.c -- blocktest.c's requirements on generated series
 * (fixed seeds) and a hand-worked one. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blocktest.h"
#include "minunit.h"
#include "rng.h"
#include "runstats.h"

#define MU 5.298317366548036
#define SIGMA 0.5

typedef struct series {
    double *t, *s;
    size_t n;
} series;

/* lognormal (median 0.2 ms); from 'from' on, the upper half stretched
 * so the p99 is f x (the save of bench/calibration.c) */
static void make(series *x, size_t n, uint64_t seed, size_t from, double f)
{
    double c = 1.0 + log(f) / (SIGMA * 2.3263478740408408);
    cow_rng r;
    size_t i;

    rng_seed(&r, seed, 0);
    x->n = n;
    x->t = malloc(n * sizeof(double));
    x->s = malloc(n * sizeof(double));
    for (i = 0; i < n; i++) {
        double z = rng_normal(&r);
        if (i >= from && z > 0)
            z *= c;
        x->t[i] = exp(MU + SIGMA * z);
    }
    memcpy(x->s, x->t, n * sizeof(double));
    runstats_sort(x->s, n);
}

static void drop(series *x)
{
    free(x->t);
    free(x->s);
}

/* Requirements 4, 6: a window whose p99 tripled is a lift; the same
 * process is not, and a short baseline is not judged (it says what it
 * would need). */
static void block_should_see_a_sustained_shift_and_say_what_it_needs(void)
{
    series a, b, b0, s;
    cow_blocktest t;
    cow_group ga, gb, gb0, gs;

    make(&a, 10000, 11, 10000, 1.0);
    make(&b, 2000, 12, 0, 3.0);
    make(&b0, 2000, 13, 2000, 1.0);
    make(&s, 1500, 14, 1500, 1.0);
    ga = (cow_group){a.t, a.s, a.n};
    gb = (cow_group){b.t, b.s, b.n};
    gb0 = (cow_group){b0.t, b0.s, b0.n};
    gs = (cow_group){s.t, s.s, s.n};

    block_test(&ga, &gb, 0.99, 0.0, 1.0, &t);
    CHECK(t.ran);
    CHECK_INT((long long)t.len, 250);     /* Requirement 2: COW_BLOCK_MIN_LEN */
    CHECK_INT((long long)t.blocks, 40);
    CHECK(t.p_up < 1e-6 && t.above_all);  /* about 11% beyond the p99, not 1% */
    CHECK(t.k_b > 150);

    block_test(&ga, &gb0, 0.99, 0.0, 1.0, &t);
    CHECK(t.ran);
    CHECK(t.p_up > 0.025 || !t.above_all);
    CHECK(t.p_down > 0.025 || !t.below_all);

    block_test(&gs, &gb, 0.99, 0.0, 1.0, &t);
    CHECK(!t.ran);                        /* 1,500: 6 blocks of 250 */
    CHECK_INT((long long)t.need_n, 5000);

    /* Requirement 5: the bound is below the delta and still rejects */
    {
        double d = pct_quantile(b.s, b.n, 0.99, COW_PCT_LINEAR) -
                   pct_quantile(a.s, a.n, 0.99, COW_PCT_LINEAR);
        double lo = block_bound(&ga, &gb, 0.99, 1.0, 0.0, d, 0.025);
        CHECK(lo > 0 && lo < d);
        block_test(&ga, &gb, 0.99, lo, 1.0, &t);
        CHECK(t.p_up <= 0.025 && t.above_all);
    }
    drop(&a); drop(&b); drop(&b0); drop(&s);
}

/* Requirement 3: the variance never reads below the binomial one, and
 * clustering raises it: the same exceedances in runs of 20 */
static void block_variance_should_grow_with_clustering(void)
{
    enum { N = 20000 };
    double *t = malloc(N * sizeof(double)), *s = malloc(N * sizeof(double));
    double *w = malloc(2000 * sizeof(double)), *ws = malloc(2000 * sizeof(double));
    cow_blocktest spread, runs;
    cow_group ga, gw;
    size_t i;

    for (i = 0; i < N; i++) /* one in a hundred beyond, spread evenly */
        t[i] = i % 100 == 0 ? 10.0 + (double)(i % 7) : 1.0 + (double)(i % 13) / 100.0;
    for (i = 0; i < 2000; i++)
        w[i] = 1.0;
    memcpy(ws, w, 2000 * sizeof(double));
    memcpy(s, t, N * sizeof(double));
    runstats_sort(s, N);
    ga = (cow_group){t, s, N};
    gw = (cow_group){w, ws, 2000};
    block_test(&ga, &gw, 0.99, 0.0, 1.0, &spread);
    CHECK(spread.ran);
    CHECK_NEAR(spread.lrv, 1.0, 1e-12);   /* evenly spread: below binomial, floored */
    for (i = 0; i < N; i++) /* the same count, in runs of 20 every 2,000 */
        t[i] = (i % 2000) < 20 ? 10.0 + (double)(i % 7) : 1.0 + (double)(i % 13) / 100.0;
    memcpy(s, t, N * sizeof(double));
    runstats_sort(s, N);
    block_test(&ga, &gw, 0.99, 0.0, 20.0, &runs);
    CHECK(runs.ran && runs.lrv > 5.0); /* runs of 20: about 20x */
    free(t); free(s); free(w); free(ws);
}

/* Requirements 4 and 6: one busy spell inside the window (50 probes 20
 * times slower in 5,000, a baseline of 10,000 that held none) is not a
 * sustained shift: without its busiest stretch of L the window is the
 * baseline's (on the whole window alone the rule called it a lift, z
 * about 8); a baseline as long as the window is not judged. */
static void block_should_not_call_one_busy_spell_a_shift(void)
{
    series a, b;
    cow_blocktest t;
    cow_group ga, gb;
    size_t i;

    make(&a, 10000, 21, 10000, 1.0);
    make(&b, 5000, 22, 5000, 1.0);
    for (i = 2400; i < 2450; i++)
        b.t[i] *= 20;
    memcpy(b.s, b.t, b.n * sizeof(double));
    runstats_sort(b.s, b.n);
    ga = (cow_group){a.t, a.s, a.n};
    gb = (cow_group){b.t, b.s, b.n};
    block_test(&ga, &gb, 0.99, 0.0, 1.0, &t);
    CHECK(t.ran);
    CHECK(t.k_b > 90);                    /* about 2% beyond the p99, not 1% */
    CHECK(t.z > 3.0);                     /* the whole window: a lift, z about 8 */
    CHECK(t.worst_k >= 50 && t.z_out < 2.0); /* without its busiest stretch: none */
    CHECK(t.p_up > 0.025);
    ga.n = 5000;                          /* one stretch as long as the window */
    ga.sorted = a.s;
    memcpy(a.s, a.t, 5000 * sizeof(double));
    runstats_sort(a.s, 5000);
    block_test(&ga, &gb, 0.99, 0.0, 1.0, &t);
    CHECK(!t.ran);
    CHECK_INT((long long)t.need_n, 10000);
    drop(&a);
    drop(&b);
}

/* Requirement 7: a baseline of real Redis's shape (30 s at 2 ms, busy
 * spells of 600 probes, one in ten slow, too long for 20 blocks) against a 7.5 s save
 * whose slow samples fill the window is read against its own stretches
 * of 3,750 and lifts; one busy spell of 300 probes in a window, shorter
 * than its busiest tenth, does not. */
static void stretch_should_lift_a_real_save_but_not_one_spell(void)
{
    series a, b, c;
    cow_blocktest t;
    cow_group ga, gb, gc;
    size_t i;

    make(&a, 15000, 31, 15000, 1.0);
    for (i = 3000; i < 15000; i += 6000) { /* a spell: 600 probes, every 10th slow */
        size_t k;
        for (k = 0; k < 600; k += 10)
            a.t[i + k] *= 20;
    }
    memcpy(a.s, a.t, a.n * sizeof(double));
    runstats_sort(a.s, a.n);
    make(&b, 3750, 32, 0, 6.0); /* the save: p99 x 6 throughout */
    make(&c, 3750, 33, 3750, 1.0);
    for (i = 1000; i < 1300; i++) /* one spell of 300 slow probes */
        c.t[i] *= 20;
    memcpy(c.s, c.t, c.n * sizeof(double));
    runstats_sort(c.s, c.n);
    ga = (cow_group){a.t, a.s, a.n};
    gb = (cow_group){b.t, b.s, b.n};
    gc = (cow_group){c.t, c.s, c.n};
    block_test(&ga, &gb, 0.99, 0.0, 10.0, &t);
    CHECK(t.ran);
    CHECK_INT(t.route, COW_BLOCK_ROUTE_STRETCH);
    CHECK(t.need_n > a.n);           /* the blocks would need more */
    CHECK_INT((long long)t.blocks, 4);
    CHECK_INT((long long)t.out_len, 591); /* the baseline's longest spell */
    CHECK(t.p_up <= 0.025 && t.above_all);
    block_test(&ga, &gc, 0.99, 0.0, 10.0, &t);
    CHECK(t.ran);
    CHECK(t.z > 2.0);                /* the whole window stands out */
    CHECK(t.p_up > 0.025);           /* but not without its busiest 600 */
    ga.n = 10000;                    /* fewer than 3 stretches: not run */
    memcpy(a.s, a.t, 10000 * sizeof(double));
    runstats_sort(a.s, 10000);
    block_test(&ga, &gb, 0.99, 0.0, 10.0, &t);
    CHECK(!t.ran);
    drop(&a);
    drop(&b);
    drop(&c);
}

int main(void)
{
    RUN(block_should_see_a_sustained_shift_and_say_what_it_needs);
    RUN(block_should_not_call_one_busy_spell_a_shift);
    RUN(block_variance_should_grow_with_clustering);
    RUN(stretch_should_lift_a_real_save_but_not_one_spell);
    return REPORT();
}
