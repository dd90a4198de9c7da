/* rng.h -- a small seedable PRNG and the distributions analysis needs.
 *
 *     cow_rng r;
 *     rng_seed(&r, seed, 0);                  stream 0 of this seed
 *     double u = rng_uniform(&r);             in (0,1), never 0 or 1
 *     double b = rng_beta(&r, k, n - k + 1);  k-th smallest of n uniforms
 *
 * The generator is xoshiro256** (Blackman & Vigna) with its state filled
 * by splitmix64, as its authors recommend. The state lives in the caller's
 * struct: there is no global RNG, no clock, no hidden seed. For a given
 * seed every function here is bit-for-bit reproducible on one machine and
 * libm. Across machines the integer and uniform outputs are identical;
 * the real-valued ones (normal, gamma, beta) use log, exp and expm1,
 * which C does not require to be correctly rounded, so another libm (or
 * another code path of one, e.g. with FMA) may differ in a last bit on
 * rare draws, and a rejection step may then take another turn.
 *
 * Nothing here allocates, fails or prints. */
#ifndef COW_ANALYSIS_RNG_H
#define COW_ANALYSIS_RNG_H

#include <stdint.h>

typedef struct cow_rng {
    uint64_t s[4]; /* xoshiro256** state; never all zero */
} cow_rng;

/* Seed r from (seed, stream). Different streams of one seed give
 * sequences that do not overlap in practice (the states are splitmix64
 * outputs of different inputs, spread over a 2^256 period). */
void rng_seed(cow_rng *r, uint64_t seed, uint64_t stream);

/* Next raw 64 bits. */
uint64_t rng_next(cow_rng *r);

/* Uniform integer in [0, n) without modulo bias; n == 0 returns 0. */
uint64_t rng_below(cow_rng *r, uint64_t n);

/* Uniform double in the open interval (0,1): (k + 0.5) / 2^53 for a
 * uniform 53-bit k, so log(u) and 1/u are always finite. */
double rng_uniform(cow_rng *r);

/* Standard normal, by the ziggurat method (exact; one 64-bit draw for
 * about 99% of values: bits 0-6 pick the strip, bit 7 the sign, bits 11-63
 * the position). */
double rng_normal(cow_rng *r);

/* Exponential(1), by the ziggurat method (exact; same bit use, 8 strip
 * bits, no sign). */
double rng_exp(cow_rng *r);

/* Self-check of the ziggurat tables, for tests: the largest relative
 * difference between a strip's area (the base: its rectangle plus the
 * exact tail) and the strips' common area. */
double rng_zig_error(void);

/* Gamma(shape, 1) for real shape > 0 (Marsaglia & Tsang 2000; shape < 1
 * through the boost Gamma(shape+1) * U^(1/shape)). The expected number of
 * loop turns is below 1.05 for every shape, so a draw is O(1) however
 * large the shape. shape <= 0 or NaN returns NaN. */
double rng_gamma(cow_rng *r, double shape);

/* log of a Gamma(shape, 1) draw; stays finite for tiny shapes where the
 * draw itself underflows to 0. Same stream use as rng_gamma. */
double rng_log_gamma(cow_rng *r, double shape);

/* Beta(a, b) for real a, b > 0, as X / (X + Y) with X ~ Gamma(a),
 * Y ~ Gamma(b) (computed in log space, so tiny shapes do not give 0/0).
 * O(1) per draw for any shapes. Bad shapes return NaN. */
double rng_beta(cow_rng *r, double a, double b);

/* Beta(a, b) for many draws of one (a, b): rng_beta_draw gives what
 * rng_beta(r, a, b) gives, bit for bit and from the same stream use, with
 * the constants of its gamma draws computed once by rng_beta_init. */
typedef struct cow_beta {
    double a, b;       /* the shapes */
    double da, ca;     /* Marsaglia-Tsang d and c of a */
    double db, cb;     /* and of b */
    int fast;          /* a, b >= 1: the plain ratio of gammas */
} cow_beta;
void rng_beta_init(cow_beta *p, double a, double b);
double rng_beta_draw(cow_rng *r, const cow_beta *p);

#endif
