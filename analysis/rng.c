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
 *   5. Bad shapes (<= 0, NaN, inf) return NaN rather than looping.
 *   6. Normal / exponential: the ziggurat method, exact (rejection from
 *      strips of equal area, the tail by Marsaglia's exact method), one
 *      64-bit draw and no log for ~99% of values. Its tables are constants
 *      computed once (pthread_once), the only state outside cow_rng. */
#include "rng.h"

#include <math.h>
#include <pthread.h>

#define ZN_NORM 128 /* strips of the normal's ziggurat (a power of 2) */
#define ZN_EXP 256  /* strips of the exponential's */
#define ZN_MAX 256

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

/* ---------- ziggurat tables (Requirement 6) ---------- */

/* Marsaglia & Tsang, "The ziggurat method for generating random
 * variables", J. Stat. Software 5(8), 2000: the area under the density
 * f (unnormalised) is cut into ZN strips of one area v, strip 0 being
 * the base [0, r] x [0, f(r)] plus the tail beyond r. x[i] is the right
 * edge of strip i (x[0] = v / f(r), the base's width as a rectangle),
 * y[i] = f(x[i]); strip i >= 1 spans heights y[i] to y[i+1], and
 * x[ZN] = 0, y[ZN] = f(0) = 1 close the stack. r is solved here (not
 * copied from the paper's 10 digits) so that the top strip's area is v to
 * the last bits: every strip then has the same area and the draw is exact. */
typedef struct zig {
    double x[ZN_MAX + 1];
    double y[ZN_MAX + 1];
} zig;

static zig zig_norm, zig_exp;
static pthread_once_t zig_once = PTHREAD_ONCE_INIT;

static double f_norm(double x) { return exp(-0.5 * x * x); }
static double finv_norm(double y) { return sqrt(-2.0 * log(y)); }
static double tail_norm(double r) { return sqrt(M_PI / 2.0) * erfc(r / M_SQRT2); }
static double f_exp(double x) { return exp(-x); }
static double finv_exp(double y) { return -log(y); }
static double tail_exp(double r) { return exp(-r); }

/* Build the strips for tail start r; the top strip's area minus v, or
 * +-INFINITY when the stack closes too early (r too small: v too big). */
static double zig_build(zig *z, int n, double r, double (*f)(double),
                        double (*finv)(double), double (*tail)(double))
{
    double v = r * f(r) + tail(r);
    int i;

    z->x[0] = v / f(r);
    z->x[1] = r;
    for (i = 1; i < n - 1; i++) {
        double y = f(z->x[i]) + v / z->x[i];
        if (y >= 1.0)
            return -INFINITY;
        z->x[i + 1] = finv(y);
    }
    z->x[n] = 0.0;
    for (i = 0; i <= n; i++)
        z->y[i] = i == 0 ? 0.0 : f(z->x[i]);
    return z->x[n - 1] * (1.0 - f(z->x[n - 1])) - v;
}

static void zig_solve(zig *z, int n, double lo, double hi, double (*f)(double),
                      double (*finv)(double), double (*tail)(double))
{
    int i;
    /* a larger r gives a smaller v: the stack closes higher up */
    for (i = 0; i < 200 && lo < hi; i++) {
        double mid = 0.5 * (lo + hi), g = zig_build(z, n, mid, f, finv, tail);
        if (mid == lo || mid == hi)
            break;
        if (g < 0.0)
            lo = mid; /* stack closed early or top strip short: v too big */
        else
            hi = mid;
    }
    (void)zig_build(z, n, hi, f, finv, tail);
}

static void zig_init(void)
{
    zig_solve(&zig_norm, ZN_NORM, 3.0, 4.0, f_norm, finv_norm, tail_norm);
    zig_solve(&zig_exp, ZN_EXP, 7.0, 8.0, f_exp, finv_exp, tail_exp);
}

static double zig_error1(const zig *z, int n, double (*f)(double), double (*tail)(double))
{
    double r = z->x[1], v = z->x[0] * f(r), worst;
    int i;

    worst = fabs((r * f(r) + tail(r)) / v - 1.0); /* the base and its tail */
    for (i = 1; i < n; i++)
        worst = fmax(worst, fabs(z->x[i] * (z->y[i + 1] - z->y[i]) / v - 1.0));
    return worst;
}

double rng_zig_error(void)
{
    pthread_once(&zig_once, zig_init);
    return fmax(zig_error1(&zig_norm, ZN_NORM, f_norm, tail_norm),
                zig_error1(&zig_exp, ZN_EXP, f_exp, tail_exp));
}

/* ---------- continuous distributions ---------- */

double rng_normal(cow_rng *r)
{
    const zig *z = &zig_norm;

    pthread_once(&zig_once, zig_init);
    for (;;) {
        uint64_t b = rng_next(r);
        int i = (int)(b & (ZN_NORM - 1));       /* bits 0-6: the strip */
        double sign = (b & ZN_NORM) ? -1.0 : 1.0; /* bit 7 */
        /* bits 11-63: the position, independent of the strip and sign */
        double x = ((double)(b >> 11) + 0.5) * 0x1.0p-53 * z->x[i];

        if (x < z->x[i + 1]) /* under the curve: ~99% of draws */
            return sign * x;
        if (i == 0) { /* the tail beyond r (Marsaglia 1964) */
            double a, t;
            do {
                a = -log(rng_uniform(r)) / z->x[1];
                t = -log(rng_uniform(r));
            } while (t + t < a * a);
            return sign * (z->x[1] + a);
        }
        if (z->y[i] + rng_uniform(r) * (z->y[i + 1] - z->y[i]) < f_norm(x))
            return sign * x; /* in the wedge, under the curve */
    }
}

double rng_exp(cow_rng *r)
{
    const zig *z = &zig_exp;

    pthread_once(&zig_once, zig_init);
    for (;;) {
        uint64_t b = rng_next(r);
        int i = (int)(b & (ZN_EXP - 1));        /* bits 0-7: the strip */
        double x = ((double)(b >> 11) + 0.5) * 0x1.0p-53 * z->x[i];

        if (x < z->x[i + 1])
            return x;
        if (i == 0) /* memoryless: the tail beyond r is r + Exp(1) */
            return z->x[1] - log(rng_uniform(r));
        if (z->y[i] + rng_uniform(r) * (z->y[i + 1] - z->y[i]) < f_exp(x))
            return x;
    }
}

static int bad_shape(double a)
{
    return !(a > 0.0) || isinf(a); /* Requirement 5: NaN fails a > 0 */
}

/* A Gamma(a) draw for a >= 1 (Marsaglia & Tsang, "A simple method for
 * generating gamma variables", ACM TOMS 26(3), 2000), with its constants
 * d = a - 1/3 and c = 1 / sqrt(9 d) given. */
static double gamma_mt_dc(cow_rng *r, double d, double c)
{
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

static double gamma_mt(cow_rng *r, double a)
{
    double d = a - 1.0 / 3.0;
    return gamma_mt_dc(r, d, 1.0 / sqrt(9.0 * d));
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

void rng_beta_init(cow_beta *p, double a, double b)
{
    p->a = a;
    p->b = b;
    p->fast = !bad_shape(a) && !bad_shape(b) && a >= 1.0 && b >= 1.0;
    p->da = a - 1.0 / 3.0;
    p->db = b - 1.0 / 3.0;
    p->ca = p->fast ? 1.0 / sqrt(9.0 * p->da) : 0.0;
    p->cb = p->fast ? 1.0 / sqrt(9.0 * p->db) : 0.0;
}

double rng_beta_draw(cow_rng *r, const cow_beta *p)
{
    if (p->fast) { /* rng_beta's draw, its constants computed once */
        double x = gamma_mt_dc(r, p->da, p->ca);
        double y = gamma_mt_dc(r, p->db, p->cb);
        return x / (x + y);
    }
    return rng_beta(r, p->a, p->b);
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
