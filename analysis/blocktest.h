/* blocktest.h -- is this stretch of time unlike the baseline's own
 * stretches? A sustained tail shift (a save's copy-on-write slowing every
 * request for seconds) against the baseline's own blocks.
 *
 *     cow_blocktest t;
 *     block_test(&base, &win, 0.99, 0.0, dep_a.run, &t);
 *     if (t.ran && t.p_up <= 0.025) ... the window's p99 rose
 *     else if (!t.ran) ... t.need_n baseline samples would be needed
 *
 * The statistic is the share of the window's samples beyond the
 * baseline's own q-quantile u (the window's q-quantile is above u exactly
 * when that share is above 1 - q). Its spread under "nothing changed" is
 * read from the baseline alone, by subsampling (Politis and Romano 1994;
 * overlapping batch means, Meketon and Schmeiser 1984): the share beyond
 * u in every overlapping block of L consecutive baseline samples. The
 * window's own clustering (one long slowdown) is the change under test,
 * never its variance: that is what lets one save be shown to lift the
 * tail, where the pooled cluster-count test (dep.h) sees one cluster.
 * A baseline too short for the blocks but three windows long or more is
 * read by its own stretches as long as the window (route
 * COW_BLOCK_ROUTE_STRETCH, blocktest.c Requirement 7).
 * Pure; allocates only scratch. */
#ifndef COW_ANALYSIS_BLOCKTEST_H
#define COW_ANALYSIS_BLOCKTEST_H

#include <stddef.h>

#include "dep.h"

/* Disjoint blocks of L the baseline must hold (the t reference has
 * COW_BLOCK_MIN - 1 degrees of freedom). */
#define COW_BLOCK_MIN 20
/* L is at least this many samples, COW_BLOCK_RUNS times the baseline's
 * run length (dep.h cow_clusters.run: gaps longer than it separate
 * clusters) and its clusters' mean span, COW_BLOCK_MAX_SPANS times the
 * longest span, and long enough that a block expects COW_BLOCK_MIN_PER
 * samples beyond u (blocktest.c Requirement 2). */
#define COW_BLOCK_MIN_LEN 250
#define COW_BLOCK_RUNS 20.0
#define COW_BLOCK_MIN_PER 0.5
#define COW_BLOCK_MAX_SPANS 5.0
/* Samples beyond u the baseline must hold, and the window must expect. */
#define COW_BLOCK_MIN_K 10
#define COW_BLOCK_MIN_CLUSTERS 10
#define COW_BLOCK_MIN_WIN 5.0
/* Disjoint stretches as long as the window the baseline must hold, for
 * the guard (blocktest.c Requirement 6). */
#define COW_BLOCK_STRETCHES 2
/* The stretch route (blocktest.c Requirement 7) needs a window that
 * expects this many values beyond u. */
#define COW_STRETCH_MIN_WIN 1.0
/* and a baseline of this many stretches as long as the window */
#define COW_STRETCH_MIN 3
/* its lift must hold without the window's busiest 1 / COW_STRETCH_OUT too */
#define COW_STRETCH_OUT 10.0

/* How the rule ran (blocktest.c Requirements 2, 7). */
enum cow_block_route {
    COW_BLOCK_ROUTE_BLOCKS = 0, /* blocks of L, COW_BLOCK_MIN or more of them */
    COW_BLOCK_ROUTE_STRETCH = 1 /* the baseline too short for them: its own
                                   stretches as long as the window */
};

typedef struct cow_blocktest {
    int ran;            /* 1: p_up / p_down decided; 0: the baseline or the
                           window is too short (need_n, need_nb say for what) */
    int route;          /* enum cow_block_route, when ran */
    double q;
    double threshold;   /* u: the baseline's q-quantile (linear), us */
    size_t na, nb;
    size_t k_a, k_b;    /* baseline beyond u; window beyond u + shift */
    size_t clusters;    /* the baseline's clusters beyond u */
    size_t len;         /* L, samples */
    size_t blocks;      /* disjoint blocks of L in the baseline: na / L */
    size_t need_n;      /* baseline samples the rule needs: COW_BLOCK_MIN L */
    size_t need_nb;     /* window samples the rule needs */
    double block_hi;    /* the largest share beyond u in any baseline block */
    double span_hi, span_lo; /* the largest and smallest share beyond u over
                           the baseline's stretches as long as the window */
    int above_all, below_all; /* the window's share beyond u + shift is above
                           span_hi / below span_lo */
    double lrv;         /* the share's variance over the binomial one, >= 1 */
    double worst_k;     /* the window's count beyond u + shift in its busiest
                           stretch of out_len (blocktest.c Requirement 4) */
    size_t out_len;     /* that stretch: L, or on the stretch route the
                           baseline's longest busy spell (Requirement 7) */
    double c_max;       /* the most values beyond u in one baseline cluster */
    double df;          /* the t reference's degrees of freedom */
    double z_out;       /* z without that stretch */
    double z;           /* (share_b - share_a) / its standard error */
    double p_up, p_down;/* one-sided, t with blocks - 1 degrees of freedom */
} cow_blocktest;

/* The rule at level q (a lift also needs the window's share above every
 * stretch of the baseline as long as the window, a drop below every one:
 * span_hi, span_lo; Requirement 6 of blocktest.c): shift (us) is added to u for the window (H0: the
 * window is the baseline moved by shift); run is the baseline's run length
 * at q (dep_n_eff's). q < 0.5 or empty groups: ran 0 with need_n 0. */
void block_test(const cow_group *a, const cow_group *b, double q, double shift,
                double run, cow_blocktest *out);

/* The largest s in [lo, hi] at which p_up(s) <= alpha and above_all still hold (the
 * caller has lo rejecting): the lift's one-sided bound. */
double block_bound(const cow_group *a, const cow_group *b, double q, double run,
                   double lo, double hi, double alpha);

#endif
