/* rng.c -- xoshiro256** plus uniform, normal, gamma and beta variates.
 *
 * Requirements (cited in the code as "Requirement N"):
 *   1. Seed: the only source of randomness is the caller's cow_rng, filled
 *      from (seed, stream) by splitmix64. No clock, no global state.
 *   2. Reproducibility: one seed gives one sequence, bit for bit, for every
 *      function (see rng.h for the libm caveat on real-valued draws).
 *   3. Uniform: rng_uniform() is in the open interval (0,1), so callers may
 *      take log(u) or 1/u without checking.
 *   4. Gamma / Beta: exact samplers for real shapes (not approximations),
 *      O(1) expected work per draw for any shape, large shapes included:
 *      the bootstrap draws Beta(k, n-k+1) with k up to n = 10^7.
 *   5. Bad shapes (<= 0, NaN, inf) return NaN rather than looping. */
#include "rng.h"

#include <math.h>

/* ---------- generator ---------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void rng_seed(cow_rng *r, uint64_t seed, uint64_t stream)
{
    /* Requirement 1: mix the stream number in first so that (s, 1) is not
     * (s + 1, 0) shifted by one splitmix step. */
    uint64_t x = seed;
    uint64_t mix = stream;
    int i;

    x ^= splitmix64(&mix);
    for (i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1; /* the all-zero state is a fixed point */
}

/* Requirement 2: integer arithmetic only, identical everywhere. */
uint64_t rng_next(cow_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

uint64_t rng_below(cow_rng *r, uint64_t n)
{
    if (n == 0)
        return 0;
#if defined(__SIZEOF_INT128__)
    {
        /* Lemire, "Fast random integer generation in an interval" (2019):
         * the high word of x * n, redrawing the few x whose low word falls
         * below 2^64 mod n. Unbiased, and a division only on the rare
         * redraw path; the oracle draws n of these per replicate. */
        __extension__ typedef unsigned __int128 u128;
        u128 m = (u128)rng_next(r) * n;
        uint64_t low = (uint64_t)m;
        if (low < n) {
            uint64_t floor_ok = (0 - n) % n;
            while (low < floor_ok) {
                m = (u128)rng_next(r) * n;
                low = (uint64_t)m;
            }
        }
        return (uint64_t)(m >> 64);
    }
#else
    {
        /* Rejection on the bottom of the range: values below 2^64 mod n
         * are redrawn, so every residue is equally likely. */
        uint64_t floor_ok = (0 - n) % n, x;
        do {
            x = rng_next(r);
        } while (x < floor_ok);
        return x % n;
    }
#endif
}

double rng_uniform(cow_rng *r)
{
    /* Requirement 3: midpoints of 2^53 equal cells, never 0, never 1. */
    return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

/* ---------- continuous distributions ---------- */

double rng_normal(cow_rng *r)
{
    double u, v, s;

    do {
        u = 2.0 * rng_uniform(r) - 1.0;
        v = 2.0 * rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * sqrt(-2.0 * log(s) / s);
}

static int bad_shape(double a)
{
    return !(a > 0.0) || isinf(a); /* Requirement 5: NaN fails a > 0 */
}

/* A Gamma(a) draw for a >= 1 (Marsaglia & Tsang, "A simple method for
 * generating gamma variables", ACM TOMS 26(3), 2000). */
static double gamma_mt(cow_rng *r, double a)
{
    double d = a - 1.0 / 3.0;
    double c = 1.0 / sqrt(9.0 * d);

    for (;;) {
        double x, v, u;
        do {
            x = rng_normal(r);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        u = rng_uniform(r);
        /* squeeze first: it accepts ~98% without a log */
        if (u < 1.0 - 0.0331 * (x * x) * (x * x))
            return d * v;
        if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
            return d * v;
    }
}

double rng_log_gamma(cow_rng *r, double shape)
{
    if (bad_shape(shape))
        return NAN;
    if (shape >= 1.0)
        return log(gamma_mt(r, shape));
    /* Requirement 4: Gamma(a) = Gamma(a+1) * U^(1/a) (Marsaglia & Tsang
     * sec. 6); in logs so that U^(1/a) cannot underflow for tiny a. */
    {
        double lg = log(gamma_mt(r, shape + 1.0));
        return lg + log(rng_uniform(r)) / shape;
    }
}

double rng_gamma(cow_rng *r, double shape)
{
    if (bad_shape(shape))
        return NAN;
    if (shape >= 1.0)
        return gamma_mt(r, shape);
    return exp(rng_log_gamma(r, shape));
}

double rng_beta(cow_rng *r, double a, double b)
{
    double lx, ly;

    if (bad_shape(a) || bad_shape(b))
        return NAN;
    /* Requirement 4: X/(X+Y) with independent gammas is Beta(a,b) exactly.
     * In logs, X/(X+Y) = 1/(1 + exp(ly - lx)), which is 0 or 1 only
     * when the true value rounds there, never 0/0. */
    if (a >= 1.0 && b >= 1.0) {
        /* both draws are >= tiny and finite: the plain ratio is exact
         * enough and saves two logs and an exp per draw */
        double x = gamma_mt(r, a);
        double y = gamma_mt(r, b);
        return x / (x + y);
    }
    lx = rng_log_gamma(r, a);
    ly = rng_log_gamma(r, b);
    return 1.0 / (1.0 + exp(ly - lx));
}
